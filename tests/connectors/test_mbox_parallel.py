"""Bodies decoded on first use, and a large mbox parsed by worker processes: same items, same order.

The parallel reader is forced onto small generated files by lowering its size threshold and its
range size, so every file here is cut into many ranges (at ``From`` lines that look like
separators but are not, at CRLF line ends, at mboxo ``From`` body lines).
"""

from __future__ import annotations

import dataclasses
import os
import random
from datetime import UTC, datetime, timedelta
from email.utils import format_datetime
from pathlib import Path

import pytest

from bootstrap_app.types import Message
from connectors.base import ReadContext
from connectors.local import mboxitems, mboxpool
from connectors.local.lazybody import LazyMessage
from connectors.local.mbox import read_mbox

_SIGNERS = ["Maya Okafor", "Jon Reyes", "Priya Natarajan", "Lena Fischer", "Ana Lima", "Wei Zhang", "Grace Kim"]
_WORDS = ["ledger", "deploy", "review", "budget", "design", "invoice", "release", "schema", "incident"]


def _mbox(path: Path, n: int, *, crlf: bool = False, seed: int = 3, poison: int = -1) -> Path:
    """``n`` messages of varied shapes: plain, multipart with HTML, quoted-printable, an mboxrd
    ``>From`` line, a body line starting ``From `` without a time (not a separator), Spam."""
    rng = random.Random(seed)
    nl = "\r\n" if crlf else "\n"
    start = datetime(2024, 3, 1, 9, tzinfo=UTC)
    out: list[str] = []
    for i in range(n):
        when = start + timedelta(hours=5 * i)
        sender = f"person{i % 7}@corp{i % 3}.example"
        subject = "POISON" if i == poison else " ".join(rng.choices(_WORDS, k=4))
        labels = "Spam" if i % 41 == 40 else rng.choice(["Inbox", "Sent", "Inbox,Important"])
        text = [" ".join(rng.choices(_WORDS, k=8)) for _ in range(rng.randint(1, 5))]
        if i % 5 == 0:
            text.append(">From the quoted archive")
        if i % 6 == 0:
            text.append("From here on, a body line that is not a separator")
        text += ["", "Best,", _SIGNERS[i % 7], "Senior Engineer", "Corp Labs"]
        headers = [f"From: Person {i % 7} <{sender}>", "To: Owner <owner@corp0.example>",
                   f"Subject: {subject}", f"Date: {format_datetime(when)}", f"Message-ID: <{i}@m.example>",
                   f"X-Gmail-Labels: {labels}",
                   f"Received: from mx{i % 4}.corp{i % 3}.example (mx.corp{i % 3}.example [192.0.2.{i % 200}])",
                   f"        by mx.corp0.example with ESMTPS id q{i}x; {format_datetime(when)}"]
        if i % 3 == 0:
            b = f"b{i}"
            headers.append(f'Content-Type: multipart/alternative; boundary="{b}"')
            plain = ["", f"--{b}", "Content-Type: text/plain; charset=utf-8", "", *text] if i % 9 else [""]
            body = [*plain, "", f"--{b}", "Content-Type: text/html; charset=utf-8",
                    "Content-Transfer-Encoding: quoted-printable", "", *(f"<p>{t}=C3=A9</p>" for t in text), "",
                    f"--{b}--"]
        else:
            headers.append("Content-Type: text/plain; charset=utf-8")
            body = text
        envelope = f"From {sender} {when.strftime('%a %b %d %H:%M:%S %Y')}"
        out.append(nl.join([envelope, *headers, "", *body, "", ""]))
    path.write_bytes("".join(out).encode("utf-8"))
    return path


def _read(path: Path, jobs: int = 1, **kw: bool) -> tuple[list[Message], list[tuple[str, str]], dict[str, object]]:
    ctx = ReadContext(jobs=jobs)
    items = list(read_mbox(path, "mbox:t", ctx, **kw))
    return items, [(s.ref, s.reason) for s in ctx.skips], dict(ctx.new_cursor or {})


def _facts(items: list[Message]) -> list[tuple[object, ...]]:
    return [(*dataclasses.astuple(i),) for i in items]  # every field, the body included


