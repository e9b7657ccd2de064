"""The launch token: a session that does not present it sees nothing and can do nothing.

AppTest half: the app's own script, on a store full of proposals, without / with a wrong / with
the right token. Browser half: a real `memseed app --demo` in headless Chromium, opened without
the token (nothing shown, no control to press, nothing written) and with the printed link
(the wizard works across pages, and the link opens it again).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from streamlit.testing.v1 import AppTest

from bootstrap_app.store import Store
from bootstrap_app.ui import APP_FILE, TOKEN_ENV
from bootstrap_app.ui.launch_token import PASS_KEY, WAITING, browser_pass, token_matches

from .test_e2e_browser import CHROMIUM, CHROMIUM_ARGS, DemoApp, Wizard, _free_port, wizard_browser

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
    """AppTest runs no browser script, so the browser never says which pass it holds: the page stays
    on the short wait (the notice comes once a browser has answered: the browser tests below)."""
    seeded(12)
    at = _session(token)
    assert not at.exception
    assert [e.value for e in at.info] == [WAITING] and not at.error
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


@contextmanager
def _chromium() -> Iterator[Any]:
    """Debian's Chromium, so a test can open several independent browser contexts."""
    from playwright.sync_api import expect, sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            expect.set_options(timeout=30_000)
            yield browser
        finally:
            browser.close()


def _page(context: Any) -> Any:
    page = context.new_page()
    page.set_default_timeout(30_000)
    return page


_NOTICE_WATCH = """
window.__memseedSawNotice = false;
new MutationObserver(() => {
  if (document.body && document.body.innerText.includes(NOTICE)) window.__memseedSawNotice = true;
}).observe(document, {subtree: true, childList: true, characterData: true});
""".replace("NOTICE", repr(NOTICE))
"""Run before each page's own scripts: remembers whether the notice was ever in the page, so a
notice that flashed and went (a reload of an admitted page, before its pass was read) is seen."""


def _refused(page: Any, address: str) -> None:
    """``address`` shows the notice and nothing else: no navigation, no button, no field."""
    from playwright.sync_api import expect

    page.goto(address)
    expect(page.get_by_text(NOTICE)).to_be_visible()
    Wizard(page).settle()
    page.wait_for_timeout(1000)  # time for a kept pass to be offered and refused (it would rerun the page)
    Wizard(page).settle()
    expect(page.get_by_text(NOTICE)).to_be_visible()
    expect(page.get_by_test_id("stSidebarNav")).to_have_count(0)
    expect(page.get_by_role("button")).to_have_count(0)
    expect(page.get_by_role("textbox")).to_have_count(0)
    assert "Demo mode" not in page.locator("body").inner_text(), address


@pytest.mark.browser
@pytest.mark.slow
@pytest.mark.skipif(not CHROMIUM.exists(), reason=f"{CHROMIUM} is absent (make test installs it)")
def test_browser_stays_admitted_across_reloads_for_this_launch_only(tmp_path: Path) -> None:
    """Admitted once by the link, the same browser keeps the wizard across a reload, a bookmark of
    /review without the token and a new tab; a fresh browser gets nothing; after a relaunch on the
    same address (same origin, so the same storage) the pass of the earlier launch is refused."""
    from playwright.sync_api import expect

    port = _free_port()
    first = DemoApp(port, tmp_path / "first.log", env={TOKEN_ENV: ""})
    try:
        first.wait_healthy()
        token = first.link.split("?token=", 1)[1]
        with _chromium() as browser:
            mine = browser.new_context(viewport={"width": 1280, "height": 900})
            mine.add_init_script(_NOTICE_WATCH)  # on every page load: was the notice ever on screen?
            page = _page(mine)
            page.goto(first.link)
            expect(page.get_by_role("heading", name="Sources", level=1)).to_be_visible()
            Wizard(page).nav("4 · Review", "Review")
            page.reload()  # a new Streamlit session, the address without the token
            assert "token=" not in page.url
            expect(page.get_by_role("heading", name="Review", level=1)).to_be_visible()
            expect(page.get_by_text(NOTICE)).to_have_count(0)
            assert page.evaluate("window.__memseedSawNotice") is False  # not even for a moment
            page.goto(f"{first.url}/review")  # a bookmark of /review
            expect(page.get_by_role("heading", name="Review", level=1)).to_be_visible()
            assert page.evaluate("window.__memseedSawNotice") is False
            Wizard(page).nav("5 · Write", "Write")
            tab = _page(mine)  # a second tab of the same browser
            tab.goto(f"{first.url}/identity")
            expect(tab.get_by_role("heading", name="Who you are", level=1)).to_be_visible()

            kept = page.evaluate(f"window.localStorage.getItem({PASS_KEY!r})")
            assert kept == browser_pass(token) and token not in kept  # derived: it does not reveal the link
            assert all(kept not in c["value"] and token not in c["value"] for c in mine.cookies())

            stranger = browser.new_context()  # another browser profile: nothing kept, no token
            for address in (first.url, f"{first.url}/review", f"{first.url}/write"):
                _refused(_page(stranger), address)
            # a pass made from another token (what a guess or an earlier launch holds) is refused too
            forged = browser.new_context()
            forged.add_init_script(f"window.localStorage.setItem({PASS_KEY!r}, {browser_pass('x' * 43)!r})")
            _refused(_page(forged), f"{first.url}/review")
            state = mine.storage_state()
            mine.close()
    finally:
        first.stop()

    second = DemoApp(port, tmp_path / "second.log", env={TOKEN_ENV: ""})  # same address: same origin, storage
    try:
        second.wait_healthy()
        assert second.link != first.link
        with _chromium() as browser:
            again = browser.new_context(storage_state=state)  # the first launch's browser, as it was left
            page = _page(again)
            assert any(PASS_KEY in str(origin) for origin in state["origins"])
            _refused(page, f"{second.url}/review")
            with Store(second.home / "memseed" / "state.db") as store:
                assert store.proposals() == [] and store.writes(limit=10) == []
            page.goto(second.link)  # this launch's link admits, and replaces the kept pass
            expect(page.get_by_role("heading", name="Sources", level=1)).to_be_visible()
            page.wait_for_function(f"window.localStorage.getItem({PASS_KEY!r}) === "
                                   f"{browser_pass(second.link.split('?token=', 1)[1])!r}")
            page.goto(f"{second.url}/review")
            expect(page.get_by_role("heading", name="Review", level=1)).to_be_visible()
    finally:
        second.stop()
