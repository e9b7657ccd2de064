"""A large mbox of real text for the mailbox benchmark: the bodies of the real mail corpora
(``$MEMSEED_REALDATA/email``: Enron inboxes, notmuch and kernel list mail), cycled to the size
asked, each copy re-addressed, with its own Message-ID and Date, a third of them sent by the
owner (:data:`OWNER`).

Why: the generated bench mail (short lines of random words) never reaches the costly parts
that real text reaches — long quoted replies, signatures, code, logs, ids that look like
secrets — so a benchmark on it alone could not see them (issue 32). The file is written at
bench time in a temp folder and never committed: the text belongs to the corpora.

Each message keeps its own MIME headers and body bytes (so its encodings, parts and
attachments are real); the address, date and id headers are replaced, and the rest of its
header block is kept as it was. Run: ``python -m benchmarks.realmail OUT MESSAGES [CORPUS]`` (the
benchmark does, in a subprocess, so its own peak RSS stays its own); ``CORPUS`` narrows the
bodies to one folder of the corpora (:func:`corpus_folder`: ``notmuch`` is list mail only).
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from email.utils import format_datetime
from pathlib import Path

__all__ = ["OWNER", "corpus_folder", "corpus_messages", "realdata_email", "write_real_mbox"]

OWNER = "maya.okafor@example.com"
"""The address the real-text mbox's own mail is sent from; the benchmark scans with it as ``--owner``."""
_PEOPLE = ["jon.reyes", "priya.natarajan", "lena.fischer", "tomas.garcia", "ana.lima", "wei.zhang",
           "sam.oneill", "chidi.eze", "grace.kim", "noor.haddad", "ivan.petrov", "maria.rossi"]
_REPLACED = frozenset({"from", "to", "cc", "bcc", "date", "message-id", "in-reply-to", "references", "reply-to",
                       "sender", "return-path", "delivered-to", "x-from", "x-to", "x-cc", "x-bcc",
                       "x-gmail-labels", "x-gm-thrid"})
_FIELD = re.compile(rb"^([!-9;-~]+):", re.MULTILINE)
_SEPARATOR = re.compile(rb"^From ", re.MULTILINE)


def realdata_email() -> Path | None:
    """The real mail corpora's folder, or None when the real data is absent (the benchmark skips)."""
    root = Path(os.environ.get("MEMSEED_REALDATA") or Path(__file__).resolve().parents[2] / "shared" / "realdata")
    folder = root / "email"
    return folder if folder.is_dir() else None


def corpus_folder(corpus: str = "") -> Path | None:
    """The folder whose mail the real-text mbox is made of: every corpus when ``corpus`` is empty,
    else a folder of the corpora by name (``notmuch``: list mail only; ``enron``) or any path.
    None when the real data is absent; a clear error when the name matches no folder.

    Why a choice: the mix is mostly Enron's short business mail, while list mail (long quoted
    replies, patches, logs) is what costs most per message, and a mixed figure hides it."""
    if corpus and Path(corpus).is_dir():
        return Path(corpus)
    where = realdata_email()
    if where is None or not corpus:
        return where
    folder = where / corpus
    if not folder.is_dir():
        names = ", ".join(sorted(p.name for p in where.iterdir() if p.is_dir()))
        raise SystemExit(f"no corpus {corpus!r} under {where} (there are: {names})")
    return folder


def corpus_messages(folder: Path) -> list[bytes]:
    """Every message of every mbox and ``.eml`` file under ``folder``, as raw bytes (headers and
    body, no ``From_`` line), in a stable order."""
    import mailbox

    found: list[bytes] = []
    for path in sorted(folder.rglob("*")):
        if path.suffix == ".mbox" and path.is_file():
            box = mailbox.mbox(path, create=False)
            found.extend(box.get_bytes(key) for key in box.iterkeys())
            box.close()
        elif path.suffix == ".eml" and path.is_file():
            found.append(path.read_bytes())
    return found


def _split(raw: bytes) -> tuple[list[bytes], bytes]:
    """Header fields (each with its folded lines) and the body of one raw message."""
    raw = raw.replace(b"\r\n", b"\n")
    head, sep, body = raw.partition(b"\n\n")
    fields: list[bytes] = []
    for line in head.split(b"\n"):
        if line[:1] in (b" ", b"\t") and fields:
            fields[-1] += b"\n" + line
        elif line:
            fields.append(line)
    return fields, body if sep else b""


def _copies(messages: list[bytes], count: int) -> Iterator[bytes]:
    start = datetime(2024, 1, 1, tzinfo=UTC)
    parsed = [_split(raw) for raw in messages]
    for i in range(count):
        fields, body = parsed[i % len(parsed)]
        when = start + timedelta(minutes=3 * i)
        other = _PEOPLE[i % len(_PEOPLE)]
        sender, rcpt = (OWNER, f"{other}@example.org") if i % 3 == 0 else (f"{other}@example.org", OWNER)
        cc = _PEOPLE[(i * 7 + 3) % len(_PEOPLE)]
        kept = [f for f in fields if (m := _FIELD.match(f)) is None or m.group(1).lower().decode() not in _REPLACED]
        own = [f"From: {sender}", f"To: {rcpt}", f"Cc: {cc}@example.org", f"Date: {format_datetime(when)}",
               f"Message-ID: <real.{i}@bench.example.org>"]
        if i % 4:
            own.append(f"In-Reply-To: <real.{i - 1}@bench.example.org>")
        envelope = f"From {sender} {when.strftime('%a %b %d %H:%M:%S %Y')}\n".encode()
        quoted = _SEPARATOR.sub(b">From ", body)  # a body line that would read as a separator is quoted
        yield envelope + b"\n".join([*(o.encode() for o in own), *kept]) + b"\n\n" + quoted.rstrip(b"\n") + b"\n\n"


def write_real_mbox(path: Path, count: int, folder: Path) -> int:
    """Write ``count`` messages of real text to ``path``; returns its size in bytes."""
    messages = corpus_messages(folder)
    if not messages:
        raise SystemExit(f"no mail found under {folder}")
    with open(path, "wb") as f:
        for chunk in _copies(messages, count):
            f.write(chunk)
    return path.stat().st_size


if __name__ == "__main__":
    where = corpus_folder(sys.argv[3] if len(sys.argv) > 3 else "")
    if where is None:
        raise SystemExit("real data is absent")
    print(write_real_mbox(Path(sys.argv[1]), int(sys.argv[2]), where))
