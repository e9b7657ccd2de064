"""Which items each fact about the user stands on, and whether the owner appears in them.

Why a module of its own: issue 30's invariants ("no user fact from a source in which the owner
does not appear", "every user fact cites an item of the kind its text names", "a calendar
marked not-mine or shared changes no user fact") are checked over every real corpus and over
generated footprints, and the same audit prints the figures of the closing note
(``python -m tests.pipeline.fact_audit``). It re-reads every scanned location through the
connectors (the parsers under test elsewhere) and decides "does the owner appear in this item"
from the item's own fields, with none of the analyzers' code: an event counts when the owner
organised it, is on its attendee list without having declined, or (no organizer, no attendees) it is in the calendar
of the owner's own account; a message when the owner sent or received it; a chat message when
the owner wrote it or wrote in its thread. An item where the owner appears only under an
address memseed *suggests* as theirs (not yet confirmed) is told apart, not counted against.

The generated owner (``owner_mail``) writes from a zone no real calendar here uses, so a
timezone taken from someone else's calendar shows as a different zone.
"""

from __future__ import annotations

import mailbox
import os
import re
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from email.utils import format_datetime
from pathlib import Path
from zoneinfo import ZoneInfo

from bootstrap_app.config import load_settings
from bootstrap_app.identity.owner import OwnerIdentity
from bootstrap_app.pipeline import scan
from bootstrap_app.report.scan import ScanResult
from bootstrap_app.store import Store
from bootstrap_app.types import ChatMessage, Event, Item, MemoryType, Message, Proposal, Repo
from connectors.base import ReadContext
from connectors.registry import detect

__all__ = ["OWNER", "OWNER_ZONE", "Audit", "FactRow", "audit", "corpora", "owner_calendar", "owner_mail", "scan_with",
           "user_facts"]

OWNER = "rowan.vale@owner-mail.example"
"""The generated owner (a name no corpus holds)."""
OWNER_ZONE = "Asia/Kolkata"
"""The generated owner's clock (+05:30: no real calendar here is in it)."""
_CANDIDATES = 3
"""Owner candidates of a corpus that proves no owner, each scanned as the owner."""
_PEERS = ("kit.moss@owner-mail.example", "ines.hale@partner.example", "oskar.lind@partner.example")

_KIND_WORDS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"\bfrom the calendar\b|\(from the calendar|in the calendar\b", re.I), "event"),
    (re.compile(r"\bSlack profile\b", re.I), "chatmessage"),
    (re.compile(r"\bsent mail\b|\bsignature\b|\bcontact blocks? in mail\b", re.I), "message"),
)
"""A phrase in a fact's text -> the kind of item its evidence must hold."""


def owner_mail(folder: Path, *, n: int = 60, zone: str = OWNER_ZONE, start: datetime | None = None) -> Path:
    """A generated owner's mail: ``Sent.mbox`` (the owner writes to three people on weekdays,
    09:00-18:00 in ``zone``) and ``INBOX.mbox`` (their answers). Returns ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    tz = ZoneInfo(zone)
    day = (start or datetime.now(UTC) - timedelta(days=120)).astimezone(tz).replace(hour=9, minute=0, second=0,
                                                                                     microsecond=0)
    sent, inbox = mailbox.mbox(folder / "Sent.mbox"), mailbox.mbox(folder / "INBOX.mbox")
    written = 0
    while written < n:
        day += timedelta(days=1)
        if day.weekday() >= 5:
            continue
        peer = _PEERS[written % len(_PEERS)]
        when = day + timedelta(hours=written % 8, minutes=7 * (written % 5))
        out = _message(f"<o{written}@owner-mail.example>", f"Rowan Vale <{OWNER}>", peer, when,
                       f"Plan {written}", "Hi,\nhere is the plan.\n\nRowan\n")
        sent.add(out)
        inbox.add(_message(f"<r{written}@partner.example>", peer, f"Rowan Vale <{OWNER}>", when + timedelta(hours=1),
                           f"Re: Plan {written}", "Thanks, looks good.\n", reply_to=f"<o{written}@owner-mail.example>"))
        written += 1
    sent.flush()
    inbox.flush()
    return folder


def owner_calendar(path: Path, *, organizer: str = OWNER, zone: str = "Europe/Lisbon", weeks: int = 12,
                   title: str = "Roadmap review", daily: bool = False) -> Path:
    """A calendar export with one weekly series ``organizer`` runs in ``zone`` (10:00 on
    Tuesdays, up to now; ``daily``: every day for as many weeks), with two of the generated
    owner's peers invited. Returns ``path``."""
    import icalendar

    tz = ZoneInfo(zone)
    first = (datetime.now(UTC) - timedelta(weeks=weeks)).astimezone(tz).replace(hour=10, minute=0, second=0,
                                                                                microsecond=0)
    first += timedelta(days=(1 - first.weekday()) % 7)
    cal = icalendar.Calendar()
    cal.add("prodid", "-//memseed fact audit//")
    cal.add("version", "2.0")
    ev = icalendar.Event()
    ev.add("uid", f"weekly-{organizer}")
    ev.add("summary", title)
    ev.add("dtstart", first)
    ev.add("dtend", first + timedelta(minutes=45))
    ev.add("rrule", {"freq": "daily", "count": 7 * weeks} if daily else {"freq": "weekly", "count": weeks})
    ev.add("organizer", f"mailto:{organizer}")
    for peer in _PEERS[:2]:
        ev.add("attendee", f"mailto:{peer}")
    cal.add_component(ev)
    path.write_bytes(cal.to_ical())
    return path


