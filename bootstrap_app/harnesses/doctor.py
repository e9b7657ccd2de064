"""``memseed doctor``: pick the harness, find its folder, run the harness's own checks.

The checks themselves live with each harness class (``Harness.doctor``, built from the shape
checks in ``bootstrap_app.safety.doctor``); this module only resolves the target: a name or
alias from the registry, or ``auto`` to detect it from the folder's shape.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from bootstrap_app.errors import TargetNotFound
from bootstrap_app.safety.doctor_checks import Finding

from .registry import HARNESS_CLASSES, HARNESSES, harness_class

__all__ = ["Finding", "detect_target", "doctor_files", "run_doctor"]


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
    roots = [Path(path).expanduser()] if path is not None else harness.doctor_roots(project)
    out: list[Finding] = []
    for root in roots:
        if not root.exists():
            hint = ("nothing was written for this project yet; pass the memory folder with --path DIR"
                    if project is not None else "pass the memory folder with --path DIR")
            raise TargetNotFound(f"{root} does not exist", hint=hint)
        out.extend(harness.doctor(root))
    return out


def doctor_files(target: str, files: Iterable[str | Path]) -> tuple[list[Path], list[Finding]]:
    """Audit exactly what a write touched: the places its ``files`` live in (``Harness.doctor_path``),
    each once. Files a write deleted (an undo, a removal) are skipped. Returns (places, findings)."""
    harness = harness_class(target)()
    places: list[Path] = []
    for file in files:
        place = harness.doctor_path(Path(file))
        if place.exists() and place not in places:
            places.append(place)
    findings = [f for place in places for f in harness.doctor(place)]
    return places, findings
