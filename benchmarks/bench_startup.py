"""What a ``memseed`` start costs before any command runs: importing ``bootstrap_app.cli``.

Why it matters: cron runs ``memseed reseed`` and people type ``memseed --help``; both pay for
every module the CLI imports at the top. The package imports its public API eagerly (no lazy
module ``__getattr__``), so the cost is whatever those modules import at module level; heavy
third-party libraries that one command or one file format needs are imported where used.

Why side by side and in subprocesses: an import happens once per process, so each sample is
a fresh interpreter, timed by its own CPU (user + system, from ``getrusage`` of the child)
and wall clock; the figures are the minimum over ``--runs`` samples (the least disturbed by
other load), next to a bare interpreter and to ``import click`` (the floor of any click CLI).
Two modes: *cached bytecode* (how an installed memseed starts: ``.pyc`` files exist, kept
in a temporary ``PYTHONPYCACHEPREFIX``, never in the tree) and *no bytecode*
(``PYTHONDONTWRITEBYTECODE``, as in some CI and dev shells: every module without a ``.pyc``
beside it, memseed's own in a fresh checkout, is compiled from source on every start). Then
the heaviest top-level third-party imports of ``bootstrap_app.cli`` from ``python -X importtime``.

Run: ``python -m benchmarks.bench_startup [--runs 7]``.
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

__all__ = ["main"]

_ROOT = Path(__file__).resolve().parents[1]
_OURS = ("bootstrap_app", "connectors", "prompts")
_ROW = re.compile(r"import time:\s+(\d+) \|\s+(\d+) \|( *)(\S+)")


def _env(pycache: Path, *, bytecode: bool) -> dict[str, str]:
    """This checkout first on the path (the figures are of this tree's code); with ``bytecode``
    every ``.pyc`` is written to and read from ``pycache``, else none is written."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONDONTWRITEBYTECODE", "PYTHONPYCACHEPREFIX")}
    path = env.get("PYTHONPATH", "")
    env["PYTHONPATH"] = f"{_ROOT}{os.pathsep}{path}" if path else str(_ROOT)
    if bytecode:
        env["PYTHONPYCACHEPREFIX"] = str(pycache)
    else:
        env["PYTHONDONTWRITEBYTECODE"] = "1"
    return env


def _sample(code: str, env: dict[str, str]) -> tuple[float, float]:
    """(CPU seconds, wall seconds) of one fresh interpreter running ``code``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", code], env=env, check=True, stdout=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), wall


def _best(code: str, runs: int, env: dict[str, str]) -> tuple[float, float]:
    _sample(code, env)  # warm-up: writes the .pyc files in the cached mode, the OS file cache in both
    samples = [_sample(code, env) for _ in range(runs)]
    return min(cpu for cpu, _ in samples), min(wall for _, wall in samples)


def heaviest(module: str, env: dict[str, str], top: int = 8) -> list[tuple[str, float]]:
    """Third-party top-level packages ``module`` pulls in, by cumulative import ms (one sample)."""
    done = subprocess.run([sys.executable, "-X", "importtime", "-c", f"import {module}"], env=env,
                          capture_output=True, text=True, check=True)
    stdlib = set(sys.stdlib_module_names)
    cost: dict[str, float] = {}
    for line in done.stderr.splitlines():
        match = _ROW.match(line)
        if not match:
            continue
        name = match.group(4)
        root = name.split(".")[0]
        if name == root and root not in _OURS and root not in stdlib and not root.startswith("_"):
            cost[root] = max(cost.get(root, 0.0), int(match.group(2)) / 1000)
    return sorted(cost.items(), key=lambda kv: -kv[1])[:top]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7, help="fresh interpreters per row (min is kept)")
    args = parser.parse_args()
    rows = [("python (bare interpreter)", "pass"), ("import click", "import click"),
            ("import bootstrap_app.cli", "import bootstrap_app.cli"),
            ("memseed --help", "from bootstrap_app.cli import main; main(['--help'], prog_name='memseed')")]
    with tempfile.TemporaryDirectory(prefix="memseed-startup-") as tmp:
        envs = {"cached bytecode": _env(Path(tmp), bytecode=True), "no bytecode": _env(Path(tmp), bytecode=False)}
        print(f"start-up, min of {args.runs} fresh interpreters (after one warm-up):")
        print(f"  {'':28} {'mode':16} {'CPU s':>7} {'wall s':>7} {'CPU x bare':>10}")
        for mode, env in envs.items():
            results = {label: _best(code, args.runs, env) for label, code in rows}
            base_cpu = results["python (bare interpreter)"][0] or 1e-9
            for label, (cpu, wall) in results.items():
                print(f"  {label:28} {mode:16} {cpu:7.3f} {wall:7.3f} {cpu / base_cpu:10.1f}")
        print("heaviest third-party imports of bootstrap_app.cli (cumulative ms, one -X importtime run):")
        for name, ms in heaviest("bootstrap_app.cli", envs["cached bytecode"]):
            print(f"  {name:28} {ms:7.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
