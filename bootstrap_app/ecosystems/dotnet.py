""".NET: the dotnet CLI, ``global.json`` SDK, target frameworks, build scripts in the tree."""

from __future__ import annotations

import re

from .base import Ecosystem, RepoView, Target, load_json
from .buildscripts import cake_script

__all__ = ["DotNet"]


_SETTINGS = (("TreatWarningsAsErrors", "true", "warnings as errors"), ("Nullable", "enable", "nullable reference types"),
             ("LangVersion", r"[\w.]+", "C# {}"), ("ImplicitUsings", "enable", "implicit usings"),
             ("ManagePackageVersionsCentrally", "true", "central package management (versions in Directory.Packages.props)"))
"""(MSBuild property, the value that turns it on, how the entry says it)."""
_VERSIONING = (("MinVer", "version from git tags (MinVer)"), ("Nerdbank.GitVersioning", "version from git (Nerdbank.GitVersioning)"),
               ("GitVersion.MsBuild", "version from git tags (GitVersion)"))
"""Packages that compute the version from the repository's tags: a release is a tag, never an edited version field."""


class DotNet(Ecosystem):
    name = "dotnet"
    label = ".NET"
    languages = ("C#", "F#")
    detect = ("*.sln", "*.slnx", "*.csproj", "*.fsproj", "global.json", "Directory.Build.props", "build.cake")
    reads = ("global.json", "Directory.Build.props", "*.sln", "*.slnx", "src/*/*.csproj", "*.csproj",
             "build.ps1", "Build.ps1", "build.sh", "build.cmd", ".config/dotnet-tools.json", "build.cake",
             "Directory.Packages.props")
    package_manager = "dotnet"
    describes = (("*.csproj", "Description"), ("src/*/*.csproj", "Description"), ("*.fsproj", "Description"))
    programs = frozenset({"dotnet", "./build.sh", "./build.ps1", "./Build.ps1", "build.ps1", "Build.ps1", "pwsh"})
    builtins = {"dotnet": frozenset({"build", "test", "restore", "pack", "format", "run", "publish", "tool", "clean"})}
    tools = {"dotnet test": "test", "dotnet format": "format", "dotnet build": "build"}

    def cake(self, view: RepoView) -> str:
        """How this repository runs its ``build.cake``: its bootstrapper script when one runs Cake
        (``./build.sh``), else the Cake tool its tool manifest pins, behind the ``dotnet tool
        restore`` that installs it; ``""`` when nothing the proposed setup installs runs Cake."""
        if not view.has("build.cake"):
            return ""
        for script in ("build.sh", "build.ps1", "Build.ps1"):
            if view.has(script) and re.search(r"\bcake\b", view.files.get(script, ""), re.I):
                return f"./{script}"
        tools = load_json(view.files.get(".config/dotnet-tools.json", "")).get("tools")
        return "dotnet tool restore && dotnet cake" if isinstance(tools, dict) and "cake.tool" in tools else ""

    def targets(self, view: RepoView) -> list[Target]:
        """The tasks of ``build.cake`` (read by the C# grammar, :func:`syntax.cake_script`), run as
        ``RUNNER --target=NAME``; the script's default target is ``RUNNER`` alone."""
        runner = self.cake(view)
        if not runner:
            return []
        script = cake_script(view.files.get("build.cake", ""))
        bodies = {t.name: t.body for t in script.tasks}
        return [Target(t.name, runner if t.name == script.default else f"{runner} --target={t.name}",
                       "\n".join([t.body, *(bodies.get(d, "") for d in t.deps)]), f"build.cake:{t.line}")
                for t in script.tasks]

    def prove(self, argv: list[str], view: RepoView) -> str:
        if argv[:2] == ["dotnet", "cake"] and self.cake(view):
            named = [a.split("=", 1)[1] for a in argv[2:] if a.startswith("--target=")]
            tasks = {t.name: f"build.cake:{t.line}" for t in cake_script(view.files.get("build.cake", "")).tasks}
            return tasks.get(named[0], "") if named else view.cite("build.cake")
        if argv and argv[0] == "pwsh" and len(argv) > 1:
            argv = argv[1:]
        if argv and argv[0].lstrip("./").lower() in ("build.ps1", "build.sh", "build.cmd"):
            script = argv[0].removeprefix("./")
            return view.cite(script)  # exact case: CONTRIBUTING's build.ps1 is not the tree's Build.ps1 on Linux
        return super().prove(argv, view)

    def versions(self, view: RepoView) -> tuple[str, ...]:
        out = []
        sdk = load_json(view.files.get("global.json", "")).get("sdk")
        if isinstance(sdk, dict) and isinstance(sdk.get("version"), str):
            out.append(f".NET SDK {sdk['version'][:20]}")
        for path, text in sorted(view.files.items()):
            m = re.search(r"<TargetFrameworks?>([^<]{1,160})<", text) if path.endswith(("proj", ".props")) else None
            frameworks = [f.strip() for f in m.group(1).split(";") if f.strip() and "$" not in f] if m else []
            if frameworks:  # `$(TargetFrameworks);net8.0` appends to a property: the literal ones are the targets
                out.append("targets " + ", ".join(frameworks[:8]))
                break
        return tuple(out)

    def settings(self, view: RepoView) -> tuple[str, ...]:
        """MSBuild properties a project or ``Directory.Build.props`` sets for every build, and a
        tag-based versioning package (MinVer, Nerdbank.GitVersioning) its PackageReferences name."""
        out: list[str] = []
        for path, text in sorted(view.files.items(), key=lambda kv: (not kv[0].endswith(".props"), kv[0])):
            if not path.endswith(("proj", ".props")):
                continue
            for prop, value, said in _SETTINGS:
                if (where := view.cite(path, rf"<{prop}>\s*{value}\s*</{prop}>", re.M | re.I)) \
                        and not any(o.startswith(said.split(" {")[0]) for o in out):
                    got = re.search(rf"<{prop}>\s*([^<]{{1,20}}?)\s*<", text)
                    out.append(f"{said.format(got.group(1) if got else '')} ({where})")
            for package, said in _VERSIONING:
                if where := view.cite(path, rf'<PackageReference\s+Include="{re.escape(package)}"', re.M | re.I):
                    out.append(f"{said} ({where})")
        return tuple(dict.fromkeys(out))

    def defaults(self, view: RepoView) -> dict[str, str]:
        script = next((s for s in ("build.sh", "build.ps1", "Build.ps1") if view.has(s)), "")
        out = {"setup": "dotnet restore", "build": "dotnet build", "test": "dotnet test"}
        if script or self.cake(view):
            out["build"] = self.cake(view) or f"./{script}"
        return out
