"""Proposals before and after a change, byte for byte, on every real mail corpus.

Why: a speed-up that changes what memseed proposes is a bug, and the tests that compare a fast
path with the plain reading see only the part they test. This runs ``memseed scan`` with the code
of two checkouts — today's tree and an older commit's (``git worktree add /tmp/base <commit>``)
— on each mail corpus of ``$MEMSEED_REALDATA/email`` and on a real-text mbox
(:mod:`.realmail`, scanned with ``--owner`` and ``--jobs 1`` and with every core), each in a
fresh app home, and compares the proposals and what the gate quarantined. Only the
``derived_at`` stamp (the clock) is dropped before comparing.

``--corpus NAME`` (repeatable) makes the real-text mbox of one corpus folder instead of all
(``notmuch``: list mail only), one mbox per name given.

Run: ``python -m benchmarks.proposals_check BASE_TREE [--real 8000] [--corpus NAME]...``; exit 1 when any differs.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

__all__ = ["main", "proposals"]

_HERE = Path(__file__).resolve().parents[1]


def proposals(tree: Path, location: str, extra: list[str]) -> tuple[list[str], list[str]]:
    """The proposals and the quarantined lines of one ``memseed scan`` with ``tree``'s code."""
    with tempfile.TemporaryDirectory(prefix="memseed-check-") as home:
        quarantine = Path(home) / "quarantine.jsonl"
        env = dict(os.environ, PYTHONPATH=str(tree), HOME=home)
        out = subprocess.run([sys.executable, "-c", "from bootstrap_app.cli import main; main()", "--home", home,
                              "scan", location, "--quarantine", str(quarantine), *extra],
                             env=env, cwd=tree, capture_output=True, text=True, check=False)
        if out.returncode != 0:
            raise SystemExit(f"{tree}: scan of {location} failed ({out.returncode}): {out.stderr[-2000:]}")
        held = quarantine.read_text(encoding="utf-8").splitlines() if quarantine.exists() else []
    return [_stable(line) for line in out.stdout.splitlines() if line.strip()], held


def _stable(line: str) -> str:
    row = json.loads(line)
    row.pop("derived_at", None)  # the clock, not the code
    return json.dumps(row, ensure_ascii=False, sort_keys=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("base", type=Path, help="a checkout of the code to compare with (git worktree)")
    parser.add_argument("--real", type=int, default=8000,
                        help="messages of the real-text mbox (0: none); above 16 MB, so every core reads it")
    parser.add_argument("--corpus", action="append", default=None,
                        help="the real-text mbox of this corpus folder (repeatable; default: every corpus)")
    args = parser.parse_args(argv)
    from benchmarks.realmail import OWNER, corpus_folder, realdata_email, write_real_mbox

    folder = realdata_email()
    if folder is None:
        print("skipped: the real data folder is absent (set MEMSEED_REALDATA)")
        return 0
    cases: list[tuple[str, list[str]]] = [(str(p), []) for p in sorted(folder.rglob("*.mbox"))]
    emls = sorted(folder.rglob("*.eml"))
    eml_folders = sorted({p.parent for p in emls if sum(q.parent == p.parent for q in emls) > 1})
    cases += [(str(d), []) for d in eml_folders] + [(str(p), []) for p in emls if p.parent not in eml_folders]
    with tempfile.TemporaryDirectory(prefix="memseed-check-real-") as tmp:
        for corpus in (args.corpus or [""]) if args.real else []:
            source = corpus_folder(corpus) or folder
            mbox = Path(tmp) / f"real-{source.name}-{args.real}.mbox"
            write_real_mbox(mbox, args.real, source)
            cases += [(str(mbox), ["--owner", OWNER, "--jobs", "1"]), (str(mbox), ["--owner", OWNER])]
        differ = 0
        for location, extra in cases:
            new = proposals(_HERE, location, extra)
            old = proposals(args.base.resolve(), location, extra)
            same = new == old
            differ += not same
            name = Path(location).name
            print(f"{'same' if same else 'DIFFERENT'}: {name} {' '.join(extra)}: {len(new[0])} proposals, "
                  f"{len(new[1])} quarantined (base: {len(old[0])}, {len(old[1])})", flush=True)
    return 1 if differ else 0


if __name__ == "__main__":
    raise SystemExit(main())
