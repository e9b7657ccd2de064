"""Outlook / Microsoft 365 mail through Microsoft Graph (``outlook:[ACCOUNT]``).

Sent items are read first and in full: what the person wrote is what memory is built from, so
if a scan is cut short the most useful part is already in. Then the inbox, over the last
:data:`INBOX_DAYS` days (``--since`` overrides): old mail from others adds volume, not facts. Each folder is one Graph
delta round (``/me/mailFolders/{folder}/messages/delta``): the first round lists the folder,
and the ``@odata.deltaLink`` it ends with returns only what arrived since, so a reseed with
nothing new costs one request per folder. Only the fields memseed uses are selected
(``$select``), and bodies come as plain text (``Prefer: outlook.body-content-type="text"``).
A delta round yields only new messages (removals are passed over), so a reseed keeps the mail
read before in the local item cache (``cache="append"``); a folder whose delta link expired (410)
is listed again, and its messages replace their cached copies (same Graph id), never doubling.

Every message becomes the same :class:`~bootstrap_app.types.Message` as its export twin:
``message_id`` is the RFC 5322 Message-ID (``internetMessageId``), so a message seen both here
and in a PST/mbox export dedupes; sent items carry the ``Sent`` label, which is how identity
knows the owner wrote them.

Delivery evidence: a From header is typed by whoever sends the mail, so a lookalike (or the
owner's own address, forged) in the inbox must not speak as the owner. ``internetMessageHeaders``
(the RFC 5322 header block; Graph returns it only when ``$select`` names it) is asked for in the
same delta request and goes through the very judgment the export readers and Gmail use
(:func:`~connectors.local.mailparse.delivery_evidence`: the ``Received`` chain and the topmost
``Authentication-Results``), and through :func:`~connectors.local.mailparse.is_bulk` (List-Id,
Auto-Submitted ...). Graph documents the property for message GETs; a delta page may leave it
out (an update carries only what changed), so a received message that arrives without it is
completed with one ``GET /me/messages/{id}?$select=internetMessageHeaders`` — never judged
without evidence. Sent items are not fetched again: Exchange files into Sent Items what the
owner's own client submitted, and whatever headers the delta gave them are judged all the same.
The folder itself is evidence too: the delta is per well-known folder, so the label (``Sent`` or
``Inbox``) is the folder the request named, not anything the message says about itself.
"""

from __future__ import annotations

import re
from collections.abc import Generator, Iterator
from datetime import UTC, datetime, timedelta
from typing import Any, ClassVar
from urllib.parse import quote

from bootstrap_app.errors import SourceError
from bootstrap_app.types import Item, Message, Person

from ..base import ReadContext
from ..local.htmltext import html_to_text
from ..local.mailparse import delivery_evidence, header_list, is_bulk, parse_date_offset, trim_quoted
from .graph import GraphClient
from .source import GraphSource, graph_person, parse_graph_time

__all__ = ["FOLDERS", "HEADERS_SELECT", "INBOX_DAYS", "SELECT", "OutlookMailSource", "message_from_graph"]

FOLDERS: tuple[tuple[str, str], ...] = (("sentitems", "Sent"), ("inbox", "Inbox"))
"""(well-known folder name, label), read in this order."""
SELECT = ("id,internetMessageId,conversationId,subject,from,sender,toRecipients,ccRecipients,"
          "sentDateTime,receivedDateTime,body,categories,inferenceClassification,isDraft,internetMessageHeaders")
HEADERS_SELECT = "internetMessageHeaders"
"""What a single GET asks for when a delta page left a received message's headers out."""
INBOX_DAYS = 400
"""Inbox history read on a first scan (sent items are read in full: they are the owner's words).
The window is part of the delta link, so later rounds keep it; ``--since`` overrides both."""
_CONTENT = frozenset({"internetMessageId", "subject", "from", "sender", "sentDateTime", "receivedDateTime", "body"})
"""A delta entry with none of these is a change notice (Graph may send only the id and what
changed, e.g. ``isRead``): nothing to read, and the message itself came in an earlier round."""
_MSGID = re.compile(r"<[^<>\s@]+@[^<>\s]+>")
_HEADERS = {"Prefer": 'outlook.body-content-type="text", odata.maxpagesize=100'}


def _people(values: Any) -> tuple[Person, ...]:
    found = (graph_person(v) for v in (values if isinstance(values, list) else []))
    return tuple(p for p in found if p is not None)


