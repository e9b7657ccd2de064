"""`memseed import` on real agent memory: every source harness into every target harness.

Each pair: every entry read is either moved or reported with a reason (moved + reported = read,
read = what the source's own reader yields), the target read back by its own reader holds the
moved entries, and undo puts every byte of the target back.
"""

from __future__ import annotations

import hashlib
import re
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from bootstrap_app.cli import main
from bootstrap_app.config import load_settings
from bootstrap_app.harnesses import get_harness
from bootstrap_app.harnesses.block import BEGIN, END
from bootstrap_app.memory import move as importing
from bootstrap_app.memory import write as writing
from bootstrap_app.review import decisions
from bootstrap_app.store import Store
from bootstrap_app.types import MemoryEntry
from connectors.base import ReadContext
from connectors.registry import detect
from tests.conftest import realdata_file

SOURCES = ["claude-code/1000ssam-claude-config/memory", "claude-code/4444J99-portfolio/memory", "codex/0x07c4-agent",
           "hermes/ItaZure-hermes-memories", "hermes/HuskyDanny-hermes-agent-config", "cline/0xmichalis-nftbk"]
TARGETS = ["claude-code", "codex", "codex+memories", "hermes", "gemini", "markdown"]
"""``codex+memories``: Codex with ``[features] memories = true`` (one note per entry, each scanned)."""


def _tree(home: Path) -> dict[str, str]:
    """path -> sha256 of every file under ``home`` except memseed's own app dir and Hermes's empty
    ``<file>.lock`` files (its lock protocol: deleting one another process holds would break it,
    so they stay as Hermes leaves them; see test_roundtrip)."""
    return {str(p.relative_to(home)): hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(home.rglob("*"))
            if p.is_file() and ".memseed" not in p.relative_to(home).parts
            and not (p.name.endswith(".md.lock") and p.stat().st_size == 0)}


def _entries(location: str) -> list[MemoryEntry]:
    return [i for s in detect(location) for i in s.read(ReadContext()) if isinstance(i, MemoryEntry)]


def _read_back(target: str, home: Path, project: Path) -> list[MemoryEntry]:
    """The target's memory through its own reader (markdown has no home: its folder is given)."""
    if target == "markdown":
        root = project / "memory"
        return get_harness("markdown").read(root) if root.is_dir() else []
    home_of = {"claude-code": home / ".claude", "codex": home / ".codex", "hermes": home / ".hermes",
               "gemini": home / ".gemini"}[target]
    return _entries(f"{target}:") if home_of.exists() else []


def _repo_sections(target: str, sources: Path) -> int:
    """Sections of memseed's block in the instruction files at the root of the copied sources'
    folders: where Codex, Gemini CLI and Hermes get a project's facts (a Cline memory bank's)."""
    if target not in ("codex", "gemini", "hermes"):
        return 0
    count = 0
    for f in sources.rglob("*.md"):
        text = f.read_text("utf-8", errors="replace")
        if BEGIN in text and END in text:
            count += len(re.findall(r"^### ", text[text.index(BEGIN):text.index(END)], re.MULTILINE))
    return count


@pytest.mark.realdata
@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("source", SOURCES)
def test_import_every_pair(source: str, target: str, hermetic: Path) -> None:
    # a copy: a source's entries may be about its own project folder, which then gets their block
    real = realdata_file("memory", *source.split("/"))
    top = realdata_file("memory", *source.split("/")[:2])
    sources = hermetic / "sources"
    shutil.copytree(top, sources / top.name)
    for folder in [sources, *(f for f in sources.rglob("*") if f.is_dir())]:
        folder.chmod(0o755)  # the real-data tree is read-only; its copy takes a block like a checkout
    path = sources / top.name / real.relative_to(top)
    project = hermetic / "code" / "app"
    project.mkdir(parents=True)
    if target == "codex+memories":
        (hermetic / ".codex").mkdir()
        (hermetic / ".codex" / "config.toml").write_text("[features]\nmemories = true\n", "utf-8")
        target = "codex"
    before = _tree(hermetic)
    held_before = len(_read_back(target, hermetic, project))
    settings = load_settings(None)
    with Store(settings.db_path) as store:
        run = importing.start_import(str(path), target, settings=settings, store=store, project=project)
        assert run.read == len(_entries(str(path)))  # one outcome per entry the source's reader yields
        decisions.approve(store, [sp.proposal.id for sp in importing.pending(run, store)])
        importing.plan_import(run, store)
        write_id = importing.apply_import(run, store)
        counts = run.counts()
        moved = counts["moved"]
        assert moved + len(run.reported()) == run.read
        assert all(o.reason for o in run.reported())
        assert moved > 0 and set(counts) <= {"moved", "unsafe", "duplicate", "over-cap", "not-written", "empty"}
        # a memory that mentions an agent's file is not an instruction to change it (issue 29)
        assert not [o.ref for o in run.outcomes if "agent_config_mod" in o.reason]
        back = _read_back(target, hermetic, project)
        assert len(back) - held_before + _repo_sections(target, sources) == moved, counts
        assert write_id is not None
        writing.undo_write(store, write_id)
    assert _tree(hermetic) == before  # byte for byte, and no file left behind


