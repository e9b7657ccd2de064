"""Who the owner is and who they work with, on real mail and chat nobody here wrote (issue 20).

Every expectation is computed at test time from the raw files with the standard library
(``mailbox``, ``json``), sharing no code or word list with memseed; no corpus person is named.

- a mailing-list archive (the list's ``List-Post`` address, read from its headers) has no owner,
  and no proposal about "you";
- a Slack export alone offers candidates, led by the person who wrote the most (bots aside), and
  that person given as Slack id, handle, real name or profile e-mail yields the same proposals;
  their working hours never say "Monday to Friday" when a quarter of their messages fall on
  weekends;
- in both Enron inboxes, no collaborator is the owner or a suggested alias of the owner, and no
  sender whose subjects all fill one or two templates (digits and addresses aside) and whom the
  owner never wrote to is listed.
"""

from __future__ import annotations

import json
import mailbox
import re
from collections import Counter, defaultdict
from datetime import UTC, datetime
from email.utils import getaddresses
from pathlib import Path

import pytest

from bootstrap_app.config import load_settings
from bootstrap_app.pipeline import scan
from bootstrap_app.report.scan import ScanResult
from tests.conftest import realdata_by_digest, realdata_file
from tests.mail_oracle import HELD_OUT_INBOX, TUNING_INBOX

pytestmark = pytest.mark.realdata

_ADDRESS = re.compile(r"<([^<>\s]+@[^<>\s]+)>")


def _scan(path: Path, home: Path, owners: tuple[str, ...] = ()) -> ScanResult:
    return scan([str(path)], settings=load_settings(home), owners=owners)


@pytest.mark.parametrize("name", ["notmuch-list-2009-default-corpus.mbox", "notmuch-lkml-corpus.mbox"])
def test_a_list_archive_has_no_owner(name: str, tmp_path: Path) -> None:
    path = realdata_file("email", "notmuch", name)
    posts = {a.lower() for m in mailbox.mbox(str(path)) for _, a in getaddresses([str(m.get("List-Post", ""))])
             if "@" in a}
    assert posts, "the oracle found the list's posting address"
    result = _scan(path, tmp_path / "home")
    assert not result.owner.known and not posts & set(result.owner.suggested)
    assert "mailing-list archive" in result.owner.unknown_why
    assert not [p for p in result.proposals if p.name in ("user-role", "closest-collaborators")]


def _slack_authors(root: Path) -> tuple[Counter[str], dict[str, Counter[int]], dict[str, set[str]]]:
    """Per user id: messages written (bots aside), per weekday, and on which dates (UTC)."""
    written: Counter[str] = Counter()
    weekdays: dict[str, Counter[int]] = defaultdict(Counter)
    dates: dict[str, set[str]] = defaultdict(set)
    for day in root.glob("*/*.json"):
        for m in json.loads(day.read_text(encoding="utf-8")):
            if isinstance(m, dict) and m.get("user") and m.get("subtype") != "bot_message" and m.get("ts"):
                when = datetime.fromtimestamp(float(m["ts"]), UTC)
                written[m["user"]] += 1
                weekdays[m["user"]][when.weekday()] += 1
                dates[m["user"]].add(when.date().isoformat())
    return written, weekdays, dates


@pytest.mark.parametrize("export", ["julialang-subset-export-layout", "slack-export-viewer-testarchive"])
def test_a_slack_export_alone_offers_its_writers_and_any_form_of_one_is_the_same(export: str,
                                                                                tmp_path: Path) -> None:
    root = realdata_file("slack", export)
    written, weekdays, _dates = _slack_authors(root)
    top, n = written.most_common(1)[0]
    result = _scan(root, tmp_path / "home")
    assert not result.owner.known
    first = result.owner.candidates[0]
    assert (first.owner, first.kind) == (top, "slack") and f"wrote {n} chat messages" in first.evidence
    user = next(u for u in json.loads((root / "users.json").read_text(encoding="utf-8")) if u["id"] == top)
    forms = [top, user["name"], user.get("real_name") or user["profile"]["real_name"],
             *([user["profile"]["email"]] if user["profile"].get("email") else [])]
    seen = []
    for i, form in enumerate(forms):
        result = _scan(root, tmp_path / f"home{i}", owners=(form,))
        assert result.owner.known, form
        seen.append(sorted((p.name, p.body) for p in result.proposals))
    assert all(s == seen[0] for s in seen), forms
    weekend = weekdays[top][5] + weekdays[top][6]
    hours = "\n".join(body for name, body in seen[0] if name == "timezone-and-working-hours")
    if weekend >= 0.25 * n:
        assert "Monday to Friday" not in hours


