"""Text helpers shared by the writers: rendering, type labels, scanning, reading.

Why here and not in each writer: the one-line harnesses (Hermes, Gemini, Codex's AGENTS.md
block) must render an entry the same way so that the readers can recover the memory type
from a short label ("Preference: ..."), and every writer must run the same writer-side
injection scan before emitting anything.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from pathlib import Path

from bootstrap_app.errors import BlockedContent, WriteError
from bootstrap_app.fsutil import read_bytes
from bootstrap_app.safety.injection import check_entry
from bootstrap_app.types import MemoryEntry, MemoryType, Proposal, slugify

__all__ = [
    "LABELS",
    "blank_line_before",
    "bullets",
    "count_files",
    "derived_date",
    "entry_name",
    "flatten",
    "guard_imports",
    "head_text",
    "infer_type",
    "line_entry",
    "one_line",
    "read_text",
    "scan_entry",
    "split_label",
    "strip_stamp",
]

LABELS: dict[MemoryType, str] = {
    MemoryType.USER: "User",
    MemoryType.FEEDBACK: "Preference",
    MemoryType.PROJECT: "Project",
    MemoryType.REFERENCE: "Reference",
}
_LABEL_TO_TYPE = {v.lower(): k for k, v in LABELS.items()} | {
    "feedback": MemoryType.FEEDBACK, "about": MemoryType.USER}


def derived_date(p: Proposal) -> str:
    when = p.derived_at or datetime.now(UTC)
    return when.astimezone(UTC).strftime("%Y-%m-%d")


_MD_NOISE = re.compile(r"\*\*|__|^#+\s*|^\s*(?:[-*+]|\d+[.)])\s+", re.MULTILINE)


def flatten(text: str) -> str:
    """One compact line: markdown emphasis, headings and list markers dropped, space-joined."""
    text = _MD_NOISE.sub("", text.replace("\r\n", "\n"))
    return " ".join(text.split())


def one_line(p: Proposal, *, label: bool = True, stamp: bool = True) -> str:
    """A compact paragraph for one-line stores: ``Label: description — body (memseed YYYY-MM-DD)``."""
    desc = flatten(p.description).rstrip(".")
    body = flatten(p.body)
    if not body or body.lower().startswith(desc.lower()):
        text = body or desc
    elif desc:
        text = f"{desc} — {body}"
    else:
        text = body
    if label:
        text = f"{LABELS[p.type]}: {text}"
    if stamp:
        text = f"{text} (memseed {derived_date(p)})"
    return text


def bullets(text: str) -> list[str]:
    """The non-empty ``- item`` lines of ``text``, marker removed (Gemini's section, Codex's lists)."""
    return [line[2:].strip() for line in text.splitlines() if line.startswith("- ") and line[2:].strip()]


def entry_name(body: str) -> str:
    """A name for a one-line memory read back without one: its first six words, slugified."""
    return slugify(" ".join(body.split()[:6]), max_len=48)


_STAMP = re.compile(r"\s*\(memseed \d{4}-\d{2}-\d{2}\)$")


def strip_stamp(text: str) -> str:
    """Drop the ``(memseed YYYY-MM-DD)`` stamp :func:`one_line` adds."""
    return _STAMP.sub("", text)


def split_label(text: str) -> tuple[MemoryType | None, str]:
    """Recover ``(type, rest)`` from a ``Label: rest`` line written by :func:`one_line`."""
    head, sep, rest = text.partition(":")
    if sep and head.strip().lower() in _LABEL_TO_TYPE and len(head) < 20:
        return _LABEL_TO_TYPE[head.strip().lower()], rest.strip()
    return None, text


_FEEDBACK_WORDS = re.compile(
    r"\b(prefer|prefers|preference|always|never|don't|do not|avoid|wants?|likes?|dislikes?|hates?|"
    r"should|must|instead of|rather than)\b|偏好|不要|默认|항상|하지 말", re.IGNORECASE)
_REFERENCE_WORDS = re.compile(r"https?://|\bdocs?\b|\bdashboard\b|\bwiki\b|\brunbook\b|\bsee `", re.IGNORECASE)
_USER_WORDS = re.compile(r"^(about \w+|user|i am|i'm)\b|\b(timezone|my name|works as|role is)\b", re.IGNORECASE)


def infer_type(text: str, hint: str = "") -> MemoryType:
    """Best-effort type of an untyped memory: filename prefix first, then wording."""
    prefix = hint.lower().split("_", 1)[0].split("-", 1)[0]
    if prefix in {t.value for t in MemoryType}:
        return MemoryType(prefix)
    labelled, _ = split_label(text)
    if labelled is not None:
        return labelled
    if _USER_WORDS.search(text):
        return MemoryType.USER
    if _REFERENCE_WORDS.search(text):
        return MemoryType.REFERENCE
    if _FEEDBACK_WORDS.search(text):
        return MemoryType.FEEDBACK
    return MemoryType.PROJECT


def scan_entry(text: str, where: str, *, hermes: bool = False) -> None:
    """Writer-side injection scan (``safety.injection.check_entry``) with the entry named;
    ``hermes``: also what Hermes itself blocks at load."""
    try:
        check_entry(text, hermes=hermes)
    except BlockedContent as exc:
        raise BlockedContent(f"{where}: {exc.args[0] if exc.args else exc}", reasons=exc.reasons,
                             hint=exc.hint or "edit the entry (memseed review) or reject it") from exc


_IMPORT = re.compile(r"(?<![\w`])@(?=[~./\w])(\S+)")


def guard_imports(text: str) -> str:
    """Neutralise CLAUDE.md ``@path`` imports and HTML comments inside text we put in a block."""
    text = text.replace("<!--", "&lt;!--").replace("-->", "--&gt;")
    return _IMPORT.sub(lambda m: f"`@{m.group(1)}`" if "@" not in m.group(1) else m.group(0), text)


def blank_line_before(text: str) -> str:
    """What to put after ``text`` so that appended Markdown starts a new paragraph (nothing if empty)."""
    if not text or text.endswith("\n\n"):
        return ""
    return "\n" if text.endswith("\n") else "\n\n"


def read_text(path: Path, *, bom: bool = False, why: str = "memseed will not rewrite it") -> tuple[bytes | None, str]:
    """A file's bytes (``None`` when absent) and its text; a file that is not UTF-8 is refused.

    One reader for every file a writer merges into, so a mis-encoded file is always a
    :class:`WriteError` with a hint, never a bare ``UnicodeDecodeError``. ``bom``: accept a
    UTF-8 byte-order mark (Hermes's parser does).
    """
    raw = read_bytes(path)
    try:
        return raw, (raw or b"").decode("utf-8-sig" if bom else "utf-8")
    except UnicodeDecodeError as exc:
        raise WriteError(f"{path} is not UTF-8 text; {why}",
                         hint="fix the file's encoding (or move it aside), then run again") from exc


def line_entry(source: str, ref: str, path: Path, harness: str, fact: str,
               mtype: MemoryType | None = None) -> MemoryEntry:
    """A one-line memory read back (Hermes entry, Gemini bullet): label and stamp removed, type recovered."""
    labelled, rest = split_label(fact)
    body = strip_stamp(rest if labelled else fact)
    return MemoryEntry(
        source=source, ref=ref, timestamp=datetime.fromtimestamp(path.stat().st_mtime, UTC),
        authored_by_owner=True, harness=harness, name=entry_name(body),
        description=body if len(body) <= 150 else body[:149].rstrip() + "…",
        memory_type=mtype or labelled or infer_type(fact), body=body, path=str(path))


def head_text(path: Path, size: int = 4096) -> str:
    """The first ``size`` bytes of a file as text ("" when unreadable): cheap shape sniffing."""
    try:
        with path.open("rb") as handle:
            return handle.read(size).decode("utf-8", "replace")
    except OSError:
        return ""


def count_files(folder: Path, pattern: str = "*.md") -> int:
    """Files matching ``pattern`` under ``folder`` (no symlinks): a quick "does it hold anything"."""
    try:
        return sum(1 for p in folder.glob(pattern) if p.is_file() and not p.is_symlink())
    except OSError:
        return 0
