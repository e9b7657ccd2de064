"""What reading agent sessions costs: the session readers against ``json.loads`` of every line.

Why: a year of Claude Code transcripts and Codex rollouts is gigabytes, nearly all of it tool
output and the agent's text. The readers decode only the person's turns and take tool names
from the raw bytes; this measures, side by side in one run on the same generated files, what
that saves over the plainest full read (``json.loads`` of every line, nothing else done):

- ``json.loads``: every line parsed, nothing extracted;
- ``reader``: :class:`ClaudeCodeSessions` / :class:`CodexSessions` reading the same files
  (the person's turns decoded, marked and redacted; tool calls counted by name).

Both must see the same number of lines. Run: ``python -m benchmarks.bench_sessions [--sessions 40]``.
"""

from __future__ import annotations

import argparse
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
    times, result = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times), result


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--sessions", type=int, default=40)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    from connectors.base import ReadContext
    from connectors.sessions.sources import ClaudeCodeSessions, CodexSessions

    with tempfile.TemporaryDirectory() as tmp:
        projects, codex = _corpus(Path(tmp), args.sessions)
        for label, source in (("claude-code", ClaudeCodeSessions(str(projects))), ("codex", CodexSessions(str(codex)))):
            files = source.files()
            size = sum(p.stat().st_size for p in files) / 1e6

            def read(src: ClaudeCodeSessions | CodexSessions = source) -> int:
                return sum(1 for _ in src.read(ReadContext()))

            plain, lines = _timed(lambda files=files: _lines(files), args.repeat)
            ours, turns = _timed(read, args.repeat)
            records = source.tally.records
            if records != lines:
                print(f"{label}: the reader saw {records} lines, json.loads {lines}")
                return 1
            print(f"{label}: {len(files)} files, {size:.1f} MB, {lines} lines, {turns} turns yielded")
            print(f"  json.loads every line  {plain * 1000:8.1f} ms  {size / plain:7.1f} MB/s")
            print(f"  session reader         {ours * 1000:8.1f} ms  {size / ours:7.1f} MB/s  "
                  f"({plain / ours:.1f}x json.loads)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