@pytest.fixture
def small_ranges(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(mboxpool, "MIN_BYTES", 0)
    monkeypatch.setattr(mboxpool, "CHUNK_BYTES", 2048)


@pytest.mark.parametrize("crlf", [False, True])
def test_lazy_bodies_equal_eager_bodies_and_wait_until_read(tmp_path: Path, crlf: bool) -> None:
    path = _mbox(tmp_path / "a.mbox", 60, crlf=crlf)
    lazy, lazy_skips, lazy_cursor = _read(path)
    assert lazy and all(isinstance(i, LazyMessage) and not i.body_loaded for i in lazy)
    eager, eager_skips, eager_cursor = _read(path, lazy=False)
    assert not any(isinstance(i, LazyMessage) for i in eager)
    assert _facts(lazy) == _facts(eager)  # reading .body decodes it, the same text as a full parse
    assert lazy == eager and eager == lazy and {hash(i) for i in lazy} == {hash(i) for i in eager}
    assert all(i.body_loaded for i in lazy)
    assert any("From the quoted archive" in i.body for i in eager) and any("é" in i.body for i in eager)
    assert (lazy_skips, lazy_cursor) == (eager_skips, eager_cursor)


def test_a_lazy_message_pickles_and_replace_gives_a_plain_body(tmp_path: Path) -> None:
    import pickle

    [item, *_] = _read(_mbox(tmp_path / "a.mbox", 3))[0]
    back = pickle.loads(pickle.dumps(item))
    assert isinstance(back, LazyMessage) and not back.body_loaded and back.body == item.body
    edited = dataclasses.replace(item, subject="x")
    assert edited.body == item.body and edited.subject == "x"


def test_workers_profile_their_tasks_when_asked(tmp_path: Path, small_ranges: None,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    import pstats

    path = _mbox(tmp_path / "a.mbox", 60)
    plain, _, _ = _read(path, jobs=2)
    monkeypatch.setenv(mboxpool.PROFILE_ENV, str(tmp_path / "prof"))
    (tmp_path / "prof").mkdir()
    profiled, _, _ = _read(path, jobs=2)
    assert _facts(profiled) == _facts(plain)
    files = sorted(str(p) for p in (tmp_path / "prof").glob("*.prof"))
    assert len(files) > 1  # one per range task
    stats = pstats.Stats(*files).stats  # type: ignore[attr-defined]
    assert any(name == "range_outcomes" for (_, _, name) in stats)


@pytest.mark.parametrize("crlf", [False, True])
def test_parallel_read_gives_the_one_process_stream(tmp_path: Path, small_ranges: None, crlf: bool) -> None:
    path = _mbox(tmp_path / "a.mbox", 120, crlf=crlf)
    one, one_skips, one_cursor = _read(path, jobs=1)
    many, many_skips, many_cursor = _read(path, jobs=3)
    assert len(one) == 120 - 2  # the two Spam messages are left out
    assert _facts(many) == _facts(one)
    assert many_skips == one_skips and any("Spam" in r for _, r in one_skips)
    assert many_cursor == one_cursor


def test_parallel_read_resumes_from_the_cursor(tmp_path: Path, small_ranges: None) -> None:
    path = _mbox(tmp_path / "a.mbox", 40)
    _, _, cursor = _read(path, jobs=1)
    with path.open("ab") as f:
        f.write(_mbox(tmp_path / "more.mbox", 30, seed=9).read_bytes())
    ctx_one, ctx_many = ReadContext(cursor=cursor, jobs=1), ReadContext(cursor=cursor, jobs=2)
    one = list(read_mbox(path, "mbox:t", ctx_one))
    many = list(read_mbox(path, "mbox:t", ctx_many))
    assert len(one) == 30 and _facts(many) == _facts(one)  # only what was appended
    assert ctx_many.new_cursor == ctx_one.new_cursor


def test_a_worker_that_dies_costs_its_message_only(tmp_path: Path, small_ranges: None,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """A message that kills the process parsing it (as a crashing parser would) is skipped with
    its reason; every other message arrives, in order (workers are forked: they see the patch)."""
    path = _mbox(tmp_path / "a.mbox", 50, poison=17)
    real = mboxitems.message_fields

    def crashing(headers: dict[str, str], **kw: object) -> dict[str, object]:
        if headers.get("subject") == "POISON" and os.getpid() != parent:
            os._exit(70)
        return real(headers, **kw)  # type: ignore[arg-type]

    parent = os.getpid()
    monkeypatch.setattr(mboxitems, "message_fields", crashing)
    many, skips, _ = _read(path, jobs=2)
    monkeypatch.setattr(mboxitems, "message_fields", real)
    one, _, _ = _read(path, jobs=1)
    assert _facts(many) == _facts([i for i in one if i.subject != "POISON"])
    [dead] = [reason for _, reason in skips if "could not be read" in reason]
    assert "reader process died" in dead and "message skipped" in dead


def test_a_small_file_is_read_in_this_process(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = _mbox(tmp_path / "a.mbox", 10)
    monkeypatch.setattr(mboxpool, "parallel_outcomes", lambda *a, **k: pytest.fail("no workers for 10 messages"))
    assert len(_read(path, jobs=4)[0]) == 10


def test_what_the_analyzers_read_comes_back_from_the_workers(tmp_path: Path, small_ranges: None,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """With ``ReadContext.prepare`` (what a scan hands the readers) the facts of each of the
    owner's messages (signature, contact blocks, rules) are worked out in the worker and travel
    back with the item, equal to what the scanning process works out from the same message;
    received mail is not prepared (only its sender's newest are read, later)."""
    from bootstrap_app.signals import textfacts

    path = _mbox(tmp_path / "a.mbox", 80)
    items = list(read_mbox(path, "mbox:t", ReadContext(jobs=2, prepare=textfacts.PREPARE)))
    own = [i for i in items if not i.third_party_reason and not i.is_bulk]
    received = [i for i in items if i.third_party_reason]
    assert own and received
    assert not any("_mail_text" in i.__dict__ for i in received)
    came_back = {i.ref: i.__dict__["_mail_text"] for i in own}
    assert came_back == {i.ref: textfacts.mail_text(dataclasses.replace(i)) for i in own}
    assert sum(1 for f in came_back.values() if f.signature.get("title")) >= len(own) // 2
    monkeypatch.setattr(textfacts, "_compute", lambda item: pytest.fail("computed again in the scanning process"))
    assert [textfacts.mail_text(i) for i in own] == list(came_back.values())


def test_a_batch_crosses_pickled_and_the_collector_is_left_as_it_was() -> None:
    import gc
    import pickle

    items = [mboxitems.Outcome(3, Message(source="s", ref="r", labels=("Inbox",)))]
    blob = mboxpool.packed(lambda: items)
    assert pickle.loads(blob) == items and gc.isenabled()
    assert mboxpool._unpacked(blob) == items and gc.isenabled()
    gc.disable()
    try:
        assert mboxpool._unpacked(blob) == items and not gc.isenabled()  # a caller's choice stands
    finally:
        gc.enable()


def _worker_bodies(path: Path) -> list[tuple[str, str, bool]]:
    """(ref, body, read in the worker) of every item a worker task gives for the whole file."""
    from connectors.local.mbox import file_mode, iter_mbox

    ctx = ReadContext()
    job = mboxitems.MboxJob(str(path), "mbox:t", str(path), ctx.max_text_chars, ctx.cleaner)
    pos, mode = file_mode(path)
    done = mboxitems.range_outcomes(iter_mbox, job, pos, path.stat().st_size, mode)
    items = [out.item for out in done if out.item is not None]
    return [(i.ref, i.body, isinstance(i, LazyMessage) and i.body_loaded) for i in items]


def _mboxes_at_hand(tmp_path: Path) -> list[Path]:
    from tests.conftest import REALDATA

    made = [_mbox(tmp_path / "lf.mbox", 60), _mbox(tmp_path / "crlf.mbox", 60, crlf=True)]
    return made + sorted((REALDATA / "email").rglob("*.mbox")) if (REALDATA / "email").is_dir() else made


def test_bodies_read_in_the_worker_with_its_headers_equal_bodies_read_later(tmp_path: Path) -> None:
    for path in _mboxes_at_hand(tmp_path):
        worker = _worker_bodies(path)
        assert any(read for _, _, read in worker), path  # the worker's own read is what is compared
        later = [(i.ref, i.body) for i in _read(path)[0]]  # lazy: read back from the file on first use
        assert [(ref, body) for ref, body, _ in worker] == later, path
