"""Dart and Flutter: pub, melos scripts (``melos.yaml`` or pubspec's ``melos:``), the SDK constraint."""

from __future__ import annotations

import re

from .base import Ecosystem, RepoView, Target, load_yaml

__all__ = ["Dart"]

_MELOS_BUILTIN = frozenset({"bootstrap", "bs", "clean", "exec", "list", "publish", "version", "format", "analyze"})


class Dart(Ecosystem):
    name = "dart"
    label = "Dart"
    languages = ("Dart",)
    detect = ("pubspec.yaml", "melos.yaml")
    reads = ("pubspec.yaml", "melos.yaml", "analysis_options.yaml")
    package_manager = "pub"
    programs = frozenset({"dart", "flutter", "melos"})
    builtins = {"dart": frozenset({"test", "analyze", "format", "pub", "run", "fix", "doc"}),
                "flutter": frozenset({"test", "analyze", "pub", "build", "run", "format"})}
    tools = {"dart test": "test", "flutter test": "test", "dart analyze": "lint", "flutter analyze": "lint",
             "dart format": "format"}
    manifests = ("pubspec.yaml",)
    describes = (("pubspec.yaml", "description"),)

    def _melos(self, view: RepoView) -> tuple[str, dict[str, object]]:
        for path in ("melos.yaml", "pubspec.yaml"):
            data = load_yaml(view.files.get(path, ""))
            section = data.get("melos", data) if isinstance(data, dict) and path == "pubspec.yaml" else data
            scripts = section.get("scripts") if isinstance(section, dict) else None
            if isinstance(scripts, dict):
                return path, scripts
        return "", {}

    def targets(self, view: RepoView) -> list[Target]:
        path, scripts = self._melos(view)
        out = []
        for name, spec in scripts.items():
            body = spec.get("run", "") if isinstance(spec, dict) else spec
            out.append(Target(str(name), f"melos run {name}", str(body),
                              view.cite(path, rf"^\s+{re.escape(str(name))}\s*:")))
        return out

    def prove(self, argv: list[str], view: RepoView) -> str:
        if argv and argv[0] == "melos":
            scripts = {t.name: t.where for t in self.targets(view)}
            if len(argv) > 2 and argv[1] == "run":
                return scripts.get(argv[2], "")
            if len(argv) > 1 and argv[1] in scripts:
                return scripts[argv[1]]
            path = self._melos(view)[0] or ("melos.yaml" if view.has("melos.yaml") else "")
            return view.cite(path) if path and len(argv) > 1 and argv[1] in _MELOS_BUILTIN else ""
        return super().prove(argv, view)

    def versions(self, view: RepoView) -> tuple[str, ...]:
        data = load_yaml(view.files.get("pubspec.yaml", ""))
        env = data.get("environment") if isinstance(data, dict) else None
        sdk = env.get("sdk") if isinstance(env, dict) else None
        return (f"Dart SDK {sdk}",) if isinstance(sdk, str) and len(sdk) <= 30 else ()

    def defaults(self, view: RepoView) -> dict[str, str]:
        if view.has("melos.yaml") or self._melos(view)[0]:
            return {"setup": "melos bootstrap"}
        return {"setup": "dart pub get", "test": "dart test", "lint": "dart analyze", "format": "dart format ."}
