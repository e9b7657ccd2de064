"""``google:[ACCOUNT]`` — one Google account as its three sources: Gmail, Calendar and Drive.

Why a composite and not one source: each service has its own cursor (a Gmail ``historyId``,
a sync token per calendar, a Drive changes token) and its own failure (a missing Drive scope
must not cost the mail). ``from_uri`` hands the scan the three sources; each is scanned,
reported and remembered on its own.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import ClassVar

from bootstrap_app.errors import UnsupportedSource
from bootstrap_app.types import Item

from ..base import ReadContext, Source
from .calendar import GoogleCalendarSource
from .drive import GoogleDriveSource
from .gmail import GmailSource
from .source import GoogleSource

__all__ = ["GoogleAccountSource"]


class GoogleAccountSource(GoogleSource, kind="google",
                          description="Google account: Gmail, Calendar and Drive (`memseed auth google` first)",
                          uri_schemes=("google",),
                          uri_form="google:[ACCOUNT]",
                          cursor_doc="none: the three sources keep their own"):
    """Gmail + Google Calendar + Google Drive of one account."""

    parts: ClassVar[tuple[type[GoogleSource], ...]] = (GmailSource, GoogleCalendarSource, GoogleDriveSource)

    @classmethod
    def from_uri(cls, uri: str) -> list[Source]:
        account = cls(uri).account
        return [part(f"{part.uri_schemes[0]}:{account}") for part in cls.parts]

    def read(self, ctx: ReadContext) -> Iterator[Item]:
        raise UnsupportedSource(f"{self.id}: read through its parts",
                                hint="scan `google:`; the scan splits it into gmail:, google-calendar:, google-drive:")
