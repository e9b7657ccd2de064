"""JavaScript runtimes: Node with npm/pnpm/yarn (scripts, turbo), Deno (``deno task``), Bun."""

from __future__ import annotations

import re

from .base import Ecosystem, RepoView, Target, load_json

__all__ = ["Bun", "Deno", "Node"]

_NPM_BUILTIN = frozenset({"install", "ci", "i", "test", "t", "start", "pack", "publish", "outdated", "audit", "exec"})
_TOOLS = {"jest": "test", "vitest": "test", "mocha": "test", "eslint": "lint", "prettier": "format", "tsc": "typecheck",
          "biome": "lint", "oxlint": "lint", "playwright": "test", "changeset": "release",
          "manypkg": "lint", "lerna": "release"}


def _scripts(view: RepoView, path: str = "package.json") -> dict[str, str]:
    scripts = load_json(view.files.get(path, "")).get("scripts")
    return {str(k): str(v) for k, v in scripts.items()} if isinstance(scripts, dict) else {}


class Node(Ecosystem):
    name = "node"
    label = "Node"
    languages = ("JavaScript", "TypeScript")
    detect = ("package.json",)
    reads = ("package.json", "turbo.json", "pnpm-workspace.yaml", ".nvmrc", ".node-version", "packages/*/package.json",
             "apps/*/package.json")
    package_manager = "npm"
    describes = (("package.json", "description"),)
    programs = frozenset({"npm", "pnpm", "yarn", "npx", "pnpx", "corepack", "turbo"})
    tools = _TOOLS
    manifests = ("package.json",)

    def targets(self, view: RepoView) -> list[Target]:
        return [Target(n, f"npm run {n}", body, view.cite_key("package.json", "scripts", n))
                for n, body in _scripts(view).items()]

    def needs(self, argv: list[str]) -> tuple[str, ...]:
        """``npm ci`` and a frozen/immutable install install exactly the lockfile: without it they stop."""
        if argv[:2] == ["npm", "ci"]:
            return ("package-lock.json", "npm-shrinkwrap.json")
        frozen = {"--frozen-lockfile", "--immutable"} & set(argv)
        if frozen and argv[:1] == ["yarn"]:
            return ("yarn.lock",)
        if frozen and argv[:2] in (["pnpm", "install"], ["pnpm", "i"]):
            return ("pnpm-lock.yaml",)
        return ()

    def prove(self, argv: list[str], view: RepoView) -> str:
        if not argv or argv[0] not in self.programs or not view.has("package.json"):
            return ""
        scripts = {t.name: t.where for t in self.targets(view)}
        program, rest = argv[0], argv[1:]
        if program in ("npx", "pnpx") or rest[:1] in (["exec"], ["dlx"]):
            tool = (rest[1:] if rest[:1] in (["exec"], ["dlx"]) else rest)[:1]
            return self.declares(tool[0], view) if tool else ""
        if program == "turbo" or rest[:1] == ["turbo"]:
            tasks = [a for a in (rest[1:] if rest[:1] == ["turbo"] else rest) if a != "run" and not a.startswith("-")]
            turbo = view.files.get("turbo.json", "")
            return view.cite("turbo.json", rf'"{re.escape(tasks[0])}"\s*:') if tasks and turbo else ""
        if program == "corepack":
            return view.cite("package.json", r'"packageManager"') if rest[:1] == ["enable"] else ""
        if rest[:1] == ["run"] and len(rest) > 1:
            return scripts.get(rest[1], "")
        if not rest or rest[0] in ("install", "i", "ci"):
            return self.cite_manifest(view) if program != "npm" or rest else ""
        if rest[0] in scripts:
            return scripts[rest[0]]
        if program == "pnpm" and rest[0] in ("changeset", "-r", "--filter"):
            return self.declares("@changesets/cli", view) if rest[0] == "changeset" else ""
        return ""

    def versions(self, view: RepoView) -> tuple[str, ...]:
        manager = load_json(view.files.get("package.json", "")).get("packageManager")
        return (f"{manager.split('+')[0].replace('@', ' ')}",) if isinstance(manager, str) and len(manager) < 60 else ()

    def defaults(self, view: RepoView) -> dict[str, str]:
        return {}


class Deno(Ecosystem):
    name = "deno"
    label = "Deno"
    languages = ("TypeScript", "JavaScript")
    detect = ("deno.json", "deno.jsonc")
    reads = ("deno.json", "deno.jsonc")
    package_manager = "deno"
    programs = frozenset({"deno"})
    builtins = {"deno": frozenset({"fmt", "lint", "test", "check", "doc", "bench", "publish", "install", "compile"})}
    tools = {"deno fmt": "format", "deno lint": "lint", "deno test": "test", "deno check": "typecheck"}

    def targets(self, view: RepoView) -> list[Target]:
        path = "deno.json" if "deno.json" in view.files else "deno.jsonc"
        text = re.sub(r"^\s*//[^\n]*$", "", view.files.get(path, ""), flags=re.M)
        tasks = load_json(text).get("tasks")
        out = []
        for name, spec in tasks.items() if isinstance(tasks, dict) else []:
            body = spec.get("command", "") if isinstance(spec, dict) else spec
            out.append(Target(str(name), f"deno task {name}", str(body), view.cite_key(path, "tasks", str(name))))
        return out

    def prove(self, argv: list[str], view: RepoView) -> str:
        if argv[:2] == ["deno", "task"] and len(argv) > 2:
            return next((t.where for t in self.targets(view) if t.name == argv[2]), "")
        return super().prove(argv, view)

    def defaults(self, view: RepoView) -> dict[str, str]:
        return {"test": "deno test", "lint": "deno lint", "format": "deno fmt"}


class Bun(Ecosystem):
    name = "bun"
    label = "Bun"
    languages = ("TypeScript", "JavaScript")
    detect = ("bun.lockb", "bun.lock", "bunfig.toml")
    reads = ("bunfig.toml",)
    package_manager = "bun"
    programs = frozenset({"bun", "bunx"})
    builtins = {"bun": frozenset({"install", "test", "build", ""})}
    tools = {"bun test": "test"}
    manifests = ("package.json",)

    def prove(self, argv: list[str], view: RepoView) -> str:
        scripts = _scripts(view)
        if (argv[:2] == ["bun", "run"] and len(argv) > 2) or (argv[:1] == ["bun"] and len(argv) > 1 and argv[1] in scripts):
            name = argv[2] if argv[1] == "run" else argv[1]
            return view.cite_key("package.json", "scripts", name) if name in scripts else ""
        if argv[:1] == ["bunx"] and len(argv) > 1:
            return self.declares(argv[1], view)
        return super().prove(argv, view)

    def defaults(self, view: RepoView) -> dict[str, str]:
        return {"setup": "bun install"}
