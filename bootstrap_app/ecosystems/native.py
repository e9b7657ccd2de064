"""C and C++: CMake (with ctest and presets), Meson, autotools (``./configure && make check``)."""

from __future__ import annotations

import re

from .base import Ecosystem, RepoView, load_json
from .buildscripts import cmake_commands

__all__ = ["Autotools", "CMake", "Meson"]


class CMake(Ecosystem):
    name = "cmake"
    label = "CMake"
    languages = ("C", "C++")
    detect = ("CMakeLists.txt",)
    reads = ("CMakeLists.txt", "CMakePresets.json", "CMakeUserPresets.json", ".clang-format", ".clang-tidy",
             ".cmake-format*", "*/CMakeLists.txt")
    package_manager = "cmake"
    programs = frozenset({"cmake", "ctest", "cpack", "make", "ninja"})
    tools = {"ctest": "test", "clang-format": "format", "clang-tidy": "lint", "cmake-format": "format", "cmake": "build"}

    def presets(self, view: RepoView) -> dict[str, str]:
        data = load_json(view.files.get("CMakePresets.json", ""))
        out: dict[str, str] = {}
        for key in ("configurePresets", "buildPresets", "testPresets"):
            for p in data.get(key, []) if isinstance(data.get(key), list) else []:
                name = p.get("name") if isinstance(p, dict) else None
                if isinstance(name, str):
                    out.setdefault(name, view.cite("CMakePresets.json", rf'"name"\s*:\s*"{re.escape(name)}"'))
        return out

    def _generated(self, target: str, view: RepoView) -> str:
        """Where a target of the build files CMake generates is defined (``make test``, ``make doc``)."""
        lists = [p for p in sorted(view.files) if p == "CMakeLists.txt" or p.endswith("/CMakeLists.txt")]
        if target in ("", "all", "install", "clean"):
            return view.cite("CMakeLists.txt")
        for p in lists:
            for c in cmake_commands(view.files.get(p, "")):
                if (c.name in ("enable_testing", "add_test") if target == "test"
                        else c.name == "add_custom_target" and c.args[:1] == (target,)):
                    return f"{p}:{c.line}"
        return ""

    def prove(self, argv: list[str], view: RepoView) -> str:
        if not argv or argv[0] not in self.programs or not view.has("CMakeLists.txt"):
            return ""
        if argv[0] in ("make", "ninja"):  # in the build folder CMake generated (`cd build && make test`)
            names = [a for a in argv[1:] if not a.startswith("-") and "=" not in a]
            wheres = [self._generated(n, view) for n in names or [""]]
            return wheres[0] if all(wheres) else ""
        if "--preset" in argv:
            i = argv.index("--preset")
            return self.presets(view).get(argv[i + 1], "") if i + 1 < len(argv) else ""
        preset = next((a.split("=", 1)[1] for a in argv if a.startswith("--preset=")), None)
        if preset is not None:
            return self.presets(view).get(preset, "")
        return self._generated("test", view) if argv[0] == "ctest" else view.cite("CMakeLists.txt")

    def versions(self, view: RepoView) -> tuple[str, ...]:
        text = view.files.get("CMakeLists.txt", "")
        out = []
        if m := re.search(r"cmake_minimum_required\s*\(\s*VERSION\s+([\d.]+(?:\.\.\.[\d.]+)?)", text, re.I):
            out.append(f"CMake {m.group(1)}")
        if m := re.search(r"CMAKE_CXX_STANDARD\s+(\d+)", text) or re.search(r"\bcxx_std_(\d+)", text):
            out.append(f"C++{m.group(1)}")
        elif m := re.search(r"CMAKE_C_STANDARD\s+(\d+)", text):
            out.append(f"C{m.group(1)}")
        return tuple(out)

    def configured(self, view: RepoView) -> tuple[str, ...]:
        return tuple(t for t, f in (("clang-format", ".clang-format"), ("clang-tidy", ".clang-tidy"),
                                    ("cmake-format", ".cmake-format*")) if view.has(f))

    def defaults(self, view: RepoView) -> dict[str, str]:
        out = {"build": "cmake -B build && cmake --build build"}
        if self._generated("test", view):
            out["test"] = "ctest --test-dir build"
        return out


