"""Scala (sbt, with its command aliases and scalafmt/scalafix) and Clojure (Leiningen, deps.edn)."""

from __future__ import annotations

import re

from .base import Ecosystem, RepoView, Target

__all__ = ["Clojure", "Scala"]

_SBT_BUILTIN = frozenset({"compile", "test", "clean", "package", "publishLocal", "doc", "console", "run", "+test",
                          "Test/compile", "testOnly", "update"})
_SBT_PLUGIN_TASKS = {"scalafmtCheckAll": "sbt-scalafmt", "scalafmtAll": "sbt-scalafmt", "scalafmtCheck": "sbt-scalafmt",
                     "scalafmtSbtCheck": "sbt-scalafmt", "scalafixAll": "sbt-scalafix", "mimaReportBinaryIssues": "sbt-mima",
                     "scalafmt": "sbt-scalafmt", "scalafix": "sbt-scalafix", "scalafixCheckAll": "sbt-scalafix"}

_PLATFORM_PLUGINS = {"sbt-scalajs": "Scala.js", "sbt-scala-native": "Scala Native"}
"""sbt plugins that compile the code to another platform than the JVM (a cross-platform library)."""


class Scala(Ecosystem):
    name = "scala"
    label = "Scala"
    languages = ("Scala",)
    detect = ("build.sbt",)
    reads = ("build.sbt", "project/build.properties", "project/plugins.sbt", ".scalafmt.conf", ".scalafix.conf")
    package_manager = "sbt"
    programs = frozenset({"sbt", "./sbt", "scalafmt", "./bin/scalafmt"})
    tools = {"scalafmt": "format", "scalafix": "lint", "sbt test": "test"}
    manifests = ("project/plugins.sbt", "build.sbt")

    def targets(self, view: RepoView) -> list[Target]:
        text = view.files.get("build.sbt", "")
        return [Target(m.group(1), f"sbt {m.group(1)}", m.group(0), f"build.sbt:{text.count(chr(10), 0, m.start()) + 1}")
                for m in re.finditer(r'addCommandAlias\(\s*"([\w-]+)"\s*,', text)]

    def prove(self, argv: list[str], view: RepoView) -> str:
        if argv and argv[0].endswith("scalafmt"):
            return view.cite(argv[0].removeprefix("./")) if "/" in argv[0] else view.cite(".scalafmt.conf")
        if not argv or argv[0] not in ("sbt", "./sbt") or not view.has("build.sbt"):
            return ""
        aliases = {t.name: t.where for t in self.targets(view)}
        where = view.cite("build.sbt")
        for task in (a for a in argv[1:] if not a.startswith("-")):
            base = task.split("/")[-1].lstrip("+").split()[0] if task else ""
            if task in aliases or base in aliases:
                where = aliases.get(task) or aliases[base]
            elif base in _SBT_PLUGIN_TASKS:
                if not self.declares(_SBT_PLUGIN_TASKS[base], view):
                    return ""
            elif base not in _SBT_BUILTIN:
                return ""
        return where

    def versions(self, view: RepoView) -> tuple[str, ...]:
        out = []
        if m := re.search(r"^sbt\.version\s*=\s*(\S{1,20})", view.files.get("project/build.properties", ""), re.M):
            out.append(f"sbt {m.group(1)}")
        text = view.files.get("build.sbt", "")
        scalas = [m.group(1) for m in re.finditer(r'scalaVersion\s*:=\s*"(\d+\.\d+[\d.]*)"', text)]
        # a cross-built library names each Scala it builds for: `val scala213 = "2.13.18"`, or
        # literals in `crossScalaVersions := Seq("2.13.18", "3.3.8")`
        # (`scala213`, `scala3Next`, `scalaVersion`: not `scalafmtVersion` or `scalaJSVersion`, other tools)
        scalas += [m.group(1) for m in re.finditer(r'^\s*(?:lazy\s+)?(?:val|def)\s+scala(?:\d\w*|Version)\s*'
                                                   r'(?::\s*String\s*)?=\s*"((?:2\.1\d|3)\.\d+[\d.]*)"', text, re.M)]
        for m in re.finditer(r"crossScalaVersions\s*:=\s*(?:Seq|List)\(([^)]*)\)", text):
            scalas += re.findall(r'"((?:2\.1\d|3)\.\d+[\d.]*)"', m.group(1))
        if scalas:
            out.append("Scala " + ", ".join(dict.fromkeys(scalas[:6])))
        plugins = view.files.get("project/plugins.sbt", "")
        for plugin, platform in _PLATFORM_PLUGINS.items():  # the platforms it compiles to beside the JVM
            if m := re.search(rf'"{re.escape(plugin)}"\s*%\s*"([\w.-]{{1,20}})"', plugins):
                out.append(f"{platform} {m.group(1)}")
        return tuple(out)

    def configured(self, view: RepoView) -> tuple[str, ...]:
        return tuple(t for t, f in (("scalafmt", ".scalafmt.conf"), ("scalafix", ".scalafix.conf")) if view.has(f))

    def defaults(self, view: RepoView) -> dict[str, str]:
        out = {"test": "sbt test", "build": "sbt compile"}
        if view.has(".scalafmt.conf") and self.declares("sbt-scalafmt", view):
            out["format"] = "sbt scalafmtAll"
        return out


class Clojure(Ecosystem):
    name = "clojure"
    label = "Clojure"
    languages = ("Clojure",)
    detect = ("project.clj", "deps.edn")
    reads = ("project.clj", "deps.edn", "bb.edn")
    package_manager = "lein"
    programs = frozenset({"lein", "clojure", "clj"})
    builtins = {"lein": frozenset({"test", "check", "uberjar", "jar", "deps", "install"})}
    tools = {"lein test": "test"}

    def prove(self, argv: list[str], view: RepoView) -> str:
        if argv and argv[0] in ("clojure", "clj") and len(argv) > 1 and re.fullmatch(r"-[XMTA]:[\w.-]+", argv[1]):
            return view.cite("deps.edn", rf":{re.escape(argv[1][3:])}\b")
        if argv and argv[0] == "lein":
            return view.cite("project.clj") if len(argv) > 1 and argv[1] in self.builtins["lein"] else ""
        return ""

    def defaults(self, view: RepoView) -> dict[str, str]:
        return {"test": "lein test"} if view.has("project.clj") else {}
