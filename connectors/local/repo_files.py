"""The files a repository snapshot reads, and their ledger: each ends read, failed or passed over.

Why a ledger of files and not of the one :class:`~bootstrap_app.types.Repo` item: a repository
gives a single snapshot, so counting items says "1 read" whether its README, its manifests and
its CI files were all read or all lost. What the person can check is the files the reader chose
to look at (README, guides, manifests, task runners, CI files, the docs a guide points to):
each is read as text, or skipped with its reason — a failure (unreadable, binary, not UTF-8,
too large, a manifest that does not parse, listed by git but absent) makes the scan partial;
a choice (a lockfile noted by its presence, a submodule not entered, a link out of the
repository not followed, a selected file past the reader's budget) is passed over.
"""

from __future__ import annotations

import fnmatch
import json
import re
import tomllib
from pathlib import Path, PurePosixPath

from bootstrap_app.ecosystems import read_globs
from bootstrap_app.ecosystems.guides import is_guide_path

from ..base import ReadContext

__all__ = ["GUIDE_NAMES", "LOCKFILES", "MAX_DOC_BYTES", "OWN_BLOCK", "SCRIPT_DIRS", "RepoFiles", "without_memseed_block"]

_MAX_FILE_CHARS = 16_000
_MAX_MANIFEST_CHARS = 256_000
"""Manifests, task runners and CI files are parsed (JSON/TOML/YAML): cut short they would not
parse at all, so they get a larger cap than prose (a monorepo's package.json can pass 16 kB)."""
_MAX_GUIDE_CHARS = 64_000
"""Contributor guides and agent files are read further than other prose: their rules and commands
are what a newcomer needs, and a thorough AGENTS.md passes 16 kB."""
MAX_DOC_BYTES = 1_000_000
"""A prose file larger than this (a generated README, a dump named like a doc) is skipped, with
its reason, rather than read in part: its first 16 kB would stand for a document nobody wrote
to be read whole."""
_MANIFEST_SUFFIXES = (".json", ".toml", ".yml", ".yaml", ".ini", ".cfg")
_MANIFEST_NAMES = frozenset({"Makefile", "makefile", "GNUmakefile", "justfile", "Justfile", "noxfile.py"})
SCRIPT_DIRS = ("scripts/", "script/", "bin/")
_STRICT_JSON = frozenset({"package.json", "composer.json"})
"""Manifests whose format admits no comments (unlike tsconfig.json or .eslintrc.json, which are
JSON with comments): one that does not parse is broken, not merely a dialect."""
LOCKFILES = frozenset({"uv.lock", "poetry.lock", "Pipfile.lock", "package-lock.json", "pnpm-lock.yaml",
                       "yarn.lock", "bun.lockb", "bun.lock", "Cargo.lock", "go.sum", "Gemfile.lock",
                       "composer.lock"})
GUIDE_NAMES = ("contributing", "hacking", "developing", "development", "building", "get-started", "getting-started",
               "getting_started")
OWN_BLOCK = re.compile(r"<!-- memseed:begin -->.*?<!-- memseed:end -->\n?", re.DOTALL)
"""memseed's marked block (``harnesses.block.BEGIN`` … ``END``) in a repository's instruction file."""

LOCKFILE = "lockfiles (their presence is noted; not read)"
SUBMODULE = "submodules (other repositories; not entered)"
OUTSIDE = "symbolic links pointing outside the repository (not followed)"
FOLDER_LINK = "symbolic links to folders (not entered)"
PROGRAM = "not a kind of file memseed reads (binary programs in a scripts folder)"
PAST_BUDGET = "files of a kind the reader selects, past its budget per repository (not read)"


def without_memseed_block(text: str) -> str:
    """``text`` without the block memseed wrote into it: a repository's ``AGENTS.md`` /
    ``GEMINI.md`` may hold the facts memseed wrote there for the agents, and reading them back as
    what the maintainers wrote would propose memseed's own output again on every re-scan."""
    return OWN_BLOCK.sub("", text) if "<!-- memseed:begin -->" in text else text


def _parse_error(rel: str, text: str) -> str:
    """Why a strict manifest does not parse ("" when it does, or is not one we check)."""
    name = PurePosixPath(rel).name
    try:
        if name.endswith(".toml"):
            tomllib.loads(text)
        elif name in _STRICT_JSON:
            json.loads(text)
    except (tomllib.TOMLDecodeError, ValueError) as exc:
        return str(exc).splitlines()[0][:200]
    return ""


