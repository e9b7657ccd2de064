"""Rust (cargo, workspace packages and features) and Go (the go tool, golangci-lint)."""

from __future__ import annotations

import re

from .base import Ecosystem, RepoView, load_toml

__all__ = ["Go", "Rust"]

_CARGO = frozenset({"build", "test", "check", "clippy", "fmt", "doc", "bench", "run", "nextest", "install", "publish",
                    "update", "fetch", "deny", "audit", "llvm-cov", "hack", "miri", "tarpaulin", "insta"})


class Rust(Ecosystem):
    name = "rust"
    label = "Rust"
    languages = ("Rust",)
    detect = ("Cargo.toml",)
    reads = ("Cargo.toml", ".cargo/config.toml", ".cargo/config", "rust-toolchain*", "clippy.toml", "rustfmt.toml",
             ".rustfmt.toml", "*/Cargo.toml", "crates/*/Cargo.toml")
    package_manager = "cargo"
    describes = (("Cargo.toml", "package.description"),)
    programs = frozenset({"cargo", "rustup", "rustfmt"})
    tools = {"cargo test": "test", "cargo clippy": "lint", "cargo fmt": "format", "cargo build": "build",
             "cargo nextest": "test", "cargo deny": "lint"}

    def _packages(self, view: RepoView) -> dict[str, str]:
        """package name -> ``Cargo.toml:line`` of every manifest read."""
        out: dict[str, str] = {}
        for path in sorted(p for p in view.files if p == "Cargo.toml" or p.endswith("/Cargo.toml")):
            pkg = load_toml(view.files[path]).get("package")
            if isinstance(pkg, dict) and isinstance(pkg.get("name"), str):
                out[pkg["name"]] = view.cite(path, r"^\s*name\s*=")
        return out

    def _features(self, view: RepoView) -> dict[str, str]:
        out: dict[str, str] = {}
        for path in sorted(p for p in view.files if p == "Cargo.toml" or p.endswith("/Cargo.toml")):
            feats = load_toml(view.files[path]).get("features")
            for f in feats if isinstance(feats, dict) else {}:
                out.setdefault(str(f), view.cite(path, rf"^\s*\"?{re.escape(str(f))}\"?\s*="))
        return out

    def prove(self, argv: list[str], view: RepoView) -> str:
        if not argv or argv[0] != "cargo" or len(argv) < 2 or not view.has("Cargo.toml"):
            return ""
        sub = argv[1].lstrip("+") if not argv[1].startswith("+") else (argv[2] if len(argv) > 2 else "")
        alias = load_toml(view.files.get(".cargo/config.toml", "") or view.files.get(".cargo/config", "")).get("alias")
        if isinstance(alias, dict) and sub in alias:
            return view.cite(".cargo/config.toml" if ".cargo/config.toml" in view.files else ".cargo/config",
                             rf"^\s*{re.escape(sub)}\s*=")
        if sub not in _CARGO:
            return ""
        where = view.cite("Cargo.toml")
        for flag, table in (("-p", self._packages), ("--package", self._packages), ("--features", self._features),
                            ("-F", self._features)):
            if flag in argv and argv.index(flag) + 1 < len(argv):
                names = argv[argv.index(flag) + 1].split(",")
                known = table(view)
                if not all(n.split("/")[-1] in known for n in names):
                    return ""
                where = known[names[0].split("/")[-1]]
        return where

    def versions(self, view: RepoView) -> tuple[str, ...]:
        """The language edition the crate (or the workspace's packages) compile with: ``Rust edition 2021``."""
        cargo = load_toml(view.files.get("Cargo.toml", ""))
        workspace = cargo.get("workspace")
        for table in (cargo.get("package"), workspace.get("package") if isinstance(workspace, dict) else None):
            edition = table.get("edition") if isinstance(table, dict) else None
            if isinstance(edition, str) and re.fullmatch(r"\d{4}", edition):
                return (f"Rust edition {edition}",)
        return ()

    def defaults(self, view: RepoView) -> dict[str, str]:
        return {"test": "cargo test", "lint": "cargo clippy", "format": "cargo fmt", "build": "cargo build"}


class Go(Ecosystem):
    name = "go"
    label = "Go"
    languages = ("Go",)
    detect = ("go.mod", "go.work")
    reads = ("go.mod", "go.work", ".golangci.*")
    package_manager = "go"
    programs = frozenset({"go", "gofmt", "golangci-lint", "goimports", "staticcheck"})
    builtins = {"go": frozenset({"test", "vet", "build", "run", "generate", "mod", "install", "fmt", "work"}),
                "gofmt": frozenset({"-l", "-s", "-w", "-d"})}
    tools = {"go test": "test", "go vet": "lint", "gofmt": "format", "golangci-lint": "lint"}
    manifests = ("go.mod", "tools.go")

    def prove(self, argv: list[str], view: RepoView) -> str:
        if argv and argv[0] == "golangci-lint":
            return next((f"{p}:1" for p in view.matching(".golangci.*")), "")
        return super().prove(argv, view)

    def defaults(self, view: RepoView) -> dict[str, str]:
        return {"test": "go test ./...", "lint": "go vet ./...", "format": "gofmt -l .", "build": "go build ./..."}
