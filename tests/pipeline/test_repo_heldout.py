"""Rules found missing on a held-out set of repositories, each on a small generated repository.

Each case is a shape many projects share — a Rakefile whose ``RuboCop::RakeTask.new`` has no
name, a Maven build with the Spotless plugin, a README whose ``> [!NOTE]\\`` alert says the
project is in maintenance mode, a README stating the JDK it builds with, a csproj that treats
warnings as errors — built with real ``git`` and read back through the git source.
"""

from __future__ import annotations

from pathlib import Path

from bootstrap_app.ecosystems import RepoView
from bootstrap_app.ecosystems.jvm import Maven
from bootstrap_app.ecosystems.ruby import Ruby

from .gitrepo import facts_of

_RAKEFILE = """require 'rspec/core/rake_task'
require 'rubocop/rake_task'

RSpec::Core::RakeTask.new(:spec)
RuboCop::RakeTask.new

task :default => [:rubocop, :spec]
"""


def test_a_rake_task_class_with_no_name_defines_its_default_task() -> None:
    view = RepoView.of({"Rakefile": _RAKEFILE, "Gemfile": "source 'https://rubygems.org'\ngem 'rubocop'\n"})
    names = {t.name: t.where for t in Ruby().targets(view)}
    # the next line's `task :default` is not the name of the argument-less RuboCop task
    assert names == {"spec": "Rakefile:4", "rubocop": "Rakefile:5", "default": "Rakefile:7"}
    assert Ruby().prove(["bundle", "exec", "rake", "rubocop"], view) == "Rakefile:5"
    assert Ruby().prove(["bundle", "exec", "rake", "task"], view) == ""


def test_the_rubocop_rake_task_is_the_lint_command(tmp_path: Path) -> None:
    facts = facts_of(tmp_path, {"Rakefile": _RAKEFILE, "Gemfile": "source 'https://rubygems.org'\ngem 'rubocop'\n",
                                "lib/x.rb": "module X; end\n"})
    assert facts.commands["lint"][0] in ("bundle exec rake rubocop", "bundle exec rubocop")


_POM = """<project>
  <modelVersion>4.0.0</modelVersion>
  <build><plugins>
    <plugin>
      <groupId>com.diffplug.spotless</groupId>
      <artifactId>spotless-maven-plugin</artifactId>
    </plugin>
  </plugins></build>
</project>
"""


def test_a_maven_build_with_spotless_formats_with_its_goal() -> None:
    assert Maven().defaults(RepoView.of({"pom.xml": _POM}))["format"] == "mvn spotless:apply"
    assert "format" not in Maven().defaults(RepoView.of({"pom.xml": "<project></project>\n"}))


_README = """# Widget

Widget converts things.

> [!NOTE]\\
> Widget is currently in maintenance mode; existing bugs will be fixed.\\
> If you want to add a new feature, please first open an issue to discuss it.

## Usage

> Someone else's words: always deploy on Fridays.

## Contributing

Keep in mind that Widget is in maintenance mode.
"""


def test_with_no_guide_of_its_own_the_readme_alerts_and_contributing_section_are_the_rules(tmp_path: Path) -> None:
    facts = facts_of(tmp_path / "a", {"README.md": _README, "pom.xml": _POM})
    said = {r.text: r.where for r in facts.rules}
    assert said.get("If you want to add a new feature, please first open an issue to discuss it.") == "README.md:7"
    assert said.get("Keep in mind that Widget is in maintenance mode.") == "README.md:15"
    assert not any("\\" in t or "Fridays" in t for t in said)  # a hard break is no character; a quotation no rule
    # a repository with its own guide keeps the guide's rules: the README does not crowd them out
    guide = "# Contributing\n\nAlways rebase on `main` before opening a pull request.\n"
    facts = facts_of(tmp_path / "b", {"README.md": _README, "CONTRIBUTING.md": guide, "pom.xml": _POM})
    assert [r.where for r in facts.rules] == ["CONTRIBUTING.md:3"]


def test_a_readme_requirement_names_the_toolchain_it_builds_with(tmp_path: Path) -> None:
    readme = ("# Widget\n\nWidget converts things.\n\n## Building\n\n```\nmvn clean verify\n```\n\n"
              "JDK 17 or newer is required for building, JDK 21 is recommended.\n\n## Usage\n\n"
              "Java 11 is required to run the demo.\n")
    facts = facts_of(tmp_path, {"README.md": readme, "pom.xml": _POM})
    assert "JDK 17 or newer (README.md:11)" in facts.min_versions
    # a usage section is not about building the code, and the recommendation after the floor is no floor
    assert not any(v.startswith(("Java 11", "JDK 21")) for v in facts.min_versions)


