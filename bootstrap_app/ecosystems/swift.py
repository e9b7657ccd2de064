"""Swift packages: SwiftPM, ``swift-tools-version``, swift-format / SwiftLint configs."""

from __future__ import annotations

import re

from .base import Ecosystem, RepoView

__all__ = ["Swift"]


class Swift(Ecosystem):
    name = "swift"
    label = "Swift"
    languages = ("Swift",)
    detect = ("Package.swift",)
    reads = ("Package.swift", ".swift-format", ".swiftlint.yml", ".swift-version")
    package_manager = "swiftpm"
    programs = frozenset({"swift", "swift-format", "swiftlint"})
    builtins = {"swift": frozenset({"build", "test", "package", "run", "format"})}
    tools = {"swift test": "test", "swift-format": "format", "swift format": "format", "swiftlint": "lint"}

    def prove(self, argv: list[str], view: RepoView) -> str:
        if argv and argv[0] == "swift-format":
            return view.cite(".swift-format")
        if argv and argv[0] == "swiftlint":
            return view.cite(".swiftlint.yml")
        return super().prove(argv, view)

    def versions(self, view: RepoView) -> tuple[str, ...]:
        if m := re.search(r"swift-tools-version\s*:\s*([\d.]+)", view.files.get("Package.swift", "")):
            return (f"swift-tools-version {m.group(1)}",)
        return ()

    def configured(self, view: RepoView) -> tuple[str, ...]:
        return tuple(t for t, f in (("swift-format", ".swift-format"), ("swiftlint", ".swiftlint.yml")) if view.has(f))

    def defaults(self, view: RepoView) -> dict[str, str]:
        return {"build": "swift build", "test": "swift test"}
