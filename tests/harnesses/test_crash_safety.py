"""Crash safety: ``memseed write`` and ``memseed scan`` killed with SIGKILL at chosen points.

Afterwards the store opens and passes SQLite's integrity check, no target file is torn (each is
byte-for-byte as it was or as the write meant it), ``memseed write`` (or ``scan``/``reseed``)
finishes the job, and ``memseed undo`` restores the memory folder byte-exact. The points are a
seeded random sample of "before/after the k-th call of" the steps that matter (journal rows,
the atomic rename, the final status; item batches, cursors, proposals), so runs are repeatable.
"""

from __future__ import annotations

import os
import random
import shutil
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from bootstrap_app.review import decisions
from bootstrap_app.store import Store

from .conftest import make_proposals

ROOT = Path(__file__).resolve().parents[2]
WRITE_POINTS = [(t, n, w) for t in ("bootstrap_app.store:Store.journal_file", "os:link")
                for n in range(1, 6) for w in ("before", "after")]  # os.link puts a new file in place
WRITE_POINTS += [("bootstrap_app.store:Store.finish_write", 1, "before"), ("bootstrap_app.store:Store.finish_write", 1, "after")]
SCAN_POINTS = [("bootstrap_app.store:Store.record_items", 1, "before"), ("bootstrap_app.store:Store.record_items", 2, "after"),
               ("bootstrap_app.store:Store.set_cursor", 1, "before"), ("bootstrap_app.store:Store.set_cursor", 1, "after"),
               ("bootstrap_app.store:Store.save_proposals", 1, "before"), ("bootstrap_app.store:Store.save_proposals", 1, "after"),
               ("bootstrap_app.store:Store.remember_source", 1, "before"), ("bootstrap_app.store:Store.finish_run", 1, "before"),
               ("bootstrap_app.store:Store.start_run", 1, "after")]
SAMPLE = 8


