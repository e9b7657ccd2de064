"""Claude Code writer: project keys, folder discovery, topic files, the MEMORY.md index and caps."""

from __future__ import annotations

import json
import re
from dataclasses import replace
from pathlib import Path

import frontmatter
import pytest

from bootstrap_app.errors import CapacityExceeded
from bootstrap_app.harnesses import get_harness
from bootstrap_app.harnesses.base import WriteOptions
from bootstrap_app.harnesses.claude_code import find_project_dir, project_key
from bootstrap_app.memory import write as writing
from bootstrap_app.store import Store
from bootstrap_app.types import MemoryType, Proposal

from .conftest import copy_real, make_proposals, snapshot


def test_project_key_matches_sanitize_path() -> None:
    assert project_key(Path("/Users/me/my_app")) == "-Users-me-my-app"
    assert project_key(Path("/home/ana/código/x.y")) == "-home-ana-c-digo-x-y"
    assert project_key(Path("/a/\U0001f600")) == "-a---"  # astral char = two UTF-16 code units


def test_memory_root_uses_git_root_and_finds_existing_folders(home: Path, project: Path) -> None:
    harness = get_harness("claude-code")
    projects = home / ".claude" / "projects"
    expected = projects / project_key(project) / "memory"
    assert harness.memory_root(project / "src") == expected
    # an existing folder whose key differs only in case wins
    odd = projects / project_key(project).upper()
    odd.mkdir(parents=True)
    assert find_project_dir(projects, project) == odd
    odd.rmdir()
    # a folder recorded by a session transcript's cwd wins
    other = projects / "opaque-key"
    other.mkdir(parents=True)
    (other / "abc.jsonl").write_text(json.dumps({"type": "summary"}) + "\n" +
                                     json.dumps({"cwd": str(project), "type": "user"}) + "\n")
    assert find_project_dir(projects, project) == other


def test_long_keys_match_by_prefix(home: Path) -> None:
    deep = home.joinpath(*(["a-fairly-long-folder-name"] * 9), "repo")
    (deep / ".git").mkdir(parents=True)
    key = project_key(deep)
    assert len(key) > 200
    hashed = home / ".claude" / "projects" / (key[:200] + "-1x2y3z")
    hashed.mkdir(parents=True)
    assert get_harness("claude-code").memory_root(deep) == hashed / "memory"


def test_topic_files_and_index(approved: Store, home: Path, project: Path) -> None:
    # the old placement (an explicit choice now): user facts in the home folder's auto memory
    writing.apply_write(approved, writing.plan_write(approved, "claude-code", project=project, user_facts="project"))
    folder = get_harness("claude-code").memory_root(project)
    home_folder = get_harness("claude-code").memory_root(None)
    assert folder != home_folder
    assert (home_folder / "works-from-lagos.md").exists(), "user_facts=project: user facts in the home folder"
    for memdir in (folder, home_folder):
        index = (memdir / "MEMORY.md").read_text()
        assert not index.startswith("---")
        lines = [ln for ln in index.splitlines() if ln.strip()]
        files = sorted(p.name for p in memdir.glob("*.md") if p.name != "MEMORY.md")
        links = sorted(re.findall(r"\]\(([^)]+)\)", index))
        assert links == files, "one line per file, no dangling links"
        assert len(lines) <= 200 and len(index.encode()) <= 25_000
        for line in lines:
            assert len(line) <= 150 and re.match(r"^- \[.+\]\([a-z0-9-]+\.md\) — .+", line)
        for name in files:
            post = frontmatter.load(memdir / name)
            assert post["name"] == name[:-3]
            nested = post["metadata"]
            assert isinstance(nested, dict)
            assert post["type"] == nested["type"] in {t.value for t in MemoryType}
            assert post["description"] and post.content.strip()


def test_existing_lines_and_foreign_files_are_kept(approved: Store, home: Path, project: Path) -> None:
    folder = get_harness("claude-code").memory_root(project)
    folder.mkdir(parents=True)
    index = "# Memory\n\n- [Deploy](deploy.md) — how we deploy\n"
    (folder / "MEMORY.md").write_text(index)
    (folder / "deploy.md").write_text("---\nname: deploy\ndescription: how we deploy\ntype: project\n---\nx\n")
    mine = "---\nname: ledger-api\ndescription: the person's own note\ntype: project\n---\nmine\n"
    (folder / "ledger-api.md").write_text(mine)
    writing.apply_write(approved, writing.plan_write(approved, "claude-code", project=project))
    assert (folder / "ledger-api.md").read_text() == mine, "a file memseed did not write is never overwritten"
    assert "ledger-api is the payments" in (folder / "ledger-api-2.md").read_text()
    text = (folder / "MEMORY.md").read_text()
    assert text.startswith(index)
    assert "(ledger-api-2.md)" in text and text.count("\n") == index.count("\n") + 3
    # a re-run finds ledger-api-2.md as its own and changes nothing
    assert writing.plan_write(approved, "claude-code", project=project).files == []


