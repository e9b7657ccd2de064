"""A git working copy -> one :class:`~bootstrap_app.types.Repo` snapshot, from plain ``git`` calls.

Why subprocess and not GitPython/dulwich: ``git`` is always there where repos are, it is fast
on huge histories, and every question we ask has a porcelain answer (``ls-files``,
``shortlog -sne``, ``log --format``). Output is streamed and capped, so a monorepo with a
million files or commits costs a bounded amount of memory.

The snapshot holds what tells an agent how the person works in this repo: manifests, tool and
CI configuration, README/CONTRIBUTING/CODEOWNERS (capped, secrets redacted), lockfiles (by
presence only), languages by extension, and commit statistics. Credentials embedded in the
remote URL are removed before anything leaves this module.
"""

from __future__ import annotations

import fnmatch
import hashlib
import os
import re
import subprocess
from collections import Counter
from collections.abc import Iterator
from datetime import datetime
from functools import cache
from pathlib import Path, PurePosixPath

from bootstrap_app.ecosystems import read_globs
from bootstrap_app.ecosystems.guides import about_working, is_guide_path, pointed_docs
from bootstrap_app.errors import SourceError, SourceNotFound
from bootstrap_app.types import Item, Person, Repo, utc

from ..base import ReadContext, Source
from .repo_files import (
    GUIDE_NAMES,
    LOCKFILES,
    MAX_DOC_BYTES,
    OWN_BLOCK,
    SCRIPT_DIRS,
    RepoFiles,
    without_memseed_block,
)

__all__ = ["LANGUAGES", "OWN_BLOCK", "GitRepoSource", "redact_url", "selected_file", "without_memseed_block"]

_MAX_FILES = 200_000
_MAX_LISTED = 2_000
_MAX_SELECTED = 100
_MAX_SCRIPTS = 20
_MAX_POINTED = 6
"""Docs read because a guide points to them: a few, so a README linking every page of its site
does not pull the whole site in."""
_TIMEOUT = 120
_SELECT = (
    "pyproject.toml", "setup.cfg", "setup.py", "requirements*.txt", "package.json", "Cargo.toml", "go.mod",
    "pom.xml", "build.gradle*", "settings.gradle*", "Gemfile", "composer.json", "Makefile", "makefile",
    "GNUmakefile", "justfile", "Justfile", "Taskfile*", "tox.ini", "noxfile.py", ".pre-commit-config.yaml",
    "ruff.toml", ".ruff.toml", "mypy.ini", ".editorconfig", ".eslintrc*", "eslint.config.*", ".prettierrc*",
    "prettier.config.*", "tsconfig.json", "Dockerfile", "docker-compose*", "compose.y*ml", ".gitlab-ci.yml",
    "README*", "CODEOWNERS", "AGENTS.md", "CLAUDE.md", "GEMINI.md", ".nvmrc", ".python-version", ".fvmrc",
    ".tool-versions", "rust-toolchain*", "pnpm-workspace.yaml", "go.work", ".golangci.*", ".commitlintrc*",
    "commitlint.config.*", ".czrc", ".cz.*", "cz.toml", "lerna.json", "nx.json", "turbo.json",
)
_SELECT_NESTED = (".github/workflows/*.yml", ".github/workflows/*.yaml", ".github/CODEOWNERS",
                  "docs/CODEOWNERS", "scripts/*deploy*", "deploy/*", ".cargo/config.toml", ".cargo/config",
                  ".github/copilot-instructions.md", ".github/pull_request_template.md", ".github/dco.yml")
_GUIDE_DIRS = ("", ".github/", "docs/", "doc/")


