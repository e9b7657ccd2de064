"""`memseed reseed` with new mail: only the new messages are downloaded, yet the proposals equal a
full re-scan's (the item cache replays the rest). Gmail and Outlook against their stand-ins."""

from __future__ import annotations

import datetime as dt
import json
import re
import sqlite3
import tempfile
from email.message import EmailMessage
from email.utils import format_datetime
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from bootstrap_app import pipeline
from bootstrap_app.cache import append as itemcache
from bootstrap_app.cache import codec as itemjson
from bootstrap_app.cache import rows
from bootstrap_app.cli import main
from bootstrap_app.store import Store
from connectors.base import ReadContext
from connectors.google import auth as google_auth
from connectors.google import gmail as gmail_mod
from connectors.google.gmail import GmailSource
from connectors.microsoft import auth as ms_auth

from .conftest import MAYA
from .google_standin import GoogleStandIn
from .ms_fixtures import OWNER, PEERS, populate
from .ms_standin import MSStandIn

_FETCH = re.compile(r"/gmail/v1/users/me/messages/([^/?]+)$")


def _cli(*args: str) -> dict[str, Any]:
    result = CliRunner().invoke(main, [*args, "--json-summary"], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return dict(json.loads(result.output.strip().splitlines()[-1]))


def _proposals(home: Path, run_id: int) -> list[tuple[str, str, str, str, str]]:
    """What one run proposed: fingerprint, type, name, description and body of each proposal."""
    with Store(home / "state.db") as store:
        return sorted((s.fingerprint, str(s.proposal.type), s.proposal.name, s.proposal.description,
                       s.proposal.body) for s in store.proposals(run_id=run_id))


def _fresh_scan(location: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path, *,
                sign_in: bool = False) -> list[tuple[str, str, str, str, str]]:
    """The proposals of a full scan of the same account in a new app dir: what the reseed must equal."""
    home = tmp_path / "fresh-home"
    home.mkdir()
    monkeypatch.setenv("MEMSEED_HOME", str(home))
    if sign_in:
        ms_auth.login(home, echo=lambda t: None, sleep=lambda s: None)
    return _proposals(home, int(_cli("scan", location, "-q")["run_id"]))


def _mail(subject: str, sender: str, to: str, n: int) -> bytes:
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = sender, to, subject
    msg["Date"] = format_datetime(dt.datetime(2026, 11, 3, 9, n, tzinfo=dt.UTC))
    msg["Message-ID"] = f"<cache-{n}@example.com>"
    msg.set_content(f"Message number {n}: we keep the rollout behind a flag.\n")
    return msg.as_bytes()


def _add_three(google: GoogleStandIn) -> set[str]:
    w = google.world
    added = [w.add_mail(_mail("Re: rollout", MAYA, "tom@example.com", 1), labels=["SENT"]),
             w.add_mail(_mail("Lunch?", "tom@example.com", MAYA, 2), labels=["INBOX", "UNREAD"]),
             w.add_mail(_mail("Re: rollout", "ravi@example.com", MAYA, 3), labels=["INBOX"])]
    return {m.id for m in added}


def _read_ctx() -> ReadContext:
    """A direct read (no app dir: no resume checkpoint), to count what the mailbox holds."""
    return ReadContext(credentials=lambda _p: google_auth.credentials(Path(tempfile.mkdtemp())),
                       sleep=lambda _s: None)


def _fetched(google: GoogleStandIn) -> list[str]:
    return [m.group(1) for p in google.paths if (m := _FETCH.search(p))]


@pytest.mark.parametrize("location", ["gmail:", "google:"])
def test_gmail_reseed_fetches_only_new_mail_and_equals_a_full_scan(
        google: GoogleStandIn, hermetic: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path, location: str) -> None:
    """google: is Gmail, Calendar and Drive: the mail comes from the cache, the others are re-read."""
    home = hermetic / ".memseed"
    _cli("scan", location, "-q")
    first = len(_fetched(google))
    assert first > 20
    new_ids = _add_three(google)
    google.reset_stats()
    news = _cli("reseed")
    assert news["new_items"] == 3 and not news["errors"]
    fetched = _fetched(google)
    assert sorted(fetched) == sorted(new_ids)  # each new message once, nothing it had before
    assert google.stats["messages.list"] == 0 and google.stats["history.list"] == 1
    reseeded = _proposals(home, news["run_id"])
    google.reset_stats()
    calm = _cli("reseed")
    assert calm["new_items"] == 0 and _fetched(google) == []
    fresh = _fresh_scan(location, monkeypatch, tmp_path)
    assert len(_fetched(google)) == first + 3  # the fresh scan did download everything
    assert reseeded == fresh and reseeded


@pytest.fixture
def outlook(ms: MSStandIn, hermetic: Path) -> Path:
    home = hermetic / ".memseed"
    home.mkdir(parents=True, exist_ok=True)
    ms_auth.login(home, echo=lambda t: None, sleep=lambda s: None)
    populate(ms.world)
    return home


def test_outlook_reseed_downloads_only_new_mail_and_equals_a_full_scan(
        outlook: Path, ms: MSStandIn, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    _cli("scan", "outlook:", "-q")
    first = sum(n for k, n in ms.world.served.items() if k.startswith("mail/"))
    assert first == 27
    ms.world.add_message("sentitems", subject="Decision: ship Friday", sender=OWNER, to=[PEERS[0]],
                         body="We ship on Friday.", when=dt.datetime(2026, 10, 30, tzinfo=dt.UTC))
    for n in range(2):
        ms.world.add_message("inbox", subject=f"Review {n}?", sender=PEERS[n], to=[OWNER],
                             body="Please review.", when=dt.datetime(2026, 11, 2, n, tzinfo=dt.UTC))
    ms.world.served.clear()
    news = _cli("reseed")
    assert news["new_items"] == 3 and not news["errors"]
    assert sum(ms.world.served.values()) == 3  # only the new messages left the server
    reseeded = _proposals(outlook, news["run_id"])
    fresh = _fresh_scan("outlook:", monkeypatch, tmp_path, sign_in=True)
    assert sum(ms.world.served.values()) == 3 + first + 3
    assert reseeded == fresh and reseeded


def test_history_404_rebuilds_the_cache(google: GoogleStandIn, hermetic: Path) -> None:
    home = hermetic / ".memseed"
    _cli("scan", "gmail:", "-q")
    with Store(home / "state.db") as store:
        rows = store.cache_size("gmail:")[0]
    w = google.world  # one received message is deleted, then Google forgets the history
    gone = next(m for m in w.mails.values() if m.labels == ["INBOX"] or m.labels == ["INBOX", "UNREAD"])
    del w.mails[gone.id]
    _add_three(google)
    google.world.history_floor = 10**9
    google.reset_stats()
    news = _cli("reseed")
    assert news["new_items"] >= 3 and not news["errors"]
    assert google.stats["messages.list"] >= 2  # listed again: a full resync
    with Store(home / "state.db") as store:
        assert store.cache_size("gmail:")[0] == rows - 1 + 3  # rebuilt: the deleted one is gone
        assert store.cache_ready("gmail:", itemjson.FORMAT)
    google.world.history_floor = 0
    google.reset_stats()
    assert _cli("reseed")["new_items"] == 0 and _fetched(google) == []


def test_cache_of_another_format_means_a_full_read(google: GoogleStandIn, hermetic: Path) -> None:
    home = hermetic / ".memseed"
    _cli("scan", "gmail:", "-q")
    first = len(_fetched(google))
    with sqlite3.connect(home / "state.db") as db:
        db.execute("UPDATE cache_state SET format = format + 1")  # written by an older or newer memseed
    _add_three(google)
    google.reset_stats()
    assert _cli("reseed")["new_items"] == 3
    # the check reads the 3 new ones from the cursor (no cache to put them in), the scan everything
    assert google.stats["messages.list"] >= 2 and len(_fetched(google)) == first + 3 + 3
    with Store(home / "state.db") as store:
        assert store.cache_ready("gmail:", itemjson.FORMAT)  # rebuilt by that full read
    google.reset_stats()
    _add_three_more = google.world.add_mail(_mail("Again", "tom@example.com", MAYA, 9), labels=["INBOX"])
    assert _cli("reseed")["new_items"] == 1 and _fetched(google) == [_add_three_more.id]


@pytest.mark.parametrize("where", ["reading", "analysing"])
def test_crash_mid_reseed_converges(google: GoogleStandIn, hermetic: Path, monkeypatch: pytest.MonkeyPatch,
                                    tmp_path: Path, where: str) -> None:
    """Killed while the new mail is read (cursor and cache must not move apart), or after it is
    cached but before the proposals are saved (the news must not be lost): the next reseed
    fetches nothing twice it already holds and ends where an uninterrupted one would."""
    home = hermetic / ".memseed"
    _cli("scan", "gmail:", "-q")
    new_ids = _add_three(google)
    real_read, real_propose = GmailSource.read, pipeline._propose

    def dies_after_one(self: GmailSource, ctx: Any) -> Any:
        for n, item in enumerate(real_read(self, ctx)):
            if n == 1:
                raise KeyboardInterrupt  # the process is killed mid-read
            yield item

    def dies(*_a: Any) -> Any:
        raise KeyboardInterrupt

    if where == "reading":
        monkeypatch.setattr(GmailSource, "read", dies_after_one)
    else:
        monkeypatch.setattr(pipeline, "_propose", dies)
    with Store(home / "state.db") as store:
        cursor = store.cursor("gmail:")
    killed = CliRunner().invoke(main, ["reseed", "-q"])
    assert killed.exit_code != 0
    with Store(home / "state.db") as store:
        assert store.cache_ready("gmail:", itemjson.FORMAT)  # cache and cursor still agree
        assert (store.cursor("gmail:") == cursor) == (where == "reading")
    monkeypatch.setattr(GmailSource, "read", real_read)
    monkeypatch.setattr(pipeline, "_propose", real_propose)
    google.reset_stats()
    news = _cli("reseed")
    assert news["new_items"] >= 3 and not news["errors"]
    # reading: the new mail is asked for again from the old cursor; analysing: it is in the cache
    assert sorted(_fetched(google)) == (sorted(new_ids) if where == "reading" else [])
    assert _proposals(home, news["run_id"]) == _fresh_scan("gmail:", monkeypatch, tmp_path)


def test_forget_drops_the_cache_and_the_db_is_private(google: GoogleStandIn, hermetic: Path) -> None:
    home = hermetic / ".memseed"
    _cli("scan", "gmail:", "-q")
    assert (home / "state.db").stat().st_mode & 0o777 == 0o600
    assert home.stat().st_mode & 0o077 == 0
    with Store(home / "state.db") as store:
        assert store.cache_size("gmail:")[0] > 20
    assert CliRunner().invoke(main, ["sources", "--forget", "gmail:"], catch_exceptions=False).exit_code == 0
    with Store(home / "state.db") as store:
        assert store.cache_size("gmail:") == (0, 0) and not store.cache_ready("gmail:", itemjson.FORMAT)
        assert "gmail:" not in [s["location"] for s in store.sources()]


def test_cache_holds_redacted_text_only(google: GoogleStandIn, hermetic: Path) -> None:
    home = hermetic / ".memseed"
    _cli("scan", "gmail:", "-q")
    key = "AKIA" + "Q3EXAMPLE7PLMN4XZ"  # an AWS key id in the owner's own sent mail
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = MAYA, "tom@example.com", "creds for the deploy"
    msg["Date"], msg["Message-ID"] = format_datetime(dt.datetime(2026, 11, 4, 9, tzinfo=dt.UTC)), "<key@example.com>"
    msg.set_content(f"Use {key} for the deploy bucket.\n")
    google.world.add_mail(msg.as_bytes(), labels=["SENT"])
    assert _cli("reseed")["new_items"] == 1
    with Store(home / "state.db") as store:
        rows = list(store.cache_rows("gmail:"))
    assert any("deploy bucket" in r for r in rows)  # the body is cached (it is the owner's own words) ...
    assert not any(key in r for r in rows)  # ... with the secret already redacted by the connector
    assert not [f for f in home.glob("state.db*") if key.encode() in f.read_bytes()]


def test_a_cursor_moved_without_the_cache_or_a_since_scan_means_a_full_read(
        google: GoogleStandIn, hermetic: Path) -> None:
    home = hermetic / ".memseed"
    _cli("scan", "gmail:", "-q")
    with Store(home / "state.db") as store:
        assert store.cache_ready("gmail:", itemjson.FORMAT)
        store.set_cursor("gmail:", {**(store.cursor("gmail:") or {}), "history_id": "1"})  # an older memseed
        assert not store.cache_ready("gmail:", itemjson.FORMAT)
    _cli("scan", "gmail:", "-q")  # a full scan rebuilds it
    _cli("scan", "gmail:", "-q", "--since", "2026-10-01")  # a window: the cache would be partial
    with Store(home / "state.db") as store:
        assert not store.cache_ready("gmail:", itemjson.FORMAT) and store.cache_size("gmail:") == (0, 0)
        assert store.cursor("gmail:") is not None
    google.reset_stats()
    _add_three(google)
    assert _cli("reseed")["new_items"] == 3
    assert google.stats["messages.list"] >= 2  # read in full, and cached again
    with Store(home / "state.db") as store:
        assert store.cache_ready("gmail:", itemjson.FORMAT)


def test_an_existing_world_readable_db_is_tightened(hermetic: Path) -> None:
    db = hermetic / "loose" / "state.db"
    Store(db).close()
    db.chmod(0o644)
    Store(db).close()
    assert db.stat().st_mode & 0o777 == 0o600


def test_a_mailbox_over_the_bound_is_not_cached(google: GoogleStandIn, hermetic: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    home = hermetic / ".memseed"
    monkeypatch.setattr(rows, "MAX_ITEMS", 10)
    summary = _cli("scan", "gmail:", "-q")
    assert summary["items"] > 10 and not summary["errors"]  # the scan itself is whole
    with Store(home / "state.db") as store:
        assert store.cache_size("gmail:") == (0, 0) and not store.cache_ready("gmail:", itemjson.FORMAT)
        assert store.cursor("gmail:") is not None
    _add_three(google)
    google.reset_stats()
    assert _cli("reseed")["new_items"] == 3
    assert len(_fetched(google)) == summary["items"] + 3 + 3  # as before the cache: the check, then all


def test_a_full_read_resumed_after_a_kill_keeps_what_the_killed_read_cached(
        google: GoogleStandIn, hermetic: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Gmail continues an interrupted first read from its last finished page, so the second scan
    yields only the rest: the cache must keep the first part, not prune it as stale."""
    home = hermetic / ".memseed"
    monkeypatch.setattr(gmail_mod, "PAGE_SIZE", 10)
    google.fault(500, 0, match="/batch/")
    real_add = itemcache.CacheWriter.add

    def add(self: itemcache.CacheWriter, item: Any, digest: str) -> None:
        real_add(self, item, digest)
        if self.writer.count == 25:
            google.faults[0].count = 50  # the server starts failing part-way through the first read

    monkeypatch.setattr(itemcache.CacheWriter, "add", add)
    real_ctx = pipeline.read_context
    monkeypatch.setattr(pipeline, "read_context", lambda *a, **kw: real_ctx(*a, **kw, sleep=lambda _s: None))
    killed = CliRunner().invoke(main, ["scan", "gmail:", "-q"])
    assert killed.exit_code != 0 and "keeps failing" in killed.output
    monkeypatch.setattr(itemcache.CacheWriter, "add", real_add)
    google.faults.clear()
    again = _cli("scan", "gmail:", "-q")
    assert not again["errors"] and any("interrupted" in s for s in json.dumps(again["sources"]).split('"'))
    with Store(home / "state.db") as store:
        cached = store.cache_size("gmail:")[0]
        assert store.cache_ready("gmail:", itemjson.FORMAT)
    total = len(list(GmailSource("gmail:").read(_read_ctx())))
    assert again["items"] < total and cached == total  # the rest was read; the cache holds all of it
    _add_three(google)
    news = _cli("reseed")
    # news: the 3 new ones, and the part the killed scan read (no finished scan analysed it yet;
    # the resumed scan's own proposals came from the rest only)
    assert news["new_items"] == 3 + total - again["items"]
    assert _proposals(home, news["run_id"]) == _fresh_scan("gmail:", monkeypatch, tmp_path)


def test_an_expired_outlook_delta_link_relists_the_folder_without_doubling(
        outlook: Path, ms: MSStandIn, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    _cli("scan", "outlook:", "-q")
    with Store(outlook / "state.db") as store:
        rows = store.cache_size("outlook:")[0]
    ms.world.add_message("inbox", subject="Review?", sender=PEERS[0], to=[OWNER], body="Please review.",
                         when=dt.datetime(2026, 11, 2, tzinfo=dt.UTC))
    ms.world.gone.add("mail/inbox")  # Graph forgot the inbox's sync state: 410, the folder is listed again
    ms.world.served.clear()
    news = _cli("reseed")
    assert ms.world.served["mail/inbox"] == 15 + 1 and ms.world.served["mail/sentitems"] == 0
    assert news["new_items"] == 1  # the re-listed messages replaced their own rows: not news, not doubled
    with Store(outlook / "state.db") as store:
        assert store.cache_size("outlook:")[0] == rows + 1
    assert _proposals(outlook, news["run_id"]) == _fresh_scan("outlook:", monkeypatch, tmp_path, sign_in=True)
