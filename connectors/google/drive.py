"""``google-drive:[ACCOUNT]`` (alias ``gdrive:``) — documents the owner owns or edited.

Listing asks Drive only for what can become text: not trashed, owned by or writable for the
owner, modified in the window, and of a document type; of those, files the owner neither owns
nor modified (``ownedByMe``/``modifiedByMe``) are passed over. Google Docs are exported as
Markdown, Slides as plain text, Sheets as CSV (the first sheet; Drive's 10 MB export cap
applies); other files (md, txt, pdf, docx, html) are downloaded when under
``ctx.max_file_bytes``. The text is extracted by the same code as local folders
(:func:`connectors.local.folder.read_document`) from a private temporary copy, deleted at once.

Shared drives: a file in a team's shared drive has no owner (the drive owns it), so
``'me' in owners`` never finds it and the default ``corpora=user`` listing never shows it. Each
shared drive the person is a member of (``drives.list``) is listed on its own
(``corpora=drive`` with ``driveId`` — Drive's advice over ``allDrives``, which is slower and may
answer with ``incompleteSearch``), and only files the owner modified (``modifiedByMe``) are kept:
the same "owned or edited" rule as in My Drive. Every call that may touch such a file says
``supportsAllDrives`` (without it Drive answers 404 for them), and the change feed asks for
``includeItemsFromAllDrives`` so a reseed sees edits there too.

Incremental: the cursor keeps a ``changes`` page token taken *before* the full listing; a
reseed reads the change feed since then and fetches only changed files.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from bootstrap_app.errors import QuotaExceeded, SourceError, SourceOffline
from bootstrap_app.types import Document, Item, Person

from ..base import ReadContext
from ..local.folder import OVER_CAP, read_document
from ..local.ics import DAYS_BACK
from .client import GoogleSession
from .source import GoogleSource

__all__ = ["EXPORTS", "GoogleDriveSource", "drive_query"]

EXPORTS: dict[str, tuple[str, str]] = {
    "application/vnd.google-apps.document": ("text/markdown", ".md"),
    "application/vnd.google-apps.presentation": ("text/plain", ".txt"),
    "application/vnd.google-apps.spreadsheet": ("text/csv", ".csv"),
}
DOWNLOADS: dict[str, str] = {
    "text/plain": ".txt", "text/markdown": ".md", "text/x-markdown": ".md", "text/html": ".html",
    "application/pdf": ".pdf",
    "application/vnd.openxmlformats-officedocument.wordprocessingml.document": ".docx",
}
FIELDS = ("id,name,mimeType,modifiedTime,size,ownedByMe,modifiedByMe,webViewLink,trashed,driveId,"
          "owners(displayName,emailAddress),lastModifyingUser(displayName,emailAddress)")
YEARS_BACK = 3


def drive_query(since: datetime, *, shared_drive: bool = False) -> str:
    """Drive's ``q`` for documents modified since ``since``: in My Drive / Shared with me those the
    owner owns or may write; in a shared drive (no owners there) all of them, and the caller
    keeps what the owner modified."""
    kinds = " or ".join(f"mimeType = '{m}'" for m in (*EXPORTS, *DOWNLOADS))
    stamp = since.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S")
    mine = "" if shared_drive else "('me' in owners or 'me' in writers) and "
    return f"trashed = false and {mine}modifiedTime > '{stamp}' and ({kinds})"


def _stamp(value: str) -> float:
    try:
        return datetime.fromisoformat(value.replace("Z", "+00:00")).timestamp()
    except (ValueError, AttributeError):
        return 0.0


class GoogleDriveSource(GoogleSource, kind="google-drive",
                        description="Google Drive documents you own or edited (`memseed auth google` first)",
                        uri_schemes=("google-drive", "gdrive"),
                        cursor_doc="account and the Drive changes page token taken before the last read"):
    """Google Drive documents the owner owns or edited (read-only)."""

    def read(self, ctx: ReadContext) -> Iterator[Item]:
        session = self.session(ctx)
        api = session.drive()
        # who is signed in, every time: a changes token from another account's Drive is no cursor here
        about = session.call(api.about().get(fields="user(emailAddress)"), units=1)
        account = str((about.get("user") or {}).get("emailAddress", "")).lower()
        cur = self.cursor_for(ctx, account)
        since = ctx.since or datetime.now(UTC) - timedelta(days=max(DAYS_BACK, 365 * YEARS_BACK))
        if cur.get("page_token"):
            files, token = self._changes(session, api, str(cur["page_token"]), since)
        else:
            token = str(session.call(api.changes().getStartPageToken(supportsAllDrives=True),
                                     units=1).get("startPageToken", ""))
            files = self._list(session, api, since, lambda ref, why: self._lost(ctx, ref, why))
        count = 0
        ctx.find(len(files))  # the ledger: each file listed ends as a document, a skip or passed over
        with tempfile.TemporaryDirectory(prefix="memseed-drive-") as tmp:  # mode 0700
            for meta in files:
                if ctx.should_stop():
                    return
                if not (meta.get("ownedByMe") or meta.get("modifiedByMe")):
                    ctx.pass_over("shared with you, neither owned nor edited by you")
                    continue
                doc = self._document(session, api, meta, Path(tmp), ctx)
                if doc is not None:
                    count += 1
                    yield doc
                    ctx.progress(self.id, count)
        ctx.new_cursor = {"account": account, "page_token": token}

    def _lost(self, ctx: ReadContext, ref: str, why: str) -> None:
        """A listing that failed (the shared drives, one drive): one unit of the ledger, failed."""
        ctx.find()
        ctx.skip(self.id, ref, why)

    @staticmethod
    def _list(session: GoogleSession, api: Any, since: datetime,
              skip: Callable[[str, str], None]) -> list[dict[str, Any]]:
        """My Drive and Shared with me, then each shared drive the owner is a member of.

        The shared drives are an optional part of the read: when Drive answers an error to their
        listing (or to one drive's files), that part is skipped with its reason and the rest is
        kept — a 404 on ``drives.list`` must not cost the person their whole Drive.
        """
        def pages(**kw: Any) -> Iterator[dict[str, Any]]:
            page = None
            while True:
                answer = session.call(api.files().list(pageSize=1000, pageToken=page, spaces="drive",
                                                       orderBy="modifiedTime desc", supportsAllDrives=True,
                                                       fields=f"nextPageToken,files({FIELDS})", **kw), units=1)
                yield from answer.get("files", []) or []
                page = answer.get("nextPageToken")
                if not page:
                    return

        files = {str(f["id"]): f for f in pages(q=drive_query(since), corpora="user")}
        drives: list[dict[str, Any]] = []
        page = None
        try:
            while True:
                answer = session.call(api.drives().list(pageSize=100, pageToken=page,
                                                        fields="nextPageToken,drives(id,name)"), units=1)
                drives += answer.get("drives", []) or []
                page = answer.get("nextPageToken")
                if not page:
                    break
        except SourceError as exc:
            skip("shared drives", f"shared drives not listed ({str(exc).splitlines()[0]}); "
                                  "My Drive and Shared with me were read")
        for drive in drives:
            try:
                for meta in pages(q=drive_query(since, shared_drive=True), corpora="drive",
                                  driveId=str(drive["id"]), includeItemsFromAllDrives=True):
                    if meta.get("modifiedByMe"):  # the owner edited it: the rule of My Drive, too
                        files.setdefault(str(meta["id"]), meta)
            except SourceError as exc:
                skip(f"shared drive {drive.get('name') or drive['id']}",
                     f"not read ({str(exc).splitlines()[0]}); the other drives were")
        return list(files.values())

    @staticmethod
    def _changes(session: GoogleSession, api: Any, token: str, since: datetime) -> tuple[list[dict[str, Any]], str]:
        files: dict[str, dict[str, Any]] = {}
        page: str = token
        while True:
            answer = session.call(api.changes().list(
                pageToken=page, pageSize=1000, includeRemoved=False, restrictToMyDrive=False, spaces="drive",
                includeItemsFromAllDrives=True, supportsAllDrives=True,
                fields=f"nextPageToken,newStartPageToken,changes(fileId,removed,file({FIELDS}))"), units=1)
            for change in answer.get("changes", []) or []:
                meta = change.get("file")
                if change.get("removed") or not meta or meta.get("trashed"):
                    continue
                wanted = meta.get("mimeType") in EXPORTS or meta.get("mimeType") in DOWNLOADS
                if wanted and _stamp(str(meta.get("modifiedTime", ""))) >= since.timestamp():
                    files[str(meta["id"])] = meta
            if answer.get("newStartPageToken"):
                return list(files.values()), str(answer["newStartPageToken"])
            page = str(answer["nextPageToken"])

    def _document(self, session: GoogleSession, api: Any, meta: dict[str, Any], tmp: Path,
                  ctx: ReadContext) -> Document | None:
        fid, name, mime = str(meta["id"]), str(meta.get("name", "untitled")), str(meta.get("mimeType", ""))
        source_id, display = self.id, f"{name} ({meta.get('webViewLink') or fid})"
        if mime in EXPORTS:
            target_mime, suffix = EXPORTS[mime]
            request = api.files().export(fileId=fid, mimeType=target_mime)
        else:
            suffix = DOWNLOADS.get(mime, "")
            size = int(meta.get("size", 0) or 0)
            if size > ctx.max_file_bytes:
                # a cap is a choice (the person can raise it), not a failure: named, and passed over
                ctx.skip(source_id, fid, f"{display}: {size / 2**20:.1f} MB is over the "
                                         f"{ctx.max_file_bytes / 2**20:.0f} MB per-file cap", note=True)
                ctx.pass_over(OVER_CAP)
                return None
            request = api.files().get_media(fileId=fid, supportsAllDrives=True)
        try:
            data = session.call(request, units=1)
        except (QuotaExceeded, SourceOffline):
            raise
        except SourceError as exc:  # one file Google will not hand out never stops the Drive
            ctx.skip(source_id, fid, f"{display}: {str(exc).splitlines()[0]}")
            return None
        path = tmp / f"{fid}{suffix}"
        path.write_bytes(data if isinstance(data, bytes) else str(data).encode("utf-8"))
        stamp = _stamp(str(meta.get("modifiedTime", "")))
        if stamp:
            os.utime(path, (stamp, stamp))
        try:
            # the document's address is its link (what a reference memory cites), not our temp copy
            doc = read_document(path, source_id, fid, ctx, display_path=str(meta.get("webViewLink") or display))
        finally:
            path.unlink(missing_ok=True)
        if doc is None:
            return None
        owners = tuple(Person(name=str(o.get("displayName", "")), address=str(o.get("emailAddress", "")))
                       for o in meta.get("owners", []) or [])
        title = ctx.clean(" ".join(name.split()), 300) if mime in EXPORTS else doc.title
        return replace(doc, title=title, people=owners, authored_by_owner=True if meta.get("ownedByMe") else None)
