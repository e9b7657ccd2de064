"""Gradle and Maven: the wrapper, tasks/phases/plugin goals, Spotless/Checkstyle/…, the Java level."""

from __future__ import annotations

import re

from .base import Ecosystem, RepoView, load_toml
from .buildscripts import gradle_tasks

__all__ = ["Gradle", "Maven"]

_GRADLE_PLUGINS = {"spotlessApply": "spotless", "spotlessCheck": "spotless", "checkstyleMain": "checkstyle",
                   "detekt": "detekt", "ktlintCheck": "ktlint", "ktlintFormat": "ktlint", "apiCheck": "binary-compatibility",
                   "dokkaHtml": "dokka", "jacocoTestReport": "jacoco", "spotbugsMain": "spotbugs"}
_SPOTLESS_STEPS = {"ktfmt": "ktfmt", "googleJavaFormat": "google-java-format", "palantirJavaFormat": "palantir-java-format",
                   "ktlint": "ktlint", "prettier": "prettier", "scalafmt": "scalafmt", "eclipse": "eclipse-formatter",
                   "clangFormat": "clang-format", "diktat": "diktat"}
"""Spotless's formatter steps (its Gradle DSL function -> the formatter it runs)."""
_GRADLE_BUILTIN = frozenset({"build", "test", "check", "assemble", "clean", "jar", "javadoc", "publishToMavenLocal",
                             "dependencies", "tasks", "compileJava", "compileKotlin", "", "--help"})
_JAVA_LEVEL = (re.compile(r"JavaLanguageVersion\.of\(\s*(\d+)\s*\)"), re.compile(r"jvmToolchain\(\s*(\d+)\s*\)"),
               re.compile(r"(?:source|target)Compatibility\s*=\s*JavaVersion\.VERSION_(\w+)"),
               re.compile(r"JvmTarget\.JVM_(\w+)"), re.compile(r"options\.release\.set\(\s*(\d+)\s*\)"))

_KOTLIN_VERSION = (re.compile(r"""id\(?\s*["']org\.jetbrains\.kotlin\.[\w.]+["']\s*\)?\s+version\s+["'](\d+\.\d+(?:\.\d+)?)["']"""),
                   re.compile(r"""kotlin\(\s*["'][\w.]+["']\s*\)\s+version\s+["'](\d+\.\d+(?:\.\d+)?)["']"""),
                   re.compile(r"""kotlin_version\s*=\s*["'](\d+\.\d+(?:\.\d+)?)["']"""),
                   re.compile(r"""["']kotlin["']\s*:\s*["'](\d+\.\d+(?:\.\d+)?)["']"""))
"""The Kotlin version a root build applies: the plugin's ``version``, ``ext.kotlin_version``, or the
``'kotlin': '1.5.21'`` entry of an ``ext.versions`` map (the version catalog's ``kotlin`` key is read apart)."""


