"""Bazel CI's presubmit file: the targets a Bazel project's CI builds and tests are its commands.

Generated repositories (real ``git``, read back through the git source) with a
``.bazelci/presubmit.yml`` in the format of Bazel's CI: each task lists ``test_targets`` (a list,
or a YAML set through an anchor). The first task that lists them gives ``bazel test`` with them.
"""

from __future__ import annotations

from pathlib import Path

from .gitrepo import facts_of

_PRESUBMIT = """---
.targets: &targets
  ? "--"
  ? "//..."
  ? "-//docs/..."

tasks:
  docs_only:
    platform: ubuntu2204
    build_targets: ["//docs/..."]
  ubuntu:
    platform: ubuntu2204
    test_targets:
      <<: *targets
  macos:
    platform: macos
    test_targets: ["//lib/..."]
"""


def test_the_presubmit_test_targets_give_the_test_command(tmp_path: Path) -> None:
    facts = facts_of(tmp_path, {"MODULE.bazel": 'module(name = "lib", version = "1.0")\n', "BUILD": "",
                                "lib/BUILD": "", "lib/defs.bzl": "def f():\n    pass\n",
                                ".bazelci/presubmit.yml": _PRESUBMIT})
    test, where = facts.commands["test"]
    assert test == "bazel test -- //... -//docs/..." and where.startswith(".bazelci/presubmit.yml")


def test_a_target_that_is_not_a_label_gives_no_command(tmp_path: Path) -> None:
    bad = _PRESUBMIT.replace('? "-//docs/..."', '? "$(rm -rf ~)"')
    facts = facts_of(tmp_path, {"MODULE.bazel": 'module(name = "lib", version = "1.0")\n', "BUILD": "",
                                ".bazelci/presubmit.yml": bad.replace('["//lib/..."]', '["; rm"]')})
    assert "rm" not in facts.commands.get("test", ("",))[0]
