"""Gmail, Calendar and Drive resources of the stand-in: path -> (status, headers, body, name).

Only what the connector and its tests use is implemented, but each part follows the real
API: paging with opaque tokens, Gmail's ``q`` operators (an unknown one is a 400 so a query
typo cannot pass silently), ``history.list`` 404 below the kept history, Calendar's
``syncToken`` (410 ``fullSyncRequired``; ``timeMin`` with a sync token is a 400), Drive's
``q`` grammar, ``export`` and ``alt=media``, and ``changes`` with ``newStartPageToken``.
"""

from __future__ import annotations

import json
import re
import urllib.parse
from typing import Any

from .google_world import SCOPES, World

__all__ = ["BATCH_PATH", "PREFIXES", "as_json", "error", "route"]

Answer = tuple[int, dict[str, str], bytes, str]
PREFIXES = {"gmail": ["gmail", "v1", "users", "me"], "calendar": ["calendar", "v3"], "drive": ["drive", "v3"]}
"""The only paths the real services answer under the API root (the contract of MEMSEED_GOOGLE_API_ROOT)."""
BATCH_PATH = "/batch/gmail/v1"
"""Gmail's batch endpoint (the global ``/batch`` endpoint was turned off in 2020)."""
_SCOPE_OF = {"gmail": SCOPES[0], "calendar": SCOPES[1], "drive": SCOPES[2]}


def as_json(status: int, body: Any) -> tuple[int, dict[str, str], bytes]:
    return status, {"Content-Type": "application/json; charset=UTF-8"}, json.dumps(body).encode()


def error(status: int, message: str, reason: str, state: str) -> tuple[int, dict[str, str], bytes]:
    """Google's JSON error body (both the ``errors[].reason`` and the ``status`` style)."""
    return as_json(status, {"error": {"code": status, "message": message, "status": state,
                                      "errors": [{"message": message, "domain": "global", "reason": reason}]}})


def _ok(body: Any, name: str) -> Answer:
    return (*as_json(200, body), name)


def _err(status: int, message: str, reason: str, state: str, name: str) -> Answer:
    return (*error(status, message, reason, state), name)


def _page(items: list[Any], query: dict[str, list[str]], size_key: str, default: int) -> tuple[list[Any], str]:
    """One page; a token this server never handed out is a ValueError (a 400, as Google answers)."""
    start = int(query.get("pageToken", ["0"])[0] or 0)
    size = int(query.get(size_key, [str(default)])[0])
    nxt = start + size
    return items[start:nxt], str(nxt) if nxt < len(items) else ""


def route(world: World, method: str, path: str, query: dict[str, list[str]], scopes: tuple[str, ...]) -> Answer:
    parts = [urllib.parse.unquote(p) for p in path.strip("/").split("/")]
    service = next((name for name, prefix in PREFIXES.items() if parts[:len(prefix)] == prefix), "")
    if not service:  # e.g. /calendars/... without calendar/v3: the API root was not applied as the issue says
        return _err(404, f"no such API: {path}", "notFound", "NOT_FOUND", "unknown")
    if _SCOPE_OF[service] not in scopes:
        return _err(403, "Request had insufficient authentication scopes.", "insufficientPermissions",
                    "PERMISSION_DENIED", f"{service}.denied")
    rest = parts[len(PREFIXES[service]):]
    serve = {"gmail": _gmail, "calendar": _calendar, "drive": _drive}[service]
    try:
        return serve(world, rest, query)
    except ValueError as exc:  # an unparsable parameter: a page token, a number
        return _err(400, f"Invalid value: {exc}", "invalid", "INVALID_ARGUMENT", f"{service}.invalid")


