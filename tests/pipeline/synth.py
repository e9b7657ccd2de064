"""Synthetic items for the pipeline tests, built straight from bootstrap_app.types.

Also a tiny registered connector (``*.items.json`` files holding serialised messages) so
that ``scan()`` and the CLI can be driven end to end without the real connectors.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import date, datetime, time, timedelta
from email.message import EmailMessage
from pathlib import Path
from zoneinfo import ZoneInfo

from bootstrap_app.types import Event, Item, Message, Person
from connectors.base import ReadContext, Source

OWNER = Person("Ada Lovelace", "ada@acme.example")
PRIYA = Person("Priya Raman", "priya@acme.example")
TOM = Person("Tom Becker", "tom@acme.example")
NEWS = Person("Weekly Digest", "news@digest.example")
NOREPLY = Person("GitHub", "noreply@github.com")
BERLIN = ZoneInfo("Europe/Berlin")


def at(day: date, hh: int, mm: int = 0, tz: ZoneInfo = BERLIN) -> datetime:
    """An aware local time (the Date header's offset is kept, as the mail connectors do)."""
    return datetime.combine(day, time(hh, mm), tzinfo=tz)


_WORDS = ("budget", "review", "draft", "launch", "notes", "plan", "question", "schedule", "report", "idea",
          "follow up", "numbers", "slides", "contract", "hiring", "offsite", "roadmap")


def _subject(i: int) -> str:
    """Words, never a number: people vary subjects in words, templates in slots (signals/automated.py)."""
    n = len(_WORDS)
    return f"{_WORDS[i % n]} {_WORDS[(i // n) % n]} {_WORDS[(i // (n * n)) % n]}".capitalize()


def mail(i: int, sender: Person, to: Person, when: datetime, *, body: str = "hello", bulk: bool = False,
         labels: tuple[str, ...] = (), source: str = "mbox:/synthetic") -> Message:
    offset = when.utcoffset()
    return Message(source=source, ref=f"m{i}", timestamp=when, people=(sender, to), sender=sender, to=(to,),
                   subject=_subject(i), body=body, is_bulk=bulk, labels=labels,
                   utc_offset_minutes=int(offset.total_seconds() // 60) if offset is not None else None)


def weekdays(start: date, n: int) -> list[date]:
    out: list[date] = []
    d = start
    while len(out) < n:
        if d.weekday() < 5:
            out.append(d)
        d += timedelta(days=1)
    return out


def mailbox(signature: bool = True) -> list[Item]:
    """Owner writes to Priya and Tom (both answer); a newsletter and GitHub send far more."""
    items: list[Item] = []
    days = weekdays(date(2026, 3, 2), 40)
    sig = "\n\nBest,\nAda\n\n-- \nAda Lovelace\nStaff Engineer, Analytics Team\nAcme Labs\n" if signature else ""
    n = 0
    for k, day in enumerate(days):
        for peer, hour in ((PRIYA, 9 + k % 8), (TOM, 10 + k % 7)):
            if k % 2 == 0 or peer is PRIYA:
                items.append(mail(n, OWNER, peer, at(day, hour, 15), body=f"Hi,\nnotes {n}{sig}",
                                  labels=("Sent",)))
                n += 1
                items.append(mail(n, peer, OWNER, at(day, hour + 1, 40)))
                n += 1
        for _ in range(3):
            items.append(mail(n, NEWS, OWNER, at(day, 6), bulk=True))
            n += 1
            items.append(mail(n, NOREPLY, OWNER, at(day, 7)))
            n += 1
    return items


def standup_series(weeks: int = 8, start: date = date(2026, 3, 2)) -> list[Item]:
    """A Mon–Fri 09:30 Berlin standup the owner organises (its zone is theirs), crossing the DST
    switch of 2026-03-29; and a Thursday 1:1 their manager organises."""
    items: list[Item] = []
    for i, day in enumerate(weekdays(start, weeks * 5)):
        begin = at(day, 9, 30)
        items.append(Event(source="ics:/synthetic", ref=f"standup-{i}", timestamp=begin, summary="Team standup",
                           start=begin, end=begin + timedelta(minutes=15), tzid="Europe/Berlin",
                           organizer=OWNER, attendees=(OWNER, PRIYA, TOM), series_uid="standup-uid",
                           calendar_owner=OWNER.address))
    for i in range(weeks):
        day = start + timedelta(days=3 + 7 * i)  # Thursdays
        begin = at(day, 10)
        items.append(Event(source="ics:/synthetic", ref=f"one-{i}", timestamp=begin, summary="Ada / Daniel",
                           start=begin, end=begin + timedelta(minutes=30), tzid="Europe/Berlin",
                           organizer=Person("Daniel Reyes", "daniel@acme.example"),
                           attendees=(OWNER, Person("Daniel Reyes", "daniel@acme.example")),
                           series_uid="one-uid", calendar_owner=OWNER.address))
    return items


def to_json(item: Message) -> dict[str, object]:
    return {"ref": item.ref, "ts": item.timestamp.isoformat() if item.timestamp else None,
            "from": [item.sender.name, item.sender.address], "to": [[p.name, p.address] for p in item.to],
            "subject": item.subject, "body": item.body, "bulk": item.is_bulk, "labels": list(item.labels)}


def write_items(path: Path, items: list[Item]) -> Path:
    lines = [json.dumps(to_json(i)) for i in items if isinstance(i, Message)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


class SyntheticItems(Source, kind="synthetic", priority=1, description="test items (JSON Lines)"):
    """``*.items.json``: one serialised Message per line (a test-only connector)."""

    suffix = ".items.json"

    @classmethod
    def sniff(cls, path: Path) -> bool:
        return path.is_file() and path.name.endswith(cls.suffix)

    def read(self, ctx: ReadContext) -> Iterator[Item]:
        path = Path(self.location)
        last = (ctx.cursor or {}).get("lines", 0)
        lines = path.read_text(encoding="utf-8").splitlines()
        for no, line in enumerate(lines):
            if no < last:
                continue
            try:
                d = json.loads(line)
            except ValueError as exc:
                ctx.skip(self.id, f"line {no + 1}", f"bad json: {exc}")
                continue
            ts = datetime.fromisoformat(d["ts"]) if d.get("ts") else None
            if ctx.since and ts and ts < ctx.since:
                continue
            yield Message(source=self.id, ref=d["ref"], timestamp=ts, sender=Person(*d["from"]),
                          to=tuple(Person(*p) for p in d["to"]), subject=d["subject"],
                          body=ctx.clean(d["body"]), is_bulk=d["bulk"], labels=tuple(d["labels"]))
        ctx.new_cursor = {"lines": len(lines)}


class ExplodingSource(SyntheticItems, kind="boom", description="test source that fails mid-read"):
    """``*.boom``: yields one message, then fails like a connector bug would."""

    suffix = ".boom"

    def read(self, ctx: ReadContext) -> Iterator[Item]:
        yield mail(1, OWNER, PRIYA, at(date(2026, 3, 2), 10), source=self.id)
        raise RuntimeError("connector bug")


def planning_note(n: int, sender: str = "ana@example.org") -> bytes:
    """One RFC 822 message, numbered: the mail the ledger and reseed tests write as files."""
    msg = EmailMessage()
    msg["From"] = f"Ana Lima <{sender}>"
    msg["To"] = "bo@example.org"
    msg["Subject"] = f"Planning note {n}"
    msg["Date"] = f"Mon, {n % 27 + 1:02d} Mar 2025 10:00:00 +0000"
    msg["Message-ID"] = f"<note-{n}@example.org>"
    msg.set_content(f"Body of note {n}: the release plan moves to the next sprint.\n")
    return bytes(msg)
