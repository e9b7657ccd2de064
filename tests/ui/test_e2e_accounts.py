"""End to end in headless Chromium: the demo's Sources page connects a Google and a Microsoft account.

`memseed app --demo` runs against the loopback stand-ins (tests/cloud): the Google one serves the
demo persona's account (her Takeout mail as Gmail, a calendar, a Drive) and signs in through a
``MEMSEED_GOOGLE_CREDENTIALS`` file, the Microsoft one (TLS on 127.0.0.1) serves an Outlook
mailbox, calendar and OneDrive and approves the device code after one pending poll. In the
browser: the Google account shows as signed in by the env file (no Sign out) and is added as
``google:``; **Connect Microsoft** shows the code and URL and finishes on its own while the page
polls, adding ``microsoft:``; a scan reads both and the Review page shows proposals whose
evidence is the cloud mail. Screenshot ``accounts.png`` is the Sources page after the scan.
"""

from __future__ import annotations

import datetime as dt
import json
import re
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

from bootstrap_app.demo import build_demo
from bootstrap_app.demo.cast import CAST
from tests.cloud.google_demo import demo_world
from tests.cloud.google_standin import GoogleStandIn
from tests.cloud.ms_standin import MSStandIn
from tests.cloud.ms_world import World as MSWorld

from .test_e2e_browser import CHROMIUM, SHOTS, DemoApp, _free_port, _shrink, wizard_browser

pytestmark = [
    pytest.mark.browser,
    pytest.mark.slow,
    pytest.mark.skipif(not CHROMIUM.exists(), reason=f"{CHROMIUM} is absent (make test installs it)"),
]

MAYA = CAST["maya"].email
PEERS = [("Ravi Shah", "ravi@fabrikam.test"), ("Lena Vogel", "lena@contoso.test")]


def _outlook(world: MSWorld) -> None:
    """Maya's work mailbox: a two-way thread with two colleagues about a release checklist."""
    world.user = {**world.user, "mail": MAYA, "userPrincipalName": MAYA}
    base = dt.datetime.now(dt.UTC) - dt.timedelta(days=40)
    for i in range(10):
        peer = PEERS[i % len(PEERS)]
        when = base + dt.timedelta(days=3 * i)
        world.add_message("inbox", subject=f"Release checklist, week {i}", sender=peer, to=[("Maya Okafor", MAYA)],
                          body=f"Maya, can you sign off the release checklist for week {i}?", when=when,
                          conversation=f"release-{i}")
        world.add_message("sentitems", subject=f"Re: Release checklist, week {i}", sender=("Maya Okafor", MAYA),
                          to=[peer], body="Signed off. Remember: we never release on Fridays, and the "
                                          "checklist lives in the ops wiki.",
                          when=when + dt.timedelta(hours=2), conversation=f"release-{i}")


@pytest.fixture
def cloud_env(tmp_path: Path) -> Iterator[dict[str, str]]:
    """Both stand-ins running; the environment that points `memseed app` at them."""
    world = demo_world(build_demo(tmp_path / "google-demo"))
    with GoogleStandIn(world) as google, MSStandIn(tmp_path / "tls") as ms:
        ms.world.pending_polls = 1  # the first poll is "authorization_pending", the next one approves
        _outlook(ms.world)
        creds = tmp_path / "authorized_user.json"
        # as google-auth's Credentials.to_json writes it, with the account the login was for
        creds.write_text(json.dumps({**google.authorized_user(), "account": MAYA}), encoding="utf-8")
        yield {"MEMSEED_GOOGLE_API_ROOT": google.root, "MEMSEED_GOOGLE_CREDENTIALS": str(creds),
               "MEMSEED_GRAPH_API_ROOT": ms.graph_root, "MEMSEED_MS_AUTHORITY": ms.authority,
               "MEMSEED_MS_CLIENT_ID": ms.world.client_id, "REQUESTS_CA_BUNDLE": str(ms.cert),
               "MEMSEED_TOKEN_STORE": "file"}


