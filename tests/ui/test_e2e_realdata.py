"""The wizard on a real footprint nobody here wrote, in headless Chromium: a real inbox, a large
real calendar export, a real Slack export and a cloned real repository, added on the Sources page.

What it proves (expectations computed at test time from the store, never written down):
identity is shown before Review and corrected there (a source marked "not mine" stops naming
the owner, suggested aliases confirmed in bulk, re-analysed); every source is accounted for,
with a reason when it gave nothing; cards render their markdown; facts about the person land
where Claude Code loads them in every session and a repository's facts in that repository's;
Doctor checks exactly what the write put on disk. No screenshot is kept: the pages show people
from the corpora. Skips cleanly when the real-data folder or Chromium is absent.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from bootstrap_app.identity.review import identity_view
from bootstrap_app.report.accounting import source_accounting
from bootstrap_app.store import Store
from tests.conftest import realdata_file
from tests.harnesses.session_load import loaded_text

from .test_e2e_browser import CHROMIUM, AppProcess, _free_port, wizard_browser

pytestmark = [
    pytest.mark.browser,
    pytest.mark.slow,
    pytest.mark.realdata,
    pytest.mark.skipif(not CHROMIUM.exists(), reason=f"{CHROMIUM} is absent (make test installs it)"),
]


class RealApp(AppProcess):
    """`memseed app` on an empty app home and HOME in ``root`` (its own process group)."""

    def __init__(self, root: Path) -> None:
        self.home = root / "home"
        self.app_home = root / "memseed"
        self.home.mkdir()
        self.port = _free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self._log = (root / "app.log").open("wb")
        env = {**os.environ, "HOME": str(self.home), "MEMSEED_HOME": str(self.app_home),
               "CLAUDE_CONFIG_DIR": str(self.home / ".claude"), "PYTHONUNBUFFERED": "1"}
        for name in ("MEMSEED_OWNER", "MEMSEED_APP_DEMO", "CODEX_HOME", "HERMES_HOME", "GEMINI_DIR"):
            env.pop(name, None)
        memseed = Path(sys.executable).with_name("memseed")
        self.proc = subprocess.Popen([str(memseed), "app", "--headless", "--port", str(self.port)],
                                     stdout=subprocess.PIPE, stderr=self._log, start_new_session=True, env=env)
        self.link = self.read_link()

    def store(self) -> Store:
        return Store(self.app_home / "state.db")


@pytest.fixture
def real_app(tmp_path: Path) -> Iterator[RealApp]:
    app = RealApp(tmp_path)
    try:
        app.wait_healthy()
        yield app
    finally:
        app.stop()


def _footprint(tmp_path: Path) -> dict[str, Path]:
    repo = tmp_path / "checkout" / "pdm"
    subprocess.run(["git", "clone", "-q", str(realdata_file("repos", "pdm.bundle")), str(repo)], check=True,
                   env={**os.environ, "GIT_TERMINAL_PROMPT": "0"})
    return {"mbox": realdata_file("email", "enron", "enron-kaminski-v-inbox.mbox").resolve(),
            "ics": realdata_file("ics", "recurring-ical-events", "google-personal-export-issue42.ics").resolve(),
            "slack": realdata_file("slack", "julialang-subset-export-layout").resolve(),
            "git": repo.resolve()}


def test_real_footprint_identity_first_accounted_and_written_where_loaded(real_app: RealApp,
                                                                           tmp_path: Path) -> None:
    from playwright.sync_api import expect

    sources = _footprint(tmp_path)
    with wizard_browser() as wizard:
        page, nav, settle = wizard.page, wizard.nav, wizard.settle

        # 1. Sources: add the four by typing their paths; adding one again says so
        page.goto(real_app.link)
        expect(page.get_by_role("heading", name="Sources", level=1)).to_be_visible()
        for path in sources.values():
            page.get_by_role("textbox", name="Path").fill(str(path))
            page.get_by_role("button", name="Add source").click()
            expect(page.get_by_text(f"Added `{path}`".replace("`", ""), exact=False)).to_be_visible()
            settle()
        page.get_by_role("textbox", name="Path").fill(str(sources["ics"]))
        page.get_by_role("button", name="Add source").click()
        expect(page.get_by_text("is already in your sources")).to_be_visible()

        # 2. Scan; every source accounted for, a reason for each that gave nothing
        nav("2 · Scan", "Scan")
        page.get_by_role("button", name="Start scan").click()
        expect(page.get_by_text("Scan finished")).to_be_visible(timeout=300_000)
        expect(page.get_by_role("heading", name="What each source gave")).to_be_visible()
        with real_app.store() as store:
            accounts = source_accounting(store)
            first = identity_view(store)
        assert {a.kind for a in accounts} == {"mbox", "ics", "slack", "git"}
        assert all(a.items > 0 for a in accounts), accounts
        assert all(a.reason and a.fix for a in accounts if not a.proposals), accounts
        # the calendar export's account, shown by no other source, is a suggestion, never proof
        calendar_account = next((a.address for a in first.suggested if "exported calendar" in a.evidence), None)
        assert calendar_account, "the calendar export's account is offered as possibly yours"
        assert calendar_account not in [a.address for a in first.addresses]
        assert len([a for a in first.suggested if a.address != calendar_account]) >= 2

        # 3. Who you are, before Review: the calendar is not mine, two suggested aliases are, re-analyse
        nav("3 · Who you are", "Who you are")
        ics_row = [s["location"] for s in first.sources].index(str(sources["ics"]))
        settle()
        owner_box = page.get_by_test_id("stSelectbox").nth(ics_row).get_by_role("combobox")
        owner_box.click()
        owner_box.fill("not mine")  # the choice filtered to one, taken with Enter
        page.keyboard.press("Enter")
        expect(page.get_by_text("Saved. Re-analyse")).to_be_visible()
        chosen = [a.address for a in first.suggested if a.address != calendar_account][:2]
        picker = page.get_by_test_id("stMultiSelect").get_by_role("combobox")
        chosen_box = page.get_by_test_id("stMultiSelect")
        for address in chosen:
            for _attempt in range(3):  # a click that lands while the page re-renders is lost: pick again
                picker.fill(address)
                option = page.get_by_role("option", name=address, exact=True)
                expect(option).to_be_visible()
                option.click()  # not Enter: the filter may list a longer address that holds this one first
                settle()
                if address in chosen_box.inner_text():
                    break
            expect(chosen_box).to_contain_text(address)
        page.keyboard.press("Escape")
        settle()
        page.get_by_role("button", name="Confirm: these are mine").click()
        settle()
        expect(page.get_by_text("Confirmed 2 address(es)")).to_be_visible()
        settle()
        page.get_by_role("button", name="Re-analyse with these corrections").click()
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline:
            with real_app.store() as store:
                runs = store.runs(limit=2)
            if len(runs) == 2 and runs[0]["status"] != "running":
                break
            time.sleep(2)
        with real_app.store() as store:
            after = identity_view(store)
            accounts = {a.kind: a for a in source_accounting(store)}
            about_you = [sp.proposal for sp in store.proposals(run_id=after.run_id) if sp.proposal.type.value == "user"]
        mine = [a.address for a in after.addresses]
        assert calendar_account not in mine and set(chosen) <= set(mine), mine
        assert accounts["ics"].left_out and "not yours" in accounts["ics"].reason
        assert not [p for p in about_you if any(e.source.startswith("ics:") for e in p.evidence)], \
            "nothing about you rests on a calendar you said is not yours"

        # 4. Review: cards render markdown; approve everything visible
        nav("4 · Review", "Review")
        cards = page.locator("[class*='st-key-card_']")
        expect(cards.first).to_be_visible()
        assert page.get_by_text(re.compile(r"\*\*(Why|How to apply):\*\*")).count() == 0, "raw markdown on a card"
        page.get_by_role("button", name=re.compile(r"^Approve all visible")).click()
        expect(page.get_by_text(re.compile(r"^Approved [1-9]\d* proposal"))).to_be_visible()
        settle()

        # 5. Write (Claude Code, no project): read back the way Claude Code loads memory
        nav("5 · Write", "Write")
        page.get_by_role("button", name="Preview").click()
        write_button = page.get_by_role("button", name=re.compile(r"^Write \d+ file"))
        expect(write_button).to_be_visible()
        write_button.click()
        expect(page.get_by_text(re.compile(r"Wrote \d+ file\(s\) to Claude Code"))).to_be_visible()
        with real_app.store() as store:
            approved = [sp.effective for sp in store.proposals(status="approved")]
        elsewhere = real_app.home / "code" / "another-project"
        (elsewhere / ".git").mkdir(parents=True)
        anywhere = loaded_text("claude-code", real_app.home, elsewhere)
        in_repo = loaded_text("claude-code", real_app.home, sources["git"] / "src")
        users = [p for p in approved if p.type.value == "user"]
        assert users, "a fact about the person was approved"
        for p in users:
            assert " ".join(p.description.split()[:4]) in anywhere, p.description
        for p in approved:
            if p.scope == str(sources["git"]):
                assert p.description.split(":")[0] in in_repo and p.name not in anywhere

        # 6. Doctor on exactly what was written
        nav("Doctor", "Doctor")
        page.get_by_role("button", name=re.compile(r"^Check what write \d+ wrote")).click()
        expect(page.get_by_text(re.compile(r"No problems found in Claude Code memory|\d+ (error|warning|info)")).first
               ).to_be_visible()
        expect(page.get_by_text("does not exist")).to_have_count(0)
