"""What reading agent sessions costs: the session readers against the mail reader and ``json.loads``.

Why: a year of Claude Code transcripts and Codex rollouts is gigabytes, nearly all of it tool
output and the agent's text. The readers decode only the person's turns and take tool names
from the raw bytes; this measures, side by side in one run on the same generated files, what
that saves over the plainest full read (``json.loads`` of every line, nothing else done):

- ``json.loads``: every line parsed, nothing extracted;
- ``reader``: :class:`ClaudeCodeSessions` / :class:`CodexSessions` reading the same files
  (the person's turns decoded, marked and redacted; tool calls counted by name);
- ``reader, no redaction``: the same with an identity cleaner, which shows how much of the read
  is secret redaction of the person's own text (a pasted CI log left in a turn is scanned whole);
- ``mail reader``: :class:`MboxSource` over a generated Takeout-like mbox of about the same size
  (``benchmarks.bench_mbox``'s generator), the yardstick the issue sets ("at the speed of the
  mail reader"): MB/s against MB/s, turns/s beside messages/s.

Times are CPU-seconds of this process (``time.process_time``, median of ``--repeat``), not wall
time: the machine is shared, and another process's load would otherwise show up as ours.

Two corpora: generated sessions (``--sessions`` per agent, long tool output), and — when the
shared real-data folder is there (``MEMSEED_REALDATA``) — the real Claude Code and Codex sessions
copied ``--copies`` times (their nested records are what ``json.loads`` pays most for).
Both must see the same number of lines. Run: ``python -m benchmarks.bench_sessions [--sessions 40]``.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

__all__ = ["main"]


def _corpus(root: Path, sessions: int) -> tuple[Path, Path]:
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from tests.connectors.agent_sessions import ClaudeSession, CodexRollout

    output = "\n".join(f"drwxr-xr-x  2 dev dev 4096 Mar  2 09:{i % 60:02d} build-{i}/module.py: ok" for i in range(120))
    projects, codex = root / "claude" / "projects", root / "codex"
    for n in range(sessions):
        start = datetime(2026, 1, 1, tzinfo=UTC) + timedelta(days=n)
        cc = ClaudeSession(projects, f"/home/dev/p{n % 5}", f"{n:08d}-0000-4000-8000-000000000000", start)
        rr = CodexRollout(codex, f"/home/dev/p{n % 5}", f"{n:08d}-0000-4000-8000-000000000001", start)
        for turn in range(40):
            cc.person(f"Please fix the failing test number {turn}; use pytest, not unittest.")
            rr.person(f"Please fix the failing test number {turn}; use pytest, not unittest.")
            for _ in range(3):
                cc.assistant("Looking at the failure now. " * 20).tool_use("Bash", "pytest -x").tool_result(output)
                rr.assistant("Looking at the failure now. " * 20).call("pytest -x", output)
        cc.write()
        rr.write()
    return projects, codex


def _real(root: Path, copies: int) -> tuple[Path, Path] | None:
    """The real sessions, each file copied ``copies`` times under new names; None when absent."""
    shared = Path(os.environ.get("MEMSEED_REALDATA", "/nonexistent")) / "agent-sessions"
    if not shared.is_dir():
        return None
    projects, codex = root / "real-claude" / "projects", root / "real-codex" / "sessions" / "2025" / "01" / "01"
    for n in range(copies):
        for src in shared.glob("claude-code/*/projects/*/*.jsonl"):
            dest = projects / f"{src.parent.name}-{n}" / f"{n:04d}{src.name[4:]}"
            dest.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(src, dest)
        for src in shared.glob("codex/*/sessions/*/*/*/rollout-*.jsonl"):
            codex.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(src, codex / src.name.replace("rollout-", f"rollout-{n:04d}"))
    return projects, root / "real-codex"


def _lines(paths: list[Path]) -> int:
    import json
    count = 0
    for path in paths:
        with path.open("rb") as fh:
            for line in fh:
                json.loads(line)
                count += 1
    return count


def _timed(fn: Callable[[], object], repeat: int) -> tuple[float, object]:
    """Median CPU-seconds of ``fn`` over ``repeat`` runs, and what it returned."""
    times, result = [], None
    for _ in range(repeat):
        start = time.process_time()
        result = fn()
        times.append(time.process_time() - start)
    return statistics.median(times), result


def _mbox_like(root: Path, megabytes: float) -> Path:
    """A generated mbox of about ``megabytes`` MB (bench_mbox's generator, sized from a probe)."""
    from benchmarks.bench_mbox import generate_mbox

    path = root / "mail.mbox"
    per_message = generate_mbox(path, 500) / 500
    generate_mbox(path, max(100, round(megabytes * 1e6 / per_message)))
    return path


def _mail(root: Path, megabytes: float, repeat: int) -> tuple[float, float, int]:
    """(MB, CPU-seconds, messages) of MboxSource reading a generated mbox of about ``megabytes``."""
    from connectors.base import ReadContext
    from connectors.local.mbox import MboxSource

    path = _mbox_like(root, megabytes)
    source = MboxSource(str(path))

    def read() -> int:
        return sum(1 for _ in source.read(ReadContext()))

    seconds, count = _timed(read, repeat)
    return path.stat().st_size / 1e6, seconds, int(count)  # type: ignore[call-overload]


def _row(name: str, size: float, seconds: float, units: int, unit: str, mail_rate: float, plain: float) -> str:
    rate = size / seconds if seconds else float("inf")
    return (f"  {name:<22} {seconds:7.3f} cpu-s {rate:7.1f} MB/s {units / seconds:9.0f} {unit}/s"
            f"   x{rate / mail_rate:5.2f} mail reader   x{plain / seconds:5.2f} json.loads")


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--sessions", type=int, default=40)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--copies", type=int, default=10)
    args = parser.parse_args()
    from connectors.base import ReadContext
    from connectors.sessions.sources import ClaudeCodeSessions, CodexSessions

    with tempfile.TemporaryDirectory() as tmp:
        projects, codex = _corpus(Path(tmp), args.sessions)
        runs: list[tuple[str, ClaudeCodeSessions | CodexSessions]] = [
            ("generated claude-code", ClaudeCodeSessions(str(projects))), ("generated codex", CodexSessions(str(codex)))]
        real = _real(Path(tmp), args.copies)
        if real is None:
            print("real sessions: MEMSEED_REALDATA has no agent-sessions/, generated corpus only")
        else:
            runs += [("real claude-code", ClaudeCodeSessions(str(real[0]))), ("real codex", CodexSessions(str(real[1])))]
        total = sum(p.stat().st_size for _, src in runs for p in src.files()) / len(runs) / 1e6
        mail_mb, mail_s, messages = _mail(Path(tmp), total, args.repeat)
        mail_rate = mail_mb / mail_s
        print(f"mail reader (MboxSource, generated mbox): {mail_mb:.1f} MB, {messages} messages, "
              f"{mail_s:.3f} cpu-s, {mail_rate:.1f} MB/s, {messages / mail_s:.0f} messages/s")
        for label, source in runs:
            files = source.files()
            size = sum(p.stat().st_size for p in files) / 1e6

            def read(src: ClaudeCodeSessions | CodexSessions = source) -> int:
                return sum(1 for _ in src.read(ReadContext()))

            def unredacted(src: ClaudeCodeSessions | CodexSessions = source) -> int:
                return sum(1 for _ in src.read(ReadContext(cleaner=lambda text: text)))

            def plain_read(files: list[Path] = files) -> int:
                return _lines(files)

            plain, lines = _timed(plain_read, args.repeat)
            ours, turns = _timed(read, args.repeat)
            bare, _ = _timed(unredacted, args.repeat)
            records = source.tally.records
            if records != lines:
                print(f"{label}: the reader saw {records} lines, json.loads {lines}")
                return 1
            n_turns, n_lines = int(turns), int(lines)  # type: ignore[call-overload]
            print(f"{label}: {len(files)} files, {size:.1f} MB, {n_lines} lines, {n_turns} turns yielded")
            print(_row("json.loads every line", size, plain, n_lines, "lines", mail_rate, plain))
            print(_row("session reader", size, ours, n_turns, "turns", mail_rate, plain))
            print(_row("reader, no redaction", size, bare, n_turns, "turns", mail_rate, plain))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
