"""The mailbox benchmark measures what it says: every method reads every message of its mbox.

Why: ``benchmarks/bench_mbox.py`` compares methods side by side, and its "before" method is a
benchmark-only switch that patches today's code back to the old behaviour. When the code under
it changed shape, that switch made every message unreadable and the "before" row timed a scan of
nothing — 0 messages in 1.35 s, printed beside the others as if comparable. A method that reads
fewer messages than the file holds now fails the run; this test runs every method on a small mbox.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from benchmarks import bench_mbox


def test_every_method_reads_every_message(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert bench_mbox.main(["--messages", "400", "--real", "0", "--keep", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    rows = {label: int(m.group(1).replace(",", ""))
            for label in bench_mbox._LABELS.values()
            if (m := re.search(rf"^\s+{re.escape(label)}\s+([\d,]+) msgs", out, re.MULTILINE))}
    assert rows == {label: 400 for label in bench_mbox._LABELS.values()}, out


def test_a_method_that_loses_messages_fails_the_run(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    real = bench_mbox._in_subprocess

    def short_read(method: str, path: Path, profile: Path | None = None, owner: str = "",
                   tree: Path | None = None) -> dict[str, float]:
        got = real(method, path, profile, owner, tree)
        return {**got, "count": 0.0} if method == "scan-baseline" else got

    monkeypatch.setattr(bench_mbox, "_in_subprocess", short_read)
    assert bench_mbox.main(["--messages", "50", "--keep", str(tmp_path), "--methods", "iter_mbox,scan-baseline",
                            "--real", "0"]) == 1
    assert "FAILED: scan, before (1 process) read 0 of 50 messages" in capsys.readouterr().err


def test_real_text_mbox_is_read_whole(realdata: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The real-text table (issue 32): the real corpora's bodies, cycled past their own count,
    read whole by the stdlib parse, the header-only read and the scan with ``--owner``."""
    assert bench_mbox.main(["--messages", "0", "--real", "1500", "--keep", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "real-text mbox: 1,500 messages" in out
    rows = {label: int(m.group(1).replace(",", ""))
            for label in (bench_mbox._LABELS[m] for m in bench_mbox._REAL_METHODS)
            if (m := re.search(rf"^\s+{re.escape(label)}\s+([\d,]+) msgs", out, re.MULTILINE))}
    assert rows == {bench_mbox._LABELS[m]: 1500 for m in bench_mbox._REAL_METHODS}, out
    assert "ratio scan all cores vs stdlib mailbox parse, CPU-s" in out


def test_one_corpus_before_and_after(realdata: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``--corpus`` builds the real-text mbox of one corpus folder; ``--base`` runs each method
    with another checkout's code too (here this very tree), ``--repeat`` each twice: every row
    is a median of two runs that read every message, and the before/after line is printed."""
    tree = Path(bench_mbox.__file__).resolve().parents[1]
    assert bench_mbox.main(["--messages", "0", "--real", "600", "--corpus", "notmuch", "--methods", "iter_mbox",
                            "--base", str(tree), "--repeat", "2", "--keep", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert re.search(r"real-text mbox: 600 messages, .* bodies of \S+/notmuch,", out), out
    label = re.escape(bench_mbox._LABELS["iter_mbox"])
    for tag in ("", r" \[base\]"):
        assert re.search(rf"^\s+{label}{tag}\s+600 msgs .*\(runs: [\d.]+, [\d.]+\)$", out, re.MULTILINE), out
    assert f"before/after {bench_mbox._LABELS['iter_mbox']}: wall" in out
    with pytest.raises(SystemExit, match="no corpus 'no-such-corpus'"):
        bench_mbox.main(["--messages", "0", "--real", "10", "--corpus", "no-such-corpus", "--keep", str(tmp_path)])
