"""Memories memseed wrote are checked again on every scan: do the paths and commands still hold?

An entry says "run `make lint`" or "the runbook is at `/srv/docs/runbook.md`". Months later the
Makefile lost that target or the runbook moved, and the agent follows a memory that is no longer
true. So each scan looks at the entries memseed wrote (the store's ``written`` table), and
for each backticked reference in their body:

* a path (absolute, or relative to the entry's scope folder) must still exist;
* a command in one of the fixed shapes memseed builds (``make X``, ``just X``, ``task X``,
  ``npm test`` / ``npm run X``, ``pnpm X``, ``yarn X``, ``tox -e X``, ``nox -s X``, ``poe X``,
  ``cargo X`` for aliases, ``scripts/x``) must still be declared by the repository at the scope.

Other backticked text (CI lines, language defaults, prose) is not judged. When something no
longer holds, a *fix* is proposed: the same entry (same name, ``supersedes`` and
``supersedes_fingerprint`` pointing at it, ``previous`` = its old text) with the lines naming
the stale references removed, flagged ``stale``; when nothing would be left, a *removal*:
flagged ``stale`` and ``remove``, its body saying what no longer holds. The writer (harness
contract) replaces or, for ``remove``, deletes the entry and journals the old text.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

from bootstrap_app.signals.repo_tasks import declared_tasks, load_json
from bootstrap_app.signals.repos import LOCKFILES
from bootstrap_app.types import Evidence, Proposal

__all__ = ["declared_commands", "reference_checks", "stale_references", "task_paths", "verify_written"]

_RUNNER = re.compile(r"^(?:make|just|task|npm|pnpm|yarn|bun|tox -e|nox -s|poe|pdm run|hatch run|cargo) \S+$|^npm run \S+$")
_PATHLIKE = re.compile(r"^(?:/|\./|~/)?[\w.-]+(?:/[\w.-]+)+/?$|^[\w-]+\.(?:md|rst|txt|ya?ml|toml|json|sh|py|pdf|docx)$")
_TASK_FILES = ("Makefile", "makefile", "GNUmakefile", "justfile", "Justfile", "Taskfile.yml", "Taskfile.yaml",
               "package.json", "tox.ini", "noxfile.py", "pyproject.toml", ".cargo/config.toml")
_PM_BUILTIN = frozenset({"install", "i", "ci", "add", "update"})
_BRANCH_LINE = re.compile(r"^\s*-\s*(?:Default branch|Branch)\b", re.I)
_JS_RUNNERS = ("npm", "pnpm", "yarn", "bun")
_CARGO_BUILTIN = frozenset({"test", "build", "clippy", "fmt", "check", "run", "doc", "bench", "publish"})


def task_paths(scope: Path) -> list[Path]:
    """Every file and folder :func:`declared_commands` looks at in ``scope`` (present or not): while
    none of them changed, its answer holds (the start-up hook's summary keeps their stat)."""
    paths = [scope, *(scope / name for name in _TASK_FILES), *(scope / lock for lock, _ in LOCKFILES)]
    for folder in ("scripts", "script", "bin"):
        paths.append(scope / folder)
        if (scope / folder).is_dir():
            paths += [p for p in sorted((scope / folder).iterdir())[:50] if p.is_file()]
    return list(dict.fromkeys(paths))


def declared_commands(scope: Path) -> set[str] | None:
    """Commands the repository at ``scope`` declares now (None: no repository there to ask)."""
    if not scope.is_dir():
        return None
    files: dict[str, str] = {}
    for name in _TASK_FILES:
        path = scope / name
        if path.is_file():
            files[name] = path.read_text("utf-8", "replace")[:256_000]
    for folder in ("scripts", "script", "bin"):
        if (scope / folder).is_dir():
            for path in sorted((scope / folder).iterdir())[:50]:
                if path.is_file():
                    files[f"{folder}/{path.name}"] = path.read_text("utf-8", "replace")[:16_000]
    pkg = load_json(files.get("package.json", ""))
    # the same lockfile table the scan used, so ``bun test`` (bun.lock) is checked as bun's, not npm's
    runner = next((pm for lock, pm in LOCKFILES if pm in _JS_RUNNERS and (scope / lock).exists()), "npm")
    declared_pm = str(pkg.get("packageManager", "")).split("@")[0]
    runner = declared_pm if declared_pm in _JS_RUNNERS else runner
    commands = {t.command for t in declared_tasks(files, runner, pkg)}
    scripts = pkg.get("scripts") if isinstance(pkg.get("scripts"), dict) else {}
    for name in scripts or {}:  # any script, not only the kinds memseed names
        commands |= {f"{runner} {name}", f"{runner} run {name}"} | ({f"npm {name}"} if name in ("test", "start") else set())
    return commands


def reference_checks(body: str, scope: str) -> list[tuple[str, Path | None]]:
    """The backticked references of ``body`` that are judged, in order: (reference, the path that
    must exist) for a path, (reference, ``None``) for a runner command the repository at ``scope``
    must declare."""
    root = Path(scope) if scope and scope != "global" else None
    out: list[tuple[str, Path | None]] = []
    # a branch name is a git ref, not a path: `release/v2` on the branch line is never "missing"
    judged = "\n".join(ln for ln in body.splitlines() if not _BRANCH_LINE.match(ln))
    for ref in dict.fromkeys(re.findall(r"`([^`\n]{2,200})`", judged)):
        if _RUNNER.match(ref) or ref.startswith(("scripts/", "script/", "./scripts/")):
            if root is None:
                continue
            words = [*ref.split(), ""]
            if (words[0] == "cargo" and words[1] in _CARGO_BUILTIN) or words[1] in _PM_BUILTIN:
                continue
            out.append((ref, root / ref.split()[0] if ref.startswith(("scripts/", "script/", "./scripts/")) else None))
        elif _PATHLIKE.match(ref) and " " not in ref:
            path = Path(ref).expanduser()
            if not path.is_absolute():
                if root is None or ref.startswith(("*", "!")) or "*" in ref:
                    continue
                path = root / ref
            out.append((ref, path))
    return out


def stale_references(body: str, scope: str,
                     declared: Callable[[Path], set[str] | None] = declared_commands) -> list[str]:
    """The backticked paths and runner commands of ``body`` that no longer hold at ``scope``
    (``[scope]`` alone when a command is judged and the repository itself is gone)."""
    commands: set[str] | None = None
    stale: list[str] = []
    for ref, path in reference_checks(body, scope):
        if path is not None:
            if not path.exists():
                stale.append(ref)
            continue
        if commands is None:
            commands = declared(Path(scope))
            if commands is None:
                return [f"{scope}"]  # the repository itself is gone
        if ref not in commands:
            stale.append(ref)
    return stale


def _fixed(p: Proposal, stale: list[str], now: datetime) -> Proposal:
    lines = p.body.splitlines()
    kept = [ln for ln in lines if not any(f"`{s}`" in ln for s in stale)]
    removal = len(kept) <= 2 or kept == lines or any(s == p.scope for s in stale)
    note = "No longer holds (checked " + now.date().isoformat() + "): " + ", ".join(f"`{s}`" for s in stale) + "."
    body = note if removal else "\n".join(kept)
    flags = ("stale", "remove") if removal else ("stale",)
    evidence = (Evidence(source="memseed:verify", ref=p.scope if p.scope != "global" else p.name, date=now,
                         excerpt=f"verified {now.date().isoformat()}: {len(stale)} reference(s) missing",
                         structural=True),)
    return Proposal(type=p.type, name=p.name, description=("Remove: " if removal else "") + p.description,
                    body=body, subject=p.subject, key=f"{p.key} | stale: {' '.join(sorted(stale))}", scope=p.scope,
                    confidence=0.8, evidence=evidence, flags=flags, supersedes=p.name,
                    supersedes_fingerprint=p.fingerprint, previous=f"{p.description}\n{p.body}".strip(),
                    evidence_from=now)


def verify_written(written: Iterable[tuple[str, Proposal]], replaced: set[str],
                   now: datetime | None = None) -> list[Proposal]:
    """Fix or removal proposals for written entries ((fingerprint, effective proposal)) whose
    references no longer hold; entries an update of this scan already replaces are skipped."""
    now = now or datetime.now(UTC).replace(microsecond=0)
    out: list[Proposal] = []
    for fingerprint, entry in written:
        if fingerprint in replaced:
            continue
        stale = stale_references(entry.body, entry.scope)
        if stale:
            out.append(replace(_fixed(entry, stale, now), supersedes_fingerprint=fingerprint))
    return out
