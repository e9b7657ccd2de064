"""Run the memseed CLI and SIGKILL it at a chosen point: ``python -m tests.crashkill TARGET N WHEN -- ARGS``.

``TARGET`` is ``module:attr.path`` (e.g. ``os:replace`` or ``bootstrap_app.store:Store.journal_file``);
the process kills itself with SIGKILL on the ``N``-th call, ``before`` or ``after`` the real
call. SIGKILL cannot be caught, so nothing (no ``finally``, no atexit, no SQLite rollback on
close) runs: exactly what a power cut or the OOM killer does. Used by the crash-safety tests;
the product is not modified.
"""

from __future__ import annotations

import functools
import importlib
import os
import signal
import sys
from typing import Any


def _arm(target: str, n: int, when: str) -> None:
    module_name, _, attr_path = target.partition(":")
    owner: Any = importlib.import_module(module_name)
    *parents, name = attr_path.split(".")
    for part in parents:
        owner = getattr(owner, part)
    real = getattr(owner, name)
    calls = [0]

    @functools.wraps(real)
    def wrapper(*args: Any, **kw: Any) -> Any:
        calls[0] += 1
        if calls[0] == n and when == "before":
            os.kill(os.getpid(), signal.SIGKILL)
        result = real(*args, **kw)
        if calls[0] == n and when == "after":
            os.kill(os.getpid(), signal.SIGKILL)
        return result

    setattr(owner, name, wrapper)


def main() -> None:
    target, n, when, sep, *args = sys.argv[1:]
    assert sep == "--" and when in ("before", "after")
    _arm(target, int(n), when)
    from bootstrap_app.cli import main as cli

    sys.argv = ["memseed", *args]
    cli()


if __name__ == "__main__":
    main()
