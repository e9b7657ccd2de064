"""Facts that change, writer side: an approved update replaces the entry memseed wrote, in every harness.

End to end through the store and the CLI: approve and write the old fact, approve an update
whose ``supersedes`` names it, write again; each harness then holds only the new fact (in the
old one's place), the journal keeps the old text with the date it stopped being true, a
re-run changes nothing, and ``memseed undo`` brings the old bytes back.
"""

from __future__ import annotations

import json
import subprocess
import textwrap
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner

from bootstrap_app.cli import main
from bootstrap_app.errors import CapacityExceeded
from bootstrap_app.harnesses import get_harness
from bootstrap_app.harnesses.hermes import DELIMITER, parse_entries
from bootstrap_app.memory import write as writing
from bootstrap_app.review import decisions
from bootstrap_app.store import Store
from bootstrap_app.types import Evidence, MemoryType, Proposal

from .conftest import DERIVED, copy_real, hermes_python, snapshot

CHANGED = DERIVED.replace(month=12, day=1)


def _update(old: Proposal) -> Proposal:
    ev = (Evidence("git:/code/ledger-api", "f00dfeed", CHANGED, True, "package.json: packageManager pnpm@9"),)
    return replace(old, body=old.body.replace("Tests: `make test`.", "Tests: `pnpm test` (moved from npm)."),
                   key=old.key + "|pnpm", evidence=ev, supersedes=old.name, derived_at=CHANGED)


def _approve(store: Store, proposals: list[Proposal]) -> None:
    store.save_proposals(store.start_run("reseed", []), proposals)
    decisions.approve(store, [p.id for p in proposals])


TARGETS = {  # target -> (harness name, folder holding its memory, extra plan options)
    "claude-code": ("claude-code", ".claude", {}),
    "codex": ("codex", ".codex", {}),
    "codex-notes": ("codex", ".codex", {}),
    "hermes": ("hermes", ".hermes", {}),
    "gemini": ("gemini", ".gemini", {}),
    "markdown": ("markdown", "md", {"root": "md"}),
}


def _first_write(target: str, store: Store, home: Path, project: Path) -> tuple[str, Path, dict[str, Path]]:
    """Write every approved entry to ``target``; returns the harness name, its folder and the extra options."""
    name, folder_name, extra = TARGETS[target]
    folder = home / folder_name
    opts = {k: home / v for k, v in extra.items()}
    if target == "codex-notes":
        folder.mkdir()
        (folder / "config.toml").write_text("[features]\nmemories = true\n")
    writing.apply_write(store, writing.plan_write(store, name, project=project, **opts))
    return name, folder, opts


@pytest.mark.parametrize("target", list(TARGETS))
def test_update_replaces_the_old_entry_in_every_harness(target: str, approved: Store, proposals: list[Proposal],
                                                        home: Path, project: Path) -> None:
    name, folder, opts = _first_write(target, approved, home, project)
    old = next(p for p in proposals if p.type is MemoryType.PROJECT)
    harness = get_harness(name)
    count = len(harness.read(folder))
    before = {p: h for p, (h, _) in snapshot(folder).items() if not p.endswith(".lock")}

    new = _update(old)
    _approve(approved, [new])
    plan = writing.plan_write(approved, name, project=project, **opts)
    assert [(s.old_fingerprint, s.new_fingerprint, s.until) for s in plan.superseded] == [
        (old.fingerprint, new.fingerprint, "2026-12-01")]
    assert [p.fingerprint for p in plan.entries] == [new.fingerprint], "the old entry is not written again"
    outcome = writing.apply_write(approved, plan)

    entries = harness.read(folder)
    text = " ".join(f"{e.description} {e.body}" for e in entries)
    assert "pnpm test" in text and "make test" not in text
    assert len(entries) == count
    [journal] = approved.superseded(name)
    assert journal["until"] == "2026-12-01" and "make test" in journal["old_text"]

    again = writing.plan_write(approved, name, project=project, **opts)
    assert again.empty and not again.superseded, (again.diff(), again.notes)
    assert not [n for n in again.notes if "removed since" in n], again.notes

    shown = CliRunner().invoke(main, ["history"])
    assert "replaced (true until 2026-12-01)" in shown.output
    [last] = [w for w in writing.history(approved) if w["id"] == outcome.write_id]
    assert [r["old_fingerprint"] for r in last["replaced"]] == [old.fingerprint]
    assert "make test" in last["replaced"][0]["old_text"]
    result = CliRunner().invoke(main, ["undo", str(outcome.write_id)])
    assert result.exit_code == 0, result.output
    assert {p: h for p, (h, _) in snapshot(folder).items() if not p.endswith(".lock")} == before