def message_from_graph(data: dict[str, Any], label: str, *, source: str, ctx: ReadContext) -> Message:
    """One Graph message resource -> Message (text redacted and capped by ``ctx.clean``).

    ``internetMessageHeaders``, when present, can only take trust away (delivery from outside,
    failed authentication), never grant it: even a message in Sent Items is then nobody's own."""
    sender = graph_person(data.get("from")) or graph_person(data.get("sender")) or Person()
    actual = graph_person(data.get("sender"))  # Graph's "sender": who really sent it (RFC 5322 Sender)
    behalf = actual.address if actual and actual.address and actual.address != sender.address else ""
    headers = header_list(data.get("internetMessageHeaders"))
    relay, failure = delivery_evidence(headers, sender)
    to = _people(data.get("toRecipients"))
    cc = _people(data.get("ccRecipients"))
    sent = label == "Sent"
    when = parse_graph_time(data.get("sentDateTime")) or parse_graph_time(data.get("receivedDateTime"))
    raw_body = data.get("body")
    body: dict[str, Any] = raw_body if isinstance(raw_body, dict) else {}
    text = str(body.get("content") or "")
    if str(body.get("contentType") or "text").lower() == "html":  # the Prefer header was not honoured
        text = html_to_text(text)
    labels = [label, *(str(c) for c in data.get("categories") or [] if c)]
    if str(data.get("inferenceClassification") or "").lower() == "other":
        labels.append("Other")  # Outlook's "Other" tab, the Focused-inbox counterpart
    message_id = str(data.get("internetMessageId") or "").strip()
    reply = _MSGID.search(headers.get("in-reply-to", ""))
    return Message(
        source=source,
        ref=str(data.get("id") or message_id),
        timestamp=when,
        utc_offset_minutes=parse_date_offset(headers.get("date", "")),
        people=tuple(dict.fromkeys(p for p in (sender, *to, *cc) if p.address or p.name)),
        authored_by_owner=False if relay or failure else (True if sent else None),
        sender=sender,
        to=to,
        cc=cc,
        subject=ctx.clean(str(data.get("subject") or "").strip(), 1000),
        body=ctx.clean(trim_quoted(text)) if text else "",
        message_id=message_id,
        in_reply_to=reply.group(0) if reply else "",
        thread_id=str(data.get("conversationId") or "") or message_id,
        labels=tuple(dict.fromkeys(labels)),
        is_bulk=not sent and is_bulk(headers, sender),
        delivered_from=relay,
        auth_failure=failure,
        on_behalf_of=behalf,
    )


class OutlookMailSource(GraphSource, kind="outlook",
                        description="Outlook / Microsoft 365 mail, sent items first (Microsoft Graph, read-only)",
                        cursor_doc="Graph delta link per mail folder (sentitems, inbox) of the last complete read; /me entry",
                        cache="append"):
    """Mail of a Microsoft account (Outlook.com or Microsoft 365), sent items first."""

    scope: ClassVar[str] = "Mail.Read"

    def read(self, ctx: ReadContext) -> Iterator[Item]:
        client, _ = self.client(ctx)
        me = self.me(client, ctx)  # directory facts and the account's own addresses, once per account
        saved = dict(self.saved_cursor(ctx).get("folders") or {})
        links: dict[str, str] = {}
        for folder, label in FOLDERS:
            link = yield from self._folder(client, folder, label, saved.get(folder), ctx)
            if link is None:  # stopped by the person: keep the old cursor
                return
            links[folder] = link
        ctx.new_cursor = {"folders": links, "me": me}

    def _folder(self, client: GraphClient, folder: str, label: str, saved: str | None,
                ctx: ReadContext) -> Generator[Message, None, str | None]:
        params: dict[str, Any] = {"$select": SELECT}
        since = ctx.since
        if since is None and folder != "sentitems":  # what others sent: the recent window is enough
            since = datetime.now(UTC) - timedelta(days=INBOX_DAYS)
        if since is not None:
            params["$filter"] = f"receivedDateTime ge {since.astimezone(UTC).strftime('%Y-%m-%dT%H:%M:%SZ')}"
        initial = f"me/mailFolders/{folder}/messages/delta"
        count = 0
        for page, link in client.delta(initial, saved, params=params, headers=_HEADERS):
            for data in page:
                if "@removed" in data or not _CONTENT.intersection(data):
                    continue  # gone, or a change notice (read, flagged) of a message already read
                ctx.find()  # the ledger: each message listed ends as an item, a skip or passed over
                if data.get("isDraft"):
                    ctx.pass_over("drafts")
                    continue
                if label != "Sent" and "internetMessageHeaders" not in data:
                    completed = self._with_headers(client, data, folder, ctx)
                    if completed is None:
                        continue
                    data = completed
                try:
                    message = message_from_graph(data, label, source=self.id, ctx=ctx)
                except Exception as exc:  # one odd message never stops the folder
                    ctx.skip(self.id, str(data.get("id") or "message"), f"{folder}: message unreadable ({exc})")
                    continue
                count += 1
                yield message
            ctx.progress(self.id, count)
            if ctx.should_stop():
                return None
            if link:
                return link
        return None  # pragma: no cover - delta() raises when a round ends without a link

    def _with_headers(self, client: GraphClient, data: dict[str, Any], folder: str,
                      ctx: ReadContext) -> dict[str, Any] | None:
        """``data`` completed with its ``internetMessageHeaders`` (one GET), or None when that
        message cannot be fetched (deleted since the page was listed: reported, the folder goes on)."""
        ref = str(data.get("id") or "")
        try:
            extra = client.json(f"me/messages/{quote(ref, safe='=')}", params={"$select": HEADERS_SELECT})
        except SourceError as exc:
            if type(exc) is not SourceError:  # offline, quota, sign-in: the whole read stops
                raise
            ctx.skip(self.id, ref or "message", f"{folder}: message skipped, its delivery headers could not be "
                                                f"read ({str(exc).splitlines()[0]})")
            return None
        return {**data, "internetMessageHeaders": extra.get("internetMessageHeaders") or []}