def _env(home: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CLAUDE", "CODEX", "HERMES", "GEMINI", "MEMSEED"))}
    env.update(HOME=str(home), MEMSEED_HOME=str(home / ".memseed"), PYTHONPATH=str(ROOT))
    return env


def _cli(home: Path, *args: str, kill: tuple[str, int, str] | None = None) -> subprocess.CompletedProcess[str]:
    pre = ["-m", "tests.crashkill", kill[0], str(kill[1]), kill[2], "--"] if kill else \
          ["-c", "import sys; from bootstrap_app.cli import main; sys.argv[0] = 'memseed'; main()"]
    return subprocess.run([sys.executable, *pre, *args], cwd=ROOT, env=_env(home), capture_output=True,
                          text=True, timeout=120)


def _tree(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def _store_ok(home: Path) -> None:
    db = home / ".memseed" / "state.db"
    with sqlite3.connect(db) as con:
        assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    Store(db).close()


@pytest.fixture
def template(tmp_path: Path) -> Path:
    """A home with four approved proposals and a memory folder holding the person's own notes."""
    home = tmp_path / "template"
    (home / ".memseed").mkdir(parents=True)
    store = Store(home / ".memseed" / "state.db")
    props = make_proposals()
    store.save_proposals(store.start_run("scan", []), props)
    decisions.approve(store, [p.id for p in props])
    store.close()
    memory = home / "project" / "memory"
    memory.mkdir(parents=True)
    (memory / "my-notes.md").write_bytes(b"# Mine\r\nnot memseed's \xe2\x80\x94 keep byte-exact\n")
    return home


def test_write_killed_anywhere_recovers(template: Path, tmp_path: Path) -> None:
    before = _tree(template / "project" / "memory")
    reference = tmp_path / "reference"
    shutil.copytree(template, reference)
    done = _cli(reference, "write", "--target", "markdown", "--project", str(reference / "project"))
    assert done.returncode == 0, done.stderr
    after = _tree(reference / "project" / "memory")
    assert len(after) > len(before) + 2
    rng = random.Random(13)  # stratified: journaling, files going in place, the final status
    by_step = {step: [p for p in WRITE_POINTS if p[0] == step] for step in dict.fromkeys(p[0] for p in WRITE_POINTS)}
    points = [*rng.sample(by_step["bootstrap_app.store:Store.journal_file"], 3), *rng.sample(by_step["os:link"], 4),
              *rng.sample(by_step["bootstrap_app.store:Store.finish_write"], 1)]
    results = []
    for i, point in enumerate(points):
        home = tmp_path / f"w{i}"
        shutil.copytree(template, home)
        memory = home / "project" / "memory"
        killed = _cli(home, "write", "--target", "markdown", "--project", str(home / "project"), kill=point)
        assert killed.returncode == -signal.SIGKILL, (point, killed.returncode, killed.stderr)
        _store_ok(home)
        for name, data in _tree(memory).items():  # nothing torn: every file is old or new, whole
            assert data in (before.get(name), after.get(name)) or name.startswith(".memseed-"), (point, name)
        again = _cli(home, "write", "--target", "markdown", "--project", str(home / "project"))
        assert again.returncode == 0, (point, again.stderr)
        assert _tree(memory) == after, point  # the job is finished, temp files gone
        undo = _cli(home, "undo")
        assert undo.returncode == 0, (point, undo.stderr)
        assert _tree(memory) == before, point  # byte-exact, including the person's own file
        results.append(point)
    assert len(results) == SAMPLE


def test_undo_killed_half_way_can_be_run_again(template: Path, tmp_path: Path) -> None:
    home = tmp_path / "u"
    shutil.copytree(template, home)
    memory = home / "project" / "memory"
    before = _tree(memory)
    assert _cli(home, "write", "--target", "markdown", "--project", str(home / "project")).returncode == 0
    killed = _cli(home, "undo", kill=("os:unlink", 2, "after"))
    assert killed.returncode == -signal.SIGKILL
    again = _cli(home, "undo")
    assert again.returncode == 0, again.stderr
    assert _tree(memory) == before


def _mbox(path: Path, n: int) -> Path:
    with open(path, "wb") as f:
        for i in range(n):
            f.write(b"From ana@x.example Mon Mar  2 09:00:00 2026\n"
                    b"From: Ana Ruiz <ana@x.example>\nTo: jon@x.example\nX-Gmail-Labels: Sent\n"
                    + f"Subject: note {i}\nDate: Mon, 02 Mar 2026 09:{i % 60:02d}:00 +0100\n"
                      f"Message-ID: <n{i}@x.example>\n\nBody {i}\n\n".encode())
    return path


def test_scan_killed_anywhere_recovers(tmp_path: Path) -> None:
    mbox = _mbox(tmp_path / "mail.mbox", 4500)  # three item batches
    reference = tmp_path / "reference"
    assert _cli(reference, "scan", str(mbox), "--owner", "ana@x.example").returncode == 0
    with Store(reference / ".memseed" / "state.db") as store:
        expected = sorted(p.proposal.fingerprint for p in store.proposals())
    points = random.Random(13).sample(SCAN_POINTS, SAMPLE)
    for i, point in enumerate(points):
        home = tmp_path / f"s{i}"
        killed = _cli(home, "scan", str(mbox), "--owner", "ana@x.example", kill=point)
        assert killed.returncode == -signal.SIGKILL, (point, killed.returncode, killed.stderr[-500:])
        _store_ok(home)
        again = _cli(home, "scan", str(mbox), "--owner", "ana@x.example")
        assert again.returncode == 0, (point, again.stderr[-500:])
        reseed = _cli(home, "reseed")
        assert reseed.returncode == 0, (point, reseed.stderr[-500:])
        with Store(home / ".memseed" / "state.db") as store:
            assert sorted(p.proposal.fingerprint for p in store.proposals()) == expected, point
