"""Where each approved entry lands, per target: the demo persona and real repository bundles.

Why a report and not a timing: issue 30 asks which file every entry goes to, before and after
the placement change, on data the team did not write. Each entry is planned on its own
(``plan_write(..., only=(id,))``) into a throwaway home, so one target's cap (Hermes) cannot hide
where the others would go; nothing is written. A file is classed by whether its agent loads it
in every project (``everywhere``), in one repository's sessions (``repo``), or ``not written``.

Run: ``python -m benchmarks.placement_report [--bundle PATH ...] [--details]``; with
``$MEMSEED_REALDATA`` set, ``--bundle`` defaults to its ``repos/requests.bundle``. It uses the
public API only, so ``PYTHONPATH=<an older checkout> python benchmarks/placement_report.py``
measures that version the same way.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import tempfile
from collections import Counter
from pathlib import Path

__all__ = ["main"]

TARGETS = ("claude-code", "codex", "gemini", "hermes")
_HOMES = {"claude-code": ".claude", "codex": ".codex", "gemini": ".gemini", "hermes": ".hermes"}


def _classify(target: str, home: Path, location: str) -> str:
    """``everywhere`` (a file the agent loads in every project), ``repo`` (one repository's
    sessions only: Claude Code's per-project memory, a repository's own instruction file)."""
    parts = Path(os.path.relpath(location.split("#", 1)[0], home)).parts
    if parts[:1] != (_HOMES[target],):
        return "repo"
    return "repo" if target == "claude-code" and parts[1:2] == ("projects",) else "everywhere"


def _report(label: str, store: object, home: Path, details: bool) -> None:
    from bootstrap_app import plan_write
    from bootstrap_app.errors import MemseedError

    rows = store.proposals(status="approved")  # type: ignore[attr-defined]
    print(f"\n== {label}: {len(rows)} approved entries")
    for target in TARGETS:
        tally: Counter[str] = Counter()
        for sp in rows:
            p = sp.effective
            scoped = p.scope not in ("", "global") and str(p.type) != "user"
            try:
                plan = plan_write(store, target, only=(p.id,))
            except MemseedError as exc:
                tally[f"{'repo' if scoped else 'person'} fact -> refused ({type(exc).__name__})"] += 1
                continue
            places = [loc for fp, loc in plan.written if fp == p.fingerprint]
            kind = _classify(target, home, places[0]) if places else "not written"
            tally[f"{'repo' if scoped else 'person'} fact -> {kind}"] += 1
            if details:
                shown = os.path.relpath(places[0].split('#')[0], home) if places else "-"
                print(f"  {target:11} {p.type!s:9} {p.name[:40]:40} -> {kind:11} ~/{shown}")
        print(f"  {target:11} " + "; ".join(f"{k}: {n}" for k, n in sorted(tally.items())))


def _scan_into(home: Path, locations: list[str], owners: tuple[str, ...]) -> object:
    from bootstrap_app import Store, approve, load_settings, scan

    settings = load_settings(home / ".memseed")
    store = Store(settings.db_path)
    result = scan(locations, settings=settings, store=store, owners=owners)
    if result.proposals:
        approve(store, [p.id for p in result.proposals])
    return store


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--bundle", action="append", default=[], help="a git bundle to clone and scan")
    parser.add_argument("--details", action="store_true", help="one line per entry and target")
    args = parser.parse_args(argv)
    realdata = os.environ.get("MEMSEED_REALDATA")
    bundles = args.bundle or ([str(Path(realdata) / "repos" / "requests.bundle")] if realdata else [])
    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp)
        os.environ["HOME"] = str(home)  # every harness home and the app dir inside the throwaway folder
        from bootstrap_app import build_demo
        from bootstrap_app.demo import demo_owner_addresses

        demo_home = home / "demo-run"
        demo_home.mkdir()
        os.environ["HOME"] = str(demo_home)
        store = _scan_into(demo_home, [str(build_demo(demo_home / "demo"))], tuple(demo_owner_addresses()))
        _report("demo persona", store, demo_home, args.details)
        for bundle in bundles:
            run_home = home / f"run-{Path(bundle).stem}"
            clone = run_home / "code" / Path(bundle).stem
            clone.parent.mkdir(parents=True)
            subprocess.run(["git", "clone", "-q", bundle, str(clone)], check=True, timeout=600)
            os.environ["HOME"] = str(run_home)
            store = _scan_into(run_home, [str(clone)], ())
            _report(f"real repository {Path(bundle).name}", store, run_home, args.details)


if __name__ == "__main__":
    main()