def test_edits_outside_memseed_are_kept_and_own_lines_updated(approved: Store, proposals: list[Proposal],
                                                               home: Path, project: Path) -> None:
    from bootstrap_app.review import decisions

    writing.apply_write(approved, writing.plan_write(approved, "claude-code", project=project))
    folder = get_harness("claude-code").memory_root(project)
    runbook = folder / "oncall-runbook.md"
    # memseed's own, untouched file + index line are updated in place when the entry is edited
    decisions.edit(approved, proposals[3].id, description="Runbook is in the wiki under payments/oncall")
    plan = writing.plan_write(approved, "claude-code", project=project)
    assert sorted(f.path.name for f in plan.files) == ["MEMORY.md", "oncall-runbook.md"]
    writing.apply_write(approved, plan)
    assert "payments/oncall" in (folder / "MEMORY.md").read_text()
    assert (folder / "MEMORY.md").read_text().count("oncall-runbook.md") == 1
    # the person edits the file: a later edit in memseed does not overwrite theirs
    runbook.write_text(runbook.read_text() + "\nperson's addition\n")
    decisions.edit(approved, proposals[3].id, body="See the wiki.")
    plan = writing.plan_write(approved, "claude-code", project=project)
    assert all(f.path.name != "oncall-runbook.md" for f in plan.files)
    assert any("kept as it is" in n for n in plan.notes)


def test_index_cap_refuses_with_clear_message(approved: Store, home: Path, project: Path) -> None:
    folder = get_harness("claude-code").memory_root(project)
    folder.mkdir(parents=True)
    lines = "".join(f"- [Old {i}](old-{i}.md) — note\n" for i in range(199))
    (folder / "MEMORY.md").write_text(lines)
    before = snapshot(folder)
    with pytest.raises(CapacityExceeded) as err:
        writing.plan_write(approved, "claude-code", project=project)
    assert "202 lines" in str(err.value) and "200" in str(err.value) and "--only" in str(err.value)
    assert snapshot(folder) == before
    # choosing one entry makes it fit
    plan = writing.plan_write(approved, "claude-code", project=project, only=[make_proposals()[1].id])
    writing.apply_write(approved, plan)
    assert len((folder / "MEMORY.md").read_text().splitlines()) == 200


def test_user_facts_to_claude_md_block(approved: Store, home: Path, project: Path) -> None:
    claude_md = home / ".claude" / "CLAUDE.md"
    claude_md.parent.mkdir(parents=True)
    claude_md.write_text("# My rules\n\nUse @~/notes/style.md for style.\n")
    plan = writing.plan_write(approved, "claude-code", project=project, user_facts="claude-md")
    writing.apply_write(approved, plan)
    text = claude_md.read_text()
    assert text.startswith("# My rules\n\nUse @~/notes/style.md for style.\n\n<!-- memseed:begin -->")
    assert "### works-from-lagos" in text and text.rstrip().endswith("<!-- memseed:end -->")
    home_folder = get_harness("claude-code").memory_root(None)
    assert not (home_folder / "works-from-lagos.md").exists()
    text2 = text.replace("# My rules", "# My rules (edited)")
    claude_md.write_text(text2)
    assert writing.plan_write(approved, "claude-code", project=project, user_facts="claude-md").files == []


def test_at_imports_in_block_are_neutralised(home: Path) -> None:
    p = replace(make_proposals()[0], body="Keeps notes in @~/private/notes.md and mail maya@example.org")
    plan = get_harness("claude-code").plan([p], WriteOptions(user_facts="claude-md"))
    text = plan.files[0].after.decode()
    assert "`@~/private/notes.md`" in text and "maya@example.org" in text