def test_claude_code_topic_file_and_index_line_follow(approved: Store, proposals: list[Proposal], home: Path,
                                                      project: Path) -> None:
    writing.apply_write(approved, writing.plan_write(approved, "claude-code", project=project))
    old = next(p for p in proposals if p.type is MemoryType.PROJECT)
    new = replace(_update(old), description="ledger-api is the payments ledger service, now built with pnpm")
    _approve(approved, [new])
    plan = writing.plan_write(approved, "claude-code", project=project)
    [topic] = [c for c in plan.files if c.path.name == "ledger-api.md"]
    [index] = [c for c in plan.files if c.path.name == "MEMORY.md"]
    assert topic.before is not None and b"make test" in topic.before and b"pnpm test" in topic.after
    assert b"now built with pnpm" in index.after and b"(ledger-api.md)" in index.after
    assert index.after.count(b"(ledger-api.md)") == 1 and b"ledger-api-2" not in index.after
    writing.apply_write(approved, plan)
    memory = topic.path.parent
    assert (memory / "ledger-api.md").is_file() and not list(memory.glob("ledger-api-*.md"))


def test_hermes_entry_keeps_its_position(approved: Store, proposals: list[Proposal], home: Path) -> None:
    extra = Proposal(type=MemoryType.PROJECT, name="deploy-console", description="deploy-console ships releases",
                     body="Next.js app; deploys ledger-api.", subject="project:deploy-console", derived_at=DERIVED)
    _approve(approved, [extra])
    writing.apply_write(approved, writing.plan_write(approved, "hermes"))
    path = home / ".hermes" / "memories" / "MEMORY.md"
    entries = parse_entries(path.read_text())
    old = next(p for p in proposals if p.type is MemoryType.PROJECT)
    at = next(i for i, e in enumerate(entries) if "make test" in e)
    assert at < len(entries) - 1, "the old entry is not the last one, so position is a real check"
    _approve(approved, [_update(old)])
    writing.apply_write(approved, writing.plan_write(approved, "hermes"))
    now = parse_entries(path.read_text())
    assert len(now) == len(entries) and "pnpm test" in now[at]
    assert now[:at] + now[at + 1:] == entries[:at] + entries[at + 1:]


def test_an_entry_the_person_edited_is_not_overwritten(approved: Store, proposals: list[Proposal],
                                                       home: Path) -> None:
    writing.apply_write(approved, writing.plan_write(approved, "markdown", root=home / "md"))
    edited = home / "md" / "ledger-api.md"
    edited.write_text(edited.read_text() + "\nMy own note: staging deploys on Fridays.\n")
    old = next(p for p in proposals if p.type is MemoryType.PROJECT)
    _approve(approved, [_update(old)])
    plan = writing.plan_write(approved, "markdown", root=home / "md")
    assert not plan.superseded and any("edited or removed" in n for n in plan.notes)
    assert edited not in [c.path for c in plan.files]


def test_only_entries_memseed_wrote_are_replaced(store: Store, proposals: list[Proposal], home: Path) -> None:
    old = next(p for p in proposals if p.type is MemoryType.PROJECT)
    _approve(store, [_update(old)])  # the old one was never approved nor written by memseed
    plan = writing.plan_write(store, "gemini")
    assert not plan.superseded and len(plan.entries) == 1
    assert any("not one memseed wrote to gemini" in n for n in plan.notes), plan.notes


def test_supersedes_fingerprint_picks_the_exact_entry_when_names_repeat(store: Store, home: Path) -> None:
    twins = [Proposal(type=MemoryType.PROJECT, name="commands", description=f"{repo} commands",
                      body=f"{repo}: run `make test`.", subject=f"project:{repo}:commands", derived_at=DERIVED)
             for repo in ("api", "web")]
    _approve(store, twins)
    writing.apply_write(store, writing.plan_write(store, "markdown", root=home / "md"))
    assert sorted(p.name for p in (home / "md").glob("commands*.md")) == ["commands-2.md", "commands.md"]
    web = twins[1]
    update = Proposal(type=web.type, name=web.name, description="web commands", body="web: run `pnpm test`.",
                     subject=web.subject, key="pnpm", supersedes=web.name, supersedes_fingerprint=web.fingerprint,
                     derived_at=CHANGED)
    _approve(store, [update])
    plan = writing.plan_write(store, "markdown", root=home / "md")
    assert [(s.old_fingerprint, Path(s.location).name) for s in plan.superseded] == [(web.fingerprint, "commands-2.md")]
    writing.apply_write(store, plan)
    assert "make test" in (home / "md" / "commands.md").read_text()
    assert "pnpm test" in (home / "md" / "commands-2.md").read_text()


