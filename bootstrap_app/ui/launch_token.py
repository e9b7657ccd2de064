"""The launch token: only the browser ``memseed app`` opened may see or use the wizard.

Why a token when the app binds to 127.0.0.1: every local account and process can reach a
loopback port, and the wizard shows proposals built from the person's mail and holds the buttons
that write into their agents' memory. So, as Jupyter does, ``memseed app`` makes a random token
per launch (:func:`bootstrap_app.ui.new_token`), hands it to the app in :data:`TOKEN_ENV`, and opens the browser
on ``?token=…``. :func:`require_token` runs first on every script run: a session that did not
present the token gets a notice and :func:`streamlit.stop` before any page, widget or callback
exists, so it sees no data and can trigger no action (Streamlit only runs callbacks of widgets
the session's own earlier runs created). A session that presented it once keeps it in its
session state, so moving between pages works. A reload is a new session: it needs the link
again (writing the token back into the address after each page switch made Streamlit re-render
widgets mid-click, so it is not done). An app started without a token (``streamlit run`` by
hand) refuses everyone.
"""

from __future__ import annotations

import os
import secrets

import streamlit as st

from bootstrap_app.ui import TOKEN_ENV

__all__ = ["require_token", "token_matches"]

_ADMITTED = "_memseed_launch_token_ok"


def token_matches(given: str, expected: str) -> bool:
    """Constant-time comparison; an empty expected token matches nothing."""
    return bool(expected) and secrets.compare_digest(given.encode("utf-8"), expected.encode("utf-8"))


def require_token() -> None:
    """Stop this script run unless the session presented the launch token (see the module docstring)."""
    expected = os.environ.get(TOKEN_ENV, "")
    given = st.query_params.get("token", "")
    if st.session_state.get(_ADMITTED) == expected and expected:
        return
    if token_matches(str(given), expected):
        st.session_state[_ADMITTED] = expected
        return
    st.title("memseed")
    if not expected:
        st.error("This wizard was started without a launch token, so it shows nothing. "
                 "Start it with `memseed app`.")
    else:
        st.error("This page needs the link `memseed app` printed when it started (it ends in `?token=…`). "
                 "Open that link; nothing is shown or changed without it.")
    st.stop()
