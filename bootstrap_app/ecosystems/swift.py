"""Swift packages: SwiftPM, ``swift-tools-version``, swift-format / SwiftFormat / SwiftLint configs.

Two formatters share the name: Apple's swift-format reads ``.swift-format`` and nicklockwood's
SwiftFormat reads ``.swiftformat`` (its program is ``swiftformat``); the config file names which."""

from __future__ import annotations

import re

from .base import Ecosystem, RepoView

__all__ = ["Swift"]


class Swift(Ecosystem):
    name = "swift"
    label = "Swift"
    languages = ("Swift",)
    detect = ("Package.swift",)
    reads = ("Package.swift", ".swift-format", ".swiftformat", ".swiftlint.yml", ".swift-version")
    package_manager = "swiftpm"
    programs = frozenset({"swift", "swift-format", "swiftformat", "swiftlint"})
    builtins = {"swift": frozenset({"build", "test", "package", "run", "format"})}
    tools = {"swift test": "test", "swift-format": "format", "swift format": "format", "swiftformat": "format",
             "swiftlint": "lint"}
    _CONFIGS = (("swift-format", ".swift-format"), ("swiftformat", ".swiftformat"), ("swiftlint", ".swiftlint.yml"))

    def prove(self, argv: list[str], view: RepoView) -> str:
        config = dict(self._CONFIGS).get(argv[0]) if argv else None
        if config:
            return view.cite(config)
        return super().prove(argv, view)

    def versions(self, view: RepoView) -> tuple[str, ...]:
        if m := re.search(r"swift-tools-version\s*:\s*([\d.]+)", view.files.get("Package.swift", "")):
            return (f"swift-tools-version {m.group(1)}",)
        return ()

    def configured(self, view: RepoView) -> tuple[str, ...]:
        return tuple(t for t, f in self._CONFIGS if view.has(f))

    def defaults(self, view: RepoView) -> dict[str, str]:
        return {"build": "swift build", "test": "swift test"}
