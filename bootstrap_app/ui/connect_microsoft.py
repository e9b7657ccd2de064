"""The Sources page's **Connect Microsoft** panel: msal's device-code sign-in without blocking.

Why device code in the app too: the wizard may run on another machine (SSH port-forward), so
a redirect to localhost would not reach it. The panel starts the flow
(:func:`connectors.microsoft.auth.start_login`), shows the URL and code, and asks the identity
platform once per poll (:meth:`DeviceLogin.poll`) — every few seconds through a fragment, or on
the "Check now" button — so Streamlit never hangs in a blocking loop. All logic lives in the
library; this module only renders and stores the pending flow in the session.
"""

from __future__ import annotations

from typing import Any

import streamlit as st

from bootstrap_app.errors import MemseedError
from bootstrap_app.ui.common import get_settings, get_store, show_error

__all__ = ["connect_microsoft"]

_KEY = "ms_device_login"
_URI = "microsoft:"


def _start() -> None:
    from connectors.microsoft import auth

    try:
        st.session_state[_KEY] = auth.start_login(get_settings().home)
    except MemseedError as exc:
        st.session_state["ms_connect_error"] = exc


def _poll() -> None:
    pending: Any = st.session_state.get(_KEY)
    if pending is None:
        return
    try:
        account = pending.poll()
    except MemseedError as exc:
        st.session_state.pop(_KEY, None)
        st.session_state["ms_connect_error"] = exc
        return
    if account is not None:
        st.session_state.pop(_KEY, None)
        get_store().remember_source(_URI)
        st.session_state["sources_msg"] = ("success", f"Connected Microsoft account {account}; added `{_URI}` "
                                                      "(Outlook mail, calendar and OneDrive).")


def _cancel() -> None:
    st.session_state.pop(_KEY, None)


def _logout() -> None:
    from connectors.microsoft import auth

    auth.logout(get_settings().home)
    st.session_state["sources_msg"] = ("info", "Signed out of Microsoft; the tokens memseed kept are deleted.")


@st.fragment(run_every=5)
def _waiting() -> None:
    """Re-runs on its own every few seconds while a sign-in is pending: one poll per run."""
    pending: Any = st.session_state.get(_KEY)
    if pending is None:
        return
    _poll()
    if _KEY not in st.session_state:
        st.rerun()  # finished (or failed): redraw the whole page with the outcome


def connect_microsoft() -> None:
    """Render the panel: connected account, a pending sign-in, or the Connect button."""
    from connectors.microsoft import auth

    if (problem := st.session_state.pop("ms_connect_error", None)) is not None:
        show_error(problem)
    pending: Any = st.session_state.get(_KEY)
    if pending is not None:
        st.info(pending.message, icon=":material/key:")
        left, right = st.columns(2)
        left.button("Check now", key="ms_poll", on_click=_poll)
        right.button("Cancel", key="ms_cancel", on_click=_cancel)
        _waiting()
        return
    status = auth.status(get_settings().home)
    if status.ok:
        st.caption(f"Microsoft: signed in as **{status.account}** (read-only: {', '.join(status.scopes)}).")
        st.button("Sign out of Microsoft", key="ms_logout", on_click=_logout)
        return
    st.caption("Outlook mail, Outlook calendar and OneDrive, read-only, through Microsoft Graph. "
               "You sign in on any device with a short code.")
    st.button("Connect Microsoft", key="ms_connect", on_click=_start)
