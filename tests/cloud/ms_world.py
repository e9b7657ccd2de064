"""The account the Microsoft stand-in serves: mail folders, events, drive items, fault knobs.

Every collection keeps a change sequence per item, so a delta token is simply "the sequence
number I had seen": a delta link returns exactly what was added, changed or deleted after it,
like Graph's. Tests add content and turn knobs (429/503 on the next requests, 410 on a delta
link, revoked consent) and read the request log to count what a scan cost.
"""

from __future__ import annotations

import base64
import datetime as dt
import email.utils
import html
import json
import threading
from collections import Counter
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote

__all__ = ["TENANT_ID", "World", "b64", "headers_for"]

TENANT_ID = "9188040d-6c67-4c5b-b112-36a304b66dad"


def b64(data: dict[str, Any]) -> str:
    return base64.urlsafe_b64encode(json.dumps(data).encode()).decode().rstrip("=")


_STORE = "AM0PR01MB6410.eurprd01.prod.outlook.com"
"""The owner's mailbox server; Exchange Online hops are all under outlook.com."""
_EDGE = "AM0PR01CA0101.mail.protection.outlook.com"


def headers_for(folder: str, sender: tuple[str, str], to: list[tuple[str, str]], subject: str,
                when: dt.datetime, internet_id: str, *, relay: tuple[str, str] | None = None,
                auth: str = "") -> list[tuple[str, str]]:
    """The header block Exchange Online keeps for a message (newest ``Received`` first).

    A sent item was submitted by the owner's client (MAPI, link-local hop); mail from inside the
    tenant hops between Exchange servers only; mail from another domain arrives through the edge
    from ``relay`` (host, ip: the sender domain's own server by default) with the edge's
    ``Authentication-Results`` (``auth``, by default a pass for the sender's domain)."""
    date = email.utils.format_datetime(when.astimezone(dt.UTC))
    own = [("Date", date), ("From", email.utils.formataddr(sender)),
           ("To", ", ".join(email.utils.formataddr(p) for p in to)), ("Subject", subject),
           ("Message-ID", internet_id), ("Content-Type", "text/html; charset=utf-8")]
    if folder == "sentitems":
        return [("Received", f"from {_STORE} ([fe80::3c1a:77ff:fe2b:91d0]) by {_STORE} "
                             f"([fe80::3c1a:77ff:fe2b:91d0%4]) with mapi id 15.20.8182.012; {date}"), *own]
    domain = sender[1].rpartition("@")[2].lower()
    if domain == "contoso.test" and relay is None:
        return [("Received", f"from AM0PR01MB7000.eurprd01.prod.outlook.com (2603:10a6:208:1::5) by {_STORE} "
                             f"(2603:10a6:20b:1c1::9) with Microsoft SMTP Server id 15.20.8182.12; {date}"),
                ("Authentication-Results", "dkim=none (message not signed) header.d=none;dmarc=none action=none "
                                           "header.from=contoso.test;"),
                ("X-MS-Exchange-Organization-AuthAs", "Internal"), *own]
    host, ip = relay or (f"mail.{domain}", "198.51.100.20")
    verdict = auth or (f"spf=pass (sender IP is {ip}) smtp.mailfrom={domain}; dkim=pass (signature was verified) "
                       f"header.d={domain};dmarc=pass action=none header.from={domain};compauth=pass reason=100")
    return [("Received", f"from {_EDGE} (2603:10a6:208:10b::42) by {_STORE} (2603:10a6:20b:1c1::9) with "
                         f"Microsoft SMTP Server id 15.20.8182.12; {date}"),
            ("Received", f"from {host} ({host} [{ip}]) by {_EDGE} (10.167.16.4) with Microsoft SMTP Server "
                         f"(version=TLS1_2) id 15.20.8182.12 via Frontend Transport; {date}"),
            ("Authentication-Results", verdict), *own]


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
    headers_on_delta: bool = True
    """False: delta pages leave ``internetMessageHeaders`` out even when selected (as they do for
    an updated message), so a client must GET the message for them."""
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
                    internet_id: str = "", conversation: str = "", categories: tuple[str, ...] = (),
                    headers: list[tuple[str, str]] | None = None) -> str:
        """``headers``: the message's RFC 5322 header block as Graph's ``internetMessageHeaders``
        returns it; by default what Exchange Online records for such a message (see :func:`headers_for`)."""
        with self.lock:
            n = self.seq + 1
            msg_id = f"AAMkAD{folder[:3]}{n:06d}="
            stamp = when.astimezone(dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
            internet_id = internet_id or f"<m{n}.{folder}@contoso.test>"
            if headers is None:
                headers = headers_for(folder, sender, to, subject, when, internet_id)
            addr = lambda p: {"emailAddress": {"name": p[0], "address": p[1]}}  # noqa: E731
            self.coll(f"mail/{folder}").put(self, {
                "id": msg_id, "internetMessageId": internet_id,
                "conversationId": conversation or f"AAQkAD-conv-{n}", "subject": subject,
                "from": addr(sender), "sender": addr(sender), "toRecipients": [addr(p) for p in to],
                "ccRecipients": [addr(p) for p in cc], "sentDateTime": stamp, "receivedDateTime": stamp,
                "body": {"contentType": "html", "content": f"<html><body><p>{html.escape(body)}</p></body></html>"},
                "bodyPreview": body[:255], "categories": list(categories), "isDraft": False,
                "inferenceClassification": "focused", "parentFolderId": folder,
                "importance": "normal", "hasAttachments": False, "webLink": f"https://outlook.test/{n}",
                "_headers": [{"name": k, "value": v} for k, v in headers],
            }, msg_id)
            return msg_id

    def mark_read(self, folder: str, msg_id: str) -> None:
        """The owner opened the message: a change, which a later delta round reports the way Graph
        often does for a flag change — the id, ``isRead`` and ``parentFolderId``, nothing else."""
        with self.lock:
            coll = self.coll(f"mail/{folder}")
            obj = dict(coll.items[msg_id][1] or {})
            coll.put(self, {**obj, "isRead": True, "_changed": ["isRead", "parentFolderId"]}, msg_id)

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
