"""A repository's facts in that repository's own instruction file (``harnesses/projectfile``).

Checked on real git repositories built with ``git``: which file each agent gets (the one it
already reads there, never a new one that would shadow it), the person's text kept byte for
byte, a re-run changing nothing, the dry run saying the file is tracked by git, Codex and Hermes
sharing one block, a repository not on this machine written nowhere, and a failed write or an
undo leaving every file — the repository's too — byte-identical.
"""

from __future__ import annotations

import json
import subprocess
from dataclasses import replace
from pathlib import Path

import pytest

from bootstrap_app.errors import WriteError
from bootstrap_app.harnesses import files as harness_files
from bootstrap_app.harnesses.block import BEGIN
from bootstrap_app.memory import write as writing
from bootstrap_app.review import decisions
from bootstrap_app.store import Store
from bootstrap_app.types import MemoryType

from .conftest import make_proposals
from .session_load import EVERY_SESSION, loaded_text

REPO = "double-entry ledger"
TEAM = "# Team rules\n\nRun `make check` before pushing.\n"


def _git(repo: Path, *args: str) -> None:
    subprocess.run(["git", "-C", str(repo), "-c", "user.name=Test", "-c", "user.email=test@example.org",
                    "-c", "commit.gpgsign=false", *args], check=True, capture_output=True, timeout=60)


def _make_repo(home: Path, files: dict[str, str], name: str = "ledger-api") -> Path:
    repo = home / "code" / name
    (repo / "src").mkdir(parents=True)
    _git(repo, "init", "-q")
    for rel, text in files.items():
        (repo / rel).write_text(text, encoding="utf-8")
    (repo / "src" / "app.py").write_text("print('hi')\n", encoding="utf-8")
    _git(repo, "add", "-A")
    _git(repo, "commit", "-q", "-m", "start")
    return repo


def _approve(store: Store, scope: Path) -> None:
    props = [replace(p, scope=str(scope)) if p.type is MemoryType.PROJECT else p for p in make_proposals()]
    store.save_proposals(store.start_run("scan", ["synthetic"]), props)
    decisions.approve(store, [p.id for p in props])


def _snapshot(*roots: Path) -> dict[str, bytes]:
    """Every file's bytes under ``roots`` (not git's own folder, nor the ``.lock`` files Hermes's
    locking protocol leaves, empty, next to its memory files)."""
    return {str(f): f.read_bytes() for root in roots if root.exists() for f in sorted(root.rglob("*"))
            if f.is_file() and ".git" not in f.relative_to(root).parts[:1] and f.suffix != ".lock"}


def test_codex_block_goes_into_the_tracked_agents_md_and_keeps_the_persons_text(home: Path, store: Store) -> None:
    repo = _make_repo(home, {"AGENTS.md": TEAM})
    _approve(store, repo)
    plan = writing.plan_write(store, "codex")
    lines = writing.describe(plan)
    assert any(str(repo / "AGENTS.md") in line and "tracked by git" in line for line in lines), lines
    writing.apply_write(store, plan)
    text = (repo / "AGENTS.md").read_text(encoding="utf-8")
    assert text.startswith(TEAM) and BEGIN in text and REPO in text
    assert writing.plan_write(store, "codex").empty, "a second write must change nothing"
    global_file = (home / ".codex" / "AGENTS.md").read_text(encoding="utf-8")
    assert REPO not in global_file and str(repo) not in global_file
    assert "Lagos" in global_file  # the person's facts stay global


def test_a_new_file_is_named_untracked_in_the_dry_run(home: Path, store: Store) -> None:
    repo = _make_repo(home, {})
    _approve(store, repo)
    lines = writing.describe(writing.plan_write(store, "gemini"))
    assert any(str(repo / "GEMINI.md") in line and "a new file in a git checkout" in line for line in lines), lines