def _templated(path: Path, owner: str) -> set[str]:
    """Senders of 10+ mails the owner never wrote to, whose subjects (digits and addresses
    blanked, reply prefixes kept) take at most two forms."""
    forms: dict[str, set[str]] = defaultdict(set)
    volume: Counter[str] = Counter()
    written_to: set[str] = set()
    for m in mailbox.mbox(str(path)):
        sender = next((a.lower() for _, a in getaddresses([str(m.get("From", ""))]) if "@" in a), "")
        rcpts = {a.lower() for _, a in getaddresses([str(v) for h in ("To", "Cc") for v in m.get_all(h, [])])}
        if sender == owner:
            written_to |= rcpts
        volume[sender] += 1
        forms[sender].add(re.sub(r"\S*\d\S*|\S+@\S+", "#", str(m.get("Subject", "")).lower()))
    return {s for s, n in volume.items() if n >= 10 and len(forms[s]) <= 2 and s not in written_to and s != owner}


@pytest.mark.parametrize("digest", [TUNING_INBOX, HELD_OUT_INBOX])
def test_collaborators_are_neither_the_owner_nor_a_machine(digest: str, tmp_path: Path) -> None:
    path = realdata_by_digest(digest)
    result = _scan(path, tmp_path / "home")
    team = {p.name: p for p in result.proposals}["closest-collaborators"].body
    listed = {a.lower() for a in _ADDRESS.findall(team)}
    assert len(listed) >= 3
    assert not listed & (set(result.owner.addresses) | set(result.owner.suggested))
    [owner] = result.owner.addresses
    machines = _templated(path, owner)
    assert not listed & machines
    assert "mails to the owner" in team  # the counts are the evidence


def _name_words(display: str) -> set[str]:
    """``Last, First M <…>`` -> {"first", "m", "last"} (the oracle's own reading of a display name)."""
    text = re.sub(r"<[^<>]*>|\([^()]*\)|\"", " ", display).strip()
    last, comma, first = text.partition(",")
    return set(re.findall(r"[a-z]+", (f"{first} {last}" if comma else text).lower()))


@pytest.mark.parametrize("digest", [TUNING_INBOX, HELD_OUT_INBOX])
def test_signatures_in_real_mail_are_read_from_their_block(digest: str) -> None:
    """Every signature memseed reads names a signer whose title (or organisation) stands within the block's lines
    and carries no phone, year or address; and where the oracle sees the sender's own name as a
    closing line, memseed reads that sender's signature in at least a third of the mails."""
    from bootstrap_app.signals.signature import parse_signature
    from bootstrap_app.text.mail import own_text

    path = realdata_by_digest(digest)
    named = signed = found = 0
    for m in mailbox.mbox(str(path)):
        if m.is_multipart():
            continue
        body = own_text(m.get_payload(decode=True).decode("latin-1"))
        lines = [line.strip() for line in body.splitlines() if line.strip()][-25:]
        sig = parse_signature(body)
        if sig:
            found += 1
            block = [after for i, line in enumerate(lines) if sig["signer"] in line for after in lines[i:i + 6]]
            stated = sig.get("title") or sig.get("org") or sig["team"]
            assert any(stated in line for line in block), sig
            assert not [v for v in sig.values() if re.search(r"\d{3}|@", v)], sig
        sender = _name_words(str(m.get("X-From") or getaddresses([str(m.get("From", ""))])[0][0]))
        if len(sender) >= 2 and any(set(re.findall(r"[a-z]+", line.lower())) == sender for line in lines[:-1]):
            named += 1
            signed += bool(sig) and {w for w in sender if len(w) > 1} <= set(re.findall(r"[a-z]+", sig["signer"].lower()))
    assert found >= 5 and named >= 5
    assert signed >= named / 3, (signed, named)
