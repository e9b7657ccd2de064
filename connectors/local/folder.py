"""Document folders: Markdown, text, reStructuredText, Word (.docx), OpenDocument (.odt), PDF and HTML.

A document folder is the catch-all, so it must be modest: it claims a folder only when the
folder holds documents and *no other recognisable source* (an mbox, a calendar, a git repo, a
Slack export ...) at its top level or one level down — the registry checks that, since only it
knows the other sources (:func:`connectors.registry.detect`). Anything else is a "footprint"
folder, which the registry walks so each part gets its own connector. While reading, sub-folders
that are sources of their own (a git repo inside ``projects/``) are left to them
(``ctx.claimed``, set by the pipeline from the registry).

Each file is read on its own, capped by size (``ctx.max_file_bytes``) and by text length
(``ctx.max_text_chars``); binary files wearing a text extension, unreadable files and broken
Word/PDF files are skipped with a reason. Non-UTF-8 text is decoded as cp1252 (or latin-1)
and noted.
"""

from __future__ import annotations

import os
import re
import stat
import warnings
import zipfile
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path

from bootstrap_app.errors import SourceError
from bootstrap_app.text.paths import printable
from bootstrap_app.types import Document, Item, Person

from ..base import ReadContext, Source
from .docmeta import OLE_MAGIC, OdtUnreadable, front_matter_people, html_people, people_from_names, read_odt
from .htmltext import html_to_text
from .walk import ChangeCursor, not_read, skips_under, walk_files

__all__ = ["DOC_SUFFIXES", "OVER_CAP", "DocumentFolderSource", "extract_document", "read_document"]

OVER_CAP = "files over the per-file size cap (not downloaded)"
"""A signed-in account's file over ``ctx.max_file_bytes``: passed over (a cap the person can raise),
named in the skips."""
DOC_SUFFIXES = frozenset({".md", ".markdown", ".txt", ".rst", ".docx", ".odt", ".pdf", ".html", ".htm"})
_TEXT_SUFFIXES = frozenset({".md", ".markdown", ".txt", ".rst"})
_SKIP_DIRS = frozenset({".git", "node_modules", ".venv", "venv", "__pycache__", ".tox", ".mypy_cache"})
_MD_HEADING = re.compile(r"^#{1,3}\s+(.+?)\s*#*\s*$", re.MULTILINE)
_FRONT_TITLE = re.compile(r"\A---\s*\n(?:.*\n)*?title:\s*[\"']?(.+?)[\"']?\s*\n(?:.*\n)*?---", re.MULTILINE)
_RST_TITLE = re.compile(r"^(?:[=\-~^#*]{3,}\n)?(\S.{1,200})\n[=\-~^#*]{3,}\s*$", re.MULTILINE)
_HTML_TITLE = re.compile(r"<title[^>]*>(.*?)</title>", re.IGNORECASE | re.DOTALL)
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0e-\x1f\x7f]")


class _Unreadable(Exception):
    """A file that cannot be turned into text; the message is the skip reason."""


def _decode_text(data: bytes) -> tuple[str, str]:
    """(text, encoding) — UTF-8 first, then cp1252, then latin-1. Binary data raises."""
    if b"\x00" in data[:8192]:
        raise _Unreadable("binary content (NUL bytes), not a text document")
    for encoding in ("utf-8-sig", "cp1252", "latin-1"):
        try:
            text = data.decode(encoding)
        except UnicodeDecodeError:
            continue
        sample = text[:8192]
        if sample and len(_CONTROL.findall(sample)) > len(sample) // 20:
            raise _Unreadable("binary content (control characters), not a text document")
        return text, "utf-8" if encoding == "utf-8-sig" else encoding
    raise _Unreadable("cannot be decoded as text")  # pragma: no cover - latin-1 decodes anything


def _text_title(text: str, suffix: str) -> str:
    if suffix in (".md", ".markdown"):
        m = _FRONT_TITLE.match(text) or _MD_HEADING.search(text[:20000])
        return m.group(1).strip() if m else ""
    if suffix == ".rst":
        m = _RST_TITLE.search(text[:5000])
        return m.group(1).strip() if m else ""
    return ""


_MAX_INFLATED = 64 * 1024 * 1024
"""A docx whose parts inflate beyond this is refused before python-docx loads them whole."""


def _refuse_zip_bomb(path: Path, kind: str) -> None:
    """A Word file is a zip: refuse one whose declared contents would not fit in bounded memory."""
    try:
        with zipfile.ZipFile(path) as zf:
            inflated = sum(i.file_size for i in zf.infolist() if i.filename.endswith((".xml", ".rels")))
    except (zipfile.BadZipFile, OSError, ValueError):
        return  # not a zip at all: the reader says what it is
    if inflated > _MAX_INFLATED:
        raise _Unreadable(f"{kind} file whose text parts inflate to {inflated / 2**20:.0f} MB, over the "
                          f"{_MAX_INFLATED / 2**20:.0f} MB limit (a zip bomb?)")


