"""In headless Chromium: a calendar marked "not mine" on the Who-you-are page, re-analysed, and its
zone and ritual are gone from the review (issue 30).

The demo persona's footprint plus one more calendar file the persona organises (a weekly series
in Pacific/Auckland, daily enough to outvote the persona's own calendar): after the first scan its
ritual is waiting for review and its zone is named on the timezone card. The person opens
"3 · Who you are", says the calendar is not theirs, presses "Re-analyse with these corrections":
the review no longer shows the ritual, and no card names the Auckland zone.
"""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest

from bootstrap_app.demo import demo_owner_addresses
from bootstrap_app.identity import review as ir
from bootstrap_app.store import Store
from tests.pipeline.fact_audit import owner_calendar

from .test_e2e_browser import CHROMIUM, DemoApp, _free_port, wizard_browser

pytestmark = [
    pytest.mark.browser,
    pytest.mark.slow,
    pytest.mark.skipif(not CHROMIUM.exists(), reason=f"{CHROMIUM} is absent (make test installs it)"),
]

_ZONE = "Pacific/Auckland"


def _waiting(home: Path) -> list[str]:
    """Name, description and body of every proposal waiting for review, as the store holds them."""
    with Store(home / "memseed" / "state.db") as store:
        return [f"{sp.proposal.name}\n{sp.proposal.description}\n{sp.proposal.body}"
                for sp in store.proposals(status="undecided")]


def _wait_for_run(home: Path, after: int, timeout: float = 180) -> None:
    """Until a run newer than ``after`` has finished (the re-analysis runs in the app's thread)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with Store(home / "memseed" / "state.db") as store:
            runs = store.runs(limit=1)
        if runs and runs[0]["id"] > after and runs[0].get("status") == "finished":
            return
        time.sleep(0.5)
    raise AssertionError("the re-analysis did not finish in time")


def test_marking_a_calendar_not_mine_takes_its_zone_and_rituals_away(tmp_path: Path) -> None:
    from playwright.sync_api import expect

    app = DemoApp(_free_port(), tmp_path / "app.log")
    try:
        app.wait_healthy()
        calendar = owner_calendar(app.home / "home" / "garden.ics", organizer=demo_owner_addresses()[0],
                                  zone=_ZONE, weeks=55, title="Garden club planning", daily=True)
        with wizard_browser() as wizard:
            page, nav, settle = wizard.page, wizard.nav, wizard.settle
            page.goto(app.link)  # the tokened link `memseed app` prints
            expect(page.get_by_role("heading", name="Sources", level=1)).to_be_visible()
            page.get_by_role("textbox", name="Path").fill(str(calendar))
            page.get_by_role("button", name="Add source").click()
            expect(page.get_by_text(re.compile(r"^Added "))).to_be_visible()

            nav("2 · Scan", "Scan")
            page.get_by_role("button", name="Start scan").click()
            expect(page.get_by_text("Scan finished")).to_be_visible(timeout=180_000)
            before = _waiting(app.home)
            assert any(t.startswith("ritual-garden-club-planning") for t in before), "its ritual is proposed"
            assert any(_ZONE in t for t in before if t.startswith("timezone")), "its zone is on the zone card"

            nav("3 · Who you are", "Who you are")
            with Store(app.home / "memseed" / "state.db") as store:
                sources = ir.identity_view(store).sources
                last_run = store.runs(limit=1)[0]["id"]
            [row] = [i for i, s in enumerate(sources) if s["location"].endswith("garden.ics")]
            page.get_by_test_id("stSelectbox").nth(row).click()
            page.get_by_role("option", name=re.compile(r"^not mine")).click()
            expect(page.get_by_text("Saved. Re-analyse so the change counts.")).to_be_visible()
            settle()
            page.get_by_role("button", name="Re-analyse with these corrections").click()
            _wait_for_run(app.home, last_run)

            nav("4 · Review", "Review")
            settle()
            expect(page.locator("[class*='st-key-card_']").first).to_be_visible()
            expect(page.get_by_text("Garden club planning")).to_have_count(0)
            expect(page.get_by_text(re.compile(_ZONE))).to_have_count(0)
        after = _waiting(app.home)
        assert not any("Garden club" in t for t in after)
        assert not any(_ZONE in t for t in after)
        assert any(t.startswith("timezone") for t in after), "the persona's own zone is still proposed"
    finally:
        app.stop()
