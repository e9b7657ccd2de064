"""``memseed doctor``: pick the harness, find its folder, run the harness's own checks.

The checks themselves live with each harness class (``Harness.doctor``, built from the shape
checks in ``bootstrap_app.safety.doctor``); this module only resolves the target: a name or
alias from the registry, or ``auto`` to detect it from the folder's shape.
"""

from __future__ import annotations

from pathlib import Path

from bootstrap_app.errors import TargetNotFound
from bootstrap_app.safety.doctor_checks import Finding

from .registry import HARNESS_CLASSES, HARNESSES, harness_class

__all__ = ["Finding", "detect_target", "run_doctor"]


def detect_target(path: Path) -> str:
    """The first harness (registry order) that owns ``path``; a plain folder of notes is ``markdown``."""
    return next((cls.name for cls in HARNESS_CLASSES if cls.owns(path)), "markdown")


def run_doctor(target: str, path: Path | None = None, project: Path | None = None) -> list[Finding]:
    """Audit the memory folder of ``target`` (at ``path``, or the harness default) and return findings."""
    if target.strip().lower() == "auto":
        if path is None:
            raise TargetNotFound("--target auto needs --path", hint="give the folder to audit with --path DIR")
        target = detect_target(Path(path).expanduser())
    try:
        harness = harness_class(target.replace("_", "-"))()
    except TargetNotFound as exc:
        raise TargetNotFound(str(exc.args[0]), hint="choose one of: auto, " + ", ".join(HARNESSES)) from exc
    root = Path(path).expanduser() if path is not None else harness.doctor_root(project)
    if not root.exists():
        raise TargetNotFound(f"{root} does not exist", hint="pass the memory folder with --path DIR")
    return harness.doctor(root)