@pytest.mark.parametrize("target", list(TARGETS))
def test_an_approved_removal_deletes_the_entry_through_the_writer(target: str, approved: Store,
                                                                 proposals: list[Proposal], home: Path,
                                                                 project: Path) -> None:
    """Codex notes included (the contract test writes Codex's AGENTS.md block): the removal goes
    through ``writing`` (supersedes_fingerprint lookup, journal, history, undo) and is done once."""
    name, folder, opts = _first_write(target, approved, home, project)
    old = next(p for p in proposals if p.type is MemoryType.PROJECT)
    harness = get_harness(name)
    count = len(harness.read(folder))
    before = {p: h for p, (h, _) in snapshot(folder).items() if not p.endswith(".lock")}
    gone = replace(old, body="No longer holds (checked 2026-12-01): `/code/ledger-api`.", key=old.key + "|stale",
                   evidence=(Evidence("memseed:verify", "/code/ledger-api", CHANGED, True, "1 missing"),),
                   flags=("stale", "remove"), supersedes=old.name, supersedes_fingerprint=old.fingerprint,
                   derived_at=CHANGED)
    _approve(approved, [gone])
    plan = writing.plan_write(approved, name, project=project, **opts)
    assert [(s.old_fingerprint, s.new_fingerprint) for s in plan.superseded] == [(old.fingerprint, gone.fingerprint)]
    assert plan.entries == []
    outcome = writing.apply_write(approved, plan)
    entries = harness.read(folder)
    text = " ".join(f"{e.description} {e.body}" for e in entries)
    assert len(entries) == count - 1 and "make test" not in text and "No longer holds" not in text
    again = writing.plan_write(approved, name, project=project, **opts)
    assert again.empty and not again.superseded, (again.diff(), again.notes)
    assert not [n for n in again.notes if "memseed wrote" in n or "removal" in n], again.notes
    assert "removed (true until 2026-12-01)" in CliRunner().invoke(main, ["history"]).output
    writing.undo_write(approved, outcome.write_id)
    assert {p: h for p, (h, _) in snapshot(folder).items() if not p.endswith(".lock")} == before


def test_claude_md_block_section_is_replaced(approved: Store, proposals: list[Proposal], home: Path) -> None:
    writing.apply_write(approved, writing.plan_write(approved, "claude-code", user_facts="claude-md"))
    claude_md = home / ".claude" / "CLAUDE.md"
    before = claude_md.read_bytes()
    old = next(p for p in proposals if p.type is MemoryType.USER)
    moved = replace(old, body=old.body.replace("Lagos (WAT, UTC+1)", "Lisbon (WET, UTC+0)"), key="lisbon",
                    description=old.description.replace("Lagos (UTC+1)", "Lisbon (UTC+0)"), supersedes=old.name,
                    derived_at=CHANGED)
    _approve(approved, [moved])
    outcome = writing.apply_write(approved, writing.plan_write(approved, "claude-code", user_facts="claude-md"))
    text = claude_md.read_text()
    assert "Lisbon" in text and "Lagos" not in text and text.count(f"### {old.name}") == 1
    writing.undo_write(approved, outcome.write_id)
    assert claude_md.read_bytes() == before


def test_hermes_replacement_loads_in_real_hermes_among_real_entries(approved: Store, proposals: list[Proposal],
                                                                     home: Path) -> None:
    """On a real Hermes folder: the replaced entry stays where it was, every real entry is untouched,
    and Hermes's own store loads the file with no drift (its replace/remove keep working)."""
    python = hermes_python()
    if python is None:
        pytest.skip("hermes-agent is not installed in a side interpreter (set MEMSEED_HERMES_PYTHON)")
    copy_real("hermes/ItaZure-hermes-memories", home / ".hermes")
    path = home / ".hermes" / "memories" / "MEMORY.md"
    writing.apply_write(approved, writing.plan_write(approved, "hermes"))
    entries = parse_entries(path.read_text(encoding="utf-8"))
    at = next(i for i, e in enumerate(entries) if "make test" in e)
    old = next(p for p in proposals if p.type is MemoryType.PROJECT)
    _approve(approved, [_update(old)])
    writing.apply_write(approved, writing.plan_write(approved, "hermes"))
    now = parse_entries(path.read_text(encoding="utf-8"))
    assert "pnpm test" in now[at] and now[:at] + now[at + 1:] == entries[:at] + entries[at + 1:]
    script = textwrap.dedent("""
        import json
        from tools.memory_tool import MemoryStore
        s = MemoryStore(); s.load_from_disk()
        print(json.dumps({"memory": s.memory_entries, "drift": s._detect_external_drift("memory")}))
    """)
    out = subprocess.run([python, "-c", script], capture_output=True, text=True, timeout=120, check=True,
                         env={"HERMES_HOME": str(home / ".hermes"), "HOME": str(home), "PATH": "/usr/bin:/bin"})
    loaded = json.loads(out.stdout.strip().splitlines()[-1])
    assert loaded == {"memory": now, "drift": None}


