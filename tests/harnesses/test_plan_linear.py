"""Writer plans for a large import are the same bytes after they were made linear.

Why: Claude Code's topic-folder plan rendered and checked nine candidate file names per entry,
and an import into Codex asked for AGENTS.md's size once per entry with every entry kept before
it (quadratic). Both were reworked for speed (benchmarks/bench_import.py); what they plan must not
change by a byte. A 110-entry store is generated here (same-named entries, the person's own file
under an entry's name, entries of every size so AGENTS.md fills up midway and smaller ones still
fit after), and the plans are compared with digests taken from the code before the change, and
Codex's one-pass fill with the generic one (ask :meth:`capacity` again per entry).
"""

from __future__ import annotations

import hashlib
import json
import os
from datetime import UTC, datetime
from pathlib import Path

from bootstrap_app.harnesses import WriteOptions, get_harness
from bootstrap_app.harnesses.base import Harness
from bootstrap_app.types import Evidence, MemoryType, Proposal

WHEN = datetime(2026, 3, 4, 9, 30, tzinfo=UTC)
DERIVED = datetime(2026, 11, 27, 12, 0, tzinfo=UTC)
"""The day the digests in :data:`BEFORE` were taken: entries written then carry it in their files
(``derived:``), so it is pinned here — left to the clock, the plans changed by a byte every day."""
TYPES = (MemoryType.FEEDBACK, MemoryType.PROJECT, MemoryType.USER, MemoryType.REFERENCE)

BEFORE = {
    "claude-code": "e2eef3f0016364ccb2c13fd615bff90df232645b7c2d9e123ee8205dd587dfda",
    "claude-code-only": "2ae8d421c9012da35c29ba0d5a1ff32f446b8c1de4e6fbbbfb6593855516af3a",
    "codex": "7da54cc92fa003c1a7c83aa7192a32ae5844558e2665179582c1b3a576e37caf",
    "codex-fit": "db6a6c0948e004d75d1622d5532e85eb33499ca8df4ad1513711694b0b84e71f",
}
"""sha256 of each plan (and of which entries fit Codex's cap) as the code before the change made them."""


def entries(n: int = 110) -> list[Proposal]:
    """``n`` approved-looking entries: every fifth shares a name with the one before, sizes vary."""
    out = []
    for i in range(n):
        name = f"fact-{i - 1 if i % 5 == 4 else i}"
        body = "\n".join(f"- point {j} of fact {i}: keep `docs/f{i}.md` in mind" for j in range(1 + (i * 7) % 13))
        out.append(Proposal(type=TYPES[i % len(TYPES)], name=name, description=f"Fact {i} about the work",
                            body=body, subject=f"fact:{i}",
                            evidence=(Evidence("folder:/notes", f"n{i}.md", WHEN, True, f"fact {i}"),),
                            derived_at=DERIVED))
    return out


def _home(root: Path) -> Path:
    """A home with the person's own files: a topic file under an entry's name, their AGENTS.md."""
    home = root / "home"
    project = home / "code" / "app"
    project.mkdir(parents=True)
    os.environ["HOME"] = str(home)
    for variable in ("CLAUDE_CONFIG_DIR", "CODEX_HOME"):
        os.environ.pop(variable, None)
    (home / ".codex").mkdir()
    (home / ".codex" / "AGENTS.md").write_text("# My rules\n\nAlways run the tests.\n")
    return project


def _here(text: str, root: Path, slug: str) -> str:
    """``text`` without the test's temporary folder (nor the project's folder name under Claude Code's projects/)."""
    return text.replace(slug, "PROJECT").replace(str(root), "ROOT")


def _digest(parts: object) -> str:
    return hashlib.sha256(json.dumps(parts, sort_keys=True, default=str).encode()).hexdigest()


def plan_digests(root: Path) -> dict[str, str]:
    """The digests :data:`BEFORE` holds, from the plans the code now makes (public API only)."""
    from bootstrap_app.memory import move as importing

    project = _home(root)
    chosen = entries()
    options = WriteOptions(project=project, now=WHEN)
    out = {}
    claude = get_harness("claude-code")
    folder = claude.memory_root(project, options)
    folder.mkdir(parents=True)
    slug = folder.parent.name
    (folder / "fact-3.md").write_text("---\nname: fact-3\ndescription: my own note\ntype: user\n---\n\nMine.\n")
    for target in ("claude-code", "codex"):
        harness = get_harness(target)
        fit = set(importing._over_cap(target, chosen, options))
        plan = harness.plan([p for p in chosen if p.fingerprint not in fit], options)
        files = sorted((_here(str(c.path), root, slug), (c.after or b"").hex()) for c in plan.files)
        written = [(fp, _here(loc, root, slug)) for fp, loc in plan.written]
        out[target] = _digest([files, written, [_here(n, root, slug) for n in plan.notes]])
        if target == "codex":
            out["codex-fit"] = _digest(sorted(importing._over_cap(target, chosen, options).items()))
    picked = WriteOptions(project=project, now=WHEN, only=(*tuple(p.id.upper() for p in chosen[:100]), "ffff"),
                          exclude=tuple(p.fingerprint[:12] for p in chosen[::7]))
    plan = claude.plan(chosen, picked)
    out["claude-code-only"] = _digest([sorted(_here(str(c.path), root, slug) for c in plan.files),
                                       [_here(loc, root, slug) for _, loc in plan.written]])
    return out


def test_plans_of_a_110_entry_import_are_the_bytes_they_were(hermetic: Path) -> None:
    assert plan_digests(hermetic) == BEFORE


def test_codex_fills_agents_md_in_one_pass_as_the_generic_fill_does(hermetic: Path) -> None:
    _home(hermetic)
    chosen, options = entries(), WriteOptions(now=WHEN)
    codex = get_harness("codex")
    fast = codex.fit_in_order(chosen, options)
    generic = Harness.fit_in_order(codex, chosen, options)
    assert [(p.id, cap) for p, cap in fast] == [(p.id, cap) for p, cap in generic]
    kept = [p for p, cap in fast if cap is None]
    assert 0 < len(kept) < len(chosen)  # AGENTS.md filled up midway
    refused = [i for i, (_, cap) in enumerate(fast) if cap is not None]
    assert any(fast[i][1] is None for i in range(refused[0] + 1, len(fast)))  # a smaller one fit after a refusal