@pytest.fixture
def cloud_app(cloud_env: dict[str, str], tmp_path: Path) -> Iterator[DemoApp]:
    app = DemoApp(_free_port(), tmp_path / "app.log", env=cloud_env)
    try:
        app.wait_healthy()
        yield app
    finally:
        app.stop()


def _resting_on(app_home: Path, prefix: str) -> list[str]:
    """Names of the proposals with evidence from a source id starting with ``prefix`` (``outlook:``),
    read from the app's own store while it runs."""
    with sqlite3.connect(app_home / "state.db") as db:
        rows = [(r[0], json.loads(r[1])) for r in db.execute("SELECT name, data FROM proposals ORDER BY name")]
    return [name for name, data in rows if any(str(ev["source"]).startswith(prefix)
                                               for ev in data.get("evidence", []))]


def test_demo_connects_cloud_accounts_and_scans_them(cloud_app: DemoApp) -> None:
    from playwright.sync_api import expect

    SHOTS.mkdir(parents=True, exist_ok=True)
    with wizard_browser() as wizard:
        page, nav, settle = wizard.page, wizard.nav, wizard.settle

        google = page.locator(".st-key-account_google")
        microsoft = page.locator(".st-key-account_microsoft")

        # 1. Google: signed in by the credentials file, so no Sign out; add google: to the sources
        page.goto(cloud_app.link)
        expect(page.get_by_role("heading", name="Sources", level=1)).to_be_visible()
        expect(google).to_contain_text(f"signed in as {MAYA}")
        expect(google).to_contain_text("gmail.readonly")
        expect(google).to_contain_text("MEMSEED_GOOGLE_CREDENTIALS")
        expect(google.get_by_role("button", name="Sign out")).to_have_count(0)
        google.get_by_role("button", name="Add google: to sources").click()
        expect(page.get_by_text(re.compile(r"^Added google:"))).to_be_visible()
        expect(google).to_contain_text("google: is in your sources")

        # 2. Microsoft: device code shown at once, the page polls until the stand-in approves it
        expect(microsoft).to_contain_text("not signed in")
        microsoft.get_by_role("button", name="Connect Microsoft").click()
        expect(microsoft).to_contain_text("MEMS-EED1")  # the code to type, and where
        expect(microsoft).to_contain_text(re.compile(r"https://127\.0\.0\.1:\d+/devicelogin"))
        expect(page.get_by_text(f"Connected Microsoft account {MAYA}")).to_be_visible(timeout=40_000)
        expect(microsoft).to_contain_text(f"signed in as {MAYA}")
        expect(microsoft).to_contain_text("microsoft: is in your sources")
        expect(microsoft.get_by_role("button", name="Sign out")).to_be_visible()

        # 3. Scan everything (the demo footprint and both accounts)
        nav("2 · Scan", "Scan")
        page.get_by_role("button", name="Start scan").click()
        expect(page.get_by_text("Scan finished")).to_be_visible(timeout=120_000)
        settle()

        # 4. Sources again: each account with its last sync and the items read through it
        nav("1 · Sources", "Sources")
        expect(google).to_contain_text(re.compile(r"last sync .* [1-9]\d* item\(s\) read"))
        expect(microsoft).to_contain_text(re.compile(r"last sync .* [1-9]\d* item\(s\) read"))
        page.get_by_role("heading", name="Accounts").evaluate("el => el.scrollIntoView({block: 'start'})")
        settle()
        page.wait_for_timeout(1000)
        path = SHOTS / "accounts.png"
        page.screenshot(path=str(path))
        _shrink(path)

        # 5. Review (after the identity step): proposals resting on the cloud mail and calendar,
        # their evidence naming the account
        nav("3 · Who you are", "Who you are")
        nav("4 · Review", "Review")
        cards = page.locator("[class*='st-key-card_']")
        expect(cards.first).to_be_visible()
        for prefix in ("outlook:", "google-calendar:"):
            names = _resting_on(cloud_app.home / "memseed", prefix)
            assert names, f"no proposal rests on {prefix}"
            card = cards.filter(has_text=names[0]).first
            card.get_by_text(re.compile(r"^Evidence \(\d+\)")).click()
            expect(card.get_by_text(prefix).first).to_be_visible()

