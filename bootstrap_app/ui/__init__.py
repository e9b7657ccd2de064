"""The Streamlit onboarding wizard (``memseed app``): a thin shell over the library.

``app.py`` is the entry point Streamlit runs; ``views/`` holds one script per page; the
non-Streamlit helpers (background scans, uploads, harness discovery) live in ``jobs.py`` and
``local.py`` so they can be tested without a browser.
"""

from __future__ import annotations

import secrets
from pathlib import Path

__all__ = ["APP_FILE", "DEMO_ENV", "DEMO_PROJECT_ENV", "DEMO_ROOT_ENV", "TOKEN_ENV", "new_token"]

APP_FILE = Path(__file__).resolve().parent / "app.py"
"""The script ``memseed app`` hands to ``streamlit run``."""

DEMO_ENV = "MEMSEED_APP_DEMO"
"""Set to ``1`` by ``memseed app --demo``: the app labels itself as a demo."""
DEMO_ROOT_ENV = "MEMSEED_DEMO_ROOT"
"""The throwaway folder of the demo (shown in the sidebar)."""
DEMO_PROJECT_ENV = "MEMSEED_DEMO_PROJECT"
"""The demo repository the Write page proposes as the project folder."""
TOKEN_ENV = "MEMSEED_APP_TOKEN"
"""The launch token ``memseed app`` hands the app (see ``launch_token``); set it before
``memseed app`` to choose the token yourself (as ``JUPYTER_TOKEN`` does), e.g. for scripts."""


def new_token() -> str:
    """A fresh random launch token (256 bits, URL-safe): one per ``memseed app``."""
    return secrets.token_urlsafe(32)
