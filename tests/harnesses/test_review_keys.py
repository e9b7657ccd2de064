"""``memseed review`` at a real terminal: single keys, the person's facts first, flag legends.

The keypress path is driven through a real pseudo-terminal (``pty``): ``memseed review`` runs as
its own process whose stdin *is* a terminal, and the test types single characters without Enter
— CliRunner's pipe would only ever exercise the line-based fallback, which the last test keeps.
"""

from __future__ import annotations

import os
import pty
import re
import select
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path

from click.testing import CliRunner

from bootstrap_app.cli import main
from bootstrap_app.store import Store
from bootstrap_app.types import DecisionStatus, MemoryType

from .conftest import make_proposals

_ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
COMMAND = "- Test: `make check` (Makefile)"


def _save(store: Store) -> list[str]:
    """The four synthetic proposals, saved with the person's fact LAST and a flagged project fact."""
    props = make_proposals()
    props[2] = replace(props[2], flags=("unverified-path",), body=props[2].body + "\n\n" + COMMAND)
    ordered = [props[1], props[2], props[3], props[0]]  # user fact last, as a scan may save them
    store.save_proposals(store.start_run("scan", []), ordered)
    return [p.id for p in ordered]


class _Terminal:
    """``memseed review`` on the slave side of a pty; the test reads and types on the master side."""

    def __init__(self, env: dict[str, str]) -> None:
        master, slave = pty.openpty()
        self.master = master
        self.proc = subprocess.Popen([sys.executable, "-c", "from bootstrap_app.cli import main; main()", "review"],
                                     stdin=slave, stdout=slave, stderr=slave, env=env, close_fds=True)
        os.close(slave)
        self.seen = ""

    def read_until(self, text: str, timeout: float = 60.0) -> str:
        """Everything shown up to ``text`` (fails with what was shown when it never comes)."""
        end = time.monotonic() + timeout
        while text not in self.seen:
            left = end - time.monotonic()
            assert left > 0, f"never saw {text!r}; the terminal showed:\n{self.seen[-3000:]}"
            ready, _, _ = select.select([self.master], [], [], min(left, 1.0))
            if ready:
                try:
                    chunk = os.read(self.master, 4096)
                except OSError:  # the process closed the terminal
                    chunk = b""
                if not chunk and self.proc.poll() is not None:
                    assert text in self.seen, f"exited before {text!r}:\n{self.seen[-3000:]}"
                self.seen += _ANSI.sub("", chunk.decode("utf-8", "replace"))
        at = self.seen.index(text) + len(text)
        shown, self.seen = self.seen[:at], self.seen[at:]
        return shown

    def press(self, key: str) -> None:
        os.write(self.master, key.encode())

    def close(self) -> int:
        try:
            return self.proc.wait(timeout=60)
        finally:
            os.close(self.master)


def test_single_keys_at_a_terminal_person_first_with_flag_legends(store: Store, home: Path) -> None:
    ids = _save(store)
    env = {**os.environ, "HOME": str(home), "EDITOR": "false", "TERM": "xterm"}
    term = _Terminal(env)
    try:
        first = term.read_until("[q]uit")
        assert "works-from-lagos" in first and "small-pull-requests" not in first, \
            "the person's fact must come first even when it was saved last"
        term.press("a")  # no Enter: the key alone decides
        second = term.read_until("[q]uit")
        assert "small-pull-requests" in second
        term.press("r")
        third = term.read_until("[q]uit")
        assert "ledger-api" in third
        assert "unverified-path: a command taken from the repository's files" in third, "the legend is shown"
        assert f"about: {COMMAND}" in third, "the legend names the line it is about"
        term.press("\r")  # Enter alone skips
        term.read_until("[q]uit")
        term.press("q")
        term.read_until("approved 1, edited 0, rejected 1, skipped 1")
    finally:
        code = term.close()
    assert code == 0
    status = {sp.proposal.id: sp.decision.status if sp.decision else None for sp in store.proposals()}
    user, feedback, project, reference = ids[3], ids[0], ids[1], ids[2]
    assert status[user] is DecisionStatus.APPROVED and status[feedback] is DecisionStatus.REJECTED
    assert status[project] is None and status[reference] is None


def test_a_pipe_answers_one_key_per_line_in_the_same_order(store: Store, home: Path) -> None:
    ids = _save(store)
    result = CliRunner().invoke(main, ["review"], input="a\nr\n\nq\n", catch_exceptions=False)
    assert result.exit_code == 0, result.output
    assert result.output.index("works-from-lagos") < result.output.index("small-pull-requests")
    assert "about: " + COMMAND in result.output
    decided = {sp.proposal.id: sp.decision.status for sp in store.proposals() if sp.decision}
    assert decided == {ids[3]: DecisionStatus.APPROVED, ids[0]: DecisionStatus.REJECTED}
    listed = CliRunner().invoke(main, ["review", "--list", "--all"]).output.splitlines()
    assert [line.split()[2] for line in listed] == [str(t) for t in (MemoryType.USER, MemoryType.FEEDBACK,
                                                                      MemoryType.PROJECT, MemoryType.REFERENCE)]
