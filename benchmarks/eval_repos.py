"""``make eval-repos``: scan the 24 real repositories as a newcomer and score the proposals.

Each bundle of ``$MEMSEED_REALDATA/repos/`` is cloned once into a
temporary folder and scanned with ``pipeline.scan`` — the function ``memseed scan`` calls — with
no ``--owner`` and a fresh app home, the way someone who just joined would. The proposals are
scored against ``tests/realrepos/NAME.toml`` (``benchmarks.repo_score``; definitions in
``tests/realrepos/README.md``): fact recall, documented-command recall, commands proposed,
command precision (proven / proposed), never-list hits, scan seconds beside history size
(commits) and tracked files. Weakest first, then per ecosystem.

A low score is a finding, not a failure: the exit status is non-zero only when the evaluator
itself breaks (a bundle that will not clone, an expectation file that will not load, a scan that
raises — the other repositories are still scored and printed).

Run: ``python -m benchmarks.eval_repos [--repo NAME ...] [--json] [--keep DIR] [--verbose]``.

A held-out set (repositories nobody tuned the rules to) is scored the same way with
``--repos DIR --expect DIR``: ``DIR`` holds ``NAME.bundle`` files or ``NAME/`` git working trees,
the other folder ``NAME.toml`` expectations in the schema of ``tests/realrepos/README.md``.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
import traceback
from collections import defaultdict
from pathlib import Path
from typing import Any

from benchmarks.repo_expect import Expectation, load_all
from benchmarks.repo_score import RepoScore, Tree, score

__all__ = ["clone", "evaluate", "main", "realdata_repos", "source_of"]


def realdata_repos() -> Path:
    """The bundle folder: ``$MEMSEED_REALDATA/repos`` (the Makefile sets it; see tests/REALDATA.md)."""
    return Path(os.environ.get("MEMSEED_REALDATA", "MEMSEED_REALDATA-is-not-set")) / "repos"


def _git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(repo), *args], capture_output=True, text=True, check=True).stdout


def source_of(folder: Path, name: str) -> Path:
    """Where repository ``name`` comes from in ``folder``: ``NAME.bundle``, else a git working tree
    ``NAME/`` (a held-out set is easier to assemble as plain repositories than as bundles)."""
    bundle = folder / f"{name}.bundle"
    tree = folder / name
    return tree if not bundle.is_file() and (tree / ".git").exists() else bundle


def clone(bundle: Path, dest: Path) -> Path:
    """A working clone of ``bundle`` (a bundle or a repository) at ``dest`` (reused when ``dest``
    already holds one): the scan never sees the source's untracked files or its other branches."""
    if not (dest / ".git").is_dir():
        subprocess.run(["git", "clone", "-q", str(bundle), str(dest)], check=True, capture_output=True)
    return dest


def evaluate(exp: Expectation, repo: Path, home: Path) -> tuple[RepoScore, dict[str, Any]]:
    """Scan ``repo`` as a newcomer (no owner, fresh ``home``) and score it; plus the raw figures."""
    from bootstrap_app.config import load_settings
    from bootstrap_app.pipeline import scan

    settings = load_settings(home)
    start = time.perf_counter()
    result = scan([str(repo)], settings=settings)
    seconds = time.perf_counter() - start
    texts = [f"{p.description}\n{p.body}" for p in result.proposals]
    got = score(exp, texts, [p.body for p in result.proposals], Tree(repo))
    figures = {"seconds": round(seconds, 3), "commits": int(_git(repo, "rev-list", "--count", "HEAD")),
               "files": len(_git(repo, "ls-files", "-z").split("\0")) - 1, "proposals": len(result.proposals),
               "errors": [f"{r.source}: {r.error}" for r in result.reports if r.error]}
    return got, figures


def _pct(value: float | None) -> str:
    return "   -" if value is None else f"{value:4.0%}"


def _row(name: str, s: RepoScore, f: dict[str, Any]) -> str:
    proven = sum(1 for why in s.proposed.values() if why)
    return (f"{name:<22} {s.ecosystem:<8} {_pct(s.recall)} {_pct(s.fact_recall)} {_pct(s.command_recall)}"
            f" {len(s.proposed):>4} {proven:>4} {_pct(s.precision)} {len(s.never_hits):>5}"
            f" {f['seconds']:>7.2f} {f['commits']:>7} {f['files']:>6}")


_HEADER = (f"{'repository':<22} {'eco':<8} {'rec':>4} {'fact':>4} {'cmd':>4} {'prop':>4} {'prov':>4} {'prec':>4}"
           f" {'never':>5} {'scan s':>7} {'commits':>7} {'files':>6}")


def _weakest_first(rows: list[tuple[RepoScore, dict[str, Any]]]) -> list[tuple[RepoScore, dict[str, Any]]]:
    return sorted(rows, key=lambda r: (r[0].recall, r[0].precision if r[0].precision is not None else 1.0,
                                       -len(r[0].never_hits), r[0].repo))


