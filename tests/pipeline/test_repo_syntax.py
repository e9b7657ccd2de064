"""Task files read through their language's grammar: shapes a pattern over the text misread.

Each case is a generated repository (real ``git``, read back through the git source) or the
ecosystem module on the file itself; every expectation is a task name, a dependency or a
command the syntax decides.
"""

from __future__ import annotations

from pathlib import Path

from bootstrap_app.ecosystems import RepoView
from bootstrap_app.ecosystems.jvm import Gradle
from bootstrap_app.ecosystems.native import CMake
from bootstrap_app.ecosystems.ruby import Ruby
from bootstrap_app.ecosystems.runners import Make
from bootstrap_app.ecosystems.syntax import make_rules, rake_tasks

from .gitrepo import facts_of

_RAKEFILE = """require "rspec/core/rake_task"
RSpec::Core::RakeTask.new(:spec)

desc "Build the gem and its docs"
task dist: %w[clean doc]

task doc: :yard
task :default => [:spec]

namespace :release do
  desc "Tag the release"
  task :tag, [:version] => :dist do
    sh "git tag"
  end
end
"""


def test_ruby_keyword_syntax_names_the_task_without_its_colon() -> None:
    tasks = {t.name: t for t in rake_tasks(_RAKEFILE)}
    assert set(tasks) == {"spec", "dist", "doc", "default", "release:tag"}
    assert tasks["dist"].deps == ("clean", "doc") and tasks["dist"].desc == "Build the gem and its docs"
    assert tasks["release:tag"].deps == ("dist",) and tasks["release:tag"].line == 12
    view = RepoView.of({"Rakefile": _RAKEFILE, "Gemfile": "gem 'rake'\n"})
    commands = {t.command for t in Ruby().targets(view)}
    assert "bundle exec rake dist" in commands and "bundle exec rake doc" in commands
    assert not any(c.endswith(":") for c in commands)
    assert Ruby().prove(["bundle", "exec", "rake", "dist"], view) == "Rakefile:5"
    assert Ruby().prove(["bundle", "exec", "rake", "dist:"], view) == ""


def test_a_rake_default_task_runs_what_its_dependencies_run(tmp_path: Path) -> None:
    facts = facts_of(tmp_path, {"Rakefile": _RAKEFILE, "Gemfile": "source 'https://rubygems.org'\ngem 'rspec'\n",
                                "lib/x.rb": "module X; end\n"})
    assert facts.commands["test"][0] in ("bundle exec rake", "bundle exec rake spec")
    assert not any(cmd.endswith(":") for cmd, _where in facts.commands.values())


_MAKEFILE = """GO ?= go
.PHONY: test lint
test: build ## run the tests
\t$(GO) test ./... \\
\t  -race
ifeq ($(CI),)
vet lint: ## style
\tgolangci-lint run
endif
typing:
ifeq ($(STRICT),1)
\tmypy --strict .
endif
%.o: %.c
\tcc -c $<
"""


def test_make_rules_inside_conditionals_and_continued_recipes() -> None:
    rules = {r.targets: r for r in make_rules(_MAKEFILE)}
    assert rules[("test",)].recipe == "$(GO) test ./... -race" and rules[("test",)].desc == "run the tests"
    assert rules[("vet", "lint")].line == 7 and rules[("vet", "lint")].desc == "style"
    assert rules[("typing",)].recipe == "mypy --strict ."
    assert not any("%" in t for r in rules for t in r)
    view = RepoView.of({"Makefile": _MAKEFILE})
    assert Make().prove(["make", "lint"], view) == "Makefile:7"
    assert Make().prove(["make", "%.o"], view) == ""


def test_every_target_of_a_rule_and_a_recipe_under_a_conditional_are_read(tmp_path: Path) -> None:
    facts = facts_of(tmp_path, {"Makefile": _MAKEFILE, "go.mod": "module example.org/x\n\ngo 1.22\n",
                                "x.go": "package x\n"})
    assert facts.commands["lint"][0] == "make lint"  # the second target of `vet lint:`
    assert facts.commands["test"][0] == "make test"
    assert facts.commands["typecheck"][0] == "make typing"  # its recipe runs mypy, under an `ifeq`


_OPTIONAL_LINT = """source "https://rubygems.org"
gemspec

group :lint, optional: true do
  gem "rubocop", require: false
end
"""
_GEMSPEC = 'Gem::Specification.new do |spec|\n  spec.name = "x"\n  spec.add_development_dependency "rspec"\nend\n'


def test_a_linter_in_an_optional_gemfile_group_is_no_default_lint(tmp_path: Path) -> None:
    files: dict[str, str | bytes] = {"Gemfile": _OPTIONAL_LINT, "x.gemspec": _GEMSPEC, ".rubocop.yml": "AllCops:\n  NewCops: enable\n",
                                     "lib/x.rb": "module X; end\n"}
    facts = facts_of(tmp_path / "optional", files)
    assert "lint" not in facts.commands  # `bundle install` leaves the optional group out; no CI job runs it
    ci = "on: [push]\njobs:\n  lint:\n    runs-on: ubuntu-latest\n    steps:\n      - run: bundle exec rubocop\n"
    facts = facts_of(tmp_path / "ci", {**files, ".github/workflows/lint.yml": ci})
    assert facts.commands["lint"][0] == "bundle exec rubocop"
    plain = _OPTIONAL_LINT.replace("group :lint, optional: true do", "group :development do")
    facts = facts_of(tmp_path / "plain", {**files, "Gemfile": plain})
    assert facts.commands["lint"][0] == "bundle exec rubocop"


