"""A check CI runs only through an action (``uses:``, no ``run:``) gives the tool's own command
when the repository tracks the tool's config file; without either, nothing is guessed.

Generated Lua rocks (real ``git``, read back through the git source).
"""

from __future__ import annotations

from pathlib import Path

from .gitrepo import facts_of

_ROCK = {"tool-scm-1.rockspec": 'package = "tool"\nversion = "scm-1"\nsource = { url = "git://example.invalid/tool" }\n'
                                'dependencies = { "lua >= 5.1" }\nbuild = { type = "builtin", modules = { tool = "tool.lua" } }\n',
         "tool.lua": "return {}\n"}
_ACTION = ("name: Lint\non: [push, pull_request]\njobs:\n  lint:\n    runs-on: ubuntu-latest\n    steps:\n"
           "      - uses: actions/checkout@v4\n      - name: Luacheck\n        uses: lunarmodules/luacheck@v1\n")


def test_an_action_run_linter_with_its_config_gives_its_command(tmp_path: Path) -> None:
    facts = facts_of(tmp_path / "both", {**_ROCK, ".luacheckrc": "std = 'max'\n", ".github/workflows/lint.yml": _ACTION})
    assert facts.commands["lint"][0] == "luacheck ."


def test_no_config_or_no_ci_action_gives_no_guess(tmp_path: Path) -> None:
    no_config = facts_of(tmp_path / "noconf", {**_ROCK, ".github/workflows/lint.yml": _ACTION})
    no_action = facts_of(tmp_path / "noci", {**_ROCK, ".luacheckrc": "std = 'max'\n"})
    assert "luacheck ." not in (no_config.commands.get("lint", ("",))[0], no_action.commands.get("lint", ("",))[0])