def _message(mid: str, sender: str, to: str, when: datetime, subject: str, body: str, reply_to: str = "") -> EmailMessage:
    msg = EmailMessage()
    msg["Message-ID"], msg["From"], msg["To"], msg["Subject"] = mid, sender, to, subject
    msg["Date"] = format_datetime(when)
    if reply_to:
        msg["In-Reply-To"] = reply_to
    msg.set_content(body)
    return msg


@dataclass(frozen=True)
class Cited:
    """One evidence record of a fact, as the audit reads its item."""

    kind: str
    source: str
    ref: str
    owner_appears: bool
    found: bool
    alias_only: bool = False
    """The owner appears only under an address memseed suggests as theirs (not yet confirmed)."""


@dataclass
class FactRow:
    """One user fact, its text and the items it stands on."""

    name: str
    text: str
    cited: list[Cited] = field(default_factory=list)

    @property
    def foreign(self) -> list[Cited]:
        """Evidence items the owner does not appear in (or that no source gave)."""
        return [c for c in self.cited if not (c.found and (c.owner_appears or c.alias_only))]

    @property
    def missing_kinds(self) -> list[str]:
        """Kinds the text names whose evidence holds no item of that kind in which the owner appears."""
        have = {c.kind for c in self.cited if c.found and (c.owner_appears or c.alias_only)}
        return [kind for rx, kind in _KIND_WORDS if rx.search(self.text) and kind not in have]


@dataclass
class Audit:
    """The user facts of one scan, each with its evidence read back from the sources."""

    label: str
    owner: OwnerIdentity
    facts: list[FactRow]

    def violations(self) -> list[str]:
        out = []
        for f in self.facts:
            out += [f"{self.label}: {f.name} cites {c.kind} {c.ref} where the owner does not appear"
                    for c in f.foreign]
            out += [f"{self.label}: {f.name} names a {k} source but cites none of the owner's" for k in f.missing_kinds]
        return out

    def lines(self) -> Iterator[str]:
        yield f"{self.label}: {len(self.facts)} user facts, {sum(bool(f.foreign) for f in self.facts)} on "\
              "someone else's evidence"
        for f in self.facts:
            kinds: dict[tuple[str, str], int] = {}
            for c in f.cited:
                whose = "" if c.owner_appears else " (a suggested alias)" if c.alias_only else " (not the owner)"
                kinds[(c.kind, whose)] = kinds.get((c.kind, whose), 0) + 1
            said = ", ".join(f"{n} {k}{whose}" for (k, whose), n in kinds.items())
            yield f"  - {f.name}: {said or 'no evidence'}" + (f"; names {f.missing_kinds} without citing one"
                                                             if f.missing_kinds else "")


def _appears(item: Item, owner: OwnerIdentity, threads: frozenset[tuple[str, str]] = frozenset()) -> bool:
    if isinstance(item, Message):
        return any(owner.is_owner(p) for p in (item.sender, *item.to, *item.cc))
    if isinstance(item, Event):
        if item.organizer is not None and owner.is_owner(item.organizer):
            return True
        if any(owner.is_owner(p) and p.address not in item.declined for p in item.attendees):
            return True
        bare = item.organizer is None and not item.attendees
        return bare and not item.published and bool(item.calendar_owner) \
            and owner.is_owner_address(item.calendar_owner)
    if isinstance(item, ChatMessage):  # the owner's message, or one in a thread the owner wrote in
        return owner.is_owner(item.user) or (item.channel, item.thread_ts) in threads
    if isinstance(item, Repo):
        return bool(item.git_user_email) and owner.is_owner_address(item.git_user_email)
    return False