@pytest.mark.parametrize(("target", "existing", "expected", "oracle"), [
    ("codex", {"AGENTS.override.md": "personal rules\n", "AGENTS.md": TEAM}, "AGENTS.override.md", True),
    ("codex", {}, "AGENTS.md", True),
    ("hermes", {".hermes.md": "hermes rules\n", "AGENTS.md": TEAM}, ".hermes.md", True),
    ("hermes", {"AGENTS.md": TEAM}, "AGENTS.md", True),
    ("hermes", {"CLAUDE.md": "claude rules\n"}, "CLAUDE.md", False),
    ("gemini", {}, "GEMINI.md", True),
    ("gemini", {"GEMINI.md": "gemini rules\n"}, "GEMINI.md", True),
], ids=["codex-override", "codex-new", "hermes-md", "hermes-agents", "hermes-claude", "gemini-new", "gemini-own"])
def test_the_block_goes_into_the_file_the_agent_already_reads(target: str, existing: dict[str, str], expected: str,
                                                              oracle: bool, home: Path, store: Store) -> None:
    repo = _make_repo(home, existing)
    _approve(store, repo)
    writing.apply_write(store, writing.plan_write(store, target))
    assert REPO in (repo / expected).read_text(encoding="utf-8")
    for name, text in existing.items():
        if name != expected:
            assert (repo / name).read_text(encoding="utf-8") == text, f"{name} must stay as the person wrote it"
    made = {p.name for p in repo.iterdir() if p.is_file()} - set(existing)
    assert made <= {expected}, f"{target} made {made}: a new file could shadow one the agent reads"
    if oracle:
        assert REPO in loaded_text(target, home, repo / "src")
    assert REPO in loaded_text(target, home, repo)
    assert REPO not in loaded_text(target, home, home)


def test_geminis_configured_context_file_name_is_followed(home: Path, store: Store) -> None:
    """``context.fileName``: the block goes into the file Gemini reads under that name, not a new GEMINI.md."""
    repo = _make_repo(home, {"AGENTS.md": TEAM})
    (home / ".gemini").mkdir()
    (home / ".gemini" / "settings.json").write_text(json.dumps({"context": {"fileName": ["AGENTS.md", "GEMINI.md"]}}))
    _approve(store, repo)
    writing.apply_write(store, writing.plan_write(store, "gemini"))
    assert REPO in (repo / "AGENTS.md").read_text(encoding="utf-8") and not (repo / "GEMINI.md").exists()


def test_codex_fallback_file_names_are_followed(home: Path, store: Store) -> None:
    """``project_doc_fallback_filenames``: a repository with only such a file keeps it as the one
    Codex reads (a new AGENTS.md would shadow it)."""
    repo = _make_repo(home, {"TEAM.md": "team notes\n"})
    (home / ".codex").mkdir()
    (home / ".codex" / "config.toml").write_text('project_doc_fallback_filenames = ["TEAM.md"]\n')
    _approve(store, repo)
    writing.apply_write(store, writing.plan_write(store, "codex"))
    assert REPO in (repo / "TEAM.md").read_text(encoding="utf-8") and not (repo / "AGENTS.md").exists()


def test_codex_and_hermes_share_one_block(home: Path, store: Store) -> None:
    repo = _make_repo(home, {"AGENTS.md": TEAM})
    _approve(store, repo)
    writing.apply_write(store, writing.plan_write(store, "codex"))
    after_codex = (repo / "AGENTS.md").read_bytes()
    hermes = writing.plan_write(store, "hermes")
    assert all(change.path.parent != repo for change in hermes.files), "Hermes must reuse Codex's section"
    writing.apply_write(store, hermes)
    assert (repo / "AGENTS.md").read_bytes() == after_codex
    assert (repo / "AGENTS.md").read_text(encoding="utf-8").count(REPO) == 1


@pytest.mark.parametrize("target", ["claude-code", "codex", "gemini", "hermes"])
def test_a_fact_about_a_repository_not_on_this_machine_is_written_nowhere(target: str, home: Path,
                                                                          store: Store) -> None:
    gone = home / "code" / "deleted-clone"
    _approve(store, gone)
    plan = writing.plan_write(store, target)
    assert any("not on this machine" in note and str(gone) in note for note in plan.notes), plan.notes
    writing.apply_write(store, plan)
    for f in home.rglob("*.md"):
        assert REPO not in f.read_text(encoding="utf-8"), f"{target} wrote a fact of a missing repo into {f}"
    assert "Lagos" in "\n".join(f.read_text(encoding="utf-8") for f in home.rglob("*.md"))


