"""End to end in headless Chromium: `memseed app --demo`, from adding a source to undoing a write.

Drives the real app over HTTP on a loopback port: add a source, scan the demo persona (every
source accounted for), check and correct who memseed thinks you are before any review,
approve three proposals, edit one, reject one (cards render their markdown), write to the
demo's Claude Code memory, read the files back the way Claude Code loads them (facts about you
in every session), run Doctor on exactly what was written, undo, check they are gone. Screenshots of each page
land in ``tests/artifacts/screenshots/``; with ``MEMSEED_UPDATE_SCREENSHOTS=1`` they refresh the
README's ``docs/screenshots/`` instead (so a plain ``make test`` leaves the work tree clean).

Uses Debian's ``/usr/bin/chromium`` (``make test`` installs it) through Playwright's Python
package; never downloads a browser.
"""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

import pytest

from bootstrap_app.demo import demo_owner_addresses
from bootstrap_app.identity import review as ir
from bootstrap_app.store import Store
from tests.harnesses.session_load import loaded_text

CHROMIUM = Path("/usr/bin/chromium")
REPO = Path(__file__).resolve().parents[2]
SHOTS = (REPO / "docs" / "screenshots" if os.environ.get("MEMSEED_UPDATE_SCREENSHOTS") == "1"
         else REPO / "tests" / "artifacts" / "screenshots")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]