class RepoFiles:
    """One snapshot's file reads and their ledger (``ctx.find`` per file looked at; units, not items)."""

    def __init__(self, root: Path, source_id: str, ctx: ReadContext) -> None:
        self.root, self.source_id, self.ctx = root, source_id, ctx
        self.read = self.failed = 0
        ctx.units_read = 0  # the ledger counts files, not the one Repo item

    def past_budget(self, count: int) -> None:
        """Files the reader selects, left because its budget per repository was spent."""
        self.ctx.find(count)
        self.ctx.pass_over(PAST_BUDGET, count)

    def unit(self, rel: str) -> str:
        """Read ``rel`` as one unit of the ledger: its text, or a placeholder with the skip said."""
        self.ctx.find()
        if PurePosixPath(rel).name in LOCKFILES:
            self.ctx.pass_over(LOCKFILE)
            return "[lockfile present; not read]"
        text, reason, passed = self.text(rel)
        if not reason and len(text) < _MAX_MANIFEST_CHARS and (why := _parse_error(rel, text)):
            text, reason = "[does not parse]", f"{rel}: does not parse ({why}); not read"
        if reason:
            self.ctx.skip(self.source_id, rel, reason)  # named in the skip list, whatever it counts as
            if passed:
                self.ctx.pass_over(passed)
            else:
                self.failed += 1
            return text
        self.read += 1
        return text

    def finish(self) -> None:
        self.ctx.units_read = self.read
        self.ctx.units_failed += self.failed

    def text(self, rel: str, cap: int | None = None) -> tuple[str, str, str]:
        """(text or placeholder, why it was not read or "", and for a choice the pass-over's
        heading). Says nothing itself: a file read again further (a README's section) is no new unit."""
        root, ctx = self.root, self.ctx
        path = root / rel
        try:
            link = path.is_symlink()
            if link:  # README.md -> packages/x/README.md: follow it, never out of the repo
                target = path.resolve()
                if not target.is_relative_to(root.resolve()):
                    return ("[not a regular file]",
                            f"{rel}: a symbolic link pointing outside the repository; not followed", OUTSIDE)
                path = target
            if path.is_dir():
                if link:
                    return "[not a regular file]", f"{rel}: a symbolic link to a folder; not entered", FOLDER_LINK
                return "[not a regular file]", f"{rel}: a submodule (another repository); not entered", SUBMODULE
            if not path.exists():
                return "[not a regular file]", f"{rel}: listed by git but absent from the working copy; not read", ""
            if not path.is_file():
                return "[not a regular file]", f"{rel}: not a regular file; not read", ""
            # build files an ecosystem parses (CMakeLists.txt, pom.xml, mix.exs …) get the parser's cap too
            manifest = rel.endswith(_MANIFEST_SUFFIXES) or PurePosixPath(rel).name in _MANIFEST_NAMES or any(
                fnmatch.fnmatchcase(rel, g) and rel.count("/") == g.count("/") for g in read_globs())
            if not manifest and path.stat().st_size > MAX_DOC_BYTES:
                return "[too large]", f"{rel}: {path.stat().st_size:,} bytes, larger than {MAX_DOC_BYTES:,}; not read", ""
            with open(path, "rb") as f:
                # the README is often the contributor guide too: its "Building" section sits past 16 kB
                guide = PurePosixPath(rel).stem.lower() in (*GUIDE_NAMES, "agents", "claude", "gemini",
                                                            "copilot-instructions", "readme") or is_guide_path(rel)
                cap = cap or (_MAX_MANIFEST_CHARS if manifest else _MAX_GUIDE_CHARS if guide else _MAX_FILE_CHARS)
                data = f.read(cap * 4)
        except OSError as exc:
            return "[unreadable]", f"{path}: unreadable ({exc.strerror or exc})", ""
        if b"\x00" in data[:4096]:
            # a compiled tool in bin/ (no extension) is a program, not a broken script; a binary
            # named like a doc or a manifest is broken
            program = not PurePosixPath(rel).suffix and rel.startswith(SCRIPT_DIRS) and data[:4] != b"#!"
            return "[binary file]", f"{rel}: a binary file (NUL bytes), not text; not read", PROGRAM if program else ""
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as exc:
            if len(data) < cap * 4 or exc.start < len(data) - 3:  # not merely a character the read cap cut in half
                return "[not UTF-8]", f"{rel}: not UTF-8 text (byte {exc.start}); not read", ""
            text = data[:exc.start].decode("utf-8")
        return ctx.clean(without_memseed_block(text), cap), "", ""
