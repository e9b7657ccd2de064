"""A folder of message files read by worker processes: same items, skips and cursor, same order.

The parallel reader is forced onto small generated folders by lowering its thresholds, so each
folder here is cut into many batches, with bad files (empty, not mail) and a maildir's Sent
subfolder among them.
"""

from __future__ import annotations

import dataclasses
import mailbox
import os
from email.message import EmailMessage
from pathlib import Path

import pytest

from bootstrap_app.signals import textfacts
from bootstrap_app.types import Message
from connectors.base import ReadContext
from connectors.local import filepool, mailfiles
from connectors.local.eml import EmlSource

_SIGNERS = ["Maya Okafor", "Jon Reyes", "Priya Natarajan", "Lena Fischer"]


def _msg(i: int, subject: str = "") -> EmailMessage:
    m = EmailMessage()
    m["From"] = f"{_SIGNERS[i % 4]} <p{i % 4}@corp.example>"
    m["To"] = "owner@corp.example"
    m["Subject"] = subject or f"Note {i} about the release"
    m["Date"] = f"Tue, {1 + i % 28} Jan 2024 09:{i % 60:02d}:00 +0100"
    m["Message-ID"] = f"<e{i}@corp.example>"
    m.set_content(f"Please never push to main on Fridays ({i}).\n\nBest,\n{_SIGNERS[i % 4]}\nStaff Engineer\nCorp Labs\n")
    return m


def _folder(root: Path, n: int, poison: int = -1) -> Path:
    root.mkdir()
    for i in range(n):
        (root / f"{i:03d}.eml").write_bytes(bytes(_msg(i, "POISON" if i == poison else "")))
    (root / "050-empty.eml").write_bytes(b"")
    (root / "070-junk.eml").write_bytes(b"\x00\x01 not mail at all")
    return root


def _read(root: Path, jobs: int, **kw: object) -> tuple[list[Message], list[tuple[str, str]], dict[str, object]]:
    ctx = ReadContext(jobs=jobs, **kw)  # type: ignore[arg-type]
    items = [i for i in EmlSource(root).read(ctx) if isinstance(i, Message)]
    return items, [(s.ref, s.reason) for s in ctx.skips], dict(ctx.new_cursor or {})


def _facts(items: list[Message]) -> list[tuple[object, ...]]:
    return [dataclasses.astuple(i) for i in items]  # every field, the body included


@pytest.fixture
def small_batches(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(filepool, "MIN_FILES", 10)
    monkeypatch.setattr(filepool, "BATCH", 7)


def test_a_folder_reads_the_same_on_every_core(tmp_path: Path, small_batches: None) -> None:
    root = _folder(tmp_path / "mail", 90)
    one, skips1, cursor1 = _read(root, 1)
    many, skips2, cursor2 = _read(root, 2)
    assert len(one) == 90 and _facts(many) == _facts(one)
    assert skips2 == skips1 and {ref for ref, _ in skips1} == {"050-empty.eml", "070-junk.eml"}
    assert cursor2 == cursor1 and cursor1
    again, _, _ = _read(root, 2, cursor=cursor2)  # the incremental cursor works the same way
    assert again == []


def test_a_maildir_keeps_its_sent_folder_hint(tmp_path: Path, small_batches: None) -> None:
    root = tmp_path / "Maildir"
    inbox, sent = mailbox.Maildir(root), mailbox.Maildir(root / ".Sent")
    for i in range(30):
        (sent if i % 3 == 0 else inbox).add(mailbox.MaildirMessage(bytes(_msg(i))))
    one, _, _ = _read(root, 1)
    many, _, _ = _read(root, 2)
    assert _facts(many) == _facts(one) and len(one) == 30
    assert sum(1 for i in many if i.in_sent) == 10


def test_what_the_analyzers_read_comes_back_from_the_workers(tmp_path: Path, small_batches: None,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    root = _folder(tmp_path / "mail", 40)
    items, _, _ = _read(root, 2, prepare=textfacts.PREPARE)
    own = [i for i in items if not i.third_party_reason]
    assert own and all("_mail_text" in i.__dict__ for i in own)
    came_back = [i.__dict__["_mail_text"] for i in own]
    assert came_back == [textfacts.mail_text(dataclasses.replace(i)) for i in own]
    assert all(f.signature.get("title") == "Staff Engineer" and f.rules for f in came_back)
    monkeypatch.setattr(textfacts, "_compute", lambda item: pytest.fail("computed again in the scanning process"))
    assert [textfacts.mail_text(i) for i in own] == came_back


def test_a_worker_that_dies_costs_its_file_only(tmp_path: Path, small_batches: None,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """A file that kills the process reading it (as a crashing parser would) is skipped with its
    reason; every other file arrives, in order (workers are forked: they see the patch)."""
    root = _folder(tmp_path / "mail", 60, poison=23)
    real = mailfiles.message_from_parts
    parent = os.getpid()

    def crashing(headers: dict[str, str], *args: object, **kw: object) -> Message:
        if headers.get("subject") == "POISON" and os.getpid() != parent:
            os._exit(70)
        return real(headers, *args, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(mailfiles, "message_from_parts", crashing)
    many, skips, _ = _read(root, 2)
    monkeypatch.setattr(mailfiles, "message_from_parts", real)
    one, _, _ = _read(root, 1)
    assert _facts(many) == _facts([i for i in one if i.subject != "POISON"])
    [dead] = [(ref, reason) for ref, reason in skips if "could not be read" in reason]
    assert dead[0] == "023.eml" and "reader process died" in dead[1] and "message skipped" in dead[1]


def test_a_small_folder_is_read_in_this_process(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = _folder(tmp_path / "mail", 12)
    monkeypatch.setattr(filepool, "worker_pool", lambda n: pytest.fail("no workers for 12 files"))
    assert len(_read(root, 4)[0]) == 12
