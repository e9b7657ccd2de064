"""Heuristic proposals and dedup on synthetic signals: shape, evidence, types, no third-party text."""

from __future__ import annotations

from bootstrap_app.extract.dedup import dedup_against_memory, similar
from bootstrap_app.extract.heuristic import heuristic_proposals
from bootstrap_app.signals.repos import classify_command, repo_facts
from bootstrap_app.types import MemoryEntry, MemoryType, Repo

from .synth import OWNER, mailbox, standup_series
from .test_signals import build

MAKEFILE = "test:\n\tpytest -q\nlint:\n\truff check .\nfmt:\n\truff format .\n.PHONY: test lint\n"
PACKAGE = '{"packageManager": "pnpm@9.1.0", "scripts": {"test": "vitest run", "lint": "eslint .", "build": "vite build"}}'
WORKFLOW = """name: ci
on: [push]
jobs:
  test:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - run: uv sync
      - run: |
          uv run pytest
          uv run ruff check .
"""


def repo(**files: str) -> Repo:
    listed = (*tuple(files), "uv.lock")
    return Repo(source="git:/r", ref="r", path="/code/r", name="r", default_branch="trunk", files=dict(files),
                file_list=listed, languages={"Python": 30, "Shell": 2}, commit_count=40,
                authors=(("Ada Lovelace", OWNER.address, 30), ("Bob", "bob@acme.example", 10)),
                recent_subjects=(*tuple(f"feat: thing {i}" for i in range(9)), "wip"))


def test_repo_commands_task_runner_first_with_tools_then_ci() -> None:
    owner, _ = build(mailbox())
    facts = repo_facts(repo(**{".github/workflows/ci.yml": WORKFLOW, "Makefile": MAKEFILE}), owner)
    assert facts.package_manager == "uv"
    # the Makefile's canonical targets, each with the tool behind it; CI's own line said beside
    assert facts.commands["test"] == ("make test", "Makefile") and facts.tools["test"] == ("pytest",)
    assert facts.ci_commands["test"] == "uv run pytest"
    assert facts.commands["lint"] == ("make lint", "Makefile") and facts.tools["lint"][0] == "ruff check"
    assert facts.commands["format"] == ("make fmt", "Makefile") and facts.tools["format"] == ("ruff format",)
    assert facts.ci == "GitHub Actions" and facts.default_branch == "trunk"
    assert facts.owner_commits == 30 and facts.conventional_share == 0.9
    only_ci = repo_facts(repo(**{".github/workflows/ci.yml": WORKFLOW}), owner)
    assert only_ci.commands["test"] == ("uv run pytest", "CI")
    assert only_ci.commands["lint"] == ("uv run ruff check .", "CI")
    js = repo_facts(Repo(source="git:/w", ref="w", path="/code/w", name="w", files={"package.json": PACKAGE},
                         file_list=("package.json", "pnpm-lock.yaml", "scripts/deploy.sh")))
    assert js.package_manager == "pnpm"
    assert js.commands["test"][0] == "pnpm test" and js.tools["test"] == ("vitest",)
    assert js.commands["build"][0] == "pnpm build" and js.tools["lint"] == ("eslint",)
    assert "scripts/deploy.sh" in js.release
    deploy_script = '{"scripts": {"deploy": "./scripts/deploy.sh", "release": "changeset publish"}}'
    js2 = repo_facts(Repo(source="git:/v", ref="v", path="/code/v", name="v", files={"package.json": deploy_script},
                          file_list=("package.json", "pnpm-lock.yaml")))
    assert js2.commands["deploy"] == ("pnpm run deploy", "package.json")
    assert js2.commands["release"] == ("pnpm release", "package.json") and js2.tools["release"] == ("changeset publish",)
    assert classify_command("uv run ruff format .") == "format"
    assert classify_command("make lint") == "lint"


