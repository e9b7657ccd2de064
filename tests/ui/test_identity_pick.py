"""The wizard journey when a Slack export names no owner: pick yourself, re-analyse, see proposals.

A generated Slack export (users.json, channels.json, a channel's days) says nothing about whose
export it is, so the first scan proposes nothing about "you" and the "Who you are" page offers its
most active people. Clicking "This is me" on one and re-analysing (the page's own button, a
background job replaying the item cache) must give proposals about that person, shown on Review.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

from bootstrap_app.pipeline import scan
from bootstrap_app.store import Store
from bootstrap_app.ui.jobs import current_job

from .conftest import app_at

_T0 = datetime(2026, 3, 2, 8, 0, tzinfo=UTC)
_PEOPLE = [("U01IVO", "ivo", "Ivo Kestrel", 30), ("U02MAE", "mae", "Mae Lindqvist", 12)]


def _export(root: Path) -> Path:
    root.mkdir(parents=True)
    (root / "users.json").write_text(json.dumps([
        {"id": uid, "name": handle, "real_name": name, "tz": "Europe/Oslo", "profile": {"real_name": name}}
        for uid, handle, name, _ in _PEOPLE]))
    (root / "channels.json").write_text(json.dumps([{"id": "C1", "name": "general"}]))
    (root / "general").mkdir()
    days: dict[str, list[dict[str, object]]] = {}
    for uid, handle, name, n in _PEOPLE:
        for i in range(n):
            when = _T0 + timedelta(days=i, hours=i % 6)
            days.setdefault(when.strftime("%Y-%m-%d"), []).append(
                {"type": "message", "user": uid, "text": f"note {i}", "ts": f"{when.timestamp():.6f}",
                 "user_profile": {"real_name": name, "name": handle}})
    for day, messages in days.items():
        (root / "general" / f"{day}.json").write_text(json.dumps(messages))
    return root


def test_picking_a_slack_candidate_then_reanalysing_gives_proposals(hermetic: Path, settings) -> None:  # type: ignore[no-untyped-def]
    export = _export(hermetic / "slack-ws")
    first = scan([str(export)], settings=settings)
    assert not first.owner.known and not [p for p in first.proposals if p.type.value == "user"]

    at = app_at("identity")
    assert not at.exception
    assert any("pick yourself" in w.value for w in at.warning)
    assert any(m.value.startswith("`U01IVO`") for m in at.markdown)
    at.button(key="identity_cand_0").click().run()  # "This is me" on the most active person
    assert not at.exception and any("U01IVO" in s.value for s in at.success)
    at.button(key="identity_reanalyse").click().run()
    job = current_job(settings)
    assert job is not None and job.cached
    assert job.wait(120) and job.error is None, job.error

    with Store(settings.db_path) as store:
        latest = store.runs(limit=1)[0]
        proposals = {sp.proposal.name for sp in store.proposals(status="undecided")}
    assert latest["summary"]["owner"]["names"] == ["Ivo Kestrel"]
    assert {"user-role", "slack-channel-general"} <= proposals
    at = app_at("identity")  # the page now says who you are and offers no candidates
    assert not any("pick yourself" in w.value for w in at.warning)
    assert not [b for b in at.button if (b.key or "").startswith("identity_cand_")]
    at = app_at("review")
    assert not at.exception
    shown = "\n".join(m.value for m in at.markdown)
    assert "slack\\-channel\\-general" in shown or "slack-channel-general" in shown


def test_the_reanalysis_notice_shows_progress_and_leaves_when_done(hermetic: Path, settings) -> None:  # type: ignore[no-untyped-def]
    """The notice said "Re-analysing… starting" until the page was left: it now redraws itself
    (a fragment that reruns every second) with the stage and the items replayed so far, and the
    page reruns once the job ends, so the notice goes by itself."""
    import threading
    from types import SimpleNamespace

    from bootstrap_app.ui.jobs import start_scan

    release = threading.Event()

    def runner(locations, *, on_event, **kw):  # type: ignore[no-untyped-def]
        on_event(SimpleNamespace(kind="source-start", source="eml:/x", message="eml", count=0))
        on_event(SimpleNamespace(kind="progress", source="eml:/x", count=1234, done_bytes=0, total_bytes=0))
        release.wait(30)
        return SimpleNamespace(reports=[])

    job = start_scan(["/x"], settings, runner=runner, cached=True)
    try:
        at = app_at("identity")
        assert not at.exception
        notices = [i.value for i in at.info if i.value.startswith("Re-analysing")]
        assert notices and "reading sources" in notices[0] and "1,234 items" in notices[0], notices
    finally:
        release.set()
    assert job.wait(30)
    at = app_at("identity")
    assert not [i.value for i in at.info if i.value.startswith("Re-analysing")]
