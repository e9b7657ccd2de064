"""The launch token: only the browser ``memseed app`` opened may see or use the wizard.

Why a token when the app binds to 127.0.0.1: every local account and process can reach a
loopback port, and the wizard shows proposals built from the person's mail and holds the buttons
that write into their agents' memory. So, as Jupyter does, ``memseed app`` makes a random token
per launch (:func:`bootstrap_app.ui.new_token`), hands it to the app in :data:`TOKEN_ENV`, and opens the browser
on ``?token=…``. :func:`require_token` runs first on every script run: a session that presented
neither the token nor this launch's browser pass gets a notice and :func:`streamlit.stop` before
any page, widget or callback exists, so it sees no data and can trigger no action (Streamlit only
runs callbacks of widgets the session's own earlier runs created). An app started without a
token (``streamlit run`` by hand) refuses everyone.

Staying admitted across reloads. A session that presented the token keeps a pass in its session
state, so moving between pages works; but a reload, a bookmark of ``/review`` or a second tab is a
new session, and the address no longer holds the token (writing it back after each page switch
made Streamlit re-render widgets mid-click, so it is not done). So once admitted, the page also
stores a *browser pass* — HMAC-SHA256 of the launch token, :func:`browser_pass` — in the
browser's ``localStorage``, through a tiny inline component (``st.components.v2``, which runs in
the page itself, no iframe). A new session that is not admitted mounts the same component, which
hands back what the browser holds, at most once per page load; the server admits it when that
equals this launch's pass (constant-time compare), then opens the page its address asked for
(:func:`resume_page`). A new launch has a new token, so a pass kept from an earlier launch is
refused (a token fixed by hand in :data:`TOKEN_ENV` keeps its pass valid as long as it is used).
The browser answers at once, with an empty pass when it holds none; until it has answered the page
shows only :data:`WAITING` (a reload of an admitted page used to flash the "needs the link"
notice first), and the notice comes once the answer is in and is not this launch's pass. A
browser with storage switched off needs the link after each reload, as before.

Why ``localStorage`` and not a cookie: cookies are scoped by host, not by port, so a cookie set
by ``127.0.0.1:8501`` is sent to, and readable by script on, every other ``127.0.0.1`` port — any
local account's server the browser happens to visit would receive it (and a cookie set from
script cannot be HttpOnly). ``localStorage`` belongs to the origin, port included: only pages of
this app's own address read it. Other accounts cannot read this browser's profile; a process
that talks to the port directly has neither the token nor the pass (256 bits each), and a stolen
pass would admit only until the app stops. The pass is derived, not the token itself, so the
stored value never reveals the link.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import secrets
from collections.abc import Sequence

import streamlit as st
from streamlit.components.v2 import component
from streamlit.navigation.page import StreamlitPage

from bootstrap_app.ui import TOKEN_ENV

__all__ = ["PASS_KEY", "WAITING", "browser_pass", "require_token", "resume_page", "token_matches"]

_ADMITTED = "_memseed_launch_token_ok"
_RESUME = "_memseed_launch_resume_page"

PASS_KEY = "memseed-launch-pass"
"""The ``localStorage`` key the browser pass is kept under (one per app address; a new launch
overwrites it once its link is opened)."""

_PASS_JS = """
export default function (component) {
  const { data, setTriggerValue } = component;
  const KEY = "@KEY@";
  try {
    if (data && data.keep) {
      window.localStorage.setItem(KEY, data.keep);
      window.__memseedPassOffered = false;  // admitted: a later new session of this page may offer it again
      return;
    }
    // answer once per page load, "" when nothing is held: the page shows its notice only once the
    // browser has answered, and a refused pass must not make the page rerun in a loop
    if (!window.__memseedPassOffered) {
      window.__memseedPassOffered = true;
      let held = "";
      try {
        held = window.localStorage.getItem(KEY) || "";
      } catch (e) {
        // storage switched off in this browser: the link is then needed after each reload
      }
      // with the page asked for: this first run stopped before the pages existed, so it fell to the first
      setTriggerValue("held", { pass: held, path: window.location.pathname });
    }
  } catch (e) {
    // storage switched off in this browser: nothing kept, the link is needed after each reload
  }
}
""".replace("@KEY@", PASS_KEY)

_pass_component = component("memseed_launch_pass", js=_PASS_JS)


WAITING = ("Checking whether this browser was let in by this launch's link… If this stays, open the link "
           "`memseed app` printed when it started (it ends in `?token=…`).")
"""What a new session shows until the browser has said which pass it holds (a moment)."""


def token_matches(given: str, expected: str) -> bool:
    """Constant-time comparison; an empty expected token matches nothing."""
    return bool(expected) and secrets.compare_digest(given.encode("utf-8"), expected.encode("utf-8"))


def browser_pass(token: str) -> str:
    """What an admitted browser keeps for this launch: HMAC-SHA256 of the launch token (hex).
    Derived, so the stored value does not reveal the link; keyed by the token, so it dies with the
    launch. Empty for an empty token (which admits nobody)."""
    if not token:
        return ""
    return hmac.new(token.encode("utf-8"), b"memseed browser pass", hashlib.sha256).hexdigest()


def resume_page(pages: Sequence[StreamlitPage]) -> None:
    """After a browser pass admitted a reload or a bookmark: switch to the page its address asked
    for (the run that read the pass had stopped before the pages existed). Call it after
    :func:`streamlit.navigation`; the path only picks one of ``pages``, so a made-up one does nothing."""
    wanted = str(st.session_state.pop(_RESUME, "")).rstrip("/").rsplit("/", 1)[-1]
    target = next((page for page in pages if wanted and page.url_path == wanted), None)
    if target is not None:
        st.switch_page(target)


def _admit(expected: str) -> None:
    st.session_state[_ADMITTED] = expected


def require_token() -> None:
    """Stop this script run unless the session presented the launch token or this launch's browser
    pass (see the module docstring)."""
    expected = os.environ.get(TOKEN_ENV, "")
    given = str(st.query_params.get("token", ""))
    admitted = bool(expected) and (st.session_state.get(_ADMITTED) == expected or token_matches(given, expected))
    # one mount per run under one key: an admitted page keeps the pass, any other offers what it holds
    held = _pass_component(key="_memseed_launch_pass", data={"keep": browser_pass(expected) if admitted else ""})
    if admitted:
        _admit(expected)
        return
    answer = held.get("held") if held is not None else None
    offered = answer if isinstance(answer, dict) else {}
    if expected and token_matches(str(offered.get("pass", "")), browser_pass(expected)):
        _admit(expected)
        st.session_state[_RESUME] = str(offered.get("path", ""))
        return
    st.title("memseed")
    if expected and answer is None:
        # the browser has not answered yet (it does at once, and this run is redone): no notice yet,
        # so a reload of an admitted page does not flash "needs the link" before its pass is read
        st.info(WAITING)
    elif not expected:
        st.error("This wizard was started without a launch token, so it shows nothing. "
                 "Start it with `memseed app`.")
    else:
        st.error("This page needs the link `memseed app` printed when it started (it ends in `?token=…`). "
                 "Open that link; nothing is shown or changed without it.")
    st.stop()
