"""The conversations a person had with their agents, as sources: Claude Code, Codex, ChatGPT, Claude.ai.

Each source yields :class:`~bootstrap_app.types.AgentTurn` items: the person's turns with their
(redacted) text, marked when they are not the person's own words, and one text-less item per
tool call (its name only). The agent's text and every tool's output stay in the file: they are
third-party data, read past but never decoded (see :mod:`.claude_code`, :mod:`.codex`).

Why a folder of sessions may stand for two sources: a Claude Code projects folder holds both
the transcripts and the project memory folders, a Codex home both its rollouts and its
``memories/``. :meth:`Source.expand` hands the scan one source for each, so scanning the folder
(or ``claude-code:`` / ``codex:``) reads both, and each is reported on its own.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import cached_property
from pathlib import Path
from typing import ClassVar

from bootstrap_app.errors import SourceError, SourceNotFound
from bootstrap_app.harnesses.claude_code import ClaudeCodeHarness
from bootstrap_app.harnesses.codex import CodexHarness
from bootstrap_app.harnesses.gemini import GeminiHarness
from bootstrap_app.types import AgentTurn, Item

from ..base import ReadContext, Source
from ..harness_memory import ClaudeCodeMemory, CodexMemory, GeminiMemory
from .claude_code import looks_like_session, read_claude_session
from .codex import looks_like_rollout, read_codex_rollout
from .common import ReadTally
from .exports import export_flavour, read_chatgpt, read_claude_ai
from .gemini import looks_like_gemini_session, read_gemini_session

__all__ = ["ChatGPTExport", "ClaudeAiExport", "ClaudeCodeSessions", "CodexSessions", "GeminiSessions",
           "sessions_home_sources"]

Reader = Callable[[Path, str, ReadTally, Callable[[str, str], None], Callable[[str], str]], Iterator[AgentTurn]]
_SNIFF_ENTRIES = 40
"""Folder entries looked at when sniffing (sniffing must stay cheap on a large folder)."""


def _some(paths: Iterator[Path], test: Callable[[Path], bool]) -> bool:
    """True when one of the first :data:`_SNIFF_ENTRIES` paths passes ``test``."""
    for count, path in enumerate(paths):
        if count >= _SNIFF_ENTRIES:
            return False
        if test(path):
            return True
    return False


class _SessionFiles(Source, priority=18, cursor_doc=""):
    """The read loop every agent's session folder shares: its files in name order (so a re-read
    gives the same items in the same order), each streamed by the agent's reader function; a
    file that fails as a whole is reported and the next one read. No cursor: a file modified
    before ``since`` is passed over, the rest are read again (a session grows at its end)."""

    reader: ClassVar[Reader]
    pattern: ClassVar[str] = "*.jsonl"
    tally: ReadTally
    """What the last read saw: sessions, the person's turns, records, unknown types (report, benchmark)."""

    @classmethod
    def from_uri(cls, uri: str) -> list[Source]:
        return [cls(uri.partition(":")[2])]

    def root(self) -> Path:
        return Path(self.location).expanduser() if self.location else self.default_root()

    def default_root(self) -> Path:
        """Where the agent keeps its sessions when no folder is named."""
        raise NotImplementedError

    @cached_property
    def id(self) -> str:
        return f"{self.kind}:{self.root().absolute()}"

    def files(self) -> list[Path]:
        root = self.root()
        if root.is_file():
            return [root]
        return sorted(p for p in root.rglob(self.pattern) if p.is_file() and self.is_session(p))

    @classmethod
    def is_session(cls, path: Path) -> bool:
        return True

    def read(self, ctx: ReadContext) -> Iterator[Item]:
        root = self.root()
        if not root.exists():
            raise SourceNotFound(f"{self.kind}: {root} does not exist",
                                 hint="has the agent been run on this machine, or is the folder elsewhere?")
        files = self.files()
        total = sum(_size(p) for p in files)
        done = count = 0
        tally = ReadTally()
        # the ledger: the unit is a session file (a session's turns are its items), counted as it is
        # reached (as an mbox counts its messages); each ends read, failed as a whole, or passed over
        # (older than --since). A broken line inside a file that was read is reported with its reason
        # but does not fail the file: a session being written ends in a cut line.
        ctx.units_read = ctx.units_read or 0
        for path in files:
            if ctx.should_stop():
                return
            ctx.find()
            if ctx.since is not None and _mtime(path) < ctx.since.timestamp():
                ctx.pass_over("older than --since")
                continue
            failed = False

            def skip(ref: str, why: str, whole: str = str(path)) -> None:
                nonlocal failed
                failed = failed or ref == whole  # the reader gave up on the whole file
                ctx.skip(self.id, ref, why)

            try:
                for turn in type(self).reader(path, self.id, tally, skip, ctx.clean):
                    count += 1
                    yield turn
            except (OSError, ValueError, SourceError) as exc:
                skip(str(path), f"unreadable: {str(exc)[:120]}")
            if failed:
                ctx.units_failed += 1
            else:
                ctx.units_read += 1
            done += _size(path)
            ctx.progress(self.id, count)
            ctx.progress_bytes(self.id, done, total)
        _report_unknown(ctx, self.id, tally)
        self.tally = tally


