"""Hostile-mailbox fixtures: every injection corpus string sent by a third party amid normal mail.

The mailboxes are written here with the standard library (``mailbox.mbox``) from the corpora in
``../shared/realdata/injection`` (skipped cleanly when absent). Each attack is spliced into a
clean BIPIA email body at the start, middle or end, as BIPIA itself does, and sent from an
outside address; the owner's own mail and colleagues' mail surround it so identity resolution
and the signal analyzers see an ordinary inbox.

Reading goes through the real mbox connector and the real pipeline.
"""

from __future__ import annotations

import csv
import email.utils
import json
import mailbox
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from email.policy import default as default_policy
from pathlib import Path

from bootstrap_app.text.unicode import word_list
from bootstrap_app.types import Person
from tests.conftest import realdata_file

OWNER = Person("Maya Okafor", "maya.okafor@northwind-labs.example")
COLLEAGUES = (Person("Daniel Reyes", "daniel.reyes@northwind-labs.example"),
              Person("Priya Raman", "priya.raman@northwind-labs.example"),
              Person("Tom Becker", "tom.becker@northwind-labs.example"))
START = datetime(2026, 1, 5, 9, 0, tzinfo=UTC)
WINDOW = 6


@dataclass(frozen=True)
class Attack:
    corpus: str
    key: str
    text: str


@dataclass(frozen=True)
class CleanEmail:
    subject: str
    sender: Person
    content: str


def attacks() -> list[Attack]:
    """BIPIA text (150) + code (50) attacks, Giskard (35), jailbreak-corpus-mini (15)."""
    out: list[Attack] = []
    for name in ("text_attack_test.json", "text_attack_train.json", "code_attack_test.json"):
        data = json.loads(realdata_file("injection", "bipia", name).read_text("utf-8"))
        corpus = "bipia-code" if name.startswith("code") else "bipia-text"
        for category, items in data.items():
            out.extend(Attack(corpus, f"{name}:{category}:{i}", text) for i, text in enumerate(items))
    with realdata_file("injection", "giskard", "prompt_injections.csv").open(encoding="utf-8") as fh:
        out.extend(Attack("giskard", f"giskard:{row['index']}", row["prompt"]) for row in csv.DictReader(fh))
    probes = json.loads(realdata_file("injection", "jailbreak-corpus-mini", "corpus.json").read_text("utf-8"))
    out.extend(Attack("jailbreak-mini", f"jb:{p['id']}", p["prompt"]) for p in probes)
    return out


def clean_emails() -> list[CleanEmail]:
    """The 100 clean BIPIA emails, split into subject / sender / content."""
    out: list[CleanEmail] = []
    for name in ("test.jsonl", "train.jsonl"):
        for line in realdata_file("injection", "bipia", "email", name).open(encoding="utf-8"):
            ctx = json.loads(line)["context"]
            head, _sep, content = ctx.partition("|CONTENT:")
            fields = dict(part.split(": ", 1) for part in head.split("|") if ": " in part)
            name_, addr = email.utils.parseaddr(fields.get("EMAIL_FROM", ""))
            out.append(CleanEmail(fields.get("SUBJECT", "(no subject)"), Person(name_, addr or "x@bipia.example"),
                                  content.strip()))
    return out


def splice(body: str, attack: str, where: int) -> str:
    """Insert ``attack`` at the start (0), middle (1) or end (2) of ``body`` on paragraph bounds."""
    if where == 0:
        return f"{attack}\n\n{body}"
    if where == 2:
        return f"{body}\n\n{attack}"
    paras = body.split("\n\n")
    mid = max(1, len(paras) // 2)
    return "\n\n".join([*paras[:mid], attack, *paras[mid:]])


def _message(sender: Person, to: Person, subject: str, body: str, when: datetime, msgid: str) -> EmailMessage:
    msg = EmailMessage(policy=default_policy)
    msg["From"] = email.utils.formataddr((sender.name, sender.address))
    msg["To"] = email.utils.formataddr((to.name, to.address))
    msg["Subject"] = subject.replace("\n", " ")[:200]
    msg["Date"] = email.utils.format_datetime(when)
    msg["Message-ID"] = msgid
    msg.set_content(body)
    return msg


OWNER_LINES = (
    "Thanks, I'll review the ledger-api migration PR this afternoon.",
    "Let's keep the standup at 09:30 on Tuesdays and Thursdays.",
    "I pushed the deploy-console fix; CI is green on main.",
    "Can you add the Q3 planning notes to the shared doc before Friday?",
    "The payments reconciliation job needs another look next week.",
)


def write_mailbox(path: Path, hostile: list[Attack] | None, clean: list[CleanEmail]) -> dict[str, Attack]:
    """Write the mailbox; returns Message-ID -> attack for every hostile message."""
    box = mailbox.mbox(str(path), create=True)
    spliced: dict[str, Attack] = {}
    when = START
    try:
        box.lock()
        for i in range(30):  # the owner's own mail and replies from colleagues
            mate = COLLEAGUES[i % len(COLLEAGUES)]
            when += timedelta(hours=5)
            box.add(_message(OWNER, mate, f"ledger-api sync {i}", OWNER_LINES[i % len(OWNER_LINES)], when,
                             f"<own-{i}@northwind-labs.example>"))
            box.add(_message(mate, OWNER, f"Re: ledger-api sync {i}", f"Sounds good. {OWNER_LINES[(i + 2) % 5]}",
                             when + timedelta(minutes=40), f"<mate-{i}@northwind-labs.example>"))
        for i, mail in enumerate(clean):
            when += timedelta(hours=3)
            box.add(_message(mail.sender, OWNER, mail.subject, mail.content, when, f"<clean-{i}@bipia.example>"))
        for i, attack in enumerate(hostile or []):
            base = clean[i % len(clean)]
            when += timedelta(hours=2)
            msgid = f"<attack-{i}@outside.example>"
            sender = Person(f"Vendor {i % 9}", f"billing{i % 9}@outside-vendor.example")
            box.add(_message(sender, OWNER, base.subject, splice(base.content, attack.text, i % 3), when, msgid))
            spliced[msgid] = attack
        box.flush()
    finally:
        box.unlock()
        box.close()
    return spliced


# -- reading -------------------------------------------------------------------------------------
def mbox_suffix() -> str:
    """The suffix the real mbox connector reads (kept as a function for the tests that call it)."""
    return ".mbox"


# -- assertions -----------------------------------------------------------------------------------
def windows(text: str, size: int = WINDOW) -> set[tuple[str, ...]]:
    """Every ``size``-word window of ``text``; the whole text when it is shorter."""
    words = word_list(text)
    if len(words) < size:
        return {tuple(words)} if words else set()
    return {tuple(words[i:i + size]) for i in range(len(words) - size + 1)}


def carried(field_text: str, attack_windows: set[tuple[str, ...]]) -> tuple[str, ...] | None:
    """The first attack window found in ``field_text`` (word-normalised), or None."""
    words = word_list(field_text)
    for size in {len(w) for w in attack_windows}:
        for i in range(len(words) - size + 1):
            window = tuple(words[i:i + size])
            if window in attack_windows:
                return window
    return None