_CSPROJ = """<Project Sdk="Microsoft.NET.Sdk">
  <PropertyGroup>
    <TargetFramework>netstandard2.0</TargetFramework>
    <Nullable>enable</Nullable>
    <TreatWarningsAsErrors>true</TreatWarningsAsErrors>
  </PropertyGroup>
  <ItemGroup>
    <PackageReference Include="MinVer" Version="5.0.0" PrivateAssets="all" />
  </ItemGroup>
</Project>
"""


def test_a_csproj_states_its_build_settings_and_tag_versioning(tmp_path: Path) -> None:
    facts = facts_of(tmp_path, {"src/App/App.csproj": _CSPROJ, "App.sln": "\n", "src/App/A.cs": "class A {}\n"})
    assert facts.settings == ("warnings as errors (src/App/App.csproj:5)",
                              "nullable reference types (src/App/App.csproj:4)",
                              "version from git tags (MinVer) (src/App/App.csproj:8)")
    off = _CSPROJ.replace("<TreatWarningsAsErrors>true", "<TreatWarningsAsErrors>false").replace("MinVer", "Serilog")
    facts = facts_of(tmp_path / "off", {"src/App/App.csproj": off, "App.sln": "\n"})
    assert facts.settings == ("nullable reference types (src/App/App.csproj:4)",)


_WORKFLOW = """name: build
on: [push]
jobs:
  build:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/setup-java@v4
        with:
          distribution: 'zulu'
          java-version: 11
      - uses: actions/setup-go@v5
        with:
          go-version: ${{ matrix.go }}
      - run: ./gradlew build dokkaHtml
"""


def test_a_gradle_build_states_its_kotlin_version_dokka_and_the_jdk_ci_pins(tmp_path: Path) -> None:
    build = ("buildscript {\n  ext.versions = [\n      'kotlin': '1.5.21',\n  ]\n  dependencies {\n"
             "    classpath 'org.jetbrains.dokka:dokka-gradle-plugin:1.4.32'\n  }\n}\n")
    facts = facts_of(tmp_path, {"build.gradle": build, "gradlew": "#!/bin/sh\n", ".github/workflows/build.yaml": _WORKFLOW})
    # the setup step pins Java 11 (line 10); a matrix placeholder pins no Go version
    assert facts.min_versions == ("Kotlin 1.5.21", "Java 11 (CI: .github/workflows/build.yaml:10)")
    assert "dokka" in facts.configured
    plugin = 'plugins {\n  id("org.jetbrains.kotlin.jvm") version "2.0.0"\n}\n'
    facts = facts_of(tmp_path / "kts", {"build.gradle.kts": plugin, "gradlew": "#!/bin/sh\n"})
    assert facts.min_versions == ("Kotlin 2.0.0",)
    # a version the build states is not repeated from CI
    pinned = 'java {\n  toolchain { languageVersion = JavaLanguageVersion.of(17) }\n}\n'
    facts = facts_of(tmp_path / "jdk", {"build.gradle.kts": pinned, ".github/workflows/b.yml": _WORKFLOW})
    assert facts.min_versions == ("JDK 17 (toolchain)",)


def test_a_tox_env_running_every_hook_is_the_lint_over_a_configured_linter(tmp_path: Path) -> None:
    tox = ("[tox]\nenv_list = pre-commit, py312\n\n[testenv]\ncommands = pytest\n\n"
           "[testenv:pre-commit]\nskip_install = true\ndeps = pre-commit\ncommands = pre-commit run --all-files\n")
    pyproject = '[project]\nname = "p"\nversion = "1"\n\n[tool.ruff]\nline-length = 100\n'
    hooks = "repos:\n  - repo: https://github.com/astral-sh/ruff-pre-commit\n    rev: v0.6.0\n    hooks:\n      - id: ruff\n"
    files = {"tox.ini": tox, "pyproject.toml": pyproject, ".pre-commit-config.yaml": hooks, "src/p/__init__.py": "\n"}
    facts = facts_of(tmp_path / "a", files)
    assert facts.commands["lint"] == ("tox -e pre-commit", "tox.ini")
    # a hook run on the staged files only is not the project's lint: the configured linter stays
    staged = tox.replace("pre-commit run --all-files", "pre-commit run")
    facts = facts_of(tmp_path / "b", {**files, "tox.ini": staged})
    assert facts.commands["lint"][1] == "tool config"
