"""``gmail:[ACCOUNT]`` — a Gmail mailbox read through the Gmail API, owner's mail first.

Order and cost: the SENT slice first (the owner's own words: ``format=full`` for bodies, the
most recent few hundred only), then received mail, newest first, where within each listed
page messages in threads the owner took part in are fetched before one-way mail. Bulk mail never leaves Google: promotions, social,
updates, forums, chats, spam and trash are excluded *in the query*. Received mail is fetched
with ``format=metadata`` and a short header list (no bodies), 50 ``messages.get`` per batch.

Every message becomes the same :class:`~bootstrap_app.types.Message` its Google Takeout twin
gives (the headers go through :mod:`connectors.local.mailparse`; label ids become Takeout's
display names, so ``SENT`` is "Sent", the owner's strongest evidence), and the scan dedupes
the two by Message-ID. The account's send-as aliases are read too (the owner's own
addresses) and kept in the cursor and on :attr:`GmailSource.owner_addresses`.

Incremental: the cursor keeps the account and the ``historyId`` taken *before* the full listing.
Every read starts with ``getProfile`` (who is signed in, and the mailbox's current history id):
a cursor from another account is not used, an unchanged id means nothing to ask for (a
no-change reseed is that one request), else ``history.list`` gives the messages added since.
A history id Google no longer keeps (404) means a full re-read (``ctx.resync()``). What
history reports is only added mail, so a reseed keeps the mail read before in the local item
cache (``cache="append"``) and fetches just the new messages.
"""

from __future__ import annotations

import base64
from collections.abc import Iterator
from typing import Any

from bootstrap_app.errors import QuotaExceeded, SourceError, SourceOffline
from bootstrap_app.types import Item, Message, utc

from ..base import ReadContext
from ..local.htmltext import html_to_text
from ..local.mailparse import (
    _AUTO_HEADERS,
    _LIST_HEADERS,
    decode_bytes,
    header_list,
    message_from_parts,
)
from .client import Gone, GoogleSession
from .source import GoogleSource

__all__ = ["BULK_QUERY", "GmailSource", "labels_header", "to_message"]

QUERY_VERSION = 1
BULK_QUERY = ("-category:promotions -category:social -category:updates -category:forums "
              "-in:chats -in:spam -in:trash -in:drafts")
METADATA_HEADERS = ["From", "Sender", "To", "Cc", "Date", "Subject", "Message-ID", "In-Reply-To", "References",
                    # and all mailparse.is_bulk judges by (its own lists), so a received auto-reply
                    # or bounce is bulk here as in the Takeout twin
                    "Precedence", "Auto-Submitted", "X-Auto-Response-Suppress", "Return-Path",
                    *(h.title() for h in (*_LIST_HEADERS, *_AUTO_HEADERS)),
                    # how it was delivered (mailparse's delivered_from / auth_failure): mail claiming
                    # the owner's address but arriving from outside is someone else's text
                    "Received", "Authentication-Results", "X-Folder"]
"""Headers asked for with ``format=metadata``: what the Message is built from, nothing more."""
PAGE_SIZE = 500
"""Ids per ``messages.list`` page (Gmail's maximum); a finished page is the resume unit."""
SENT_BODIES = 500
"""Sent messages fetched with bodies (most recent first); older sent mail comes as metadata."""
_SKIP_IDS = frozenset({"SPAM", "TRASH", "DRAFT", "CHAT", "CATEGORY_PROMOTIONS", "CATEGORY_SOCIAL",
                       "CATEGORY_UPDATES", "CATEGORY_FORUMS"})
_SYSTEM_NAMES = {"INBOX": "Inbox", "SENT": "Sent", "IMPORTANT": "Important", "STARRED": "Starred",
                 "UNREAD": "Unread", "DRAFT": "Drafts", "SPAM": "Spam", "TRASH": "Trash", "CHAT": "Chat",
                 "CATEGORY_PERSONAL": "Category Personal", "CATEGORY_SOCIAL": "Category Social",
                 "CATEGORY_PROMOTIONS": "Category Promotions", "CATEGORY_UPDATES": "Category Updates",
                 "CATEGORY_FORUMS": "Category Forums"}