def _docx(path: Path, cap: int) -> tuple[str, str, tuple[Person, ...]]:
    import docx

    _refuse_zip_bomb(path, "Word")
    try:
        doc = docx.Document(str(path))
    except Exception as exc:  # python-docx raises zipfile/KeyError/ValueError on broken files
        with open(path, "rb") as f:
            if f.read(8) == OLE_MAGIC:
                raise _Unreadable("password-protected Word file; save a copy without a password to have it "
                                  "read") from exc
        raise _Unreadable(f"not a readable Word file ({type(exc).__name__}: {exc})") from exc
    parts: list[str] = []
    size = 0
    heading = ""
    for para in doc.paragraphs:
        if not heading and para.style is not None and (para.style.name or "").lower().startswith(("heading", "title")):
            heading = para.text.strip()
        parts.append(para.text)
        size += len(para.text) + 1
        if size > cap:
            break
    for table in doc.tables:
        if size > cap:
            break
        for row in table.rows:
            line = " | ".join(cell.text.strip() for cell in row.cells)
            parts.append(line)
            size += len(line) + 1
    props = doc.core_properties
    title = (props.title or "").strip() or heading
    # the author; the last editor only stands in when no author is recorded (editing a
    # colleague's document does not make it yours, as for Drive files). A name the file's own
    # description gives as its generator ("generated by python-docx") is software, not a person.
    generator = (props.comments or "").lower()
    author, editor = ((n or "") for n in (props.author, props.last_modified_by))
    people = [people_from_names(n) for n in (author, editor) if n and n.lower() not in generator]
    return "\n".join(parts), title, next((p for p in people if p), ())


def _pdf(path: Path, cap: int) -> tuple[str, str, tuple[Person, ...]]:
    from pypdf import PdfReader
    from pypdf.errors import PdfReadError

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            reader = PdfReader(str(path))
            if reader.is_encrypted and not reader.decrypt(""):
                raise _Unreadable("encrypted PDF (password needed)")
            meta = reader.metadata
            title = str(meta.title or "").strip() if meta else ""
            people = people_from_names(str(meta.author or "")) if meta else ()
            parts: list[str] = []
            size = 0
            for page in reader.pages:
                text = page.extract_text() or ""
                parts.append(text)
                size += len(text)
                if size > cap:
                    break
    except _Unreadable:
        raise
    except (PdfReadError, ValueError, KeyError, TypeError, AttributeError, OSError, NotImplementedError) as exc:
        raise _Unreadable(f"not a readable PDF ({type(exc).__name__}: {exc})") from exc
    return "\n".join(parts), title, people


def extract_document(path: Path, ctx: ReadContext) -> tuple[str, str, str, tuple[Person, ...]]:
    """(text, title, note, authors) of one document file; raises _Unreadable with the skip reason.
    Authors come from the file's own properties (see :mod:`.docmeta`)."""
    suffix = path.suffix.lower()
    cap = ctx.max_text_chars
    note = ""
    people: tuple[Person, ...] = ()
    if suffix in (".docx",):
        text, title, people = _docx(path, cap)
    elif suffix == ".pdf":
        text, title, people = _pdf(path, cap)
    elif suffix == ".odt":
        try:
            text, title, people = read_odt(path, cap)
        except OdtUnreadable as exc:
            raise _Unreadable(str(exc)) from exc
    else:
        with open(path, "rb") as f:
            data = f.read(ctx.max_file_bytes + 1)
        raw, encoding = _decode_text(data)
        if encoding != "utf-8":
            note = encoding
        if suffix in (".html", ".htm"):
            m = _HTML_TITLE.search(raw[:20000])
            title = html_to_text(m.group(1)) if m else ""
            text = html_to_text(raw)
            people = html_people(raw)
        else:
            text, title = raw, _text_title(raw, suffix)
            people = front_matter_people(raw) if suffix in (".md", ".markdown") else ()
    return text, title or path.stem, note, people


def _documents(root: Path, claimed: Callable[[Path], bool], on_skip: Callable[[Path, str], None],
               on_other: Callable[[Path], None] | None = None) -> Iterator[Path]:
    if root.is_file():
        yield root
        return
    yield from walk_files(
        root, on_skip,
        keep_dir=lambda d: not d.name.startswith(".") and d.name not in _SKIP_DIRS and not claimed(d),
        keep_file=lambda n: not n.startswith(".") and os.path.splitext(n)[1].lower() in DOC_SUFFIXES,
        on_other=on_other)