def test_cli_import_reviews_then_writes_and_reports(hermetic: Path) -> None:
    """Interactive: approve two, reject one, skip the rest; only the two are written, the rest reported."""
    folder = hermetic / "bank" / "memory-bank"
    folder.mkdir(parents=True)
    (folder / "projectbrief.md").write_text("# Brief\n\n## Goal\n\nBack up every token's media.\n\n## Users\n\n"
                                            "Collectors who want local copies.\n\n## Stack\n\nRust, tokio, reqwest.\n\n"
                                            "## Hosting\n\nRuns on a single VM.\n", "utf-8")
    runner = CliRunner()
    result = runner.invoke(main, ["import", "--from", str(folder), "--to", "gemini"], input="a\na\nr\ns\ny\n")
    assert result.exit_code == 0, result.output
    assert "read 4: moved 2, reported 2 (not-approved 1, rejected 1)" in result.output
    # a memory bank's facts are about its project folder: they land in that project's GEMINI.md,
    # which Gemini CLI loads only there, not in the global one it loads everywhere
    assert not (hermetic / ".gemini" / "GEMINI.md").exists()
    gemini = (hermetic / "bank" / "GEMINI.md").read_text("utf-8")
    assert "Back up every token" in gemini and "Collectors" in gemini and "tokio" not in gemini
    assert "VM" not in gemini
    again = runner.invoke(main, ["import", "--from", str(folder), "--to", "gemini", "--yes"])
    assert again.exit_code == 0, again.output
    assert "duplicate" in again.output and "nothing written" in again.output
    assert "undo" not in again.output.split("read 4")[1]


def test_cli_import_yes_writes_only_what_was_approved(hermetic: Path) -> None:
    rules = hermetic / "app" / ".cursor" / "rules"
    rules.mkdir(parents=True)
    (rules / "tests.mdc").write_text("---\ndescription: tests\n---\nRun the whole suite before pushing.\n", "utf-8")
    (rules / "style.mdc").write_text("---\ndescription: style\n---\nPrefer small functions.\n", "utf-8")
    runner = CliRunner()
    first = runner.invoke(main, ["import", "--from", f"cursor:{hermetic / 'app'}", "--to", "hermes", "--yes"])
    assert first.exit_code == 0 and "not-approved" in first.output and not (hermetic / ".hermes").exists()
    settings = load_settings(None)
    with Store(settings.db_path) as store:
        tests_rule = next(sp for sp in store.proposals() if "suite" in sp.proposal.body)
        decisions.approve(store, [tests_rule.proposal.id])
    second = runner.invoke(main, ["import", "--from", f"cursor:{hermetic / 'app'}", "--to", "hermes", "--yes"])
    assert second.exit_code == 0, second.output
    # a project's rule goes to that project's context file (Hermes loads it only there)
    assert not (hermetic / ".hermes" / "memories" / "MEMORY.md").exists()
    memory = (hermetic / "app" / "AGENTS.md").read_text("utf-8")
    assert "whole suite" in memory and "small functions" not in memory
    assert "Hermes loads it instead of" in second.output  # it says the new file shadows .cursor/rules
    assert "read 2: moved 1, reported 1 (not-approved 1)" in second.output


def test_one_blocked_entry_is_reported_and_the_rest_is_written(hermetic: Path) -> None:
    """Hermes blocks at load any modifying verb before an agent's file name on one line, so the
    Hermes writer refuses that entry; the import writes the other two, says "partial", exits 3,
    and undo still restores every byte."""
    folder = hermetic / "notes" / "memory"
    folder.mkdir(parents=True)
    entries = {"feedback_small.md": "Prefer small functions with one job.",
               "feedback_rules.md": "When you write rules, keep CLAUDE.md short and move workflows to skills.",
               "project_stack.md": "The service runs on Rust with tokio and reqwest."}
    (folder / "MEMORY.md").write_text("".join(f"- [{n[:-3]}]({n})\n" for n in entries), "utf-8")
    for name, body in entries.items():
        kind = name.split("_")[0]
        (folder / name).write_text(f"---\nname: {name[:-3]}\ndescription: {body[:30]}\ntype: {kind}\n---\n\n{body}\n",
                                   "utf-8")
    before = _tree(hermetic)
    runner = CliRunner()
    first = runner.invoke(main, ["import", "--from", str(folder), "--to", "hermes", "--yes"])
    assert first.exit_code == 0, first.output  # nothing approved yet: nothing meant to move
    settings = load_settings(None)
    with Store(settings.db_path) as store:
        decisions.approve(store, [sp.proposal.id for sp in store.proposals(status="undecided")])
    second = runner.invoke(main, ["import", "--from", str(folder), "--to", "hermes", "--yes"])
    assert second.exit_code == 3, second.output
    assert "partial: read 3: moved 2, reported 1 (unsafe 1)" in second.output
    assert "feedback_rules.md" in second.output and "agent_config_mod" in second.output
    memory = (hermetic / ".hermes" / "memories" / "MEMORY.md").read_text("utf-8")
    assert "small functions" in memory and "tokio" in memory and "CLAUDE.md" not in memory
    undone = runner.invoke(main, ["undo"])
    assert undone.exit_code == 0, undone.output
    assert _tree(hermetic) == before


def test_the_same_entry_moves_to_a_target_that_does_not_block_mentions(hermetic: Path) -> None:
    folder = hermetic / "notes" / "memory"
    folder.mkdir(parents=True)
    (folder / "MEMORY.md").write_text("- [rules](feedback_rules.md)\n", "utf-8")
    (folder / "feedback_rules.md").write_text("---\nname: rules\ndescription: short CLAUDE.md\ntype: feedback\n---\n\n"
                                              "When you write rules, keep CLAUDE.md short.\n", "utf-8")
    settings = load_settings(None)
    with Store(settings.db_path) as store:
        run = importing.start_import(str(folder), "codex", settings=settings, store=store)
        decisions.approve(store, [sp.proposal.id for sp in importing.pending(run, store)])
        importing.plan_import(run, store)
        importing.apply_import(run, store)
        assert run.counts() == {"moved": 1} and not run.partial
