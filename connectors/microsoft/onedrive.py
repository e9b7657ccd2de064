"""OneDrive documents through Microsoft Graph (``onedrive:[ACCOUNT]``).

``/me/drive/root/delta`` walks the whole drive once and then, through its delta link, only
what changed — the deprecated ``/me/drive/recent`` is not used (it stops answering in 2026).
Only files the owner created or last modified count (a file shared into the drive by someone
else says nothing about the owner), only document types the folder connector reads, and only
within ``ctx.max_file_bytes``: metadata in the delta page decides before any download.

Text comes from the same extractor as local document folders
(:func:`connectors.local.folder.extract_document`), so a .docx in OneDrive and the same file
on disk give the same Document. The content is streamed to a private temporary file because
the Word/PDF readers need a file, and deleted right after.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any, ClassVar

from bootstrap_app.errors import SourceError
from bootstrap_app.types import Document, Item

from ..base import ReadContext
from ..local.folder import DOC_SUFFIXES, OVER_CAP, _Unreadable, extract_document
from .graph import GraphClient
from .source import GraphSource, parse_graph_time

__all__ = ["OneDriveSource", "drive_path"]

_HEADERS = {"Prefer": "odata.maxpagesize=200"}


def drive_path(item: dict[str, Any]) -> str:
    """Path of an item inside the drive (``Projects/plan.docx``), from its parent reference."""
    parent = str((item.get("parentReference") or {}).get("path") or "")
    _, sep, rest = parent.partition("root:")
    folder = rest.strip("/") if sep else ""
    name = str(item.get("name") or item.get("id") or "")
    return f"{folder}/{name}" if folder else name


def _by_owner(item: dict[str, Any], me: dict[str, str]) -> bool:
    ids = {me.get("id", "").lower()} - {""}
    mails = {m.lower() for m in (me.get("mail", ""), me.get("upn", "")) if m}
    for role in ("createdBy", "lastModifiedBy"):
        user = (item.get(role) or {}).get("user") or {}
        if str(user.get("id") or "").lower() in ids or str(user.get("email") or "").lower() in mails:
            return True
    return False


class OneDriveSource(GraphSource, kind="onedrive",
                     description="OneDrive documents you created or edited (Microsoft Graph, read-only)",
                     cursor_doc="drive root delta link of the last complete read; /me entry (the owner's Graph id)"):
    """Documents in a Microsoft account's OneDrive that the owner created or edited."""

    scope: ClassVar[str] = "Files.Read"

    def read(self, ctx: ReadContext) -> Iterator[Item]:
        client, _ = self.client(ctx)
        cursor = self.saved_cursor(ctx)
        me = self.me(client, ctx)  # the owner's Graph id decides which files are theirs
        count = 0
        for page, link in client.delta("me/drive/root/delta", cursor.get("delta"), headers=_HEADERS):
            for item in page:
                doc = self._document(client, item, me, ctx)
                if doc is not None:
                    count += 1
                    yield doc
            ctx.progress(self.id, count)
            if ctx.should_stop():
                return
            if link:
                ctx.new_cursor = {"delta": link, "me": me}

    def _document(self, client: GraphClient, item: dict[str, Any], me: dict[str, str],
                  ctx: ReadContext) -> Document | None:
        if "deleted" in item or "@removed" in item or "file" not in item:
            return None  # a deletion or a folder: no file to account for
        ctx.find()  # the ledger: each file listed ends as a document, a skip or passed over
        ref = drive_path(item)
        suffix = Path(str(item.get("name") or "")).suffix.lower()
        if suffix not in DOC_SUFFIXES:
            ctx.pass_over(f"not a kind of file memseed reads ({suffix or 'no extension'})")
            return None
        if not _by_owner(item, me):
            ctx.pass_over("shared with you, neither owned nor edited by you")
            return None
        size = int(item.get("size") or 0)
        if size > ctx.max_file_bytes:
            # a cap is a choice (the person can raise it), not a failure: named, and passed over
            ctx.skip(self.id, ref, f"{size / 2**20:.1f} MB is over the {ctx.max_file_bytes / 2**20:.0f} MB "
                                   f"per-file cap", note=True)
            ctx.pass_over(OVER_CAP)
            return None
        fd, name = tempfile.mkstemp(prefix="memseed-onedrive-", suffix=suffix)
        tmp = Path(name)
        try:
            with os.fdopen(fd, "wb") as out:
                if not self._download(client, item, out, ctx):
                    ctx.skip(self.id, ref, f"larger than the {ctx.max_file_bytes / 2**20:.0f} MB per-file cap",
                             note=True)
                    ctx.pass_over(OVER_CAP)
                    return None
            text, title, _, people = extract_document(tmp, ctx)
        except _Unreadable as exc:
            ctx.skip(self.id, ref, str(exc))
            return None
        except SourceError as exc:
            if type(exc) is not SourceError:  # offline, quota: the whole read stops
                raise
            ctx.skip(self.id, ref, str(exc).splitlines()[0])  # a 404/409 on one file: skip it, go on
            return None
        finally:
            with contextlib.suppress(OSError):
                tmp.unlink()
        when = parse_graph_time(item.get("lastModifiedDateTime")) or parse_graph_time(item.get("createdDateTime"))
        return Document(
            source=self.id,
            ref=ref,
            timestamp=when,
            people=people,
            authored_by_owner=True,
            path=str(item.get("webUrl") or f"{self.id}/{ref}"),
            title=ctx.clean(" ".join((title if title != tmp.stem else Path(ref).stem).split()), 300),
            text=ctx.clean(text),
            doc_format=suffix.lstrip("."),
            size=size,
            truncated=len(text) > ctx.max_text_chars,
        )

    def _download(self, client: GraphClient, item: dict[str, Any], out: Any, ctx: ReadContext) -> bool:
        """Stream ``/content`` (Graph redirects to a pre-authenticated URL) within the size cap."""
        resp = client.get(f"me/drive/items/{item.get('id')}/content", stream=True, headers={"Accept": "*/*"})
        written = 0
        with resp:
            for chunk in resp.iter_content(64 * 1024):
                written += len(chunk)
                if written > ctx.max_file_bytes:
                    return False
                out.write(chunk)
        return True
