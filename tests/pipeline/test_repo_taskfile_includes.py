"""A Taskfile's ``includes:``: the included Taskfile's tasks are the project's, called by namespace.

Generated repositories (real ``git``, read back through the git source) whose root Taskfile
includes a folder's Taskfile: its tasks are ``ns:task``, its ``default`` task is ``task ns``,
and a guide saying "run `task website`" is proven by that included file.
"""

from __future__ import annotations

from pathlib import Path

from bootstrap_app.ecosystems.runners import taskfile_tasks

from .gitrepo import facts_of

_ROOT = ("version: '3'\n\nincludes:\n  website:\n    taskfile: ./website\n    dir: ./website\n  remote:\n"
         "    taskfile: https://example.invalid/Taskfile.yml\n\ntasks:\n  test:\n    cmds:\n      - go test ./...\n")
_WEBSITE = ("version: '3'\n\ntasks:\n  install:\n    cmds:\n      - pnpm install\n  default:\n    desc: Start website\n"
            "    deps: [install]\n    cmds:\n      - pnpm dev\n  build:\n    cmds:\n      - pnpm build\n")


def test_included_tasks_are_named_by_their_namespace() -> None:
    names = [n for n, _spec, _path in taskfile_tasks({"Taskfile.yml": _ROOT, "website/Taskfile.yml": _WEBSITE})]
    assert names == ["test", "website:install", "website:default", "website", "website:build"]
    # a folder with no Taskfile, or a remote include, adds nothing
    assert [n for n, _s, _p in taskfile_tasks({"Taskfile.yml": _ROOT})] == ["test"]


def test_a_guide_running_an_included_default_task_is_proven(tmp_path: Path) -> None:
    guide = ("# Contributing\n\n## Updating documentation\n\nThe docs site can be run locally by using "
             "`task website`.\n\nRun the tests with `task test`.\n")
    facts = facts_of(tmp_path, {"go.mod": "module example.com/x\n\ngo 1.22\n", "main.go": "package main\n",
                                "Taskfile.yml": _ROOT, "website/Taskfile.yml": _WEBSITE,
                                "website/package.json": '{"scripts": {"dev": "vitepress dev"}}\n',
                                "CONTRIBUTING.md": guide})
    docs, where = facts.commands["docs"]
    assert docs == "task website" and where.startswith("CONTRIBUTING.md:")
