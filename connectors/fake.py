"""A small source shipped for tests, docs and notebooks: mail items from a JSON Lines file.

Why ship a fake: the source contract is easiest to learn from a source with nothing else in
it, and tests of the pipeline (cursors, skips, a source that fails mid-read) need one whose
items they choose. ``FakeSource`` is a real source in every respect — detected by shape (a
file named ``*.fake.jsonl``), incremental through its cursor — so what passes with it passes
with a real connector. It is not in :data:`connectors.registry.SOURCES` (people never see a
test source in ``memseed sources``); a test adds it with ``registry.extended(FakeSource)``.

One line per message::

    {"ref": "m1", "ts": "2026-03-02T10:00:00+00:00", "from": ["Maya", "maya@example.org"],
     "to": [["Priya", "priya@example.org"]], "subject": "Plan", "body": "...",
     "bulk": false, "labels": ["Sent"]}

A line that is not valid JSON, or not a message, is skipped with its reason.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import Any, ClassVar

from bootstrap_app.errors import SourceError, SourceNotFound
from bootstrap_app.types import Item, Message, Person

from .base import ReadContext, Source

__all__ = ["FakeSource", "fake_line"]


def fake_line(message: Message) -> str:
    """The JSON line :class:`FakeSource` reads back as ``message`` (the inverse of its read)."""
    return json.dumps({
        "ref": message.ref, "ts": message.timestamp.isoformat() if message.timestamp else None,
        "from": [message.sender.name, message.sender.address],
        "to": [[p.name, p.address] for p in message.to], "subject": message.subject,
        "body": message.body, "bulk": message.is_bulk, "labels": list(message.labels)})


def _person(value: Any) -> Person:
    name, address = value
    return Person(str(name), str(address))


class FakeSource(Source, kind="fake", priority=5,
                 description="test messages, one JSON object per line (*.fake.jsonl)",
                 cursor_doc="number of lines already read (appended lines are new)"):
    """Messages from a ``*.fake.jsonl`` file; the cursor is the number of lines already read."""

    suffix: ClassVar[str] = ".fake.jsonl"

    @classmethod
    def sniff(cls, path: Path) -> bool:
        return path.name.endswith(cls.suffix) and path.is_file()

    def read(self, ctx: ReadContext) -> Iterator[Item]:
        path = Path(self.location)
        try:
            lines = path.read_text(encoding="utf-8").splitlines()
        except FileNotFoundError as exc:
            raise SourceNotFound(f"{path}: no such file", hint="check the path") from exc
        except (OSError, UnicodeDecodeError) as exc:
            raise SourceError(f"{path}: unreadable ({exc})", hint="check the file's permissions and encoding") from exc
        done = int((ctx.cursor or {}).get("lines", 0) or 0)
        for number, line in enumerate(lines[done:], done + 1):
            if ctx.should_stop():
                return  # no cursor: the next read starts where this one did
            try:
                yield self._message(json.loads(line), ctx)
            except (ValueError, KeyError, TypeError) as exc:
                ctx.skip(self.id, f"line {number}", f"not a message line ({type(exc).__name__}: {exc})")
        ctx.progress(self.id, len(lines) - done)
        ctx.new_cursor = {"lines": len(lines)}

    def _message(self, data: dict[str, Any], ctx: ReadContext) -> Message:
        stamp = datetime.fromisoformat(data["ts"]) if data.get("ts") else None
        sender = _person(data["from"])
        to = tuple(_person(p) for p in data.get("to", ()))
        return Message(source=self.id, ref=str(data["ref"]), timestamp=stamp, sender=sender, to=to,
                       people=(sender, *to), subject=ctx.clean(str(data.get("subject", "")), 500),
                       body=ctx.clean(str(data.get("body", ""))), is_bulk=bool(data.get("bulk", False)),
                       labels=tuple(str(label) for label in data.get("labels", ())))