# -- Gmail --------------------------------------------------------------------------------
def _gmail(world: World, rest: list[str], query: dict[str, list[str]]) -> Answer:
    if rest == ["profile"]:
        return _ok({"emailAddress": world.account, "messagesTotal": len(world.mails),
                    "threadsTotal": len({m.thread_id for m in world.mails.values()}),
                    "historyId": str(world.history_id)}, "profile")
    if rest == ["labels"]:
        system = ["INBOX", "SENT", "IMPORTANT", "STARRED", "UNREAD", "DRAFT", "SPAM", "TRASH", "CHAT"]
        labels = [{"id": x, "name": x, "type": "system"} for x in system]
        labels += [{"id": k, "name": v, "type": "user"} for k, v in world.user_labels.items()]
        return _ok({"labels": labels}, "labels.list")
    if rest == ["settings", "sendAs"]:
        aliases = [{"sendAsEmail": a, "isPrimary": a == world.account} for a in [world.account, *world.send_as]]
        return _ok({"sendAs": aliases}, "sendAs.list")
    if rest == ["messages"]:
        q = query.get("q", [""])[0]
        try:
            hits = [m for m in world.mails.values() if world.matches(m, q, query.get("labelIds", []))]
        except (ValueError, KeyError) as exc:
            return _err(400, f"Invalid query: {exc}", "invalidArgument", "INVALID_ARGUMENT", "messages.list")
        hits.sort(key=lambda m: (m.internal_ms, m.id), reverse=True)
        page, nxt = _page(hits, query, "maxResults", 100)
        body: dict[str, Any] = {"resultSizeEstimate": len(hits)}
        if page:
            body["messages"] = [{"id": m.id, "threadId": m.thread_id} for m in page]
        if nxt:
            body["nextPageToken"] = nxt
        return _ok(body, "messages.list")
    if len(rest) == 2 and rest[0] == "messages":
        mail = world.mails.get(rest[1])
        if mail is None:
            return _err(404, "Requested entity was not found.", "notFound", "NOT_FOUND", "messages.get")
        fmt = query.get("format", ["full"])[0]
        return _ok(world.message_json(mail, fmt, query.get("metadataHeaders", [])), f"messages.get.{fmt}")
    if rest == ["history"]:
        start = int(query["startHistoryId"][0])
        if start < world.history_floor:
            return _err(404, "Requested entity was not found.", "notFound", "NOT_FOUND", "history.list")
        added = sorted((m for m in world.mails.values() if m.history_id > start), key=lambda m: m.history_id)
        page, nxt = _page(added, query, "maxResults", 100)
        body = {"historyId": str(world.history_id), "history": [
            {"id": str(m.history_id), "messages": [{"id": m.id, "threadId": m.thread_id}],
             "messagesAdded": [{"message": {"id": m.id, "threadId": m.thread_id, "labelIds": m.labels}}]}
            for m in page]}
        if nxt:
            body["nextPageToken"] = nxt
        return _ok(body, "history.list")
    return _err(404, "Not Found", "notFound", "NOT_FOUND", "gmail.unknown")


# -- Calendar -----------------------------------------------------------------------------
def _calendar(world: World, rest: list[str], query: dict[str, list[str]]) -> Answer:
    if rest == ["users", "me", "calendarList"]:
        page, nxt = _page(world.calendars, query, "maxResults", 100)
        return _ok({"items": page, **({"nextPageToken": nxt} if nxt else {})}, "calendarList.list")
    if len(rest) == 3 and rest[0] == "calendars" and rest[2] == "events":
        cal = rest[1]
        if query.get("singleEvents", [""])[0] != "true":
            return _err(400, "the stand-in serves expanded instances only", "invalid", "INVALID_ARGUMENT",
                        "events.list")
        entries = world.events.get(cal, [])
        sync = query.get("syncToken", [""])[0]
        if sync:
            if any(k in query for k in ("timeMin", "timeMax", "orderBy", "q", "updatedMin")):
                return _err(400, "syncToken cannot be combined with timeMin/timeMax", "invalid",
                            "INVALID_ARGUMENT", "events.list")
            if world.sync_expired:
                return _err(410, "Sync token is no longer valid, a full sync is required.", "fullSyncRequired",
                            "GONE", "events.list")
            since = int(sync.split(":")[1])
            chosen = [e for v, e in entries if v > since]
        else:
            lo, hi = query.get("timeMin", [""])[0], query.get("timeMax", ["9999"])[0]
            chosen = [e for _, e in entries if e.get("status") != "cancelled"
                      and _when(e["end"]) > lo and _when(e["start"]) < hi]
        page, nxt = _page(chosen, query, "maxResults", 250)
        body: dict[str, Any] = {"kind": "calendar#events", "items": page, "timeZone": "UTC"}
        body.update({"nextPageToken": nxt} if nxt else {"nextSyncToken": f"sync:{world.cal_version}"})
        return _ok(body, "events.list.sync" if sync else "events.list")
    return _err(404, "Not Found", "notFound", "NOT_FOUND", "calendar.unknown")


def _when(value: dict[str, str]) -> str:
    return value.get("dateTime") or value.get("date", "")


# -- Drive --------------------------------------------------------------------------------
_TOKEN = re.compile(r"\s*(?:(\()|(\))|'((?:[^'\\]|\\.)*)'|(!=|>=|<=|=|>|<)|([A-Za-z]+))")


def _drive_filter(q: str, meta: dict[str, Any]) -> bool:
    tokens = [(m.group(0).strip(), m) for m in _TOKEN.finditer(q)]
    pos = 0

    def peek() -> str:
        return tokens[pos][0] if pos < len(tokens) else ""

    def take() -> Any:
        nonlocal pos
        pos += 1
        return tokens[pos - 1][1]

    def term() -> bool:
        if peek() == "(":
            take()
            value = expr()
            take()
            return value
        left = take()
        if left.group(3) is not None:  # 'me' in owners / writers
            assert take().group(5) == "in"
            return bool(meta.get(f"_me_{take().group(5)}"))
        field, op = left.group(5), take().group(4)
        right = take()
        value = right.group(3) if right.group(3) is not None else {"true": True, "false": False}[right.group(5)]
        have = meta.get(field)
        return {"=": have == value, "!=": have != value, ">": str(have) > str(value),
                "<": str(have) < str(value)}[op]

    def expr() -> bool:
        value = term()
        while peek() in ("and", "or"):
            op = take().group(5)
            rhs = term()
            value = (value and rhs) if op == "and" else (value or rhs)
        return value

    return expr()


