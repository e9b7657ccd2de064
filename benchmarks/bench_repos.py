"""``make bench`` runs the real-repository evaluation too (``benchmarks.eval_repos``).

Why a separate module: the runner finds benchmarks by their ``bench_`` prefix, while
``make eval-repos`` and its options (``--repo``, ``--json``) belong to ``eval_repos``; this
module only hands over. It prints scores and scan times and never fails on a low score.
"""

from __future__ import annotations

from benchmarks.eval_repos import main as _eval_main

__all__ = ["main"]


def main(argv: list[str] | None = None) -> int:
    """Run the evaluation with no filter (all 24 repositories)."""
    return _eval_main(argv or [])
