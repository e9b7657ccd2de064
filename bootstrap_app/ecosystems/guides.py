"""Where a repository keeps the words its maintainers wrote for contributors, in any markup.

Two questions, asked by the git source (which files to read) and by the repository signals
(which files to read commands and rules from), so they live here, below both:

* :func:`is_guide_path` — a contributor guide by its name (CONTRIBUTING, HACKING, DEVELOPMENT,
  BUILDING, getting-started…) in any markup a project writes prose in (Markdown,
  reStructuredText, AsciiDoc, Org, POD, plain text), at the root, in ``.github/``, or anywhere in
  the sources of a docs site (``docs/``, ``doc/``, ``website/``, ``site/``, ``documentation/``):
  ``website/src/docs/contributing.md`` is the guide of a project whose site publishes it.
* :func:`pointed_docs` — the tracked docs a guide, README or agent file points to: a relative,
  root-relative or ``github.com/…/blob/…`` link, a path written in backticks ("guidelines are in
  ``docs/development/index.rst``"), or a docs-site URL whose tail is a tracked doc's path without
  its suffix (``…/perldoc/Mojolicious/Guides/Contributing`` → ``lib/Mojolicious/Guides/Contributing.pod``).
  A pointer is followed only to a file the repository tracks, never to the web.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterable

__all__ = ["DOC_SUFFIXES", "GUIDE_NAMES", "about_working", "as_markdown", "is_doc_path", "is_guide_path", "pointed_docs"]

GUIDE_NAMES = ("contributing", "hacking", "developing", "development", "building", "build", "get-started",
               "getting-started", "getting_started")
DOC_SUFFIXES = (".md", ".markdown", ".rst", ".txt", ".adoc", ".asciidoc", ".org", ".pod")
_CONTRIBUTOR_NAMES = ("contributing", "hacking", "developing", "development")
_SITE_DIRS = ("docs", "doc", "website", "site", "documentation")
_OWN_ROLE = re.compile(r"(?:^|/)(?:readme|license|licence|copying|code_of_conduct|security|support|funding|changelog|"
                       r"changes|history|news|authors|notice)[^/]*$", re.I)
"""Files with a role of their own (README, LICENSE, SECURITY, CHANGELOG…): never a pointed-to guide."""
_MAX_DEPTH = 6


def _split(path: str) -> tuple[list[str], str, str]:
    parts = path.split("/")
    name = parts[-1]
    stem, dot, suffix = name.rpartition(".")
    return parts, (stem if dot else name).lower(), (f".{suffix}".lower() if dot else "")


def is_doc_path(path: str) -> bool:
    """A prose file in one of the markups contributor docs are written in."""
    return _split(path)[2] in DOC_SUFFIXES


_WORKING = re.compile(r"contribut|develop|hacking|building|testing|style|convention|guideline", re.I)


def about_working(path: str) -> bool:
    """A doc whose name says it is about working on the code (what a README's pointer is followed to:
    a README links user docs too, and those are not a contributor's)."""
    return bool(_WORKING.search(_split(path)[1]))


def is_guide_path(path: str) -> bool:
    """True for a contributor guide: a guide's name (with a prose suffix or none) at the root or in
    ``.github/``, ``docs/`` or ``doc/``, or with a prose suffix anywhere in a docs site's sources."""
    parts, stem, suffix = _split(path)
    if stem not in GUIDE_NAMES or (suffix and suffix not in DOC_SUFFIXES):
        return False
    if len(parts) == 1 or (len(parts) == 2 and parts[0].lower() in (".github", "docs", "doc")):
        return stem != "build" or bool(suffix)  # a bare `build` is a folder or a script, not a guide
    if len(parts) == 3 and parts[0].lower() in ("docs", "doc") and suffix:
        return True  # a docs section folder: docs/development/getting-started.rst
    # deeper in a docs site only the contributor's own pages: its "getting started" is the users'
    return bool(suffix) and stem in _CONTRIBUTOR_NAMES and parts[0].lower() in _SITE_DIRS and len(parts) <= _MAX_DEPTH \
        and not any(p.startswith(".") or p in ("node_modules", "vendor") for p in parts)


_LINK = re.compile(r"\]\(\s*<?([^)\s>]+)>?[^)]*\)"  # [text](target)
                   r"|^\s*\[[^\]]+\]:\s*(\S+)"  # [ref]: target
                   r"|<([^>\s]+)>`_"  # rst `text <target>`_
                   r"|link:(\S+?)\["  # AsciiDoc link:target[text]
                   r"|\[\[(?:file:)?([^\]\s]+)\]"  # Org [[file:target][text]]
                   r"|L<(?:[^|>]*\|)?([^>\s]+)>"  # POD L<text|target>
                   r"|``?([\w./-]+\.[A-Za-z]{2,9})``?"  # a path in backticks
                   r"|(https?://\S+)", re.M)


def pointed_docs(path: str, text: str, listed: Iterable[str], limit: int = 6, own_roles: bool = False) -> list[str]:
    """Tracked prose files ``text`` (the file at ``path``) points to, in the order it names them;
    with ``own_roles``, the README, LICENSE… too ("see the readme for the contribution workflow")."""
    tracked = [p for p in listed if (is_doc_path(p) or ("/" not in p and "." not in p))  # `README`, `HACKING`
               and (own_roles or not _OWN_ROLE.search(p))]
    known = set(tracked)
    by_tail: dict[str, list[str]] = {}
    for p in tracked:
        bare = p.rsplit(".", 1)[0].lower()
        by_tail.setdefault(bare.rsplit("/", 1)[-1], []).append(bare)
    base = posixpath.dirname(path)
    out: list[str] = []
    # a reStructuredText index lists its pages in a toctree, by name without suffix
    for block in re.finditer(r"^\.\. toctree::[^\n]*\n((?:[ \t]+[^\n]*\n|[ \t]*\n)+)", text, re.M):
        for entry in re.findall(r"^[ \t]+([\w./-]+)[ \t]*$", block.group(1), re.M):
            local = posixpath.normpath(posixpath.join(base, entry))
            found = next((p for p in tracked if p.rsplit(".", 1)[0] == local), "")
            if found and found not in out:
                out.append(found)
    for m in _LINK.finditer(text):
        target = next(g for g in m.groups() if g).rstrip(".,;:)]>'\"").split("#")[0].split("?")[0]
        found = ""
        if m.group(8) or re.match(r"[a-z]+:", target, re.I):
            blob = re.match(r"https?://github\.com/[^/]+/[^/]+/(?:blob|tree)/[^/]+/(.+)$", target)
            found = blob.group(1) if blob and blob.group(1) in known else _by_url_tail(target, by_tail, tracked)
        elif target:
            local = target.lstrip("/") if target.startswith("/") else posixpath.normpath(posixpath.join(base, target))
            found = local if local in known else (target if target in known else "")
        if found and found != path and found not in out:
            out.append(found)
    return out[:limit]


def _by_url_tail(url: str, by_tail: dict[str, list[str]], tracked: list[str]) -> str:
    """The tracked doc whose path (without suffix) ends with the URL's last two or more segments,
    or with its last one when that names a guide: a docs site publishing the repository's file."""
    segments = [s for s in re.sub(r"^[a-z]+://[^/]+", "", url, flags=re.I).split("/") if s]
    if not segments:
        return ""
    last = segments[-1].rsplit(".", 1)[0].lower() if segments[-1].endswith((".html", ".htm")) else segments[-1].lower()
    tail = [*(s.lower() for s in segments[:-1]), last]
    best, best_len = "", 0
    for bare in by_tail.get(last, []):
        parts = bare.split("/")
        matched = 0
        while matched < min(len(tail), len(parts)) and tail[-1 - matched] == parts[-1 - matched]:
            matched += 1
        if matched > best_len and (matched >= 2 or last in GUIDE_NAMES):
            best, best_len = bare, matched
    return next((p for p in tracked if p.rsplit(".", 1)[0].lower() == best), "") if best else ""


def as_markdown(path: str, text: str) -> str:
    """``text`` in the Markdown the doc readers parse, line for line (a citation ``file:line`` stays
    true): AsciiDoc (``== Title``, ``[source,sh]`` + ``----`` blocks), Org (``* Title``,
    ``#+begin_src``, ``~code~``) and POD (``=head2 Title``, ``C<code>``, indented verbatim) become
    their Markdown equivalents; in plain text a quoted command after "type" or "run" becomes code;
    Markdown and reStructuredText are returned as they are."""
    suffix = _split(path)[2]
    lines = text.splitlines()
    # a docs site's front matter (`---` … `---` opening the page: title, layout) is the site's metadata
    if lines and lines[0].strip() == "---":
        end = next((i for i, line in enumerate(lines[1:40], 1) if line.strip() in ("---", "...")), 0)
        if end:
            lines = [""] * (end + 1) + lines[end + 1:]
            text = "\n".join(lines)
    if suffix in (".adoc", ".asciidoc"):
        return "\n".join(_from_asciidoc(lines))
    if suffix == ".org":
        return "\n".join(_from_org(lines))
    if suffix == ".pod":
        return "\n".join(_from_pod(lines))
    if suffix in ("", ".txt"):  # plain text quotes what to type: `Type "make" in this directory`
        return re.sub(r"\b((?:[Tt]ype|[Rr]un|[Ee]nter)\s+)\"([^\"\n]{1,60})\"", r"\1`\2`", text)
    return text


def _from_asciidoc(lines: list[str]) -> list[str]:
    out: list[str] = []
    lang = ""
    block = ""
    for line in lines:
        stripped = line.strip()
        if block:
            if stripped == block:
                out.append("```")
                block = ""
            else:
                out.append(line)
            continue
        if m := re.match(r"^\[(?:source|listing)(?:,\s*([\w+-]+))?[^\]]*\]$", stripped):
            lang = m.group(1) or "sh"
            out.append("")
        elif re.fullmatch(r"-{4,}|\.{4,}", stripped):
            block = stripped
            out.append(f"```{lang or 'text'}")
            lang = ""
        elif m := re.match(r"^(={1,6})\s+(\S.*)$", line):
            out.append("#" * len(m.group(1)) + " " + m.group(2))
        else:
            out.append(re.sub(r"(?<![\w`])\+?`([^`\n]+)`\+?(?![\w`])", r"`\1`", line))
    return out


def _from_org(lines: list[str]) -> list[str]:
    out: list[str] = []
    for line in lines:
        stripped = line.strip()
        if m := re.match(r"^#\+begin_(?:src|example)\s*([\w+-]*)", stripped, re.I):
            out.append(f"```{m.group(1) or 'text'}")
        elif re.match(r"^#\+end_(?:src|example)\b", stripped, re.I):
            out.append("```")
        elif stripped.startswith("#+"):
            out.append("")
        elif m := re.match(r"^(\*{1,6})\s+(\S.*)$", line):
            out.append("#" * len(m.group(1)) + " " + m.group(2))
        else:
            out.append(re.sub(r"(?<![\w])[~=]([^~=\s][^~=\n]*?)[~=](?![\w])", r"`\1`", line))
    return out


def _from_pod(lines: list[str]) -> list[str]:
    out: list[str] = []
    for line in lines:
        if m := re.match(r"^=head([1-4])\s+(\S.*)$", line):
            out.append("#" * int(m.group(1)) + " " + m.group(2))
        elif re.match(r"^=\w+", line):
            out.append("")
        else:
            out.append(re.sub(r"C<<+\s*(.+?)\s*>>+|C<([^<>\n]+)>", lambda m: f"`{m.group(1) or m.group(2)}`", line))
    return out