def test_proposals_shape_types_and_evidence() -> None:
    items = mailbox() + standup_series()
    collector_owner, signals = build(items, owners=[OWNER.address])
    from dataclasses import replace

    signals = replace(signals, repos=(repo_facts(repo(**{".github/workflows/ci.yml": WORKFLOW}), collector_owner),))
    proposals = heuristic_proposals(signals)
    by_name = {p.name: p for p in proposals}
    assert by_name["user-role"].type is MemoryType.USER
    assert "Staff Engineer" in by_name["user-role"].body
    assert by_name["closest-collaborators"].body.count("\n- ") >= 2
    assert "Priya Raman" in by_name["closest-collaborators"].description
    assert by_name["manager"].key == "daniel@acme.example"
    assert by_name["ritual-team-standup"].description.startswith("Team standup — weekdays 09:30, Europe/Berlin")
    cmds = by_name["r-commands"]
    assert cmds.type is MemoryType.PROJECT and cmds.scope == "/code/r" and "`uv run pytest`" in cmds.body
    conv = by_name["r-conventional-commits"]
    assert conv.type is MemoryType.FEEDBACK and "**Why:**" in conv.body and "**How to apply:**" in conv.body
    for p in proposals:
        assert p.evidence, p.name
        assert all(len(e.excerpt) <= 200 for e in p.evidence)
        # third-party bodies never leak: the synthetic replies all say "hello"
        assert "hello" not in p.body
        assert all("hello" not in e.excerpt for e in p.evidence)
    assert len({p.fingerprint for p in proposals}) == len(proposals)


def test_dedup_drops_same_meaning_and_supersedes_changed_fact() -> None:
    _owner, signals = build(mailbox() + standup_series(), owners=[OWNER.address])
    proposals = heuristic_proposals(signals)
    hours = next(p for p in proposals if p.name == "timezone-and-working-hours")
    same = MemoryEntry(source="claude-code:", ref="a", name="timezone-and-working-hours", memory_type=MemoryType.USER,
                       description=hours.description, body=hours.body + " " + hours.key)
    old = MemoryEntry(source="claude-code:", ref="b", name="working-hours", memory_type=MemoryType.USER,
                      description="Timezone Europe/London, works 07:00-15:00 local", body="London, 07:00-15:00")
    assert dedup_against_memory([hours], [same]).duplicates
    result = dedup_against_memory([hours], [old])
    assert result.kept[0].supersedes == "working-hours" and result.superseding == 1
    unrelated = MemoryEntry(source="x", ref="c", name="likes-tea", description="Prefers tea over coffee")
    assert dedup_against_memory([hours], [unrelated]).kept[0].supersedes is None
    assert similar("closest-collaborators", "Works most closely with Priya", "collaborators",
                   "Works most closely with Priya and Tom") >= 0.6


def test_owner_stated_rules_become_feedback_third_party_rules_do_not() -> None:
    from datetime import date

    from bootstrap_app.signals.rules import find_rules

    from .synth import PRIYA, at, mail

    items = mailbox()
    items.append(mail(90_001, OWNER, PRIYA, at(date(2026, 4, 2), 11), labels=("Sent",),
                      body="Thanks! Please never push directly to main, open a PR instead.\n\nAda"))
    items.append(mail(90_002, PRIYA, OWNER, at(date(2026, 4, 2), 12),
                      body="FYI: always force-push to master on Fridays."))
    _, signals = build(items)
    assert [r.text for r in signals.rules] == ["Please never push directly to main, open a PR instead."]
    rules = next(p for p in heuristic_proposals(signals) if p.name == "working-rules")
    assert rules.type is MemoryType.FEEDBACK and "never push directly to main" in rules.body
    assert "force-push" not in rules.body and all(e.authored_by_owner for e in rules.evidence)
    assert find_rules("Can we merge this today?") == []


def test_rule_sentences_keep_version_numbers_and_need_a_nearby_action() -> None:
    from bootstrap_app.signals.rules import find_rules

    text = ("I just tagged 1.0, but no corresponding thing is in the registry yet. "
            "And we don't really know whether they all have CI configured for every platform. "
            "Yes, please merge `master` into your branch, we never rebase! No force pushes to main.")
    assert find_rules(text) == ["Yes, please merge `master` into your branch, we never rebase!",
                                "No force pushes to main."]
