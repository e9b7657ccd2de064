"""The demo persona's Google account for the stand-in: her Takeout mail, a calendar, a Drive.

``python -m tests.cloud.google_demo`` serves it on a loopback port and prints the two
environment variables that point memseed (CLI or app) at it, for trying the Google sources by
hand or from the browser test without an account.
"""

from __future__ import annotations

import io
import json
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from bootstrap_app.demo import build_demo, demo_locations
from bootstrap_app.demo.cast import CAST

from .google_world import World

__all__ = ["demo_world", "fill_calendar", "fill_drive", "main"]


def _docx(text: str) -> bytes:
    import docx

    doc = docx.Document()
    doc.add_heading("Team charter", 1)
    doc.add_paragraph(text)
    buf = io.BytesIO()
    doc.save(buf)
    return buf.getvalue()


def fill_calendar(world: World, now: datetime | None = None) -> None:
    """A weekly 1:1 series (instances share an iCalUID), a one-off, a cancelled occurrence,
    and a colleague's shared calendar."""
    now = now or datetime.now(UTC)
    world.calendars = [
        {"id": world.account, "summary": world.account, "timeZone": "Europe/Berlin", "primary": True,
         "accessRole": "owner"},
        {"id": "priya@example.com", "summary": "Priya", "timeZone": "UTC", "accessRole": "reader"},
    ]
    monday = (now - timedelta(days=now.weekday() + 28)).replace(hour=9, minute=0, second=0, microsecond=0)
    for week in range(5):
        start = monday + timedelta(weeks=week)
        world.add_event(world.account, {
            "id": f"series1_{start:%Y%m%dT%H%M%SZ}", "iCalUID": "series1@google.com", "recurringEventId": "series1",
            "summary": "Maya / Priya 1:1", "start": {"dateTime": start.isoformat(), "timeZone": "Europe/Berlin"},
            "end": {"dateTime": (start + timedelta(minutes=30)).isoformat(), "timeZone": "Europe/Berlin"},
            "organizer": {"email": world.account, "self": True},
            "attendees": [{"email": world.account, "responseStatus": "accepted", "self": True},
                          {"email": "priya@example.com", "displayName": "Priya Raman",
                           "responseStatus": "accepted"}],
            **({"status": "cancelled"} if week == 2 else {})})
    world.add_event(world.account, {"id": "offsite", "iCalUID": "offsite@google.com", "summary": "Offsite",
                                    "start": {"date": f"{now:%Y-%m-%d}"},
                                    "end": {"date": f"{now + timedelta(days=1):%Y-%m-%d}"}})
    world.add_event("priya@example.com", {
        "id": "priya-focus", "iCalUID": "priya-focus@google.com", "summary": "Focus time",
        "start": {"dateTime": (now - timedelta(days=1)).isoformat()},
        "end": {"dateTime": (now - timedelta(days=1) + timedelta(hours=2)).isoformat()},
        "organizer": {"email": "priya@example.com", "self": True}})


def fill_drive(world: World, now: datetime | None = None) -> None:
    now = now or datetime.now(UTC)
    stamp = (now - timedelta(days=3)).strftime("%Y-%m-%dT%H:%M:%S.000Z")
    me = {"displayName": "Maya Okafor", "emailAddress": world.account}
    base = {"modifiedTime": stamp, "trashed": False, "owners": [me], "ownedByMe": True, "modifiedByMe": True,
            "_me_owners": True, "_me_writers": True}
    files = [
        ({"id": "doc1", "name": "Ledger design notes", "mimeType": "application/vnd.google-apps.document"},
         {"text/markdown": b"# Ledger design notes\n\nWe use event sourcing for the ledger.\n"}),
        ({"id": "sheet1", "name": "On-call rota", "mimeType": "application/vnd.google-apps.spreadsheet"},
         {"text/csv": b"week,person\n1,Maya\n2,Priya\n"}),
        ({"id": "slides1", "name": "Platform roadmap", "mimeType": "application/vnd.google-apps.presentation"},
         {"text/plain": b"Platform roadmap\n\nQ1: migrate CI\n"}),
        ({"id": "docx1", "name": "charter.docx", "size": "0",
          "mimeType": "application/vnd.openxmlformats-officedocument.wordprocessingml.document"},
         {"media": _docx("We own the platform and its on-call.")}),
        ({"id": "big1", "name": "dump.txt", "mimeType": "text/plain", "size": str(50 * 2**20)}, {"media": b"x"}),
        ({"id": "theirs", "name": "Someone else's doc", "mimeType": "application/vnd.google-apps.document",
          "ownedByMe": False, "modifiedByMe": False, "_me_owners": False, "_me_writers": True,
          "owners": [{"displayName": "Tom", "emailAddress": "tom@example.com"}]},
         {"text/markdown": b"# Not Maya's\n"}),
        ({"id": "shared1", "name": "Team OKRs", "mimeType": "application/vnd.google-apps.document",
          "ownedByMe": False, "modifiedByMe": True, "_me_owners": False, "_me_writers": True,
          "owners": [{"displayName": "Priya Raman", "emailAddress": "priya@example.com"}]},
         {"text/markdown": b"# Team OKRs\n\nMaya: ship the ledger.\n"}),
        ({"id": "trash1", "name": "Old draft", "mimeType": "application/vnd.google-apps.document",
          "trashed": True}, {"text/markdown": b"# trashed\n"}),
    ]
    for meta, content in files:
        if meta["id"] == "docx1":
            meta["size"] = str(len(content["media"]))
        world.add_file({**base, "webViewLink": f"https://docs.example/{meta['id']}", **meta}, content)


def demo_world(demo_root: Path) -> World:
    """Maya's account: the demo Takeout mbox served as Gmail, plus a calendar and a Drive."""
    world = World(account=CAST["maya"].email)
    world.load_takeout_mbox(demo_locations(demo_root)["mbox"])
    fill_calendar(world)
    fill_drive(world)
    return world


def main() -> None:
    from .google_standin import GoogleStandIn

    with tempfile.TemporaryDirectory(prefix="memseed-google-demo-") as tmp:
        world = demo_world(build_demo(Path(tmp) / "demo"))
        with GoogleStandIn(world) as standin:
            creds = Path(tmp) / "authorized_user.json"
            creds.write_text(json.dumps(standin.authorized_user()), encoding="utf-8")
            print(f"export MEMSEED_GOOGLE_API_ROOT={standin.root}")
            print(f"export MEMSEED_GOOGLE_CREDENTIALS={creds}")
            print("# then: memseed scan google:   (Ctrl-C stops the stand-in)", flush=True)
            try:
                while True:
                    time.sleep(3600)
            except KeyboardInterrupt:
                pass


if __name__ == "__main__":
    main()
