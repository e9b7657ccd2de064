"""Microsoft account sources: Outlook mail, Outlook calendar and OneDrive over Microsoft Graph.

``microsoft:[ACCOUNT]`` is the whole account: it resolves to the three sources, each with its
own cursor, so a failure in one (say, no OneDrive licence) never hides the others.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from typing import Any, ClassVar

from bootstrap_app.types import Item

from ..base import ReadContext, Source
from .calendar import OutlookCalendarSource
from .mail import OutlookMailSource
from .onedrive import OneDriveSource
from .source import GraphSource

__all__ = ["MicrosoftSource", "OneDriveSource", "OutlookCalendarSource", "OutlookMailSource"]


class MicrosoftSource(GraphSource, kind="microsoft",
                      description="Microsoft account: Outlook mail + Outlook calendar + OneDrive",
                      uri_schemes=("microsoft",),
                      uri_form="microsoft:[ACCOUNT]",
                      cursor_doc="none: the three sources it expands to keep their own"):
    """``microsoft:`` — mail, calendar and OneDrive of one Microsoft account."""

    PARTS: ClassVar[tuple[type[GraphSource], ...]] = (OutlookMailSource, OutlookCalendarSource, OneDriveSource)

    @classmethod
    def from_uri(cls, uri: str) -> list[Source]:
        account = uri.partition(":")[2].strip()
        parts = [part(f"{part.uri_schemes[0]}:{account}") for part in cls.PARTS]
        shared: dict[str, Any] = {}  # one /me read for the three (see GraphSource.account_cache)
        for part in parts:
            part.account_cache = shared
        return list(parts)

    def read(self, ctx: ReadContext) -> Iterator[Item]:
        """Only when a caller did not expand the URI: each part reads in full, no cursor kept."""
        for part in self.from_uri(self.location):
            yield from part.read(dataclasses.replace(ctx, cursor=None, new_cursor=None))
