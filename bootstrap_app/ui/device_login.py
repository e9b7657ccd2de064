"""The Sources page's sign-in panel for logins with a device-code flow (Microsoft), never blocking.

Why not the page's generic blocking ``provider.login``: a device-code sign-in waits for the
person to type a code on another device, for minutes; a blocking call would freeze the app for
that long. A provider that offers ``start_login(home, **options)`` returning an object with
``message``, ``poll()`` (the account when done, ``None`` while pending) gets this panel instead:
it starts the flow, shows the URL and code, and asks once per poll — every few seconds through a
fragment, or on "Check now". All logic lives in the provider; this module only renders and keeps
the pending flow in the session.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import streamlit as st

from bootstrap_app.errors import MemseedError
from bootstrap_app.ui.common import get_settings, get_store, show_error
from connectors.registry import AUTH_PROVIDERS

__all__ = ["device_login", "has_device_login"]


def has_device_login(provider: Any) -> bool:
    return callable(getattr(provider, "start_login", None))


def _key(name: str) -> str:
    return f"device_login_{name}"


def _start(name: str, fields: Sequence[str]) -> None:
    options = {f: str(st.session_state.get(f"auth_{name}_{f}") or "").strip() for f in fields}
    try:
        st.session_state[_key(name)] = AUTH_PROVIDERS[name].start_login(  # type: ignore[attr-defined]
            get_settings().home, **{k: v for k, v in options.items() if v})
    except MemseedError as exc:
        st.session_state[f"{_key(name)}_error"] = exc


def _poll(name: str) -> None:
    pending: Any = st.session_state.get(_key(name))
    if pending is None:
        return
    try:
        account = pending.poll()
    except MemseedError as exc:
        st.session_state.pop(_key(name), None)
        st.session_state[f"{_key(name)}_error"] = exc
        return
    if account is not None:
        st.session_state.pop(_key(name), None)
        get_store().remember_source(f"{name}:")
        st.session_state["sources_msg"] = ("success", f"Connected {name.capitalize()} account {account}; "
                                                      f"added `{name}:` to your sources.")


def _cancel(name: str) -> None:
    st.session_state.pop(_key(name), None)


@st.fragment(run_every=5)
def _waiting(name: str) -> None:
    """Re-runs on its own every few seconds while a sign-in is pending: one poll per run."""
    if _key(name) not in st.session_state:
        return
    _poll(name)
    if _key(name) not in st.session_state:
        st.rerun()  # finished (or failed): redraw the whole page with the outcome


def device_login(name: str, fields: Sequence[str]) -> None:
    """The Connect button, or the pending sign-in (URL, code, Check now / Cancel)."""
    if (problem := st.session_state.pop(f"{_key(name)}_error", None)) is not None:
        show_error(problem)
    pending: Any = st.session_state.get(_key(name))
    if pending is None:
        st.button(f"Connect {name.capitalize()}", key=f"connect_{name}", type="primary",
                  on_click=_start, args=(name, tuple(fields)))
        return
    st.info(pending.message, icon=":material/key:")
    left, right = st.columns(2)
    left.button("Check now", key=f"poll_{name}", on_click=_poll, args=(name,))
    right.button("Cancel", key=f"cancel_{name}", on_click=_cancel, args=(name,))
    _waiting(name)