class DocumentFolderSource(Source, kind="folder", priority=90, catch_all=True,
                           description="folder of documents (md, txt, rst, docx, odt, pdf, html)",
                           cursor_doc="newest modification and inode-change time read "
                                      "(documents older in both are passed over)"):
    """A folder of documents (or one document file); the catch-all, detected last."""

    @property
    def label(self) -> str:
        """One file is a document, not a folder (the kind stays ``folder``: it is part of the id)."""
        return "document" if Path(self.location).expanduser().is_file() else self.kind

    @classmethod
    def sniff(cls, path: Path) -> bool:
        if path.is_file():
            return path.suffix.lower() in DOC_SUFFIXES
        if not path.is_dir() or path.name in _SKIP_DIRS or (path / ".git").exists():
            return False
        children = [c for c in sorted(path.iterdir()) if not c.name.startswith(".") and c.name not in _SKIP_DIRS]
        # whether a part belongs to another source is the registry's call (it knows them all)
        has_docs = any(child.is_file() and child.suffix.lower() in DOC_SUFFIXES for child in children)
        return has_docs

    def read(self, ctx: ReadContext) -> Iterator[Item]:
        root = self.local_path()
        marks = ChangeCursor.load(ctx.cursor)  # a file copied in with an old mtime is still read
        since = ctx.since.timestamp() if ctx.since else 0.0
        count, stopped = 0, False
        recoded: list[str] = []

        try:
            for path in _documents(root, ctx.claimed, skips_under(root, self.id, ctx.skip, ctx.find),
                                   not_read(ctx.find, ctx.pass_over)):
                if ctx.should_stop():
                    stopped = True
                    break
                ctx.find()  # the ledger: each document ends as an item, a skip or passed over
                ref = path.name if path == root else str(path.relative_to(root))
                try:
                    st = path.stat()
                except OSError as exc:
                    ctx.skip(self.id, ref, f"{path}: unreadable ({exc.strerror or exc})")
                    continue
                if marks.seen(st):
                    ctx.pass_over("unchanged since the last read")
                    continue
                doc = read_document(path, self.id, ref, ctx, after=since, recoded=recoded, st=st)
                if doc is None:
                    continue
                marks.note(st)
                count += 1
                if count % 100 == 0:
                    ctx.progress(self.id, count)
                yield doc
        except OSError as exc:
            raise SourceError(f"{root}: cannot list folder ({exc.strerror})",
                              hint="check the folder's permissions") from exc
        if recoded:
            ctx.skip(self.id, "(encoding)", f"{len(recoded)} file(s) not UTF-8, read with a fallback "
                                            f"encoding: {', '.join(recoded[:10])}", note=True)
        ctx.progress(self.id, count)
        if not stopped:
            ctx.new_cursor = marks.cursor()


def read_document(path: Path, source_id: str, ref: str, ctx: ReadContext, *, after: float = 0.0,
                  recoded: list[str] | None = None, display_path: str = "",
                  st: os.stat_result | None = None) -> Document | None:
    """One document file -> Document, or None with a skip (unreadable, over the cap, binary).

    Files modified before ``after`` (a timestamp) are passed over silently. ``st`` is the
    file's stat when the caller already has it. Shared with the Takeout connector, which reads
    Drive files the same way.
    """
    if st is None:
        try:
            st = path.stat()
        except OSError as exc:
            ctx.skip(source_id, ref, f"{display_path or path}: unreadable ({exc.strerror or exc})")
            return None
    if not stat.S_ISREG(st.st_mode):
        ctx.skip(source_id, ref, f"{display_path or path}: not a regular file")
        return None
    if after and st.st_mtime < after:
        ctx.pass_over("modified before --since")
        return None
    if st.st_size > ctx.max_file_bytes:
        # a choice, as for a signed-in account's files (OVER_CAP): the file is not broken, and the
        # cap is a setting the person can raise; named in the skips, not a failure of the scan
        ctx.skip(source_id, ref, f"{display_path or path}: passed over: {st.st_size / 2**20:.1f} MB is over the "
                                 f"{ctx.max_file_bytes / 2**20:.0f} MB per-file cap (max_file_bytes in config.toml, "
                                 f"or MEMSEED_MAX_FILE_BYTES, raises it)")
        return None
    try:
        text, title, note, people = extract_document(path, ctx)
        after_st = path.stat()
    except _Unreadable as exc:
        ctx.skip(source_id, ref, f"{display_path or path}: {exc}")
        return None
    except OSError as exc:
        ctx.skip(source_id, ref, f"{display_path or path}: unreadable ({exc.strerror or exc})")
        return None
    if (after_st.st_size, after_st.st_mtime_ns) != (st.st_size, st.st_mtime_ns):
        ctx.skip(source_id, ref, f"{display_path or path}: changed while being read; it is read again on the "
                                 "next scan")
        return None
    if note and recoded is not None:
        recoded.append(f"{ref} ({note})")
    return Document(
        source=source_id,
        ref=ref,
        timestamp=datetime.fromtimestamp(st.st_mtime, UTC),
        people=people,
        path=display_path or printable(path.resolve()),
        title=ctx.clean(" ".join(title.split()), 300),
        text=ctx.clean(text),
        doc_format=path.suffix.lower().lstrip("."),
        size=st.st_size,
        truncated=len(text) > ctx.max_text_chars,
    )