def test_gradle_tasks_come_from_the_build_scripts_syntax() -> None:
    kts = ('// tasks.register("publishDocs") is done by CI\n'
           'val preparePR by tasks.registering { dependsOn("check") }\n'
           'tasks.register<Exec>("lintDocs") { commandLine("vale", "docs") }\n')
    groovy = "// task publishDocs\ntask preparePR(type: Exec) { dependsOn 'check' }\ntasks.register('lintDocs') { }\n"
    for path, text in (("build.gradle.kts", kts), ("build.gradle", groovy)):
        view = RepoView.of({path: text, "gradlew": "#!/bin/sh\n", "settings.gradle": "rootProject.name = 'x'\n"})
        assert Gradle().prove(["./gradlew", "preparePR"], view) == "gradlew:1", path
        assert Gradle().prove(["./gradlew", "lintDocs"], view) == "gradlew:1", path
        assert Gradle().prove(["./gradlew", "publishDocs"], view) == "", path  # only a comment names it


def test_cmake_targets_come_from_commands_not_comments() -> None:
    lists = ("cmake_minimum_required(VERSION 3.16)\nproject(x C)\n# add_custom_target(docs COMMAND doxygen)\n"
             "if(BUILD_LINT)\n  ADD_CUSTOM_TARGET(lint COMMAND clang-tidy)\nendif()\nadd_subdirectory(tests)\n")
    view = RepoView.of({"CMakeLists.txt": lists, "tests/CMakeLists.txt": "enable_testing()\nadd_test(NAME t COMMAND t)\n"})
    assert CMake().prove(["make", "lint"], view) == "CMakeLists.txt:5"
    assert CMake().prove(["make", "docs"], view) == ""  # commented out
    assert CMake().prove(["ctest"], view) == "tests/CMakeLists.txt:1"
    assert CMake().defaults(view)["test"] == "ctest --test-dir build"


def test_a_scripts_own_first_argument_is_read_from_the_bash_syntax_tree() -> None:
    from bootstrap_app.signals.repo_tasks import declared_tasks

    # a comment that mentions $1 reads nothing; a `case "$1"` inside an if block is the script's own
    commented = "#!/bin/bash\nset -euo pipefail\n# usage: scripts/test.sh  (pass $1 to pick a suite)\npytest -q\n"
    nested = "#!/bin/bash\nset -u\nif true; then\n  case \"$1\" in\n    *) pytest ;;\n  esac\nfi\n"
    assert [t.command for t in declared_tasks({"scripts/test.sh": commented}, "npm", {})] == ["scripts/test.sh"]
    assert declared_tasks({"scripts/test.sh": nested}, "npm", {}) == []


_MIX = """defmodule Kit.MixProject do
  use Mix.Project

  def project, do: [app: :kit, version: "0.1.0", deps: deps(), aliases: aliases()]

  defp deps, do: [{:credo, "~> 1.7", only: [:dev, :test], runtime: false}]

  defp aliases do
    [
      setup: ["deps.get"],
      quality: [
        "format --check-formatted",
        "credo --strict"
      ]
    ]
  end
end
"""


def test_mix_aliases_come_whole_from_the_elixir_syntax_tree(tmp_path: Path) -> None:
    from bootstrap_app.ecosystems.elixir import Elixir

    view = RepoView.of({"mix.exs": _MIX})
    assert {t.name: t.where for t in Elixir().targets(view)} == {"setup": "mix.exs:10", "quality": "mix.exs:11"}
    short = RepoView.of({"mix.exs": 'defmodule K do\n  defp aliases, do: [lint: ["credo --strict"]]\nend\n'})
    assert Elixir().prove(["mix", "lint"], short) == "mix.exs:2"
    # the alias's list runs over several lines: `credo` on its third line makes it the lint command
    facts = facts_of(tmp_path, {"mix.exs": _MIX, "lib/kit.ex": "defmodule Kit do\nend\n"})
    assert facts.commands["lint"][0] == "mix quality"


def test_bare_make_is_proven_by_the_default_goal() -> None:
    mk = "build:\n\tcc -o x x.c\n\n.DEFAULT_GOAL := help\n\nhelp: ## list the targets\n\t@grep '##' Makefile\n"
    assert Make().prove(["make"], RepoView.of({"Makefile": mk})) == "Makefile:6"
    assert Make().prove(["make"], RepoView.of({"Makefile": ".PHONY: all\nall:\n\tcc x.c\n"})) == "Makefile:2"
    missing = RepoView.of({"Makefile": ".DEFAULT_GOAL := gone\nbuild:\n\tcc x.c\n"})
    assert Make().prove(["make"], missing) == ""  # the goal it names is no target