def _ecosystems(rows: list[tuple[RepoScore, dict[str, Any]]]) -> list[tuple[str, RepoScore, dict[str, Any]]]:
    """One pooled score per ecosystem (facts and commands summed, not averaged)."""
    groups: dict[str, list[tuple[RepoScore, dict[str, Any]]]] = defaultdict(list)
    for s, f in rows:
        groups[s.ecosystem].append((s, f))
    out = []
    for eco, members in groups.items():
        pooled = RepoScore(f"{len(members)} repo(s)", eco)
        figures = {"seconds": 0.0, "commits": 0, "files": 0}
        for s, f in members:
            pooled.facts_found += s.facts_found
            pooled.facts_missing += s.facts_missing
            pooled.docs_found += s.docs_found
            pooled.docs_missing += s.docs_missing
            pooled.proposed.update({f"{s.repo}:{c}": why for c, why in s.proposed.items()})
            pooled.never_hits.update({f"{s.repo}:{c}": why for c, why in s.never_hits.items()})
            for key in figures:
                figures[key] += f[key]
        out.append((eco, pooled, figures))
    return sorted(out, key=lambda e: (e[1].recall, e[0]))


def _report(rows: list[tuple[RepoScore, dict[str, Any]]], verbose: bool) -> None:
    print("rec = recall (facts + documented commands), fact / cmd = each alone, prop = commands proposed,")
    print("prov = proven, prec = prov/prop, never = never-list hits; weakest first\n")
    print(_HEADER)
    for s, f in _weakest_first(rows):
        print(_row(s.repo, s, f))
        if verbose:
            for label, items in (("missing facts", s.facts_missing), ("missing commands", s.docs_missing),
                                 ("unproven", [c for c, why in s.proposed.items() if not why]),
                                 ("never", [f"{c} ({why})" for c, why in s.never_hits.items()])):
                if items:
                    print(f"    {label}: " + "; ".join(items))
    print("\nper ecosystem (pooled)\n" + _HEADER.replace("repository", "ecosystem "))
    for eco, pooled, figures in _ecosystems(rows):
        print(_row(f"{eco} ({pooled.repo})", pooled, figures))
    total = RepoScore("all", "-")
    for s, _ in rows:
        total.facts_found += s.facts_found
        total.facts_missing += s.facts_missing
        total.docs_found += s.docs_found
        total.docs_missing += s.docs_missing
        total.proposed.update({f"{s.repo}:{c}": w for c, w in s.proposed.items()})
        total.never_hits.update({f"{s.repo}:{c}": w for c, w in s.never_hits.items()})
    sums = {k: sum(f[k] for _, f in rows) for k in ("seconds", "commits", "files")}
    print(_row(f"ALL ({len(rows)})", total, sums))
    print(_cost_line(rows))


def _cost_line(rows: list[tuple[RepoScore, dict[str, Any]]]) -> str:
    """How scan time follows the tracked files and the history (Pearson r over the repositories):
    the claim to check is that it follows files read, not commits."""
    seconds = [float(f["seconds"]) for _, f in rows]
    out = []
    for key in ("files", "commits"):
        values = [float(f[key]) for _, f in rows]
        try:
            out.append(f"{key} r={statistics.correlation(values, seconds):+.2f}")
        except statistics.StatisticsError:  # fewer than two repositories, or a constant column
            out.append(f"{key} r=n/a")
    return "scan time against " + ", ".join(out)


def _as_json(s: RepoScore, f: dict[str, Any]) -> dict[str, Any]:
    return {"repo": s.repo, "ecosystem": s.ecosystem, "recall": s.recall, "fact_recall": s.fact_recall,
            "command_recall": s.command_recall, "precision": s.precision, "facts_missing": s.facts_missing,
            "commands_missing": s.docs_missing, "proposed": s.proposed, "never_hits": s.never_hits, **f}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repo", action="append", default=[], metavar="NAME", help="only this repository (repeatable)")
    parser.add_argument("--json", action="store_true", help="one JSON document instead of the table")
    parser.add_argument("--keep", type=Path, help="clone here and reuse the clones on the next run")
    parser.add_argument("--verbose", "-v", action="store_true", help="list missing facts and unproven commands")
    parser.add_argument("--repos", type=Path, metavar="DIR",
                        help="bundles (NAME.bundle) or git repositories (NAME/) to scan instead of $MEMSEED_REALDATA/repos")
    parser.add_argument("--expect", type=Path, metavar="DIR",
                        help="expectation files (NAME.toml) to score against instead of tests/realrepos")
    args = parser.parse_args(argv)
    bundles = args.repos or realdata_repos()
    if not bundles.is_dir():
        print(f"real data folder {bundles} is absent; nothing to evaluate")
        return 0
    loaded = load_all(args.expect) if args.expect else load_all()
    expectations = [e for e in loaded if not args.repo or e.repo in args.repo]
    unknown = sorted(set(args.repo) - {e.repo for e in expectations})
    if unknown:
        print(f"no expectation file for {', '.join(unknown)}", file=sys.stderr)
        return 2
    rows: list[tuple[RepoScore, dict[str, Any]]] = []
    crashed: list[str] = []
    with tempfile.TemporaryDirectory(prefix="memseed-eval-repos-") as tmp:
        work = args.keep or Path(tmp)
        for exp in expectations:
            try:  # one repository that breaks the scan must not hide the others' figures
                repo = clone(source_of(bundles, exp.repo), work / "clones" / exp.repo)
                rows.append(evaluate(exp, repo, Path(tmp) / "homes" / exp.repo))
            except Exception:  # printed with its traceback; the exit status says so
                traceback.print_exc()
                crashed.append(exp.repo)
    if args.json:
        json.dump([_as_json(s, f) for s, f in _weakest_first(rows)], sys.stdout, indent=1)
        print()
    else:
        _report(rows, args.verbose)
    for s, f in rows:
        for error in f["errors"]:
            print(f"{s.repo}: source error: {error}", file=sys.stderr)
    if crashed:
        print(f"the evaluation crashed on: {', '.join(crashed)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
