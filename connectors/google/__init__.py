"""Google account sources: ``gmail:``, ``google-calendar:``, ``google-drive:`` and ``google:``."""

from __future__ import annotations

from connectors import base as _base

from . import auth
from .account import GoogleAccountSource
from .calendar import GoogleCalendarSource
from .drive import GoogleDriveSource
from .gmail import GmailSource

__all__ = ["SOURCES", "GmailSource", "GoogleAccountSource", "GoogleCalendarSource", "GoogleDriveSource", "auth"]

SOURCES = (GoogleAccountSource, GmailSource, GoogleCalendarSource, GoogleDriveSource)

if hasattr(_base, "register_scheme"):  # until the explicit registry lands on main
    for _cls in SOURCES:
        for _scheme in _cls.uri_schemes:
            _base.register_scheme(_scheme, lambda rest, c=_cls, s=_scheme: c.from_uri(f"{s}:{rest}"))
