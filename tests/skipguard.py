"""A skip may only say that something outside the project is absent — and it must be true.

A test that skips passes silently, so a broken connector that makes a test skip reads as
green. This plugin (loaded by ``tests/conftest.py``) records the reason of every skip and
fails the session (exit code 1) when a reason is not on :data:`ALLOWED`, or is on it while the
thing it names is in fact present: "real data folder ... is absent" fails the run on a machine
that has the folder, so the reason cannot be borrowed to hide a failure. Nor can it be given in
an ``except`` block (``except ImportError: pytest.skip(...)``): a skip raised while handling an
exception is unexpected whatever it says, since an absence is probed, not caught. ``xfail``
counts as an unexpected skip too: it is a failure the suite has agreed not to see.

The external things, each probed here so tests and the allow-list agree on what "absent" means:

- the real-data folder, located by ``MEMSEED_REALDATA`` only (``make unit`` sets it; the corpora
  and where to get them: ``tests/REALDATA.md``): corpora nobody on the team wrote, not
  redistributable inside the repository;
- ``/usr/bin/chromium`` for the browser end-to-end test (``make browser-deps`` installs it);
- a Python with ``hermes-agent`` in a side venv (``make hermes-deps``, or ``MEMSEED_HERMES_PYTHON``),
  kept out of the main venv because it installs top-level ``tools``/``utils`` modules.

Run pytest with ``-rs`` (``make unit`` does) to see every skip's reason in the summary.
"""

from __future__ import annotations

import functools
import os
import re
import subprocess
from collections.abc import Callable, Generator
from dataclasses import dataclass
from pathlib import Path

import pytest

__all__ = ["ALLOWED", "CHROMIUM", "REALDATA", "AllowedSkip", "hermes_python", "unexpected_skips"]

REALDATA = Path(os.environ.get("MEMSEED_REALDATA") or "(MEMSEED_REALDATA is not set)")
"""The real-data folder (tests/REALDATA.md). Unset, it names no folder, so the real-data tests skip
with "real data folder (MEMSEED_REALDATA is not set) is absent"."""
CHROMIUM = Path("/usr/bin/chromium")
_REPO = Path(__file__).resolve().parents[1]


@functools.cache
def hermes_python() -> str | None:
    """An interpreter with hermes-agent installed: env MEMSEED_HERMES_PYTHON, or the side venv
    `make test` builds at .venv-hermes (kept apart: hermes-agent installs generic top-level
    modules such as ``tools`` and ``utils`` that would shadow ours). Probed once per session."""
    side_venv = _REPO / ".venv-hermes" / "bin" / "python"
    for candidate in (os.environ.get("MEMSEED_HERMES_PYTHON"), str(side_venv)):
        if candidate and Path(candidate).exists():
            probe = subprocess.run([candidate, "-c", "import tools.memory_tool"], capture_output=True,
                                   timeout=60, check=False)
            if probe.returncode == 0:
                return candidate
    return None


@dataclass(frozen=True)
class AllowedSkip:
    """One documented skip reason: its pattern, and a check that the thing is really absent."""

    what: str
    pattern: re.Pattern[str]
    truly_absent: Callable[[re.Match[str]], bool]


ALLOWED: tuple[AllowedSkip, ...] = (
    AllowedSkip("shared real-data folder", re.compile(r"^real data folder (?P<path>.+?) is absent\b"),
                lambda m: not Path(m["path"]).is_dir()),
    AllowedSkip("Chromium for the browser test", re.compile(r"^(?P<path>/\S*chromium) is absent\b"),
                lambda m: not Path(m["path"]).exists()),
    AllowedSkip("hermes-agent side venv",
                re.compile(r"^hermes-agent is not installed in a side interpreter\b"),
                lambda m: hermes_python() is None),
)

_SKIPS = pytest.StashKey[list[tuple[str, str]]]()
_UNEXPECTED = pytest.StashKey[list[tuple[str, str]]]()
_HANDLING = pytest.StashKey[dict[tuple[str, str], str]]()
"""(test id, phase) -> the exception a skip was raised while handling."""


def _reason(report: pytest.CollectReport | pytest.TestReport) -> str:
    if getattr(report, "wasxfail", None) is not None:
        return f"xfail: {report.wasxfail}"  # type: ignore[union-attr]
    longrepr = report.longrepr
    text = longrepr[2] if isinstance(longrepr, tuple) and len(longrepr) == 3 else str(longrepr)
    return str(text).removeprefix("Skipped: ")


def unexpected_skips(skips: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """The (test id, reason) pairs no allow-list entry covers, or whose thing is present after all."""
    out: list[tuple[str, str]] = []
    for nodeid, reason in skips:
        ok = False
        for allowed in ALLOWED:
            m = allowed.pattern.search(reason)
            if m:
                ok = allowed.truly_absent(m)
                if not ok:
                    reason = f"{reason} (but the {allowed.what} is present)"
                break
        if not ok:
            out.append((nodeid, reason))
    return out


def _record(config: pytest.Config, report: pytest.CollectReport | pytest.TestReport) -> None:
    if report.skipped:
        reason = _reason(report)
        handling = config.stash.get(_HANDLING, {}).get((report.nodeid, getattr(report, "when", "")))
        if handling is not None:  # the prefix keeps any allow-list pattern (all anchored at ^) from matching
            reason = f"skipped while handling {handling}: {reason}"
        config.stash.setdefault(_SKIPS, []).append((report.nodeid, reason))


@pytest.hookimpl(trylast=True)
def pytest_configure(config: pytest.Config) -> None:
    config.stash[_SKIPS] = []
    config.stash[_UNEXPECTED] = []
    config.stash[_HANDLING] = {}

    class _Recorder:
        @pytest.hookimpl(wrapper=True)
        def pytest_runtest_makereport(self, item: pytest.Item,
                                      call: pytest.CallInfo[None]) -> Generator[None, pytest.TestReport,
                                                                                pytest.TestReport]:
            """Note a skip raised in an ``except`` block: ``except ImportError: pytest.skip(...)``
            turns a broken project module into a skip whatever the reason says, so it never counts
            as a documented absence (absences are probed with ``if``, not caught)."""
            report = yield
            context = call.excinfo.value.__context__ if call.excinfo is not None and report.skipped else None
            if context is not None:
                config.stash[_HANDLING][(report.nodeid, report.when)] = f"{type(context).__name__}({context})"
            return report

        def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
            _record(config, report)

        def pytest_collectreport(self, report: pytest.CollectReport) -> None:
            _record(config, report)

    config.pluginmanager.register(_Recorder(), "memseed-skip-recorder")


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    bad = unexpected_skips(session.config.stash.get(_SKIPS, []))
    session.config.stash[_UNEXPECTED] = bad
    if bad and exitstatus in (pytest.ExitCode.OK, pytest.ExitCode.NO_TESTS_COLLECTED):
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    bad = terminalreporter.config.stash.get(_UNEXPECTED, [])
    if not bad:
        return
    terminalreporter.section("unexpected skips (not on the allow-list in tests/skipguard.py)", red=True)
    for nodeid, reason in bad:
        terminalreporter.line(f"UNEXPECTED SKIP {nodeid}: {reason}", red=True)
    terminalreporter.line(f"{len(bad)} unexpected skip(s): the run fails; fix the test or the environment")