def labels_header(label_ids: list[str], names: dict[str, str]) -> str:
    """Takeout's ``X-Gmail-Labels`` for API label ids (Takeout's own "Opened" for read mail;
    "Archived" is left out, Takeout does not write it consistently)."""
    ids = set(label_ids)
    out = [_SYSTEM_NAMES.get(i) or names.get(i, i) for i in label_ids if i != "UNREAD"]
    if "SENT" not in ids:
        out.append("Unread" if "UNREAD" in ids else "Opened")
    return ",".join(f'"{n.replace(chr(34), chr(34) * 2)}"' if "," in n or '"' in n else n for n in out)


def _headers(payload: dict[str, Any]) -> dict[str, str]:
    """The API's header list as mailparse's dict (:func:`~connectors.local.mailparse.header_list`,
    the parser the mbox reader uses): a subject with two spaces keeps them, as in the Takeout twin."""
    return header_list(payload.get("headers") or [])


def _part_text(part: dict[str, Any]) -> tuple[str, str]:
    """(plain, html) text of a ``format=full`` payload, attachments left out."""
    mime = str(part.get("mimeType", "")).lower()
    if mime.startswith("multipart/"):
        plain = html = ""
        for sub in part.get("parts", []) or []:
            p, h = _part_text(sub)
            plain, html = plain or p, html or h
        return plain, html
    data = (part.get("body") or {}).get("data")
    if not data or part.get("filename"):
        return "", ""
    raw = base64.urlsafe_b64decode(data + "=" * (-len(data) % 4))
    ctype = _headers(part).get("content-type", "")
    charset = ctype.split("charset=", 1)[1].split(";")[0].strip().strip('"') if "charset=" in ctype else None
    text = decode_bytes(raw, charset)  # line endings kept as sent, as the mbox reader keeps them
    if mime == "text/plain":
        return text.rstrip("\r\n"), ""
    if mime == "text/html":
        return "", html_to_text(text)
    return "", ""


def to_message(msg: dict[str, Any], label_names: dict[str, str], source: str, ctx: ReadContext) -> Message:
    """One ``users.messages.get`` answer (metadata or full) -> Message, as Takeout would give it."""
    payload = msg.get("payload") or {}
    headers = _headers(payload)
    headers["x-gm-thrid"] = str(int(msg.get("threadId") or msg["id"], 16))
    headers["x-gmail-labels"] = labels_header(list(msg.get("labelIds", []) or []), label_names)
    plain, html = _part_text(payload) if payload.get("body") or payload.get("parts") else ("", "")
    ref = headers.get("message-id", "").strip() or f"gmail:{msg['id']}"
    return message_from_parts(headers, plain or html, source=source, ref=ref, clean=ctx.clean)


class GmailSource(GoogleSource, kind="gmail",
                  description="Gmail account, read-only (`memseed auth google` first)",
                  cursor_doc="account, historyId taken before the last full read, send-as aliases",
                  cache="append"):
    """A Gmail account through the Gmail API (read-only)."""

    owner_addresses: tuple[str, ...] = ()

    def read(self, ctx: ReadContext) -> Iterator[Item]:
        session = self.session(ctx)
        yield from _GmailRead(self, session, ctx).run()


