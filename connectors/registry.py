"""Stand-in for the lead's registry (replaced by main's on merge): the auth providers."""

from __future__ import annotations

from typing import Any

from connectors.google import auth as google_auth

__all__ = ["AUTH_PROVIDERS"]

AUTH_PROVIDERS: dict[str, Any] = {"google": google_auth}