@pytest.mark.parametrize("target", list(TARGETS))
def test_a_fact_that_changes_twice_is_replaced_twice(target: str, approved: Store, proposals: list[Proposal],
                                                     home: Path, project: Path) -> None:
    """npm -> pnpm -> bun: the second update replaces what the first one wrote (a note or line
    memseed rewrote for an update is still memseed's own, not "edited by the person")."""
    name, folder, opts = _first_write(target, approved, home, project)
    harness = get_harness(name)
    count = len(harness.read(folder))
    first = _update(next(p for p in proposals if p.type is MemoryType.PROJECT))
    _approve(approved, [first])
    writing.apply_write(approved, writing.plan_write(approved, name, project=project, **opts))
    second = replace(first, body=first.body.replace("pnpm test", "bun test"), key=first.key + "|bun",
                     derived_at=CHANGED.replace(day=20))
    _approve(approved, [second])
    plan = writing.plan_write(approved, name, project=project, **opts)
    assert [s.old_fingerprint for s in plan.superseded] == [first.fingerprint], plan.notes
    writing.apply_write(approved, plan)
    text = " ".join(f"{e.description} {e.body}" for e in harness.read(folder))
    assert "bun test" in text and "pnpm test" not in text and "make test" not in text
    assert len(harness.read(folder)) == count


@pytest.mark.parametrize("target", ["codex", "claude-md"])
def test_marked_block_keeps_a_second_entry_of_the_same_name(target: str, store: Store, home: Path) -> None:
    """Two repositories' "commands" written one after the other: the second gets its own section
    (``### commands-2``) instead of vanishing behind the first one's heading."""
    name, opts = ("codex", {}) if target == "codex" else ("claude-code", {"user_facts": "claude-md"})
    kind = MemoryType.PROJECT if target == "codex" else MemoryType.USER
    path = home / (".codex/AGENTS.md" if target == "codex" else ".claude/CLAUDE.md")
    for repo in ("api", "web"):
        p = Proposal(type=kind, name="commands", description=f"{repo} commands", body=f"{repo}: run `make test`.",
                     subject=f"project:{repo}:commands", derived_at=DERIVED)
        _approve(store, [p])
        plan = writing.plan_write(store, name, **opts)
        assert [e.fingerprint for e in plan.entries] == [p.fingerprint]
        writing.apply_write(store, plan)
        assert f"{repo}: run `make test`" in path.read_text()
    assert "### commands" in path.read_text() and "### commands-2" in path.read_text()
    again = writing.plan_write(store, name, **opts)
    assert again.empty, again.diff()


def test_update_of_a_block_section_the_person_edited_is_added_beside_it(approved: Store, proposals: list[Proposal],
                                                                        home: Path) -> None:
    writing.apply_write(approved, writing.plan_write(approved, "codex"))
    agents = home / ".codex" / "AGENTS.md"
    agents.write_text(agents.read_text().replace("Deploys go through", "Deploys (Fridays only, my rule) go through"))
    mine = agents.read_text()
    old = next(p for p in proposals if p.type is MemoryType.PROJECT)
    new = _update(old)
    _approve(approved, [new])
    plan = writing.plan_write(approved, "codex")
    assert not plan.superseded and any("edited or removed" in n for n in plan.notes)
    assert [p.fingerprint for p in plan.entries] == [new.fingerprint]
    writing.apply_write(approved, plan)
    text = agents.read_text()
    assert "Fridays only, my rule" in text and "pnpm test" in text
    assert text.startswith(mine[:mine.index("<!-- memseed:end -->")].rstrip("\n"))


