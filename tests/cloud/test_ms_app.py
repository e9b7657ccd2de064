"""The wizard's Connect Microsoft panel: the non-blocking device flow, driven through AppTest."""

from __future__ import annotations

import os
from pathlib import Path

from streamlit.testing.v1 import AppTest

from bootstrap_app.store import Store
from bootstrap_app.ui import APP_FILE, TOKEN_ENV
from connectors.microsoft import auth

from .ms_standin import MSStandIn


def _sources_page() -> AppTest:
    at = AppTest.from_file(str(APP_FILE), default_timeout=30)
    at.query_params["token"] = os.environ[TOKEN_ENV]  # as the link `memseed app` opens does
    at.run()
    at.switch_page("views/sources.py").run()
    return at


def test_connect_microsoft_polls_without_blocking(ms: MSStandIn) -> None:
    home = Path(os.environ["MEMSEED_HOME"])
    ms.world.pending_polls = 1
    at = _sources_page()
    assert not at.exception
    at.button(key="connect_microsoft").click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert any("MEMS-EED1" in i.value for i in at.info)  # the code to type, shown at once
    assert not auth.status(home).ok
    for _ in range(3):  # "Check now": one poll per click, pending first
        if any(b.key == "poll_microsoft" for b in at.button):
            at.button(key="poll_microsoft").click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert any("Connected Microsoft account maya@contoso.test" in s.value for s in at.success)
    assert any("signed in as `maya@contoso.test`" in m.value for m in at.markdown)
    assert auth.status(home).ok
    with Store(home / "state.db") as store:
        assert [s["location"] for s in store.sources()] == ["microsoft:"]
    at.button(key="logout_microsoft").click().run()
    assert not auth.status(home).ok


def test_connect_error_is_shown_with_its_fix(ms: MSStandIn, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.delenv("MEMSEED_MS_CLIENT_ID")
    at = _sources_page()
    at.button(key="connect_microsoft").click().run()
    assert not at.exception
    assert any("no Microsoft client id" in e.value for e in at.error)
    assert any("--client-id" in i.value for i in at.info)
    at.text_input(key="auth_microsoft_client_id").input(ms.world.client_id).run()
    at.button(key="connect_microsoft").click().run()
    assert any("MEMS-EED1" in i.value for i in at.info)  # the typed client id was used
