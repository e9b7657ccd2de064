"""The state behind the Google stand-in: one account's mailbox, calendars and Drive.

Messages are real RFC 5322 bytes (the demo persona's Takeout mbox, or generated ones); the
stand-in derives Gmail's metadata/full/raw shapes from them the way Gmail does, so the
connector's parsing is exercised on real MIME. History ids, sync tokens and Drive change
tokens are counters over this state, which makes "what changed since" exact.
"""

from __future__ import annotations

import base64
import mailbox
import re
from dataclasses import dataclass, field
from datetime import UTC, datetime
from email import message_from_bytes, policy
from email.message import Message as EmailMessage
from email.utils import parsedate_to_datetime
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

SCOPES = ("https://www.googleapis.com/auth/gmail.readonly", "https://www.googleapis.com/auth/calendar.readonly",
          "https://www.googleapis.com/auth/drive.readonly")
_SYSTEM = {"inbox": "INBOX", "sent": "SENT", "important": "IMPORTANT", "starred": "STARRED", "unread": "UNREAD",
           "drafts": "DRAFT", "spam": "SPAM", "trash": "TRASH", "chat": "CHAT",
           "category personal": "CATEGORY_PERSONAL", "category social": "CATEGORY_SOCIAL",
           "category promotions": "CATEGORY_PROMOTIONS", "category updates": "CATEGORY_UPDATES",
           "category forums": "CATEGORY_FORUMS"}


_PACIFIC = ZoneInfo("America/Los_Angeles")  # Gmail's search reads a bare date as midnight there


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode("ascii")


def raw_message(box: mailbox.mbox, key: str) -> bytes:
    """The message as Gmail holds it: the mbox's ``>From `` quoting (mboxrd, as Takeout writes
    it) undone, which ``mailbox`` leaves in place."""
    return re.sub(rb"(?m)^>(>*From )", rb"\1", box.get_bytes(key))


@dataclass
class Mail:
    id: str
    thread_id: str
    labels: list[str]
    raw: bytes
    internal_ms: int
    history_id: int

    def parsed(self) -> EmailMessage:
        """Parsed once: the stand-in's own parsing is not what the benchmark measures."""
        cached = self.__dict__.get("_parsed")
        if cached is None:
            cached = self.__dict__["_parsed"] = message_from_bytes(self.raw, policy=policy.compat32)
        return cached


