"""Google Takeout, as the unpacked folder or the downloaded ``.zip`` (including split archives).

Takeout localises its folder names (``Mail``/``Gmail``, ``Calendar``/``Kalender``, and the
mbox is ``All mail Including Spam and Trash.mbox`` or ``Alle E-Mails einschließlich
Spam-Nachrichten und E.mbox``), so we do not look for names: every ``*.mbox`` in the archive is
mail, every ``*.ics`` a calendar, and documents are read only under a Drive folder (other
Takeout folders hold activity logs in HTML/JSON that are not the person's documents).

The work is delegated to the mbox, ics and document readers; items keep a source id that
says where they came from (``takeout:/path/takeout.zip!Takeout/Mail/All mail….mbox``). An mbox
inside a zip is copied to a private (0700) temporary folder because the mbox reader needs to
seek; the copy is deleted as soon as it has been read. Split archives (``…-001.zip``,
``…-002.zip``) are read together when the first part is given.
"""

from __future__ import annotations

import os
import re
import shutil
import stat
import tempfile
import zipfile
from collections.abc import Iterator
from dataclasses import replace
from datetime import datetime
from pathlib import Path, PurePosixPath

from bootstrap_app.errors import SourceError
from bootstrap_app.types import Item

from ..base import ReadContext, Source
from .folder import DOC_SUFFIXES, read_document
from .ics import read_calendar, read_calendar_bytes
from .mbox import read_mbox
from .walk import skips_under, walk_files

__all__ = ["TakeoutSource", "archive_parts", "classify"]

_INDEX_PAGES = frozenset({"archive_browser.html", "archiv_übersicht.html"})
_DRIVE_DIRS = frozenset({"drive", "google drive", "my drive", "meine ablage", "mi unidad", "mon drive"})
_DISK_MARGIN = 64 * 1024 * 1024
"""Room left on the disk after unpacking a member, for the store and everybody else."""
_SPLIT = re.compile(r"^(?P<stem>.+)-(?P<part>\d{3})\.zip$", re.IGNORECASE)


def classify(member: str) -> str:
    """"mbox", "ics", "doc" or "" for a path inside a Takeout archive."""
    p = PurePosixPath(member)
    suffix = p.suffix.lower()
    if suffix == ".mbox":
        return "mbox"
    if suffix == ".ics":
        return "ics"
    if suffix in DOC_SUFFIXES and any(part.lower() in _DRIVE_DIRS for part in p.parts[:-1]):
        return "doc"
    return ""


def archive_parts(path: Path) -> list[Path]:
    """All parts of a split Takeout archive given its first part (or just ``path``)."""
    m = _SPLIT.match(path.name)
    if not m:
        return [path]
    parts = sorted(p for p in path.parent.glob(f"{m.group('stem')}-*.zip")
                   if (part := _SPLIT.match(p.name)) and part.group("stem") == m.group("stem"))
    return parts or [path]


def _scratch(ctx: ReadContext) -> str | None:
    """The app folder's scratch space when the scan set one up, else the system's temp folder."""
    return ctx.scratch_dir if ctx.scratch_dir and os.path.isdir(ctx.scratch_dir) else None


def _zip_time(info: zipfile.ZipInfo) -> float:
    try:
        return datetime(*info.date_time).timestamp()  # zip times are local wall-clock
    except (ValueError, OverflowError, OSError):
        return 0.0


def _is_takeout_names(names: list[str]) -> bool:
    lowered = [n.lower() for n in names]
    if any(PurePosixPath(n).name in _INDEX_PAGES for n in lowered):
        return True
    return any(n.startswith("takeout/") for n in lowered) and any(classify(n) for n in names)


def _takeout_root(path: Path) -> Path | None:
    for candidate in (path, path / "Takeout"):
        if not candidate.is_dir():
            continue
        try:
            names = {c.name.lower() for c in candidate.iterdir()}
        except OSError:
            continue
        if names & _INDEX_PAGES:
            return candidate
    if path.name.lower() == "takeout" and path.is_dir():
        return path
    return None


_OTHER = "not Takeout mail, calendar or Drive data memseed reads"