def _report_unknown(ctx: ReadContext, source: str, tally: ReadTally) -> None:
    """Each unknown record type was reported where first met; its total is reported at the end,
    so the scan's skip counts say how much an agent's newer format held that was not read."""
    for kind, count in sorted(tally.unknown.items()):
        if count > 1:
            ctx.skip(source, kind, f"{count} records of unknown type {kind.partition(':')[2]!r} skipped in all")


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0


def _mtime(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except OSError:
        return 0.0


class ClaudeCodeSessions(_SessionFiles, kind="claude-code-sessions", uri_schemes=("claude-code-sessions",),
                         uri_form="claude-code-sessions:[FOLDER]",
                         description="Claude Code session transcripts (~/.claude/projects/*/*.jsonl)"):
    reader = read_claude_session

    def default_root(self) -> Path:
        return ClaudeCodeHarness.home() / "projects"

    @classmethod
    def is_session(cls, path: Path) -> bool:
        return looks_like_session(path)

    @classmethod
    def sniff(cls, path: Path) -> bool:
        """A transcript, a project folder of them, a projects folder, or a config home with one."""
        if path.is_file():
            return looks_like_session(path)
        if not path.is_dir():
            return False
        if (path / "projects").is_dir():
            path = path / "projects"
        return _some(path.glob("*.jsonl"), looks_like_session) or \
            _some(path.glob("*/*.jsonl"), looks_like_session)

    @classmethod
    def expand(cls, path: Path) -> list[Source]:
        """The transcripts, and each project memory folder beside them (read by ClaudeCodeMemory)."""
        base = path / "projects" if (path / "projects").is_dir() else path
        memories = [m for m in sorted({*base.glob("memory"), *base.glob("*/memory")})
                    if m.is_dir() and ClaudeCodeMemory.sniff(m)] if path.is_dir() else []
        return [cls(path), *(ClaudeCodeMemory(str(m)) for m in memories)]


class CodexSessions(_SessionFiles, kind="codex-sessions", uri_schemes=("codex-sessions",),
                    uri_form="codex-sessions:[FOLDER]",
                    description="Codex rollouts (~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl)"):
    reader = read_codex_rollout
    pattern = "rollout-*.jsonl"

    def default_root(self) -> Path:
        return CodexHarness.home() / "sessions"

    @classmethod
    def sniff(cls, path: Path) -> bool:
        """A rollout, or a folder holding them as Codex files them (``[sessions/]YYYY/MM/DD/``)."""
        if path.is_file():
            return looks_like_rollout(path)
        if not path.is_dir():
            return False
        for pattern in ("sessions/*/*/*/rollout-*.jsonl", "*/*/*/rollout-*.jsonl", "*/*/rollout-*.jsonl",
                        "*/rollout-*.jsonl", "rollout-*.jsonl"):
            if _some(path.glob(pattern), looks_like_rollout):
                return True
        return False

    def root(self) -> Path:
        root = super().root()
        return root / "sessions" if (root / "sessions").is_dir() else root

    @classmethod
    def expand(cls, path: Path) -> list[Source]:
        """The rollouts, and the home's memories when it keeps any (read by CodexMemory)."""
        return [cls(path), *([CodexMemory(str(path))] if path.is_dir() and CodexMemory.sniff(path) else [])]


class GeminiSessions(_SessionFiles, kind="gemini-sessions", uri_schemes=("gemini-sessions",),
                     uri_form="gemini-sessions:[FOLDER]",
                     description="Gemini CLI sessions (~/.gemini/tmp/*/chats/session-*.json[l])"):
    reader = read_gemini_session
    pattern = "session-*.json*"

    def default_root(self) -> Path:
        return GeminiHarness.home() / "tmp"

    @classmethod
    def is_session(cls, path: Path) -> bool:
        return looks_like_gemini_session(path)

    @classmethod
    def sniff(cls, path: Path) -> bool:
        """A session file, a ``chats`` folder, a project folder, the ``tmp`` folder or the home."""
        if path.is_file():
            return looks_like_gemini_session(path)
        if not path.is_dir():
            return False
        return any(_some(path.glob(pattern), looks_like_gemini_session)
                   for pattern in ("session-*", "chats/session-*", "*/chats/session-*", "tmp/*/chats/session-*"))

    @classmethod
    def expand(cls, path: Path) -> list[Source]:
        """The sessions, and the home's memory when it keeps any (read by GeminiMemory)."""
        return [cls(path), *([GeminiMemory(str(path))] if path.is_dir() and GeminiMemory.sniff(path) else [])]


class _Export(Source, priority=12, cursor_doc=""):
    """A chat assistant's export: one file (or the zip holding it), one reader function."""

    flavour: ClassVar[str]
    reader: ClassVar[Reader]
    tally: ReadTally

    @classmethod
    def sniff(cls, path: Path) -> bool:
        return export_flavour(path) == cls.flavour

    def read(self, ctx: ReadContext) -> Iterator[Item]:
        path = self.local_path("conversations.json or export zip")
        tally = ReadTally()
        try:
            yield from type(self).reader(path, self.id, tally, lambda ref, why: ctx.skip(self.id, ref, why), ctx.clean)
        except (OSError, ValueError) as exc:
            raise SourceError(f"{path}: not a readable {self.kind} ({str(exc)[:100]})",
                              hint="give the conversations.json from the export, or the export's zip") from exc
        # the ledger: the unit is a conversation; one that is not a conversation was skipped with its reason
        ctx.find(tally.sessions + tally.broken)
        ctx.units_read = (ctx.units_read or 0) + tally.sessions
        ctx.units_failed += tally.broken
        _report_unknown(ctx, self.id, tally)
        self.tally = tally


class ChatGPTExport(_Export, kind="chatgpt-export", description="ChatGPT data export (conversations.json or zip)"):
    flavour = "chatgpt"
    reader = read_chatgpt


class ClaudeAiExport(_Export, kind="claude-ai-export", description="Claude.ai data export (conversations.json or zip)"):
    flavour = "claude-ai"
    reader = read_claude_ai


def sessions_home_sources(harness: str, location: str) -> list[Source]:
    """The session source that goes with a harness memory URI (``claude-code:``, ``codex:``), when
    that home holds sessions: a home with memory alone stays one source."""
    if harness == "claude-code":
        root = ClaudeCodeHarness.locate(location).parent if location else ClaudeCodeHarness.home() / "projects"
        return [ClaudeCodeSessions(str(root) if location else "")] if ClaudeCodeSessions.sniff(root) else []
    if harness == "codex":
        root = Path(location).expanduser() if location else CodexHarness.home()
        return [CodexSessions(str(root) if location else "")] if CodexSessions.sniff(root) else []
    if harness == "gemini":
        root = Path(location).expanduser() if location else GeminiHarness.home()
        return [GeminiSessions(str(root) if location else "")] if GeminiSessions.sniff(root) else []
    return []
