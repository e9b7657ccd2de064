""".NET with Cake, Swift's commit template and format check, a Gradle project's linked commit convention.

Each a generated repository (real ``git``, read back through the git source) of a shape many
projects share; every expectation is what the repository's own files state.
"""

from __future__ import annotations

from pathlib import Path

from .gitrepo import facts_of

_CAKE = """#addin nuget:?package=Cake.Git&version=4.0.0
var target = Argument("target", "Default");

// Task("Publish") runs in the release workflow only
Task("Clean").Does(() => CleanDirectories("./artifacts"));

Task("Build")
    .Description("Compile the solution")
    .IsDependentOn("Clean")
    .Does(() => DotNetBuild("./Acme.sln"));

Task("Test").IsDependentOn("Build").Does(() => DotNetTest("./Acme.sln"));

Task("Default").IsDependentOn("Test");

RunTarget(target);
"""
_DOTNET = {
    "Acme.sln": "Microsoft Visual Studio Solution File, Format Version 12.00\n",
    "src/Acme/Acme.csproj": '<Project Sdk="Microsoft.NET.Sdk">\n  <PropertyGroup>\n    <TargetFramework>net8.0</TargetFramework>\n'
                            '  </PropertyGroup>\n  <ItemGroup>\n    <PackageReference Include="Serilog" />\n  </ItemGroup>\n</Project>\n',
    "Directory.Packages.props": "<Project>\n  <PropertyGroup>\n    <ManagePackageVersionsCentrally>true</ManagePackageVersionsCentrally>\n"
                                '  </PropertyGroup>\n  <ItemGroup>\n    <PackageVersion Include="Serilog" Version="4.0.0" />\n'
                                "  </ItemGroup>\n</Project>\n",
    "build.cake": _CAKE,
    "src/Acme/Thing.cs": "namespace Acme; public class Thing { }\n",
}


def test_a_cake_build_runs_through_its_bootstrapper(tmp_path: Path) -> None:
    facts = facts_of(tmp_path, {**_DOTNET, "build.sh": "#!/bin/sh\ndotnet tool restore\ndotnet cake \"$@\"\n"})
    assert facts.commands["build"] == ("./build.sh --target=Build", "build.cake")
    assert facts.commands["test"] == ("./build.sh --target=Test", "build.cake")
    assert any(s.startswith("central package management") and "Directory.Packages.props:3" in s for s in facts.settings)


def test_a_cake_tool_from_the_tool_manifest_is_restored_first(tmp_path: Path) -> None:
    manifest = '{"version": 1, "isRoot": true, "tools": {"cake.tool": {"version": "4.0.0", "commands": ["dotnet-cake"]}}}\n'
    facts = facts_of(tmp_path, {**_DOTNET, ".config/dotnet-tools.json": manifest})
    assert facts.commands["build"][0] == "dotnet tool restore && dotnet cake --target=Build"
    # without a bootstrapper or the tool in the manifest nothing the setup installs runs Cake
    facts = facts_of(tmp_path / "bare", _DOTNET)
    assert "cake" not in facts.commands["build"][0]


_SWIFT = {
    "Package.swift": '// swift-tools-version:5.9\nimport PackageDescription\nlet package = Package(name: "Kit", targets: [.target(name: "Kit")])\n',
    "Sources/Kit/Kit.swift": "public struct Kit {}\n",
    ".swift-format": '{"version": 1}\n',
    ".git-commit-template": "# Subject: imperative, at most 50 characters\n",
    "CONTRIBUTING.md": "# Contributing\n\n## Commit messages\n\nSet up the commit message template once:\n\n"
                       "```\ngit config commit.template .git-commit-template\n```\n",
}


def test_the_commit_template_the_guide_sets_up_is_a_rule(tmp_path: Path) -> None:
    from bootstrap_app.extract.heuristic import heuristic_proposals
    from bootstrap_app.identity.resolve import IdentityCollector
    from bootstrap_app.signals import SignalBuilder

    from .gitrepo import build, read

    facts = facts_of(tmp_path / "a", _SWIFT)
    assert facts.commit_template == (".git-commit-template", "CONTRIBUTING.md:8")
    assert [r.ref for r in facts.cites["commit-template"]] == ["CONTRIBUTING.md:8"]
    snapshot, _ = read(build(tmp_path / "b", dict(_SWIFT)))  # type: ignore[arg-type]
    builder = SignalBuilder(known_owners=("dana@example.org",))
    collector = IdentityCollector(explicit=("dana@example.org",))
    collector.observe(snapshot)
    builder.observe(snapshot)
    proposals = {p.name: p for p in heuristic_proposals(builder.build(collector.resolve()))}
    rule = next(p for name, p in proposals.items() if name.endswith("-commit-template"))
    assert "git config commit.template .git-commit-template" in rule.body
    # a template the tree does not hold is no rule: the command would fail
    missing = {k: v for k, v in _SWIFT.items() if k != ".git-commit-template"}
    assert facts_of(tmp_path / "c", missing).commit_template == ("", "")


def test_a_guide_linking_the_conventional_commits_spec_names_the_convention(tmp_path: Path) -> None:
    guide = ("# Contributing\n\nWe build with `./gradlew build`.\n\nCommit messages follow the "
             "[Conventional Commits](https://www.conventionalcommits.org/en/v1.0.0/) specification.\n")
    facts = facts_of(tmp_path, {"settings.gradle": "rootProject.name = 'x'\n", "build.gradle": "plugins { id 'java' }\n",
                                "gradlew": "#!/bin/sh\n", "CONTRIBUTING.md": guide,
                                "src/main/java/X.java": "class X {}\n"})
    assert facts.commit_convention == "stated in CONTRIBUTING.md:5"  # the guide's words, with the link
    assert [r.ref for r in facts.cites["commit-convention"]] == ["CONTRIBUTING.md:5"]
    bare = "# Contributing\n\nCommit messages: see the [spec](https://www.conventionalcommits.org/en/v1.0.0/).\n"
    linked = facts_of(tmp_path / "bare", {"settings.gradle": "rootProject.name = 'x'\n", "CONTRIBUTING.md": bare,
                                          "build.gradle": "plugins { id 'java' }\n", "gradlew": "#!/bin/sh\n"})
    assert linked.commit_convention == "linked from CONTRIBUTING.md:3"
