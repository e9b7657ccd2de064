"""The launch token: a session that does not present it sees nothing and can do nothing.

AppTest half: the app's own script, on a store full of proposals, without / with a wrong / with
the right token. Browser half: a real `memseed app --demo` in headless Chromium, opened without
the token (nothing shown, no control to press, nothing written) and with the printed link
(the wizard works across pages, and the link opens it again).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from bootstrap_app.store import Store
from bootstrap_app.ui import APP_FILE, TOKEN_ENV
from bootstrap_app.ui.launch_token import token_matches

from .test_e2e_browser import CHROMIUM, DemoApp, _free_port, wizard_browser

NOTICE = "This page needs the link"


def _session(token: str | None) -> AppTest:
    at = AppTest.from_file(str(APP_FILE), default_timeout=30)
    if token is not None:
        at.query_params["token"] = token
    return at.run()


def _shown(at: AppTest) -> str:
    return " ".join(str(getattr(e, "value", "")) for e in at.main) + " ".join(m.value for m in at.markdown)


@pytest.mark.parametrize("token", [None, "", "wrong-token", "x" * 43])
def test_without_the_token_nothing_is_shown_and_no_control_exists(seeded, token: str | None) -> None:  # type: ignore[no-untyped-def]
    seeded(12)
    at = _session(token)
    assert not at.exception
    assert [e.value for e in at.error] and NOTICE in at.error[0].value
    assert len(at.button) == 0 and len(at.text_input) == 0 and len(at.checkbox) == 0
    assert "fact 0" not in _shown(at) and "Sources" not in [t.value for t in at.title]


def test_with_the_token_the_wizard_works_and_keeps_the_session(seeded) -> None:  # type: ignore[no-untyped-def]
    seeded(12)
    at = _session(os.environ[TOKEN_ENV])
    assert not at.error and len(at.button) > 0
    at.query_params.pop("token")  # a page switch drops the address's query: the session keeps its pass
    at.switch_page("views/review.py").run()
    assert not at.error and any("fact" in e.value for e in at.markdown)


def test_an_app_started_without_a_token_refuses_everyone(seeded, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    seeded(3)
    monkeypatch.delenv(TOKEN_ENV)
    at = _session("")
    assert "without a launch token" in at.error[0].value and len(at.button) == 0
    assert not token_matches("", "") and not token_matches("a", "")


@pytest.fixture
def demo_app(tmp_path: Path) -> Iterator[DemoApp]:
    app = DemoApp(_free_port(), tmp_path / "app.log", env={TOKEN_ENV: ""})  # "": a new token for this launch
    try:
        app.wait_healthy()
        yield app
    finally:
        app.stop()


@pytest.mark.browser
@pytest.mark.slow
@pytest.mark.skipif(not CHROMIUM.exists(), reason=f"{CHROMIUM} is absent (make test installs it)")
def test_browser_without_the_token_sees_nothing_and_cannot_write(demo_app: DemoApp) -> None:
    from playwright.sync_api import expect

    token = demo_app.link.split("?token=", 1)[1]
    assert len(token) >= 40 and token != os.environ.get(TOKEN_ENV)
    with Store(demo_app.home / "memseed" / "state.db") as store:
        runs_before = len(store.runs())
    with wizard_browser() as wizard:
        page = wizard.page
        for address in (demo_app.url, f"{demo_app.url}/review", f"{demo_app.url}/write",
                        f"{demo_app.url}/?token=not-the-token", f"{demo_app.url}/?token={token[:-1]}"):
            page.goto(address)
            expect(page.get_by_text(NOTICE)).to_be_visible()
            wizard.settle()
            expect(page.get_by_test_id("stSidebarNav")).to_have_count(0)
            expect(page.get_by_role("button")).to_have_count(0)  # nothing to press: no scan, approve, write
            expect(page.get_by_role("textbox")).to_have_count(0)
            body = page.locator("body").inner_text()
            assert "Demo mode" not in body and str(demo_app.home) not in body, address
        assert not (demo_app.home / "home" / ".claude").exists(), "a tokenless session wrote memory"
        with Store(demo_app.home / "memseed" / "state.db") as store:
            assert store.proposals() == [] and store.writes(limit=10) == []
            assert len(store.runs()) == runs_before  # no scan started

        # the printed link: the wizard and its pages work
        page.goto(demo_app.link)
        expect(page.get_by_role("heading", name="Sources", level=1)).to_be_visible()
        expect(page.get_by_text("Demo mode", exact=True)).to_be_visible()
        wizard.nav("4 · Review", "Review")
        wizard.nav("5 · Write", "Write")
        expect(page.get_by_text(NOTICE)).to_have_count(0)
        page.goto(demo_app.link)  # the printed link opens it again (a second session, same launch)
        expect(page.get_by_role("heading", name="Sources", level=1)).to_be_visible()