class Gradle(Ecosystem):
    name = "gradle"
    label = "Gradle"
    languages = ("Java", "Kotlin", "Groovy", "Scala")
    detect = ("build.gradle", "build.gradle.kts", "settings.gradle", "settings.gradle.kts", "gradlew")
    reads = ("build.gradle*", "settings.gradle*", "gradle.properties", "gradle/libs.versions.toml", ".java-version",
             ".github/workflows/.java-version", "*/build.gradle*")
    package_manager = "gradle"
    wrapper = "./gradlew"
    programs = frozenset({"./gradlew", "gradle", "gradlew", "gradlew.bat"})
    tools = {"spotless": "format", "checkstyle": "lint", "detekt": "lint", "ktlint": "lint", "spotbugs": "lint",
             "dokka": "docs"}
    manifests = ("build.gradle*", "*/build.gradle*", "gradle/libs.versions.toml", "settings.gradle*")

    def prove(self, argv: list[str], view: RepoView) -> str:
        if not argv or argv[0] not in self.programs:
            return ""
        wrapper = argv[0] != "gradle"
        base = view.cite("gradlew") if wrapper else self.cite_manifest(view)
        if not base:
            return ""
        for task in (a for a in argv[1:] if not a.startswith("-")):
            short = task.rsplit(":", 1)[-1]
            plugin = _GRADLE_PLUGINS.get(short)
            if plugin and not self.declares(plugin, view):
                return ""
            if not plugin and short not in _GRADLE_BUILTIN and not self._declares_task(short, view):
                return ""
        return base

    def _declares_task(self, task: str, view: RepoView) -> bool:
        """A build script registers ``task``, read by the Kotlin or Groovy grammar (:func:`syntax.gradle_tasks`)."""
        return any(name == task for pattern in ("build.gradle*", "*/build.gradle*") for p in view.matching(pattern)
                   for name, _line in gradle_tasks(view.files.get(p, ""), kotlin=p.endswith(".kts")))

    def versions(self, view: RepoView) -> tuple[str, ...]:
        """The JDK toolchain and the Java release the root build states (a version catalog entry resolved)."""
        text = "\n".join(view.files.get(p, "") for p in ("build.gradle.kts", "build.gradle"))
        catalog = load_toml(view.files.get("gradle/libs.versions.toml", "")).get("versions", {})
        toolchain = _JAVA_LEVEL[0].search(text) or _JAVA_LEVEL[1].search(text)
        level = toolchain.group(1) if toolchain else ""
        if not level and (m := re.search(r"libs\.versions\.([\w.]+?)\.(?:map|get)\(\s*JavaLanguageVersion", text)):
            value = catalog.get(m.group(1)) if isinstance(catalog, dict) else None
            level = value if isinstance(value, str) and value.isdigit() else ""
        out = [f"JDK {level} (toolchain)"] if level else []
        release = _JAVA_LEVEL[4].search(text) or _JAVA_LEVEL[2].search(text)
        if release:
            out.append(f"Java {release.group(1).replace('_', '.').removeprefix('1.')} (release)")
        kotlin = catalog.get("kotlin") if isinstance(catalog, dict) else None
        found = next((m.group(1) for rx in _KOTLIN_VERSION if (m := rx.search(text))), "")
        if found or (isinstance(kotlin, str) and re.fullmatch(r"\d+\.\d+(?:\.\d+)?", kotlin)):
            out.append(f"Kotlin {found or kotlin}")
        return tuple(out)

    def configured(self, view: RepoView) -> tuple[str, ...]:
        out = [t for t in ("spotless", "checkstyle", "detekt", "ktlint", "spotbugs", "dokka") if self.declares(t, view)]
        if "spotless" in out:  # Spotless runs the formatters its steps name: `ktfmt(…)`, `googleJavaFormat(…)`
            text = "\n".join(view.files.get(p, "") for pattern in self.manifests[:2] for p in view.matching(pattern))
            out += [tool for step, tool in _SPOTLESS_STEPS.items() if re.search(rf"\b{step}\s*\(", text)]
        return tuple(dict.fromkeys(out))

    def defaults(self, view: RepoView) -> dict[str, str]:
        run = "./gradlew" if view.has("gradlew") else "gradle"
        out = {"build": f"{run} build", "test": f"{run} test", "lint": f"{run} check"}
        if self.declares("spotless", view):
            out["format"] = f"{run} spotlessApply"
        return out


_MVN_PHASES = frozenset({"", "clean", "validate", "compile", "test", "package", "verify", "install", "site",
                         "test-compile", "integration-test", "deploy"})


class Maven(Ecosystem):
    name = "maven"
    label = "Maven"
    languages = ("Java", "Kotlin")
    detect = ("pom.xml",)
    reads = ("pom.xml", ".mvn/maven.config", "mvnw")
    package_manager = "maven"
    describes = (("pom.xml", "description"),)
    wrapper = "./mvnw"
    programs = frozenset({"mvn", "./mvnw", "mvnw"})
    tools = {"checkstyle": "lint", "spotbugs": "lint", "pmd": "lint", "spotless": "format", "japicmp": "lint",
             "apache-rat": "lint", "jacoco": "test", "javadoc": "build"}
    manifests = ("pom.xml",)

    def prove(self, argv: list[str], view: RepoView) -> str:
        if not argv or argv[0] not in self.programs:
            return ""
        if argv[0] != "mvn" and not view.has("mvnw"):
            return ""
        for goal in (a for a in argv[1:] if not a.startswith("-")):
            if ":" in goal:
                plugin = goal.split(":")[0]
                if plugin != "javadoc" and not self.declares(f"{plugin}-maven-plugin", view) \
                        and not self.declares(f"maven-{plugin}-plugin", view) and not self.declares(plugin, view):
                    return ""
            elif goal not in _MVN_PHASES:
                return ""
        if len(argv) == 1 and (where := view.cite("pom.xml", r"<defaultGoal>")):
            return where
        return view.cite("pom.xml")

    def versions(self, view: RepoView) -> tuple[str, ...]:
        pom = view.files.get("pom.xml", "")
        for tag in ("maven.compiler.release", "maven.compiler.source", "java.version", "maven.compiler.target"):
            if m := re.search(rf"<{re.escape(tag)}>\s*([\d.]{{1,6}})\s*<", pom):
                return (f"Java {m.group(1)}",)
        return ()

    def configured(self, view: RepoView) -> tuple[str, ...]:
        return tuple(t for t in ("checkstyle", "spotbugs", "pmd", "spotless", "japicmp", "apache-rat", "jacoco")
                     if self.declares(f"{t}-maven-plugin", view) or self.declares(f"maven-{t}-plugin", view))

    def defaults(self, view: RepoView) -> dict[str, str]:
        run = "./mvnw" if view.has("mvnw") else "mvn"
        out = {"test": f"{run} test", "build": f"{run} verify"}
        if self.declares("spotless-maven-plugin", view):  # the plugin's own goal rewrites the sources
            out["format"] = f"{run} spotless:apply"
        return out