class _GmailRead:
    """One read of one mailbox (full or incremental); see the module docstring."""

    def __init__(self, source: GmailSource, session: GoogleSession, ctx: ReadContext) -> None:
        self.source, self.session, self.ctx = source, session, ctx
        self.users = session.gmail().users()
        self.messages = self.users.messages()  # built once: each call builds the resource anew (slow)
        self.names: dict[str, str] | None = None
        self.seen_ids: set[str] = set()
        self.seen_msgids: set[str] = set()
        self.refused_ids: set[str] = set()
        self.count = 0

    def run(self) -> Iterator[Item]:
        # Always ask who is signed in (1 unit): a cursor from another mailbox (a new sign-in,
        # another MEMSEED_GOOGLE_CREDENTIALS) holds that mailbox's history id and aliases.
        profile = self.session.call(self.users.getProfile(userId="me"), units=1)
        account = str(profile.get("emailAddress", "")).lower()
        cur = self.source.cursor_for(self.ctx, account)
        if cur.get("history_id") and cur.get("query") == QUERY_VERSION:
            try:
                yield from self.incremental(cur, str(profile.get("historyId", "")))
                return
            except Gone:
                self.ctx.resync()  # what follows is the whole mailbox: the item cache is rebuilt from it
                self.ctx.skip(self.source.id, "historyId", f"{self.source.id}: Google no longer keeps the change "
                                                           "history since the last scan; reading the mailbox again",
                              note=True)
        yield from self.full(account, str(profile.get("historyId", "")))

    def label_names(self) -> dict[str, str]:
        if self.names is None:
            answer = self.session.call(self.users.labels().list(userId="me"), units=1)
            self.names = {str(x["id"]): str(x.get("name", x["id"])) for x in answer.get("labels", [])}
        return self.names

    def full(self, account: str, history_id: str) -> Iterator[Item]:
        send_as = self.session.call(self.users.settings().sendAs().list(userId="me"), units=1)
        aliases = sorted({str(s.get("sendAsEmail", "")).lower() for s in send_as.get("sendAs", [])} - {""})
        self.source.owner_addresses = tuple(dict.fromkeys([account, *aliases]))
        state = self.source.resume_state(self.ctx)
        resume = state.load()
        # seconds, not a date: Gmail reads a bare date as midnight Pacific time, hours off elsewhere
        start = utc(self.ctx.since)  # a naive since is UTC, as everywhere in memseed
        since = f" after:{int(start.timestamp())}" if start else ""
        if (resume.get("account"), resume.get("query"), resume.get("since")) != (account, QUERY_VERSION, since):
            resume = {"account": account, "query": QUERY_VERSION, "since": since, "phase": 0, "page": None,
                      "history_id": history_id, "sent": 0}
        else:
            self.ctx.continued = True  # only the rest follows: the item cache keeps the first part
            self.ctx.skip(self.source.id, "resume", f"{self.source.id}: continuing an interrupted read "
                                                    "from its last finished page", note=True)
        phases = [("in:sent" + since, True), (f"-in:sent {BULK_QUERY}{since}", False)]
        owner_threads: set[str] = set(resume.get("threads", []))
        checkpoint = resume["page"]  # a page token from an earlier run, which Google may have forgotten
        for phase in range(int(resume["phase"]), len(phases)):
            query, sent = phases[phase]
            page = resume["page"] if phase == resume["phase"] else None
            while True:
                if self.ctx.should_stop():
                    return
                try:
                    answer = self.session.call(self.messages.list(
                        userId="me", q=query, maxResults=PAGE_SIZE, pageToken=page,
                        fields="messages(id,threadId),nextPageToken"))
                except SourceError as exc:  # not quota/offline: those keep the checkpoint for later
                    if page is None or page != checkpoint or isinstance(exc, QuotaExceeded | SourceOffline):
                        raise
                    state.clear()  # else every later scan would fail on it again
                    self.ctx.skip(self.source.id, "resume", f"{self.source.id}: Google refused the interrupted "
                                  f"read's page ({str(exc).splitlines()[0]}); reading the mailbox from the start",
                                  note=True)
                    yield from self.full(account, history_id)
                    return
                # not again what this read fetched or was refused (a restart from the first page)
                refs = [m for m in answer.get("messages", []) or []
                        if m["id"] not in self.seen_ids and m["id"] not in self.refused_ids]
                if sent:
                    owner_threads.update(m.get("threadId", "") for m in refs)
                else:  # two-way mail first: threads the owner wrote in
                    refs.sort(key=lambda m: m.get("threadId") not in owner_threads)
                yield from self.fetch(refs, sent_bodies=sent, resume=resume)
                page = answer.get("nextPageToken")
                resume.update(phase=phase if page else phase + 1, page=page, threads=sorted(owner_threads)[:5000])
                state.save(resume)
                if not page:
                    break
        state.clear()
        self.finish(account, str(resume["history_id"]))

    def fetch(self, refs: list[dict[str, Any]], *, sent_bodies: bool, resume: dict[str, Any]) -> Iterator[Item]:
        got: dict[str, dict[str, Any]] = {}
        requests = []
        for m in refs:
            full = sent_bodies and int(resume.get("sent", 0)) < SENT_BODIES
            if full:
                resume["sent"] = int(resume.get("sent", 0)) + 1
                req = self.messages.get(userId="me", id=m["id"], format="full")
            else:
                req = self.messages.get(userId="me", id=m["id"], format="metadata",
                                                metadataHeaders=METADATA_HEADERS)
            requests.append((m["id"], req))
        if not requests:
            return
        self.ctx.find(len(refs))  # the ledger: each message listed ends as an item, a skip or passed over
        self.session.batch(requests, on_result=got.__setitem__, on_error=self.refused)
        names = self.label_names()
        for m in refs:
            body = got.get(m["id"])
            if body is None:  # refused or deleted while we read: reported by refused()
                if m["id"] not in self.refused_ids:
                    self.refused(m["id"], "Google returned no answer for it")
                continue
            self.seen_ids.add(m["id"])
            try:
                item = to_message(body, names, self.source.id, self.ctx)
            except Exception as exc:  # one odd message never stops the mailbox
                self.ctx.skip(self.source.id, m["id"], f"{self.source.id}: message {m['id']} unreadable ({exc})")
                continue
            if item.message_id and item.message_id in self.seen_msgids:
                self.ctx.pass_over("messages listed twice under one Message-ID")
                continue
            if self.ctx.since is not None and item.timestamp is not None and item.timestamp < self.ctx.since:
                self.ctx.pass_over("older than --since")
                continue
            self.seen_msgids.add(item.message_id)
            self.count += 1
            yield item
        self.ctx.progress(self.source.id, self.count)

    def refused(self, message_id: str, reason: str) -> None:
        """One message Google would not hand out: reported with its reason, the read goes on."""
        self.refused_ids.add(message_id)
        self.ctx.skip(self.source.id, message_id, f"{self.source.id}: message {message_id} skipped: {reason}")

    def incremental(self, cur: dict[str, Any], now: str) -> Iterator[Item]:
        """Messages added since the cursor's history id; none asked for when the mailbox's
        current id (``now``, from the profile) is still that id."""
        self.source.owner_addresses = tuple(cur.get("owner_addresses", ()))
        page, added, history_id = None, [], str(cur["history_id"])
        while now != str(cur["history_id"]):  # the loop ends on the last page (no nextPageToken)
            answer = self.session.call(self.users.history().list(
                userId="me", startHistoryId=cur["history_id"], historyTypes=["messageAdded"], maxResults=500,
                pageToken=page), units=2, gone=(404,))
            for record in answer.get("history", []) or []:
                for entry in record.get("messagesAdded", []) or []:
                    msg = entry.get("message") or {}
                    if msg.get("id"):
                        added.append(msg)
            history_id = str(answer.get("historyId", history_id))
            page = answer.get("nextPageToken")
            if not page:
                break
        listed = list({m["id"]: m for m in added}.values())
        unique = [m for m in listed if not set(m.get("labelIds", []) or []) & _SKIP_IDS]
        self.ctx.find(len(listed) - len(unique))  # bulk, spam, trash, drafts: what the full read's query excludes
        self.ctx.pass_over("bulk mail, spam, trash, drafts and chats (excluded as in a full read)",
                           len(listed) - len(unique))
        sent = [m for m in unique if "SENT" in (m.get("labelIds") or [])]
        rest = [m for m in unique if "SENT" not in (m.get("labelIds") or [])]
        resume: dict[str, Any] = {"sent": 0}
        yield from self.fetch(sent, sent_bodies=True, resume=resume)
        yield from self.fetch(rest, sent_bodies=False, resume=resume)
        self.ctx.progress(self.source.id, self.count)
        self.finish(str(cur.get("account", "")), history_id)

    def finish(self, account: str, history_id: str) -> None:
        if self.ctx.should_stop():
            return
        self.ctx.new_cursor = {"account": account, "history_id": history_id, "query": QUERY_VERSION,
                               "owner_addresses": list(self.source.owner_addresses)}