def test_gemini_update_finds_its_line_after_an_editor_switched_to_crlf(approved: Store, proposals: list[Proposal],
                                                                       home: Path) -> None:
    writing.apply_write(approved, writing.plan_write(approved, "gemini"))
    path = home / ".gemini" / "GEMINI.md"
    path.write_bytes(path.read_bytes().replace(b"\n", b"\r\n"))
    old = next(p for p in proposals if p.type is MemoryType.PROJECT)
    _approve(approved, [_update(old)])
    plan = writing.plan_write(approved, "gemini")
    assert [s.old_fingerprint for s in plan.superseded] == [old.fingerprint]
    writing.apply_write(approved, plan)
    raw = path.read_bytes()
    assert b"pnpm test" in raw and b"make test" not in raw and b"\n" not in raw.replace(b"\r\n", b"")


def test_an_update_by_name_alone_replaces_the_twin_about_its_own_subject(store: Store, home: Path) -> None:
    """Two written entries are both named "commands"; an update naming only "commands" replaces the
    one with its subject (api), never the other repository's (web), whichever was written last."""
    twins = [Proposal(type=MemoryType.PROJECT, name="commands", description=f"{repo} commands",
                      body=f"{repo}: run `make test`.", subject=f"project:{repo}:commands", derived_at=DERIVED)
             for repo in ("api", "web")]
    _approve(store, twins)
    writing.apply_write(store, writing.plan_write(store, "markdown", root=home / "md"))
    api = twins[0]
    update = replace(api, body="api: run `pnpm test`.", key="pnpm", supersedes="commands", derived_at=CHANGED)
    _approve(store, [update])
    plan = writing.plan_write(store, "markdown", root=home / "md")
    assert [s.old_fingerprint for s in plan.superseded] == [api.fingerprint]
    stranger = replace(api, subject="project:cli:commands", body="cli: run `just test`.", supersedes="commands")
    assert writing.replacements(store, "markdown", [stranger]) == {}


def test_an_index_line_the_person_edited_is_kept_and_named(approved: Store, proposals: list[Proposal], home: Path,
                                                            project: Path) -> None:
    """The topic file is memseed's and is replaced; the MEMORY.md line the person reworded is theirs:
    kept byte for byte, and the plan says it may now describe the old fact."""
    writing.apply_write(approved, writing.plan_write(approved, "claude-code", project=project))
    [index] = [i for i in (home / ".claude" / "projects").glob("*/memory/MEMORY.md") if "ledger-api" in i.read_text()]
    index.write_text(index.read_text().replace("(ledger-api.md) — ", "(ledger-api.md) — MY WORDS: "))
    mine = next(line for line in index.read_text().splitlines() if "MY WORDS" in line)
    old = next(p for p in proposals if p.type is MemoryType.PROJECT)
    _approve(approved, [replace(_update(old), description="ledger-api, now built with pnpm")])
    plan = writing.plan_write(approved, "claude-code", project=project)
    assert [s.old_fingerprint for s in plan.superseded] == [old.fingerprint]
    assert any("edited outside memseed" in n and "ledger-api.md" in n for n in plan.notes), plan.notes
    writing.apply_write(approved, plan)
    assert mine in index.read_text().splitlines() and "now built with pnpm" not in index.read_text()


def test_hermes_replacement_is_held_to_the_cap_on_the_file_after_the_swap(approved: Store, proposals: list[Proposal],
                                                                         home: Path) -> None:
    """MEMORY.md set to exactly its use: a longer replacement is refused with nothing written, a
    shorter one fits (the old entry's characters are given back), and the new text sits where the old one was."""
    writing.apply_write(approved, writing.plan_write(approved, "hermes"))
    path = home / ".hermes" / "memories" / "MEMORY.md"
    used = len(path.read_text(encoding="utf-8"))
    (home / ".hermes" / "config.yaml").write_text(f"memory:\n  memory_char_limit: {used}\n")
    old = next(p for p in proposals if p.type is MemoryType.PROJECT)
    longer = replace(_update(old), body=old.body + " Staging deploys need a second reviewer.")
    _approve(approved, [longer])
    before = path.read_bytes()
    with pytest.raises(CapacityExceeded, match=f"{used:,}/{used:,} chars"):
        writing.plan_write(approved, "hermes")
    assert path.read_bytes() == before
    decisions.reject(approved, [longer.id])
    shorter = replace(old, body="ledger-api: `pnpm test`.", key=old.key + "|short", supersedes=old.name,
                      derived_at=CHANGED)
    _approve(approved, [shorter])
    writing.apply_write(approved, writing.plan_write(approved, "hermes"))
    entries = parse_entries(path.read_text(encoding="utf-8"))
    assert len(DELIMITER.join(entries)) < used
    assert [i for i, e in enumerate(entries) if "pnpm test" in e] == [
        i for i, e in enumerate(parse_entries(before.decode("utf-8"))) if "make test" in e]
