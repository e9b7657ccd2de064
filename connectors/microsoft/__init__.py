"""Microsoft account sources: Outlook mail, Outlook calendar and OneDrive over Microsoft Graph.

``microsoft:[ACCOUNT]`` is the whole account: it resolves to the three sources, each with its
own cursor, so a failure in one (say, no OneDrive licence) never hides the others.
"""

from __future__ import annotations

from ..base import AccountComposite
from .calendar import OutlookCalendarSource
from .mail import OutlookMailSource
from .onedrive import OneDriveSource
from .source import GraphSource

__all__ = ["MicrosoftSource", "OneDriveSource", "OutlookCalendarSource", "OutlookMailSource"]


class MicrosoftSource(AccountComposite, GraphSource, kind="microsoft",
                      description="Microsoft account: Outlook mail + Outlook calendar + OneDrive",
                      cursor_doc="none: the three sources it expands to keep their own"):
    """``microsoft:`` — mail, calendar and OneDrive of one Microsoft account."""

    parts = (OutlookMailSource, OutlookCalendarSource, OneDriveSource)