def _public(meta: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in meta.items() if not k.startswith("_")}


def _flag(query: dict[str, list[str]], name: str) -> bool:
    return query.get(name, ["false"])[0].lower() == "true"


def _corpus(world: World, query: dict[str, list[str]]) -> list[dict[str, Any]] | Answer:
    """The files a ``files.list`` may see, as Drive decides it: ``corpora=user`` (the default) is
    My Drive and Shared with me, never a shared drive's files; ``drive`` (with ``driveId``) and
    ``allDrives`` need ``includeItemsFromAllDrives`` and ``supportsAllDrives``."""
    corpora = query.get("corpora", ["user"])[0]
    if corpora == "user":
        return [m for m in world.files.values() if not m.get("driveId")]
    if not (_flag(query, "includeItemsFromAllDrives") and _flag(query, "supportsAllDrives")):
        return _err(400, "The includeItemsFromAllDrives and supportsAllDrives parameters must be true for "
                         f"corpora={corpora}.", "invalid", "INVALID_ARGUMENT", "files.list")
    if corpora == "drive":
        drive = query.get("driveId", [""])[0]
        if drive not in world.drives:
            return _err(404, f"Shared drive not found: {drive}", "notFound", "NOT_FOUND", "files.list")
        return [m for m in world.files.values() if m.get("driveId") == drive]
    if corpora == "allDrives":
        return list(world.files.values())
    return _err(400, f"Invalid Value: corpora={corpora}", "invalid", "INVALID_ARGUMENT", "files.list")


def _drive(world: World, rest: list[str], query: dict[str, list[str]]) -> Answer:
    if rest == ["drives"]:
        if world.drives_error:
            return _err(world.drives_error, "Not Found", "notFound", "NOT_FOUND", "drives.list")
        listed = [{"kind": "drive#drive", "id": d, "name": n} for d, n in world.drives.items()]
        page, nxt = _page(listed, query, "pageSize", 10)
        return _ok({"drives": page, **({"nextPageToken": nxt} if nxt else {})}, "drives.list")
    if rest == ["files"]:
        q = query.get("q", [""])[0]
        corpus = _corpus(world, query)
        if isinstance(corpus, tuple):
            return corpus
        try:
            hits = [m for m in corpus if not q or _drive_filter(q, m)]
        except (AssertionError, KeyError, IndexError, AttributeError) as exc:
            return _err(400, f"Invalid Value: {q} ({exc!r})", "invalid", "INVALID_ARGUMENT", "files.list")
        page, nxt = _page(hits, query, "pageSize", 100)
        return _ok({"files": [_public(m) for m in page], **({"nextPageToken": nxt} if nxt else {})}, "files.list")
    if len(rest) == 3 and rest[0] == "files" and rest[2] == "export":
        data = world.contents.get(rest[1], {}).get(query.get("mimeType", [""])[0])
        if data is None:
            return _err(400, "Export only supports Docs Editors files.", "badRequest", "INVALID_ARGUMENT",
                        "files.export")
        return 200, {"Content-Type": query["mimeType"][0]}, data, "files.export"
    if len(rest) == 2 and rest[0] == "files":
        meta = world.files.get(rest[1])
        if meta is not None and meta.get("driveId") and not _flag(query, "supportsAllDrives"):
            meta = None  # a shared drive's file is invisible to an app that does not declare support
        if meta is None:
            return _err(404, f"File not found: {rest[1]}.", "notFound", "NOT_FOUND", "files.get")
        if query.get("alt", [""])[0] == "media":
            data = world.contents[rest[1]].get("media")
            if data is None:
                return _err(403, "Only files with binary content can be downloaded.", "fileNotDownloadable",
                            "PERMISSION_DENIED", "files.media")
            return 200, {"Content-Type": meta.get("mimeType", "application/octet-stream")}, data, "files.media"
        return _ok(_public(meta), "files.get")
    if rest == ["about"]:
        return _ok({"user": {"emailAddress": world.account, "displayName": world.account.split("@")[0]}},
                   "about.get")
    if rest == ["changes", "startPageToken"]:
        return _ok({"startPageToken": str(world.drive_version)}, "changes.startPageToken")
    if rest == ["changes"]:
        token = query["pageToken"][0]
        since, _, offset = token.partition(":")
        everywhere = _flag(query, "includeItemsFromAllDrives") and _flag(query, "supportsAllDrives")
        changed = sorted((v, fid) for fid, v in world.file_changed.items()
                         if v > int(since) and (everywhere or not world.files[fid].get("driveId")))
        items = [{"kind": "drive#change", "changeType": "file", "fileId": fid, "removed": False,
                  "file": _public(world.files[fid])} for _, fid in changed]
        size = int(query.get("pageSize", ["100"])[0])
        start = int(offset or 0)
        body: dict[str, Any] = {"changes": items[start:start + size]}
        if start + size < len(items):
            body["nextPageToken"] = f"{since}:{start + size}"
        else:
            body["newStartPageToken"] = str(world.drive_version)
        return _ok(body, "changes.list")
    return _err(404, "Not Found", "notFound", "NOT_FOUND", "drive.unknown")