def _failed(ctx: ReadContext) -> None:
    """One member of the export could not be read (its skip says why): the ledger's failed count."""
    ctx.units_failed += 1


class TakeoutSource(Source, kind="takeout", priority=10,
                    description="Google Takeout folder or .zip (mail, calendar, Drive)",
                    cursor_doc="per archive part: the cursor of the mbox/calendar/Drive reader that read it"):
    """A Google Takeout export (folder, zip, or the first of split zips)."""

    _count: int = 0

    @classmethod
    def sniff(cls, path: Path) -> bool:
        if path.is_dir():
            return _takeout_root(path) is not None
        if not (path.is_file() and path.suffix.lower() == ".zip"):
            return False
        m = _SPLIT.match(path.name)
        if m and m.group("part") != "001" and (path.parent / f"{m.group('stem')}-001.zip").exists():
            return False  # read together with the first part
        try:
            with zipfile.ZipFile(path) as zf:
                return _is_takeout_names(zf.namelist())
        except (zipfile.BadZipFile, OSError):
            return False

    def read(self, ctx: ReadContext) -> Iterator[Item]:
        path = self.local_path("Takeout folder or archive")
        cursors: dict[str, object] = dict((ctx.cursor or {}).get("files", {}))
        found = 0
        self._count = 0
        ctx.units_read = 0  # the ledger counts the export's files (members), not the items they hold
        if path.is_dir():
            root = _takeout_root(path) or path
            # a bounded walk: deep trees, unlistable folders and names that are not UTF-8 are
            # skipped with a reason instead of failing the export
            walk_skip = skips_under(path, self.id, ctx.skip, ctx.find)

            def lost(where: Path, why: str) -> None:
                _failed(ctx)
                walk_skip(where, why)

            for member in walk_files(root, lost,
                                     keep_dir=lambda d: not d.name.startswith("."),
                                     keep_file=lambda n: not n.startswith(".")):
                rel = str(member.relative_to(path)).replace("\\", "/")
                kind = classify(rel)
                ctx.find()
                if not kind:
                    ctx.pass_over(_OTHER)
                    continue
                found += 1
                try:
                    mtime = member.stat().st_mtime
                except OSError as exc:
                    _failed(ctx)
                    ctx.skip(self.id, rel, f"{rel}: unreadable ({exc.strerror or exc})")
                    continue
                yield from self._dispatch(kind, member, rel, mtime, ctx, cursors)
                if ctx.should_stop():
                    break
        else:
            counter = [0]
            for part in archive_parts(path):
                yield from self._read_zip(part, ctx, cursors, counter)
                if ctx.should_stop():
                    break
            found = counter[0]
        if not found:
            ctx.skip(self.id, str(path), f"{path}: no mail (.mbox), calendar (.ics) or Drive documents found "
                                         "in this Takeout export", note=True)
        ctx.progress(self.id, self._count)
        ctx.new_cursor = {"files": cursors}

    def _read_zip(self, part: Path, ctx: ReadContext, cursors: dict[str, object],
                  counter: list[int]) -> Iterator[Item]:
        try:
            zf = zipfile.ZipFile(part)
        except (zipfile.BadZipFile, OSError) as exc:
            raise SourceError(f"{part}: not a readable zip file ({exc})",
                              hint="download that Takeout part again") from exc
        with zf, tempfile.TemporaryDirectory(prefix="memseed-takeout-", dir=_scratch(ctx)) as tmp:  # 0700
            for info in zf.infolist():
                if info.is_dir():
                    continue
                kind = classify(info.filename)
                ctx.find()  # the ledger: each member ends read, failed, or passed over
                if not kind:
                    if info.filename.lower().endswith((".zip", ".tgz", ".tar.gz")):
                        ctx.skip(self.id, f"{part.name}!{info.filename}", f"{part}!{info.filename}: an archive "
                                 "inside the archive is not opened; unpack it and scan it on its own", note=True)
                        ctx.pass_over("archives inside the archive (not opened)")
                    else:
                        ctx.pass_over(_OTHER)
                    continue
                if stat.S_ISLNK(info.external_attr >> 16):
                    ctx.skip(self.id, f"{part.name}!{info.filename}",
                             f"{part}!{info.filename}: a symbolic link stored in the archive, not followed", note=True)
                    ctx.pass_over("symbolic links stored in the archive (not followed)")
                    continue
                counter[0] += 1
                rel = f"{part.name}!{info.filename}"
                if kind == "doc" and info.file_size > ctx.max_file_bytes:
                    _failed(ctx)
                    ctx.skip(f"{self.id}!{rel}", info.filename, f"{part}!{info.filename}: "
                             f"{info.file_size / 2**20:.1f} MB is over the per-file cap")
                    continue
                name = PurePosixPath(info.filename).name
                safe = name if name not in ("", ".", "..") and "\\" not in name else "member"
                target = Path(tmp) / str(counter[0]) / safe
                free = shutil.disk_usage(tmp).free
                if info.file_size + _DISK_MARGIN > free:
                    _failed(ctx)
                    ctx.skip(self.id, rel, f"{rel}: needs {info.file_size / 2**20:.0f} MB to unpack but the "
                                           f"disk has {free / 2**20:.0f} MB free; free space, or unzip the "
                                           "archive yourself and scan the folder")
                    continue
                try:
                    target.parent.mkdir()
                    with zf.open(info) as src, open(target, "wb") as dst:
                        shutil.copyfileobj(src, dst, 1 << 20)
                    stamp = _zip_time(info)
                    os.utime(target, (stamp, stamp))
                except (zipfile.BadZipFile, OSError, EOFError, RuntimeError) as exc:
                    _failed(ctx)
                    ctx.skip(self.id, rel, f"{rel}: cannot be extracted ({exc})")
                    continue
                try:
                    yield from self._dispatch(kind, target, rel, stamp, ctx, cursors, label=f"{part}!{info.filename}",
                                              stem=PurePosixPath(info.filename).stem, unpacked=True)
                finally:
                    target.unlink(missing_ok=True)
                if ctx.should_stop():
                    return

    def _dispatch(self, kind: str, file: Path, rel: str, mtime: float, ctx: ReadContext,
                  cursors: dict[str, object], *, label: str = "", stem: str = "",
                  unpacked: bool = False) -> Iterator[Item]:
        """Read one member; ``unpacked``: ``file`` is a temporary copy deleted after this read, so
        mail bodies are decoded now rather than when an analyzer first reads them."""
        source_id = f"{self.id}!{rel}"
        label = label or str(file)
        previous = cursors.get(rel)
        base = self._count

        def progress(_source: str, n: int) -> None:  # the scan knows the Takeout, not its parts
            ctx.progress(self.id, base + n)

        sub = replace(ctx, cursor=previous if isinstance(previous, dict) else None, new_cursor=None,
                      on_progress=progress, passed={}, units_read=None, units_failed=0)
        read = False
        try:
            if kind == "mbox":
                items: Iterator[Item] = read_mbox(file, source_id, sub, display=label, lazy=not unpacked)
            elif kind == "ics":
                items = read_calendar(read_calendar_bytes(file, sub, label), source_id, sub, label=label,
                                      file_stem=stem or file.stem)
                sub.new_cursor = {"mtime": mtime}
            else:
                doc = read_document(file, source_id, rel.rsplit("!", 1)[-1], sub,
                                    after=ctx.since.timestamp() if ctx.since else 0.0,
                                    display_path=label if "!" in rel else "")
                items = iter(() if doc is None else (doc,))
            for item in items:
                self._count += 1
                yield item
            read = kind != "doc" or doc is not None
        except SourceError as exc:  # one unreadable file never stops the whole Takeout
            reason = str(exc).split("\n")[0]
            ctx.skip(source_id, rel, f"{reason}; {exc.hint}" if exc.hint else reason)
        except OSError as exc:
            ctx.skip(source_id, rel, f"{label}: unreadable ({exc.strerror or exc})")
        if read:
            ctx.units_read = (ctx.units_read or 0) + 1
        elif kind == "doc" and sub.passed:  # a Drive file modified before --since
            for why, n in sub.passed.items():
                ctx.pass_over(why, n)
        else:
            _failed(ctx)
        if sub.new_cursor is not None:
            cursors[rel] = sub.new_cursor
