"""``google:[ACCOUNT]`` — one Google account as its three sources: Gmail, Calendar and Drive.

Each part keeps its own cursor and fails on its own (see :class:`~connectors.base.AccountComposite`).
"""

from __future__ import annotations

from ..base import AccountComposite
from .calendar import GoogleCalendarSource
from .drive import GoogleDriveSource
from .gmail import GmailSource
from .source import GoogleSource

__all__ = ["GoogleAccountSource"]


class GoogleAccountSource(AccountComposite, GoogleSource, kind="google",
                          description="Google account: Gmail, Calendar and Drive (`memseed auth google` first)",
                          cursor_doc="none: the three sources keep their own"):
    """Gmail + Google Calendar + Google Drive of one account."""

    parts = (GmailSource, GoogleCalendarSource, GoogleDriveSource)