@pytest.mark.parametrize("target", ["codex", "gemini", "hermes"])
def test_a_failed_write_and_an_undo_leave_every_file_byte_identical(target: str, home: Path, store: Store,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    repo = _make_repo(home, {"AGENTS.md": TEAM, "GEMINI.md": "gemini rules\n"})
    agent_home = home / {"codex": ".codex", "gemini": ".gemini", "hermes": ".hermes"}[target]
    (agent_home / ("memories" if target == "hermes" else "")).mkdir(parents=True)
    person = {"codex": "AGENTS.md", "gemini": "GEMINI.md", "hermes": "memories/USER.md"}[target]
    (agent_home / person).write_text("mine: keep this\n", encoding="utf-8")
    _approve(store, repo)
    before = _snapshot(repo, agent_home)
    plan = writing.plan_write(store, target)
    assert any(c.path.parent == repo for c in plan.files) and any(c.path.parent != repo for c in plan.files)
    real = harness_files.atomic_write
    calls: list[Path] = []

    def fail_last(path: Path, data: bytes, **kw: object) -> None:
        calls.append(path)
        if len(calls) == len(plan.files):
            raise OSError(28, "No space left on device", str(path))
        real(path, data, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(harness_files, "atomic_write", fail_last)
    with pytest.raises(WriteError):
        writing.apply_write(store, plan)
    assert _snapshot(repo, agent_home) == before, "a failed write must put every file back"
    monkeypatch.setattr(harness_files, "atomic_write", real)
    writing.apply_write(store, writing.plan_write(store, target))
    assert _snapshot(repo, agent_home) != before
    writing.undo_write(store)
    assert _snapshot(repo, agent_home) == before, "undo must put the repository's file back too"


def test_no_repository_fact_in_a_file_loaded_in_every_project_for_the_demo_persona(home: Path, tmp_path: Path) -> None:
    """The invariant on a generated footprint: the demo's repositories give facts with the absolute
    path of their clone; none of it may reach a file any agent loads in every project."""
    from bootstrap_app import build_demo, load_settings, scan

    settings = load_settings(home / ".memseed")
    root = build_demo(tmp_path / "demo")
    with Store(settings.db_path) as store:
        result = scan([str(root)], settings=settings, store=store)
        decisions.approve(store, [p.id for p in result.proposals if not p.sensitive])
        scoped = [p for p in result.proposals if p.scope not in ("", "global") and p.type is not MemoryType.USER]
        assert scoped, "the demo's repositories must give repository facts"
        clones = {p.scope for p in scoped}
        for target in ("claude-code", "codex", "gemini", "hermes"):
            try:
                writing.apply_write(store, writing.plan_write(store, target))
            except WriteError as exc:  # Hermes's small budget may refuse; the placement still holds
                assert target == "hermes", exc
                continue
            for rel in EVERY_SESSION[target]:
                place = home / rel
                for f in (sorted(place.rglob("*.md")) if place.is_dir() else [place] if place.is_file() else []):
                    text = f.read_text(encoding="utf-8")
                    leaked = [c for c in clones if c in text]
                    assert not leaked, f"{target}: {f} names a repository's clone {leaked}"


def test_a_rescan_does_not_read_memseeds_block_back_as_the_maintainers_words(home: Path, store: Store) -> None:
    """The repository reader drops exactly the block a write put in (same markers), keeping the
    person's text byte for byte, so a re-scan never proposes memseed's own output again."""
    from bootstrap_app.harnesses.block import END
    from connectors.local.git_repo import without_memseed_block

    repo = _make_repo(home, {"AGENTS.md": TEAM})
    _approve(store, repo)
    writing.apply_write(store, writing.plan_write(store, "codex"))
    text = (repo / "AGENTS.md").read_text(encoding="utf-8")
    assert BEGIN in text and END in text
    assert without_memseed_block(text).rstrip("\n") == TEAM.rstrip("\n")


def test_a_repository_file_past_what_codex_reads_is_named_in_the_plan(home: Path, store: Store) -> None:
    repo = _make_repo(home, {"AGENTS.md": TEAM + "- keep the changelog current\n" * 1150})
    _approve(store, repo)
    plan = writing.plan_write(store, "codex")
    size = len(next(c.after for c in plan.files if c.path == repo / "AGENTS.md") or b"")
    assert size > 32 * 1024
    assert any(note.startswith(f"warning: {repo / 'AGENTS.md'} would be {size:,} bytes") and "32 KiB" in note
               for note in plan.notes), plan.notes


def test_with_codex_memories_on_a_repository_fact_still_goes_to_its_repository(home: Path, store: Store) -> None:
    """Notes are consolidated into the memory Codex reads in every session: a repository's fact
    is not made a note, it goes to the repository's AGENTS.md as with the feature off."""
    (home / ".codex").mkdir()
    (home / ".codex" / "config.toml").write_text("[features]\nmemories = true\n")
    repo = _make_repo(home, {})
    _approve(store, repo)
    writing.apply_write(store, writing.plan_write(store, "codex"))
    notes = "\n".join(f.read_text(encoding="utf-8") for f in (home / ".codex" / "memories").rglob("*.md"))
    assert "Lagos" in notes and REPO not in notes
    assert REPO in (repo / "AGENTS.md").read_text(encoding="utf-8")


def _bundles() -> list[str]:
    from tests.skipguard import REALDATA

    found = sorted(p.stem for p in (REALDATA / "repos").glob("*.bundle")) if (REALDATA / "repos").is_dir() else []
    return found or ["requests"]  # without the folder: one id, which realdata_file then skips


@pytest.mark.realdata
@pytest.mark.parametrize("name", _bundles())
def test_no_fact_of_a_real_repository_in_a_file_loaded_everywhere(name: str, home: Path) -> None:
    """The invariant on every real repository bundle: each agent gets the repository's facts in
    that repository (read back by its own loading rule) and in no file it loads everywhere."""
    from bootstrap_app import load_settings, scan
    from tests.conftest import realdata_file

    bundle = realdata_file("repos", f"{name}.bundle")
    clone = home / "code" / name
    subprocess.run(["git", "clone", "-q", str(bundle), str(clone)], check=True, capture_output=True, timeout=600)
    settings = load_settings(home / ".memseed")
    with Store(settings.db_path) as store:
        result = scan([str(clone)], settings=settings, store=store)
        facts = [p for p in result.proposals if p.scope not in ("", "global") and p.type is not MemoryType.USER]
        assert facts, f"{name}: the repository reader gave no repository fact"
        decisions.approve(store, [p.id for p in facts])
        for target in ("claude-code", "codex", "gemini", "hermes"):
            writing.apply_write(store, writing.plan_write(store, target))
            everywhere = "\n".join(f.read_text(encoding="utf-8") for rel in EVERY_SESSION[target]
                                   for f in ((home / rel).rglob("*.md") if (home / rel).is_dir()
                                             else [home / rel] if (home / rel).is_file() else []))
            assert str(clone) not in everywhere, f"{target}: the clone's path in a file loaded everywhere"
            seen = loaded_text(target, home, clone)
            for p in facts:
                assert p.name not in everywhere, f"{target}: {p.name} in a file loaded in every project"
                assert p.name in seen, f"{target}: {p.name} is not loaded in its own repository"


def test_claude_code_files_a_fact_read_from_cursor_rules_under_the_project_holding_them(home: Path,
                                                                                      store: Store) -> None:
    """A fact scoped to ``<project>/.cursor`` (read from Cursor's rules) belongs to ``<project>``:
    Claude Code loads it in sessions there, which never start inside ``.cursor``."""
    repo = _make_repo(home, {})
    (repo / ".cursor").mkdir()
    _approve(store, repo / ".cursor")
    writing.apply_write(store, writing.plan_write(store, "claude-code"))
    assert REPO in loaded_text("claude-code", home, repo / "src")
    assert REPO not in loaded_text("claude-code", home, home)