@cache
def _split(globs: tuple[str, ...]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(root-level, nested) patterns of what the ecosystems answer from (plugins included)."""
    return tuple(g for g in globs if "/" not in g), tuple(g for g in globs if "/" in g)
LANGUAGES = {
    ".py": "Python", ".pyi": "Python", ".ipynb": "Jupyter", ".js": "JavaScript", ".mjs": "JavaScript",
    ".cjs": "JavaScript", ".jsx": "JavaScript", ".ts": "TypeScript", ".tsx": "TypeScript", ".go": "Go",
    ".rs": "Rust", ".java": "Java", ".kt": "Kotlin", ".kts": "Kotlin", ".scala": "Scala", ".rb": "Ruby",
    ".php": "PHP", ".c": "C", ".h": "C", ".cc": "C++", ".cpp": "C++", ".cxx": "C++", ".hpp": "C++",
    ".cs": "C#", ".swift": "Swift", ".m": "Objective-C", ".sh": "Shell", ".bash": "Shell", ".zsh": "Shell",
    ".sql": "SQL", ".r": "R", ".jl": "Julia", ".lua": "Lua", ".dart": "Dart", ".ex": "Elixir",
    ".exs": "Elixir", ".erl": "Erlang", ".hs": "Haskell", ".ml": "OCaml", ".clj": "Clojure", ".vue": "Vue",
    ".svelte": "Svelte", ".tf": "Terraform", ".zig": "Zig", ".nim": "Nim", ".pl": "Perl", ".pm": "Perl", ".cr": "Crystal", ".bzl": "Starlark", ".hrl": "Erlang", ".ps1": "PowerShell",
    ".html": "HTML", ".css": "CSS", ".scss": "SCSS", ".md": "Markdown", ".rst": "reStructuredText",
    ".yml": "YAML", ".yaml": "YAML", ".toml": "TOML", ".json": "JSON",
}
_URL_CREDS = re.compile(r"^([a-z][a-z0-9+.-]*://)[^/@\s]+@", re.IGNORECASE)


def redact_url(url: str) -> str:
    """Remove ``user:token@`` from a remote URL (ssh ``git@host:`` forms are kept)."""
    return _URL_CREDS.sub(r"\1", url.strip())


def selected_file(path: str) -> bool:
    """True for the files a Repo snapshot reads (manifests, configs, CI, docs about working)."""
    p = PurePosixPath(path)
    low = path.lower()
    # contributor guides in any case, at the root, in .github/ or in docs/
    if len(p.parts) == 1 and low.startswith("readme"):
        return True
    if any(low == f"{d}pull_request_template.md" or any(low in (f"{d}{n}", f"{d}{n}.md", f"{d}{n}.rst", f"{d}{n}.txt")
                                                         for n in GUIDE_NAMES) for d in _GUIDE_DIRS):
        return True
    # a guide in any markup, or in a docs site's sources: docs/dev/contributing.rst, website/src/docs/contributing.md
    if is_guide_path(path):
        return True
    # the "scripts to rule them all" convention: scripts/test, scripts/lint.sh, …
    if len(p.parts) == 2 and any(low.startswith(d) for d in SCRIPT_DIRS) and not p.name.startswith(".") \
            and p.suffix in ("", ".sh", ".bash", ".py"):
        return True
    top, nested = _split(read_globs())
    if len(p.parts) == 1:
        return any(fnmatch.fnmatchcase(p.name, pat) for pat in (*_SELECT, *top)) or p.name in LOCKFILES
    return any(fnmatch.fnmatchcase(path, pat) and path.count("/") == pat.count("/") for pat in (*_SELECT_NESTED, *nested))



def _heading(line: str, below: str) -> bool:
    """An ATX heading, or a setext one (a line underlined with ``===``/``---``)."""
    return bool(re.match(r"^#{1,6}\s+\S", line)) or (bool(line.strip()) and bool(re.fullmatch(r"(=+|-+)\s*", below))
                                                      and not line.lstrip().startswith(("-", "*", "|")))


def _level(line: str, below: str) -> int:
    if m := re.match(r"^(#{1,6})\s", line):
        return len(m.group(1))
    return 1 if below.strip().startswith("=") else 2


def _slug(line: str) -> str:
    """GitHub's anchor of a heading line (``## Getting Started`` -> ``getting-started``), else ``""``."""
    text = re.sub(r"^#{1,6}\s+", "", line.strip()) if re.match(r"^#{1,6}\s", line) else line.strip()
    return re.sub(r"\s", "-", re.sub(r"[^\w\s-]", "", text.lower())) if text else ""


class _Git:
    def __init__(self, root: Path) -> None:
        self.root = root
        self.env = {**os.environ, "GIT_TERMINAL_PROMPT": "0", "LC_ALL": "C", "GIT_OPTIONAL_LOCKS": "0"}

    def cmd(self, *args: str) -> list[str]:
        return ["git", "-c", f"safe.directory={self.root}", "-c", "core.quotepath=off", "-C", str(self.root), *args]

    def run(self, *args: str) -> str:
        """stdout of a git command, or "" when it fails (an empty repo has no HEAD, etc.)."""
        try:
            out = subprocess.run(self.cmd(*args), capture_output=True, stdin=subprocess.DEVNULL,
                                 timeout=_TIMEOUT, env=self.env, check=False)
        except FileNotFoundError as exc:
            raise SourceError("git is not installed", hint="install git to read repositories") from exc
        except subprocess.TimeoutExpired:
            return ""
        return out.stdout.decode("utf-8", "replace").strip() if out.returncode == 0 else ""

    def stream(self, *args: str, sep: bytes = b"\n", limit: int = _MAX_FILES) -> Iterator[str]:
        """Records of a long output, read incrementally and stopped at ``limit``."""
        proc = subprocess.Popen(self.cmd(*args), stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                stdin=subprocess.DEVNULL, env=self.env)
        assert proc.stdout is not None
        buf, n = b"", 0
        try:
            while n < limit:
                chunk = proc.stdout.read(65536)
                if not chunk:
                    break
                buf += chunk
                *records, buf = buf.split(sep)
                for rec in records:
                    if n >= limit:
                        break
                    n += 1
                    yield rec.decode("utf-8", "replace")
            if buf and n < limit:
                yield buf.decode("utf-8", "replace")
        finally:
            proc.kill()
            proc.wait()


def _stat_line(path: Path) -> str:
    """size, mtime, ctime and inode of ``path`` ("" when it is gone): a change to any says "read again"."""
    try:
        st = path.stat()
    except OSError:
        return ""
    return f"{st.st_size}\x1f{st.st_mtime_ns}\x1f{st.st_ctime_ns}\x1f{st.st_ino}"


def _date(text: str) -> datetime | None:
    try:
        return utc(datetime.fromisoformat(text.strip())) if text.strip() else None
    except ValueError:
        return None


class GitRepoSource(Source, kind="git", priority=20, description="git repository (working copy)",
                    cursor_doc="HEAD commit of the last snapshot (an unchanged HEAD yields nothing new)"):
    """A git working copy (a folder with ``.git``)."""

    @classmethod
    def sniff(cls, path: Path) -> bool:
        return path.is_dir() and (path / ".git").exists()

    def read(self, ctx: ReadContext) -> Iterator[Item]:
        root = Path(self.location).expanduser()
        if not root.is_dir():
            raise SourceNotFound(f"{root}: no such repository folder", hint="check the path")
        git = _Git(root)
        top = git.run("rev-parse", "--show-toplevel")
        if not top or Path(top).resolve() != root.resolve():  # broken .git (or a parent repo's)
            raise SourceError(f"{root}: not a readable git repository",
                              hint="run `git status` there to see what git says")
        head = git.run("rev-parse", "--verify", "-q", "HEAD")
        if ctx.cursor and head and ctx.cursor.get("head") == head:
            ctx.new_cursor = dict(ctx.cursor)
            ctx.find()
            ctx.pass_over("repository unchanged since the last read (same HEAD)")
            return  # nothing committed since the last scan
        repo = self._snapshot(root, git, head, ctx)
        ctx.new_cursor = {"head": head}
        if ctx.since is not None and repo.last_commit is not None and repo.last_commit < ctx.since:
            ctx.pass_over("files of a repository with no commit since --since", ctx.units_read or 0)
            ctx.units_read = 0
            return
        ctx.progress(self.id, 1)
        yield repo

    def stamp(self) -> str | None:
        """HEAD, the index's and config's stats, the user's address, and each changed tracked file's stat.

        Why not the files' stats as for a folder: ``.git`` changes on every fetch and a work tree can
        be huge, while what :meth:`read` sees is the committed history, the index's file list, git's
        config and the tracked files' text; an edit to a tracked file shows in ``git status``."""
        root = Path(self.location).expanduser()
        if not root.is_dir():
            return None
        git = _Git(root)
        parts = [git.run("rev-parse", "--verify", "-q", "HEAD"), git.run("config", "user.email"),
                 git.run("config", "--get", "remote.origin.url")]
        for rel in (git.run("rev-parse", "--git-path", "index"), git.run("rev-parse", "--git-path", "config")):
            parts.append(_stat_line(root / rel) if rel else "")
        changed = git.run("status", "--porcelain=v1", "-z", "--untracked-files=no")
        for entry in changed.split("\x00"):
            if entry[3:]:
                parts.append(f"{entry}\x1f{_stat_line(root / entry[3:])}")
        return hashlib.sha256("\x1e".join(parts).encode("utf-8", "surrogateescape")).hexdigest()

    def _snapshot(self, root: Path, git: _Git, head: str, ctx: ReadContext) -> Repo:
        remote = git.run("config", "--get", "remote.origin.url")
        if not remote:
            remotes = git.run("remote").splitlines()
            remote = git.run("config", "--get", f"remote.{remotes[0]}.url") if remotes else ""
        branch = git.run("symbolic-ref", "--short", "-q", "refs/remotes/origin/HEAD").removeprefix("origin/")
        branch = branch or git.run("symbolic-ref", "--short", "-q", "HEAD")
        languages: Counter[str] = Counter()
        listed: list[str] = []
        chosen: list[str] = []
        chosen_top: list[str] = []
        scripts = past = 0
        for path in git.stream("ls-files", "-z", sep=b"\x00"):
            if not path:
                continue
            if len(listed) < _MAX_LISTED or "/" not in path:
                listed.append(path)  # every top-level file counts (CHANGELOG, configs), past the cap too
            lang = LANGUAGES.get(PurePosixPath(path).suffix.lower())
            if lang:
                languages[lang] += 1
            if selected_file(path):
                # top-level files (README, manifests, task runners) have their own budget, so 200
                # workflow files sorted before them ("." < "A") cannot crowd them out
                top = "/" not in path
                script = path.startswith(SCRIPT_DIRS)
                if (top and len(chosen_top) < _MAX_SELECTED) or (
                        not top and len(chosen) < _MAX_SELECTED and (not script or scripts < _MAX_SCRIPTS)):
                    (chosen_top if top else chosen).append(path)
                    scripts += script
                else:
                    past += 1
        chosen = chosen_top + chosen
        if not head and not chosen:  # an empty repository: look at the working tree's top level
            chosen = sorted(p.name for p in root.iterdir() if p.is_file() and selected_file(p.name))
        reader = RepoFiles(root, self.id, ctx)  # the ledger: each file looked at ends read or skipped
        reader.past_budget(past)
        files: dict[str, str] = {}
        for rel in chosen:
            files[rel] = reader.unit(rel)
        for rel, anchor in self._anchored(files):  # "see [the readme](README.md#contributing)"
            files[rel] = self._with_section(reader, rel, files[rel], anchor)
        pointed: tuple[str, ...] = ()
        for _hop in range(2):  # a guide's pointer, then the pages of the index it points to
            hop = self._pointed(files, listed, pointed)[:_MAX_POINTED - len(pointed)]
            for rel in hop:
                files[rel] = reader.unit(rel)
            pointed += tuple(hop)
        reader.finish()
        count = int(git.run("rev-list", "--count", "HEAD") or 0) if head else 0
        authors: list[tuple[str, str, int]] = []
        subjects: list[str] = []
        first: datetime | None = None
        last: datetime | None = None
        if head:
            for line in git.run("shortlog", "-sne", "HEAD").splitlines()[:50]:
                m = re.match(r"^\s*(\d+)\s+(.*?)\s*<([^>]*)>\s*$", line)
                if m:
                    authors.append((m.group(2), m.group(3).lower(), int(m.group(1))))
            for rec in git.stream("log", "-n", "200", "--format=%aI%x1f%s%x00", "HEAD", sep=b"\x00", limit=200):
                when, _, subject = rec.strip("\n").partition("\x1f")
                if last is None:
                    last = _date(when)
                if subject:
                    subjects.append(ctx.clean(subject, 300))
            roots = git.run("rev-list", "--max-parents=0", "HEAD").split()
            dates = [d for d in (_date(x) for x in git.run("log", "--no-walk", "--format=%aI", *roots[:20])
                                 .splitlines()) if d]
            first = min(dates) if dates else None
        resolved = root.resolve()
        return Repo(
            source=self.id,
            ref=str(resolved),
            timestamp=last,
            people=tuple(Person(name=n, address=e) for n, e, _ in authors),
            path=str(resolved),
            name=resolved.name,
            remote_url=ctx.clean(redact_url(remote), 500),
            default_branch=branch,
            files=files,
            file_list=tuple(listed),
            languages=dict(languages.most_common()),
            commit_count=count,
            authors=tuple(authors),
            recent_subjects=tuple(subjects),
            first_commit=first,
            last_commit=last,
            git_user_email=git.run("config", "user.email").lower(),
        )

    @staticmethod
    def _pointed(files: dict[str, str], listed: list[str], read: tuple[str, ...] = ()) -> list[str]:
        """The tracked docs the guides, the README and the agent files point to ("see the README",
        a link, a docs-site URL of a file the repository holds) and that were not read yet: the
        maintainers made them part of what a contributor reads. At most :data:`_MAX_POINTED`."""
        out: list[str] = []
        pointing = [p for p in files if is_guide_path(p) or ("/" not in p and p.lower().startswith("readme"))
                    or PurePosixPath(p).stem.lower() in ("agents", "claude", "gemini", "copilot-instructions")
                    or p in read]
        for rel in pointing:
            readme = rel.lower().startswith("readme")  # a README links user docs too: only those about working
            out += [d for d in pointed_docs(rel, files[rel], listed) if d not in files and d not in out
                    and (not readme or about_working(d))]
        return out[:_MAX_POINTED]

    @staticmethod
    def _anchored(files: dict[str, str]) -> list[tuple[str, str]]:
        """(README, anchor) for each guide link to a section of the README (``README.md#contributing``)."""
        out: list[tuple[str, str]] = []
        for rel in [p for p in files if is_guide_path(p)]:
            for m in re.finditer(r"\]\(\s*<?(?:\.{0,2}/)*(README[\w.-]*)#([\w-]{1,80})", files[rel]):
                if m.group(1) in files and (m.group(1), m.group(2).lower()) not in out:
                    out.append((m.group(1), m.group(2).lower()))
        return out

    @staticmethod
    def _with_section(reader: RepoFiles, rel: str, text: str, anchor: str) -> str:
        """``text`` (the README as read, capped) plus the section a guide points to when the cap cut it
        off: read further, that section's lines are put at their own line numbers (the lines between
        stay blank), so a citation ``README.md:5660`` stays true."""
        whole = reader.text(rel, cap=MAX_DOC_BYTES)[0]  # the same unit, read further: not counted again
        lines = whole.splitlines()
        start = next((i for i, line in enumerate(lines)
                      if _slug(line) == anchor and _heading(line, lines[i + 1] if i + 1 < len(lines) else "")), -1)
        kept = text.splitlines()
        if start < 0 or start < len(kept) - 1:
            return text  # no such heading, or the part read already holds it
        level = _level(lines[start], lines[start + 1] if start + 1 < len(lines) else "")
        end = next((j for j in range(start + 1, len(lines))
                    if _heading(lines[j], lines[j + 1] if j + 1 < len(lines) else "")
                    and _level(lines[j], lines[j + 1] if j + 1 < len(lines) else "") <= level), len(lines))
        head = kept[:-1]  # the last line read may be cut mid-line
        return "\n".join([*head, *([""] * (start - len(head))), *lines[start:end]])
