"""Property-based tests (Hypothesis) for every local connector: random bytes, truncation of a
valid export at any offset, and random file names. The read never raises anything but a
:class:`~bootstrap_app.errors.MemseedError` (a whole-source error with a message), every
skip has a reason, and everything that leaves a connector is valid UTF-8.

Example counts are bounded (see ``_FAST``/``_SLOW``) so the file runs in well under a minute;
a sweep over evenly spaced truncation offsets complements the random ones.
"""

from __future__ import annotations

import io
import json
import os
import tempfile
import zipfile
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

import docx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bootstrap_app.config import load_settings
from bootstrap_app.errors import MemseedError
from bootstrap_app.pipeline import scan
from bootstrap_app.text.paths import is_text
from connectors.base import ReadContext, Source
from connectors.harness_memory import ClaudeCodeMemory, CodexMemory, GeminiMemory, HermesMemory
from connectors.local.eml import EmlSource
from connectors.local.emlx import EmlxSource
from connectors.local.folder import DocumentFolderSource
from connectors.local.ics import IcsSource
from connectors.local.mbox import MboxSource
from connectors.local.outlook_msg import OutlookMsgSource
from connectors.local.pst import PstSource
from connectors.local.slack_export import SlackExportSource
from connectors.local.takeout import TakeoutSource

from .calendar_exports import export
from .test_document_authors import write_odt
from .test_folder import write_pdf
from .test_mail_exports import _mail, _msg_file