class Meson(Ecosystem):
    name = "meson"
    label = "Meson"
    languages = ("C", "C++")
    detect = ("meson.build",)
    reads = ("meson.build", "meson_options.txt", "meson.options")
    package_manager = "meson"
    programs = frozenset({"meson", "ninja"})
    builtins = {"meson": frozenset({"setup", "compile", "test", "configure", "dist"}),
                "ninja": frozenset({"", "-C", "test"})}
    """``meson install`` / ``ninja install`` copy the build into the system prefix, like ``make install``."""
    tools = {"meson test": "test", "ninja": "build"}

    def defaults(self, view: RepoView) -> dict[str, str]:
        return {"build": "meson setup build && meson compile -C build", "test": "meson test -C build"}


_AUTOMAKE_TARGETS = frozenset({"", "all", "check", "distcheck", "install", "clean", "dist", "uninstall"})
_AUTOMAKE_TESTS = re.compile(r"^\s*(?:TESTS|(?:\w+_)?check_(?:PROGRAMS|SCRIPTS|LTLIBRARIES))\s*\+?=\s*\S|^check-local\s*:",
                             re.M)
"""What gives automake's ``check`` target something to run: without a ``TESTS`` list, a
``check_PROGRAMS`` / ``check_SCRIPTS`` or a ``check-local`` rule, ``make check`` only rebuilds."""


_BOOTSTRAP_SCRIPTS = ("autogen.sh", "bootstrap", "bootstrap.sh", "autogen")
"""The scripts autotools projects keep to generate ``configure`` (they run ``autoreconf`` and friends)."""


class Autotools(Ecosystem):
    name = "autotools"
    label = "autotools"
    languages = ("C", "C++")
    detect = ("configure.ac", "configure.in", "Makefile.am")
    reads = ("configure.ac", "configure.in", "Makefile.am", "*/Makefile.am", "autogen.sh", "bootstrap")
    package_manager = "autotools"
    programs = frozenset({"./configure", "./autogen.sh", "autoreconf", "./bootstrap", "make"})

    def prove(self, argv: list[str], view: RepoView) -> str:
        if not argv or not self.detected(view):
            return ""
        first = argv[0]
        if first in ("./autogen.sh", "./bootstrap", "./configure"):
            script = first[2:]
            return view.cite(script) or (view.cite(self.manifest(view)) if script == "configure" else "")
        if first == "autoreconf":
            return self.cite_manifest(view)
        if first == "make" and view.has("Makefile.am"):
            targets = [a for a in argv[1:] if not a.startswith("-") and "=" not in a]
            if "check" in targets:
                return self.tests(view)
            return view.cite("Makefile.am") if all(t in _AUTOMAKE_TARGETS for t in targets) else ""
        return ""

    def tests(self, view: RepoView) -> str:
        """``file:line`` of the first ``Makefile.am`` that gives ``make check`` tests to run, else ``""``."""
        ams = [p for p in sorted(view.files) if p == "Makefile.am" or p.endswith("/Makefile.am")]
        return next((w for p in ams if (w := view.cite(p, _AUTOMAKE_TESTS.pattern, re.M))), "")

    def versions(self, view: RepoView) -> tuple[str, ...]:
        _, text = view.text("configure.ac")
        if m := re.search(r"-std=((?:gnu|c)(?:\d\d|\+\+\d\d))", text):
            return (m.group(1).upper().replace("GNU", "GNU "),) if m.group(1).startswith("gnu") else (m.group(1).upper(),)
        return ()

    def makers(self, path: str, view: RepoView) -> tuple[str, ...]:
        """``configure`` is generated from ``configure.ac`` (unless the repository tracks it): by the
        project's bootstrap script when it keeps one, else by ``autoreconf``."""
        if path != "configure" or view.has("configure") or not (view.has("configure.ac") or view.has("configure.in")):
            return ()
        return (*(s for s in _BOOTSTRAP_SCRIPTS if view.has(s)), "autoreconf -fi")

    def defaults(self, view: RepoView) -> dict[str, str]:
        makers = self.makers("configure", view)
        boot = "" if not makers else f"{makers[0]} && " if makers[0].startswith("autoreconf") else f"./{makers[0]} && "
        out = {"build": f"{boot}./configure && make"}
        if self.tests(view):
            out["test"] = "make check"
        return out