pytestmark = [
    pytest.mark.browser,
    pytest.mark.slow,
    pytest.mark.skipif(not CHROMIUM.exists(), reason=f"{CHROMIUM} is absent (make test installs it)"),
]


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class AppProcess:
    """A `memseed app` started in its own process group: wait until it answers, stop it whole."""

    url: str
    link: str
    """``url`` with the launch token: what a person opens."""
    proc: subprocess.Popen[bytes]
    _log: IO[bytes]

    def read_link(self) -> str:
        """The tokened address `memseed app` prints (``memseed app: http://…/?token=…``)."""
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline().decode()
        match = re.match(r"memseed app: (http://127\.0\.0\.1:\d+/\?token=[\w-]+)", line.strip())
        assert match, f"expected the tokened link on stdout, got {line!r}"
        return match.group(1)

    def wait_healthy(self, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise AssertionError(f"app exited early with {self.proc.returncode}")
            try:
                with urllib.request.urlopen(f"{self.url}/_stcore/health", timeout=2) as resp:
                    if resp.status == 200:
                        return
            except OSError:
                time.sleep(0.3)
        raise AssertionError("the app did not answer /_stcore/health in time")

    def stop(self) -> None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()
        self._log.close()


class DemoApp(AppProcess):
    """`memseed app --demo` in its own process group; ``home`` is its throwaway folder."""

    def __init__(self, port: int, log: Path, env: dict[str, str] | None = None) -> None:
        self.port = port
        self.url = f"http://127.0.0.1:{port}"
        self._log = log.open("wb")
        memseed = Path(sys.executable).with_name("memseed")
        self.proc = subprocess.Popen([str(memseed), "app", "--demo", "--headless", "--port", str(port)],
                                     stdout=subprocess.PIPE, stderr=self._log, start_new_session=True,
                                     env={**os.environ, **(env or {}), "PYTHONUNBUFFERED": "1"})
        assert self.proc.stdout is not None
        first = self.proc.stdout.readline().decode()
        match = re.match(r"memseed demo home: (.+)", first.strip())
        assert match, f"expected the demo home on stdout, got {first!r}"
        self.home = Path(match.group(1))
        self.link = self.read_link()


@pytest.fixture
def demo_app(tmp_path: Path) -> Iterator[DemoApp]:
    app = DemoApp(_free_port(), tmp_path / "app.log")
    try:
        app.wait_healthy()
        yield app
    finally:
        app.stop()


def _shrink(path: Path) -> None:
    """Re-save a screenshot with a 256-colour palette: a quarter of the bytes, same look for UI."""
    from PIL import Image

    with Image.open(path) as image:
        small = image.convert("RGB").quantize(colors=256, method=Image.Quantize.MEDIANCUT)
    small.save(path, optimize=True)


class Wizard:
    """The wizard in a headless Chromium page, with the two moves every browser test makes."""

    def __init__(self, page: Any) -> None:
        self.page = page

    def nav(self, label: str, title: str) -> None:
        """Open a page from the sidebar and wait for its heading."""
        from playwright.sync_api import expect

        self.page.get_by_test_id("stSidebarNav").get_by_role("link", name=label).click()
        expect(self.page.get_by_role("heading", name=title, level=1)).to_be_visible()

    def settle(self) -> None:
        """Wait until Streamlit has finished rerunning the page."""
        from playwright.sync_api import expect

        self.page.wait_for_timeout(300)
        expect(self.page.get_by_test_id("stStatusWidget")).to_have_count(0)


@contextmanager
def wizard_browser() -> Iterator[Wizard]:
    """Debian's Chromium (never a downloaded one), one 1280x900 page, 30 s timeouts; closed after."""
    from playwright.sync_api import expect, sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            page.set_default_timeout(30_000)
            expect.set_options(timeout=30_000)
            yield Wizard(page)
        finally:
            browser.close()


def _memory_files(home: Path) -> list[Path]:
    return sorted((home / "home" / ".claude" / "projects").glob("*/memory/*.md"))


def test_demo_wizard_end_to_end(demo_app: DemoApp) -> None:
    from playwright.sync_api import expect

    notes = demo_app.home / "home" / "notes"  # inside the throwaway home: the screenshots show no test paths
    notes.mkdir()
    (notes / "reading-list.md").write_text("# Reading list\n\nDesigning Data-Intensive Applications.\n")
    SHOTS.mkdir(parents=True, exist_ok=True)

    with wizard_browser() as wizard:
        page, nav, settle = wizard.page, wizard.nav, wizard.settle

        def shot(name: str, height: int = 900) -> None:
            """Screenshot for the README once tables and metrics have drawn, as a small palette PNG."""
            settle()
            page.set_viewport_size({"width": 1280, "height": height})
            page.wait_for_timeout(1500)
            path = SHOTS / f"{name}.png"
            page.screenshot(path=str(path))
            page.set_viewport_size({"width": 1280, "height": 900})
            _shrink(path)

        def cards():  # type: ignore[no-untyped-def]
            return page.locator("[class*='st-key-card_']")

        # 1. Sources: the demo footprint is listed; add one more folder by typing its path
        page.goto(demo_app.link)
        expect(page.get_by_role("heading", name="Sources", level=1)).to_be_visible()
        expect(page.get_by_text("Demo mode", exact=True)).to_be_visible()
        expect(page.get_by_text(str(demo_app.home), exact=False).first).to_be_visible()
        page.get_by_role("textbox", name="Path").fill(str(notes))
        page.get_by_role("button", name="Add source").click()
        expect(page.get_by_text(re.compile(r"^Added "))).to_be_visible()
        shot("sources")

        # 2. Scan in the background and wait for the summary: every source says what it gave
        nav("2 · Scan", "Scan")
        page.get_by_role("button", name="Start scan").click()
        expect(page.get_by_text("Scan finished")).to_be_visible(timeout=120_000)
        expect(page.get_by_role("heading", name="What each source gave")).to_be_visible()
        shot("scan", height=1400)

        # 3. Who you are, before any review: the owner's address with its evidence; correctable
        nav("3 · Who you are", "Who you are")
        owner = demo_owner_addresses()[0]
        expect(page.get_by_text("You are", exact=True)).to_be_visible()
        shot("identity", height=1300)
        page.get_by_role("textbox", name="Add an address of yours").fill("not an address")
        page.get_by_role("button", name="Add", exact=True).click()
        expect(page.get_by_text("is not an e-mail address")).to_be_visible()
        expect(page.get_by_role("textbox", name="Add an address of yours")).to_have_value("not an address")
        with Store(demo_app.home / "memseed" / "state.db") as store:
            shown = ir.identity_view(store)
            assert owner in [a.address for a in shown.addresses], "the identity page lists the owner"
            assert all(a.evidence for a in shown.addresses), "each address with its evidence"

        # 4. Review: approve three, edit one, reject one; the cards render their markdown
        nav("4 · Review", "Review")
        expect(cards().first).to_be_visible()
        expect(page.get_by_text("held back until you have checked")).to_have_count(0)
        assert page.get_by_text(re.compile(r"\*\*(Why|How to apply):\*\*")).count() == 0, "raw markdown on a card"
        expect(page.locator("[class*='st-key-card_'] strong", has_text="Why:").first).to_be_attached()
        shot("review", height=1500)
        total = cards().count()
        assert total >= 5, f"the demo should propose at least five memories, got {total}"
        for done in range(1, 4):
            cards().first.get_by_role("button", name="Approve", exact=True).click()
            expect(page.get_by_test_id("stMetric").filter(has_text="Approved")).to_contain_text(str(done))
            settle()
        edited_card = cards().first
        edited_card.get_by_role("button", name="Edit", exact=True).click()
        body = page.get_by_role("textbox", name="Body")
        body.fill("Maya reviews pull requests before 10:00 Berlin time (edited in the e2e test).")
        page.get_by_role("button", name="Save and approve").click()
        expect(page.get_by_text("Saved your edit")).to_be_visible()
        settle()
        cards().first.get_by_role("button", name="Reject", exact=True).click()
        expect(page.get_by_test_id("stMetric").filter(has_text="Rejected")).to_contain_text("1")
        settle()

        # 5. Write to the demo's Claude Code memory; read it back the way Claude Code loads it
        nav("5 · Write", "Write")
        expect(page.get_by_test_id("stMetric").filter(has_text="Approved proposals")).to_contain_text("4")
        expect(page.get_by_role("radio", name=re.compile("every session")).first).to_be_checked()
        page.get_by_role("button", name="Preview").click()
        write_button = page.get_by_role("button", name=re.compile(r"^Write \d+ file"))
        expect(write_button).to_be_visible()
        shot("write", height=1300)
        assert not _memory_files(demo_app.home), "a preview must not write anything"
        write_button.click()
        expect(page.get_by_text(re.compile(r"Wrote \d+ file\(s\) to Claude Code"))).to_be_visible()
        written = _memory_files(demo_app.home)
        user_level = demo_app.home / "home" / ".claude" / "CLAUDE.md"
        assert any("edited in the e2e test" in p.read_text() for p in [*written, user_level] if p.exists())
        assert all(str(demo_app.home) in str(p) for p in written), "writes stay inside the throwaway home"
        with Store(demo_app.home / "memseed" / "state.db") as store:
            approved = [sp.effective for sp in store.proposals(status="approved")]
        elsewhere = demo_app.home / "home" / "some-other-project"
        (elsewhere / ".git").mkdir(parents=True)
        about_you = [p for p in approved if p.type.value == "user"]
        assert about_you, "the demo's approved set holds a fact about the person"
        for fact in about_you:  # loaded in a session started in any project
            words = " ".join(fact.description.split()[:4])
            assert words in loaded_text("claude-code", demo_app.home / "home", elsewhere), words

        # 6. Doctor on exactly what was written, then undo the write from the Write page
        nav("Doctor", "Doctor")
        page.get_by_role("button", name=re.compile(r"^Check what write \d+ wrote")).click()
        expect(page.get_by_text(re.compile(r"No problems found in Claude Code memory|\d+ (error|warning|info)")).first
               ).to_be_visible()
        expect(page.get_by_text("does not exist")).to_have_count(0)
        shot("doctor")
        nav("5 · Write", "Write")
        page.get_by_role("button", name=re.compile(r"^Undo write \d+")).click()
        expect(page.get_by_text(re.compile(r"Undid write \d+"))).to_be_visible()
        assert _memory_files(demo_app.home) == [] and not user_level.exists()

    home = demo_app.home
    demo_app.stop()
    assert not home.exists(), "the throwaway demo home is deleted when the app stops"