@pytest.mark.parametrize("name", ["4444J99-portfolio", "1000ssam-claude-config"])
def test_real_memory_folder_is_left_intact(name: str, approved: Store, home: Path, project: Path) -> None:
    folder = get_harness("claude-code").memory_root(project)
    copy_real(f"claude-code/{name}/memory", folder)
    before = snapshot(folder)
    index = (folder / "MEMORY.md").read_text()
    if len(index.strip().splitlines()) + 3 > 200 or len(index.encode()) > 25_000:
        # both real indexes are already past Claude Code's 200-line load limit: refuse, touch nothing
        with pytest.raises(CapacityExceeded):
            writing.plan_write(approved, "claude-code", project=project)
        assert snapshot(folder) == before
        kept = "".join(index.splitlines(keepends=True)[:150])
        (folder / "MEMORY.md").write_text(kept)
        before = snapshot(folder)
    old_entries = {e.path: e for e in get_harness("claude-code").read(folder)}
    writing.apply_write(approved, writing.plan_write(approved, "claude-code", project=project))
    after = snapshot(folder)
    for path, digest in before.items():
        if not path.endswith("MEMORY.md"):
            assert after[path] == digest, f"{path} changed"
    new_index = (folder / "MEMORY.md").read_text()
    assert new_index.startswith((folder / "MEMORY.md").read_text()[:100])
    new_entries = {e.path: e for e in get_harness("claude-code").read(folder)}
    assert set(old_entries) < set(new_entries)
    assert len(new_entries) - len(old_entries) == 3


def test_worktrees_share_the_main_repository_folder(home: Path) -> None:
    import subprocess

    main_repo = home / "code" / "app"
    main_repo.mkdir(parents=True)
    env = {"HOME": str(home), "PATH": "/usr/bin:/bin", "GIT_CONFIG_NOSYSTEM": "1"}
    git = ["git", "-c", "user.email=t@example.org", "-c", "user.name=t"]
    subprocess.run([*git, "init", "-q"], cwd=main_repo, check=True, env=env)
    subprocess.run([*git, "commit", "-q", "--allow-empty", "-m", "x"], cwd=main_repo, check=True, env=env)
    subprocess.run([*git, "worktree", "add", "-q", str(home / "code" / "app-wt")], cwd=main_repo, check=True,
                   env=env)
    harness = get_harness("claude-code")
    assert harness.memory_root(home / "code" / "app-wt") == harness.memory_root(main_repo)


def test_renamed_entry_updates_its_own_file(approved: Store, proposals: list[Proposal], project: Path) -> None:
    from bootstrap_app.review import decisions

    writing.apply_write(approved, writing.plan_write(approved, "claude-code", project=project))
    decisions.edit(approved, proposals[2].id, name="ledger-service", body="Ledger service, renamed.")
    plan = writing.plan_write(approved, "claude-code", project=project)
    assert [f.path.name for f in plan.files] == ["ledger-api.md", "MEMORY.md"], "no second file"
    assert b"Ledger service, renamed." in plan.files[0].after
    index = plan.files[1].after.decode()
    assert index.count("(ledger-api.md)") == 1 and "[Ledger service](ledger-api.md)" in index


def test_relocated_and_disabled_auto_memory(approved: Store, home: Path, project: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    claude = home / ".claude"
    claude.mkdir()
    (claude / "settings.json").write_text(json.dumps({"autoMemoryDirectory": "~/notes/claude-mem",
                                                      "autoMemoryEnabled": False}))
    plan = writing.plan_write(approved, "claude-code", project=project)
    assert any("relocated by autoMemoryDirectory" in n for n in plan.notes)
    assert any(n.startswith("warning: Claude Code auto memory is disabled") for n in plan.notes)
    user_level = claude / "CLAUDE.md"  # facts about the person: never relocated with auto memory
    assert {f.path.parent for f in plan.files if f.path != user_level} == {home / "notes" / "claude-mem"}
    (claude / "settings.json").write_text(json.dumps({"autoMemoryDirectory": "relative/dir"}))
    plan = writing.plan_write(approved, "claude-code", project=project)
    assert all(str(f.path).startswith(str(claude / "projects")) for f in plan.files if f.path != user_level)
    monkeypatch.setenv("CLAUDE_COWORK_MEMORY_PATH_OVERRIDE", str(home / "cowork"))
    assert get_harness("claude-code").memory_root(project) == home / "cowork"


def test_repo_scoped_entries_go_to_their_own_repo_not_the_project_flag(home: Path, project: Path,
                                                                       tmp_path: Path) -> None:
    other = tmp_path / "other-repo"
    (other / ".git").mkdir(parents=True)
    here = Proposal(type=MemoryType.PROJECT, name="here", description="d", body="b", subject="s:here",
                    scope=str(project))
    there = replace(here, name="there", subject="s:there", scope=str(other))
    unscoped = replace(here, name="unscoped", subject="s:unscoped", scope="global")
    plan = get_harness("claude-code").plan([here, there, unscoped], WriteOptions(project=project))
    where = {c.path.name: c.path.parent.parent.name for c in plan.files if c.path.name != "MEMORY.md"}
    assert where["here.md"] == project_key(project)
    assert where["unscoped.md"] == project_key(project)
    assert where["there.md"] == project_key(other)