@dataclass
class World:
    account: str = "maya@example.com"
    send_as: list[str] = field(default_factory=list)
    client_id: str = "standin-client"
    client_secret: str = "standin-secret"
    refresh_tokens: set[str] = field(default_factory=lambda: {"refresh-1"})
    revoked: set[str] = field(default_factory=set)
    granted: tuple[str, ...] = SCOPES
    access: dict[str, tuple[str, ...]] = field(default_factory=dict)
    codes: dict[str, str] = field(default_factory=dict)
    mails: dict[str, Mail] = field(default_factory=dict)
    user_labels: dict[str, str] = field(default_factory=dict)
    history_id: int = 1000
    history_floor: int = 0
    calendars: list[dict[str, Any]] = field(default_factory=list)
    events: dict[str, list[tuple[int, dict[str, Any]]]] = field(default_factory=dict)
    cal_version: int = 1
    sync_expired: bool = False
    files: dict[str, dict[str, Any]] = field(default_factory=dict)
    contents: dict[str, dict[str, bytes]] = field(default_factory=dict)
    drive_version: int = 1
    drives: dict[str, str] = field(default_factory=dict)
    """Shared drives the account is a member of (id -> name); their files carry ``driveId``."""
    drives_error: int = 0
    """When set, ``drives.list`` answers this HTTP status (Google's error body), as an account
    whose Workspace has shared drives turned off, or a stale API, may."""
    file_changed: dict[str, int] = field(default_factory=dict)

    # -- mail -----------------------------------------------------------------------------
    def label_id(self, name: str) -> str:
        key = name.strip().lower()
        if key in _SYSTEM:
            return _SYSTEM[key]
        for lid, lname in self.user_labels.items():
            if lname.lower() == key:
                return lid
        lid = f"Label_{len(self.user_labels) + 1}"
        self.user_labels[lid] = name.strip()
        return lid

    def add_mail(self, raw: bytes, *, labels: list[str], thread_id: str = "", gm_id: str = "") -> Mail:
        """Add one message (labels as Gmail label ids); it enters the history as messageAdded."""
        self.history_id += 1
        msg = message_from_bytes(raw, policy=policy.compat32)
        try:
            when = parsedate_to_datetime(str(msg.get("Date", "")))
            stamp = int(when.timestamp() * 1000)
        except (TypeError, ValueError):
            stamp = int(datetime.now(UTC).timestamp() * 1000)
        mid = gm_id or format(0x1800000000000000 + len(self.mails) * 7919 + self.history_id, "x")
        mail = Mail(mid, thread_id or mid, labels, raw, stamp, self.history_id)
        self.mails[mid] = mail
        return mail

    def load_takeout_mbox(self, path: Path) -> int:
        """Serve a Takeout mbox as Gmail would: ids and thread ids in hex, labels as ids,
        Google's own X-GM-THRID / X-Gmail-Labels headers removed from the raw message."""
        box = mailbox.mbox(str(path))
        n = 0
        for key in box.iterkeys():
            msg = box.get_message(key)
            gm_id = msg.get_from().split("@", 1)[0]
            names = [x.strip() for x in str(msg.get("X-Gmail-Labels", "")).split(",") if x.strip()]
            thrid = str(msg.get("X-GM-THRID", "")).strip()
            raw = re.sub(rb"(?im)^X-GM-THRID:[^\n]*\n|^X-Gmail-Labels:[^\n]*\n", b"", raw_message(box, key), count=2)
            ids: list[str] = []
            low = {x.lower() for x in names}
            for name in names:
                if name.lower() in ("opened", "archived"):
                    continue
                ids.append(self.label_id(name))
            if "opened" not in low and "sent" not in low and "UNREAD" not in ids:
                ids.append("UNREAD")
            self.add_mail(raw, labels=ids, thread_id=format(int(thrid), "x") if thrid.isdigit() else "",
                          gm_id=format(int(gm_id), "x") if gm_id.isdigit() else "")
            n += 1
        return n

    def matches(self, mail: Mail, q: str, label_ids: list[str]) -> bool:
        if any(lid not in mail.labels for lid in label_ids):
            return False
        if ("SPAM" in mail.labels or "TRASH" in mail.labels) and not re.search(r"(?<!-)in:(spam|trash)", q):
            return False
        for token in q.split():
            neg = token.startswith("-")
            op, _, value = token.lstrip("-").partition(":")
            if op == "in":
                hit = {"sent": "SENT", "chats": "CHAT", "spam": "SPAM", "trash": "TRASH", "drafts": "DRAFT",
                       "inbox": "INBOX"}[value] in mail.labels
            elif op == "category":
                hit = f"CATEGORY_{value.upper()}" in mail.labels
            elif op in ("after", "before"):  # seconds since the epoch, or a date at midnight *PST*, as Gmail reads it
                edge = 1000 * (int(value) if value.isdigit() else
                               datetime.strptime(value, "%Y/%m/%d").replace(tzinfo=_PACIFIC).timestamp())
                hit = mail.internal_ms >= edge if op == "after" else mail.internal_ms < edge
            else:
                raise ValueError(f"unsupported search operator {token!r}")
            if hit == neg:
                return False
        return True

    def message_json(self, mail: Mail, fmt: str, wanted: list[str]) -> dict[str, Any]:
        out: dict[str, Any] = {"id": mail.id, "threadId": mail.thread_id, "labelIds": list(mail.labels),
                               "historyId": str(mail.history_id), "internalDate": str(mail.internal_ms),
                               "sizeEstimate": len(mail.raw), "snippet": ""}
        if fmt == "raw":
            out["raw"] = b64(mail.raw)
        elif fmt == "metadata":
            low = {w.lower() for w in wanted}
            parsed = mail.parsed()
            out["payload"] = {"mimeType": parsed.get_content_type(), "headers": [
                {"name": k, "value": str(v)} for k, v in parsed.items() if not low or k.lower() in low]}
        elif fmt == "full":
            out["payload"] = _payload(mail.parsed(), "")
        return out

    # -- calendar -------------------------------------------------------------------------
    def add_event(self, calendar_id: str, event: dict[str, Any]) -> None:
        self.cal_version += 1
        event = {"kind": "calendar#event", "status": "confirmed", "updated": "2026-01-01T00:00:00Z", **event}
        self.events.setdefault(calendar_id, []).append((self.cal_version, event))

    # -- drive ----------------------------------------------------------------------------
    def add_file(self, meta: dict[str, Any], content: dict[str, bytes]) -> None:
        self.drive_version += 1
        self.files[meta["id"]] = meta
        self.contents[meta["id"]] = content
        self.file_changed[meta["id"]] = self.drive_version


def _payload(part: EmailMessage, part_id: str) -> dict[str, Any]:
    """Gmail's ``format=full`` MessagePart: headers, body data (base64url), nested parts."""
    out: dict[str, Any] = {"partId": part_id, "mimeType": part.get_content_type(),
                           "filename": part.get_filename() or "",
                           "headers": [{"name": k, "value": str(v)} for k, v in part.items()]}
    if part.is_multipart():
        out["body"] = {"size": 0}
        out["parts"] = [_payload(sub, f"{part_id}.{i}" if part_id else str(i))
                        for i, sub in enumerate(part.get_payload())]
    else:
        data = part.get_payload(decode=True) or b""
        out["body"] = {"size": len(data), "data": b64(data)} if not out["filename"] else \
            {"size": len(data), "attachmentId": f"att-{part_id}"}
    return out