def _items(locations: list[str], tmp: Path) -> dict[tuple[str, str], Item]:
    """Every item the locations give, by (source, ref): read again, independently of the scan."""
    ctx = ReadContext(home=tmp)
    out: dict[tuple[str, str], Item] = {}
    for loc in locations:
        for source in detect(loc):
            for item in source.read(ctx):
                out[(item.source, item.ref)] = item
    return out


def audit(label: str, result: ScanResult, locations: list[str], tmp: Path) -> Audit:
    """The user facts of ``result`` with each evidence item read back from ``locations``."""
    items = _items(locations, tmp)
    alias = OwnerIdentity(names=result.owner.names, addresses=frozenset(result.owner.suggested))
    threads = frozenset((i.channel, i.thread_ts) for i in items.values()
                        if isinstance(i, ChatMessage) and i.thread_ts and result.owner.is_owner(i.user))
    rows = []
    for p in user_facts(result):
        row = FactRow(p.name, f"{p.description}\n{p.body}")
        for ev in p.evidence:
            item = items.get((ev.source, ev.ref))
            mine = item is not None and _appears(item, result.owner, threads)
            row.cited.append(Cited(item.kind if item else ev.source.partition(":")[0], ev.source, ev.ref,
                                   mine, item is not None, not mine and item is not None and _appears(item, alias)))
        rows.append(row)
    return Audit(label, result.owner, rows)


def user_facts(result: ScanResult) -> list[Proposal]:
    return sorted((p for p in result.proposals if p.type is MemoryType.USER), key=lambda p: p.name)


def scan_with(locations: list[str], home: Path, *, owners: tuple[str, ...] = (),
              ownership: dict[str, str] | None = None) -> ScanResult:
    """Scan ``locations`` in a fresh app dir, with what the person said about each source."""
    settings = load_settings(home)
    with Store(settings.db_path) as store:
        for loc, said in (ownership or {}).items():
            store.set_source_ownership(str(Path(loc).resolve()), said)
        return scan(locations, settings=settings, store=store, owners=owners)


def corpora(root: Path) -> dict[str, list[Path]]:
    """Every real corpus of the folder, by label: mailboxes, calendars, chat exports, Takeout."""
    out: dict[str, list[Path]] = {}
    for path in sorted((root / "ics").glob("*/*.ics")):
        out[f"ics/{path.parent.name}/{path.name}"] = [path]
    for path in sorted((root / "email").glob("*/*.mbox")):
        out[f"email/{path.parent.name}/{path.name}"] = [path]
    for path in sorted((root / "slack").iterdir()) if (root / "slack").is_dir() else []:
        out[f"slack/{path.name}"] = [path]
    return out


def _main(argv: list[str]) -> int:
    """Print, per real corpus (alone, and each calendar beside a generated owner's mail), the user
    facts proposed and the evidence each stands on."""
    import tempfile

    root = Path(os.environ.get("MEMSEED_REALDATA", ""))
    if not root.is_dir():
        print("set MEMSEED_REALDATA to the real-data folder", file=sys.stderr)
        return 2
    only = argv[1:] if len(argv) > 1 else None
    total = foreign = 0
    with tempfile.TemporaryDirectory() as tmp_dir:
        tmp = Path(tmp_dir)
        mail = owner_mail(tmp / "owner-mail")
        runs: list[tuple[str, list[str], tuple[str, ...]]] = []
        for label, paths in corpora(root).items():
            runs.append((label, [str(p) for p in paths], ()))
            if label.startswith("ics/"):
                runs.append((f"{label} + generated owner mail", [str(mail), *map(str, paths)], ()))
        for n, (label, locs, owners) in enumerate(runs):
            if only and not any(o in label for o in only):
                continue
            try:
                result = scan_with(locs, tmp / f"home{n}", owners=owners)
            except Exception as exc:  # a corpus nothing can be read from
                print(f"{label}: not scanned ({type(exc).__name__}: {str(exc).splitlines()[0]})")
                continue
            audits = [audit(label, result, locs, tmp)]
            for k, cand in enumerate(result.owner.candidates[:_CANDIDATES]):  # as the person would pick
                picked = scan_with(locs, tmp / f"home{n}-{k}", owners=(cand.owner,))
                audits.append(audit(f"{label} (owner picked: candidate {k + 1}, {cand.kind})", picked, locs, tmp))
            for a in audits:
                total += len(a.facts)
                foreign += sum(bool(f.foreign) for f in a.facts)
                for line in a.lines():
                    print(line)
    print(f"TOTAL: {total} user facts, {foreign} on someone else's evidence")
    return 0


if __name__ == "__main__":
    raise SystemExit(_main(sys.argv))
