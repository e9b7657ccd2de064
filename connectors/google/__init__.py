"""Google account sources: ``gmail:``, ``google-calendar:``, ``google-drive:`` and ``google:``.

Listed in :mod:`connectors.registry`; ``auth`` is the ``google`` login provider.
"""

from __future__ import annotations

from . import auth
from .account import GoogleAccountSource
from .calendar import GoogleCalendarSource
from .drive import GoogleDriveSource
from .gmail import GmailSource

__all__ = ["GmailSource", "GoogleAccountSource", "GoogleCalendarSource", "GoogleDriveSource", "auth"]