_FAST = settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
_SLOW = settings(max_examples=15, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
_SWEEP = 24
"""Evenly spaced truncation offsets tried per format, on top of Hypothesis' random ones."""

MAIL = _mail("Jon <jon@x.example>", "ana@x.example", "Hello", "Body line\nsecond line", n=1)


def _mbox_bytes() -> bytes:
    return b"".join(b"From jon@x.example Mon Mar  2 09:00:00 2026\n" + _mail("Jon <jon@x.example>", "ana@x.example",
                                                                                 f"S{n}", n=n) + b"\n" for n in range(2))


def _emlx_bytes() -> bytes:
    return b"%d\n" % len(MAIL) + MAIL + b'<?xml version="1.0"?><plist version="1.0"><dict/></plist>\n'


def _msg_bytes() -> bytes:
    with tempfile.TemporaryDirectory() as tmp:
        return _msg_file(Path(tmp) / "m.msg", transport=False).read_bytes()


def _docx_bytes() -> bytes:
    d = docx.Document()
    d.core_properties.author = "Ana Ruiz"
    d.add_paragraph("Design of the ledger.")
    buf = io.BytesIO()
    d.save(buf)
    return buf.getvalue()


def _file_bytes(writer: Callable[[Path], object], name: str) -> bytes:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / name
        writer(path)
        return path.read_bytes()


def _zip(members: dict[str, bytes]) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, data in members.items():
            zf.writestr(name, data)
    return buf.getvalue()


def _slack_zip() -> bytes:
    return _zip({"users.json": json.dumps([{"id": "U1", "real_name": "Ana"}]).encode(),
                 "channels.json": json.dumps([{"id": "C1", "name": "general"}]).encode(),
                 "general/2026-03-02.json": json.dumps([{"type": "message", "user": "U1", "text": "hi",
                                                         "ts": "1772442000.000100"}]).encode()})


def _takeout_zip() -> bytes:
    return _zip({"Takeout/archive_browser.html": b"<html></html>", "Takeout/Mail/All mail.mbox": _mbox_bytes(),
                 "Takeout/Calendar/ana@x.example.ics": export("google", datetime.now(UTC).date())})


# (connector, file name, valid bytes, fast?) — one row per local connector and shape
FORMATS: list[tuple[type[Source], str, Callable[[], bytes], bool]] = [
    (MboxSource, "mail.mbox", _mbox_bytes, True),
    (EmlSource, "one.eml", lambda: MAIL, True),
    (EmlxSource, "101.emlx", _emlx_bytes, True),
    (OutlookMsgSource, "m.msg", _msg_bytes, True),
    (IcsSource, "cal.ics", lambda: export("outlook", datetime.now(UTC).date()), True),
    (DocumentFolderSource, "notes.md", lambda: b"---\nauthor: Ana\n---\n# Title\ntext\n", True),
    (DocumentFolderSource, "page.html", lambda: b'<html><meta name="author" content="A"><p>x</p></html>', True),
    (DocumentFolderSource, "spec.docx", _docx_bytes, False),
    (DocumentFolderSource, "spec.pdf", lambda: _file_bytes(lambda p: write_pdf(p, "Ledger", title="L"), "s.pdf"), False),
    (DocumentFolderSource, "min.odt", lambda: _file_bytes(lambda p: write_odt(p, ["T", "x"], creator="A"), "m.odt"), False),
    (SlackExportSource, "slack.zip", _slack_zip, False),
    (TakeoutSource, "takeout.zip", _takeout_zip, False),
    (PstSource, "archive.pst", lambda: b"!BDN" + bytes(range(256)) * 4, True),
]
HARNESS_SOURCES: list[type[Source]] = [ClaudeCodeMemory, CodexMemory, HermesMemory, GeminiMemory]
IDS = [f"{cls.kind}-{name}" for cls, name, _, _ in FORMATS]
_VALID = {name: make() for _, name, make, _ in FORMATS}
EXAMPLES = {"count": 0}


def _check(cls: type[Source], path: Path) -> None:
    """Read ``path`` with ``cls``: only a MemseedError may escape; skips have reasons; text is UTF-8."""
    EXAMPLES["count"] += 1
    ctx = ReadContext(scratch_dir=str(path.parent), max_file_bytes=4 * 1024 * 1024)
    items = []
    try:
        for item in cls(path).read(ctx):
            items.append(item)
            if len(items) > 5000:
                break
    except MemseedError as exc:
        assert str(exc).strip()
    for skip in ctx.skips:
        assert skip.reason.strip() and is_text(skip.reason) and is_text(skip.ref)
    for item in items:
        assert is_text(item.ref) and is_text(item.source)


def _write(data: bytes, name: str) -> tuple[tempfile.TemporaryDirectory[str], Path]:
    tmp = tempfile.TemporaryDirectory()
    path = Path(tmp.name) / name
    path.write_bytes(data)
    return tmp, path


@pytest.mark.parametrize(("cls", "name", "fast"), [(c, n, f) for c, n, _, f in FORMATS], ids=IDS)
def test_random_bytes(cls: type[Source], name: str, fast: bool) -> None:
    @(_FAST if fast else _SLOW)
    @given(st.binary(max_size=4096))
    def run(data: bytes) -> None:
        tmp, path = _write(data, name)
        with tmp:
            _check(cls, path)

    run()


@pytest.mark.parametrize(("cls", "name", "fast"), [(c, n, f) for c, n, _, f in FORMATS], ids=IDS)
def test_truncated_anywhere(cls: type[Source], name: str, fast: bool) -> None:
    valid = _VALID[name]
    sweep = sorted({len(valid) * k // _SWEEP for k in range(_SWEEP + 1)})
    for cut in sweep:
        tmp, path = _write(valid[:cut], name)
        with tmp:
            _check(cls, path)

    @(_FAST if fast else _SLOW)
    @given(st.integers(0, len(valid)), st.binary(max_size=16))
    def run(cut: int, tail: bytes) -> None:  # cut anywhere, sometimes with junk where the rest was
        tmp, path = _write(valid[:cut] + tail, name)
        with tmp:
            _check(cls, path)

    run()


_NAME_BYTES = st.binary(min_size=1, max_size=40).map(lambda b: b.replace(b"/", b"_").replace(b"\0", b"_"))


@_FAST
@given(names=st.lists(_NAME_BYTES, min_size=1, max_size=6, unique=True))
def test_random_names_in_every_folder_connector(names: list[bytes]) -> None:
    """Random (often not UTF-8) names with a real suffix, beside one good file, in each folder kind."""
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        for cls, suffix, payload in ((DocumentFolderSource, b".md", b"# Doc\ntext\n"),
                                     (EmlSource, b".eml", MAIL), (OutlookMsgSource, b".msg", _VALID["m.msg"])):
            folder = base / cls.kind
            folder.mkdir()
            (folder / f"good{suffix.decode()}").write_bytes(payload)
            for raw in names:
                name = raw if raw not in (b".", b"..") else b"_"
                try:
                    (folder / os.fsdecode(name + suffix)).write_bytes(payload)
                except OSError:  # too long for the file system: not a name anyone can have
                    continue
            _check(cls, folder)
            ctx = ReadContext()
            good = [i for i in cls(folder).read(ctx) if i.ref == f"good{suffix.decode()}"]
            assert len(good) == 1


_HARNESS_FILES = ("MEMORY.md", "USER.md", "GEMINI.md", "AGENTS.md", "note.md", "memory/MEMORY.md",
                  "memory/note.md", "memories/MEMORY.md", "memories/USER.md")


@pytest.mark.parametrize("cls", HARNESS_SOURCES, ids=[c.kind for c in HARNESS_SOURCES])
def test_harness_memory_with_random_bytes(cls: type[Source]) -> None:
    """Existing agent memory is read as data: garbage in any file it might read never breaks it."""
    @_FAST
    @given(st.lists(st.binary(max_size=2048), min_size=len(_HARNESS_FILES), max_size=len(_HARNESS_FILES)))
    def run(blobs: list[bytes]) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            root = Path(tmp) / "home"
            for name, blob in zip(_HARNESS_FILES, blobs, strict=True):
                (root / name).parent.mkdir(parents=True, exist_ok=True)
                (root / name).write_bytes(blob)
            _check(cls, root)

    run()


def test_scan_goes_on_past_garbage(tmp_path: Path) -> None:
    """Garbage of every kind next to one good file: the scan finishes and names each problem."""
    inputs = tmp_path / "in"
    inputs.mkdir()
    (inputs / "good.mbox").write_bytes(_VALID["mail.mbox"])
    garbage = []
    for _, name, _, _ in FORMATS:
        path = inputs / f"bad-{name}"
        path.write_bytes(os.urandom(512))
        garbage.append(str(path))
    result = scan([str(inputs / "good.mbox"), *garbage], settings=load_settings(tmp_path / "home"))
    by_source = {r.source: r for r in result.reports}
    assert any(r.items == 2 for r in by_source.values())
    for report in result.reports:
        assert report.error or report.items or report.skipped or report.kind in ("folder",), report
        assert all(s.reason for s in report.skipped)


def teardown_module() -> None:
    print(f"\nhypothesis/sweep examples run: {EXAMPLES['count']}")
