"""The account the Microsoft stand-in serves: mail folders, events, drive items, fault knobs.

Every collection keeps a change sequence per item, so a delta token is simply "the sequence
number I had seen": a delta link returns exactly what was added, changed or deleted after it,
like Graph's. Tests add content and turn knobs (429/503 on the next requests, 410 on a delta
link, revoked consent) and read the request log to count what a scan cost.
"""

from __future__ import annotations

import base64
import datetime as dt
import html
import json
import threading
from collections import Counter
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote

__all__ = ["TENANT_ID", "World", "b64"]

TENANT_ID = "9188040d-6c67-4c5b-b112-36a304b66dad"


def b64(data: dict[str, Any]) -> str:
    return base64.urlsafe_b64encode(json.dumps(data).encode()).decode().rstrip("=")


@dataclass
class _Collection:
    """Items with a change sequence: a delta token is "the sequence number I had seen"."""

    items: dict[str, tuple[int, dict[str, Any] | None]] = field(default_factory=dict)

    def put(self, world: World, obj: dict[str, Any] | None, item_id: str) -> None:
        world.seq += 1
        self.items[item_id] = (world.seq, obj)

    def changed_since(self, seq: int) -> list[tuple[str, dict[str, Any] | None]]:
        return [(i, o) for i, (s, o) in sorted(self.items.items(), key=lambda kv: kv[1][0]) if s > seq
                and (o is not None or seq > 0)]


@dataclass
class World:
    """The account the stand-in serves. Tests add mail, events and files, and turn fault knobs."""

    client_id: str = "00000000-test-4e5f-9a0b-memseed00001"
    user: dict[str, str | None] = field(default_factory=lambda: {
        "id": "a1b2c3d4e5f60001", "displayName": "Maya Okafor", "mail": "maya@contoso.test",
        "userPrincipalName": "maya@contoso.test",
        # directory properties as Graph returns them: strings, or null when the admin set none
        "jobTitle": "Principal Platform Engineer", "companyName": "Contoso Pharmaceuticals",
        "department": "Platform", "officeLocation": "London 4/12"})
    pending_polls: int = 1
    access_ttl: int = 3600
    seq: int = 0
    revoked: bool = False
    collections: dict[str, _Collection] = field(default_factory=dict)
    contents: dict[str, bytes] = field(default_factory=dict)
    log: list[tuple[str, str]] = field(default_factory=list)
    faults: list[tuple[str, int, dict[str, str]]] = field(default_factory=list)
    gone: set[str] = field(default_factory=set)
    bytes_out: int = 0
    served: Counter[str] = field(default_factory=Counter)
    """Resources handed out per delta collection (``mail/inbox`` ...): what a read downloaded."""
    tokens: set[str] = field(default_factory=set)
    refresh_tokens: set[str] = field(default_factory=set)
    lock: threading.Lock = field(default_factory=threading.Lock)
    _polls: dict[str, int] = field(default_factory=dict)

    def coll(self, key: str) -> _Collection:
        return self.collections.setdefault(key, _Collection())

    # -- content -------------------------------------------------------------------------
    def add_message(self, folder: str, *, subject: str, sender: tuple[str, str], to: list[tuple[str, str]],
                    body: str, when: dt.datetime, cc: list[tuple[str, str]] = (),  # type: ignore[assignment]
                    internet_id: str = "", conversation: str = "", categories: tuple[str, ...] = ()) -> str:
        with self.lock:
            n = self.seq + 1
            msg_id = f"AAMkAD{folder[:3]}{n:06d}="
            stamp = when.astimezone(dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
            addr = lambda p: {"emailAddress": {"name": p[0], "address": p[1]}}  # noqa: E731
            self.coll(f"mail/{folder}").put(self, {
                "id": msg_id, "internetMessageId": internet_id or f"<m{n}.{folder}@contoso.test>",
                "conversationId": conversation or f"AAQkAD-conv-{n}", "subject": subject,
                "from": addr(sender), "sender": addr(sender), "toRecipients": [addr(p) for p in to],
                "ccRecipients": [addr(p) for p in cc], "sentDateTime": stamp, "receivedDateTime": stamp,
                "body": {"contentType": "html", "content": f"<html><body><p>{html.escape(body)}</p></body></html>"},
                "bodyPreview": body[:255], "categories": list(categories), "isDraft": False,
                "inferenceClassification": "focused", "parentFolderId": folder,
                "importance": "normal", "hasAttachments": False, "webLink": f"https://outlook.test/{n}",
            }, msg_id)
            return msg_id

    def delete_message(self, folder: str, msg_id: str) -> None:
        with self.lock:
            self.coll(f"mail/{folder}").put(self, None, msg_id)

    def add_event(self, *, subject: str, start: dt.datetime, minutes: int, zone: str,
                  attendees: list[tuple[str, str]], organizer: tuple[str, str] | None = None,
                  series: str = "", all_day: bool = False, cancelled: bool = False) -> str:
        """``start`` is naive wall-clock time in the Windows zone ``zone`` (as Outlook stores it)."""
        with self.lock:
            n = self.seq + 1
            ev_id = f"AAMkEV{n:06d}="
            org = organizer or (self.user["displayName"], self.user["mail"])
            addr = lambda p: {"emailAddress": {"name": p[0], "address": p[1]}}  # noqa: E731
            self.coll("events").put(self, {
                "id": ev_id, "iCalUId": f"040000008200E0-{n}", "subject": subject,
                "_start": start, "_end": start + dt.timedelta(minutes=minutes), "_zone": zone,
                "isAllDay": all_day, "isCancelled": cancelled, "originalStartTimeZone": zone,
                "originalEndTimeZone": zone, "organizer": addr(org),
                "attendees": [{"type": "required", "status": {"response": "accepted"}, **addr(p)} for p in attendees],
                "seriesMasterId": series or None, "type": "occurrence" if series else "singleInstance",
                "location": {"displayName": "Room 4"}, "bodyPreview": "agenda", "showAs": "busy",
            }, ev_id)
            return ev_id

    def add_file(self, path: str, content: bytes, *, by: dict[str, str] | None = None,
                 modified: dt.datetime | None = None) -> str:
        with self.lock:
            n = self.seq + 1
            item_id = f"01DRIVE{n:06d}"
            folder, _, name = path.rpartition("/")
            user = by or {"id": self.user["id"], "displayName": self.user["displayName"]}
            stamp = (modified or dt.datetime(2026, 10, 1, tzinfo=dt.UTC)).strftime("%Y-%m-%dT%H:%M:%SZ")
            self.contents[item_id] = content
            self.coll("drive").put(self, {
                "id": item_id, "name": name, "size": len(content), "file": {"mimeType": "application/octet-stream"},
                "parentReference": {"path": "/drive/root:" + (f"/{folder}" if folder else "")},
                "createdBy": {"user": user}, "lastModifiedBy": {"user": user},
                "createdDateTime": stamp, "lastModifiedDateTime": stamp, "webUrl": f"https://onedrive.test/{quote(path)}",
            }, item_id)
            return item_id

    # -- knobs and figures ---------------------------------------------------------------
    def fail_next(self, count: int, status: int, *, retry_after: str | None = None, match: str = "") -> None:
        headers = {"Retry-After": retry_after} if retry_after is not None else {}
        self.faults.extend([(match, status, headers)] * count)

    def graph_requests(self, contains: str = "") -> int:
        return sum(1 for kind, path in self.log if kind == "graph" and contains in path)
