"""Raw RFC 5322 message -> :class:`~bootstrap_app.types.Message`, shared by mbox and eml/maildir.

Why our own header parsing: the stdlib ``email`` package parses the *whole* message into an
object tree, which is what makes ``mailbox.mbox`` slow on multi-GB Takeout files. Headers are
simple (name, colon, value, folded continuation lines), so we split them ourselves and only
hand the body to :func:`email.message_from_bytes` when it is MIME multipart or otherwise not a
plain single part. Every step tolerates garbage: broken dates become ``None``, unknown charsets
decode with replacement, broken MIME gives whatever text could be recovered.
"""

from __future__ import annotations

import binascii
import codecs
import csv
import email
import email.policy
import re
from collections.abc import Callable
from datetime import datetime
from email.header import decode_header, make_header
from email.message import Message as EmailMessage
from email.utils import getaddresses, parsedate_to_datetime

from bootstrap_app.types import Message, Person, utc

from .delivery import auth_failure, external_hop
from .htmltext import html_to_text

__all__ = [
    "decode_bytes",
    "decode_words",
    "extract_body",
    "gmail_labels",
    "is_bulk",
    "message_from_parts",
    "parse_date",
    "parse_date_offset",
    "parse_header_block",
    "parse_people",
    "split_message",
    "trim_quoted",
]

_MAX_MIME_BYTES = 8 * 1024 * 1024
_MULTI_HEADERS = frozenset({"to", "cc", "bcc", "references"})
_STACKED_HEADERS = frozenset({"received"})
"""Repeated headers whose order matters: kept newest first, one value per line."""
_HDR_END = re.compile(rb"\r?\n\r?\n")
_PARAM = re.compile(r';\s*([a-z0-9*_-]+)\s*=\s*(?:"([^"]*)"|([^;\s]*))', re.IGNORECASE)
_MSGID = re.compile(r"<[^<>\s@]+@[^<>\s]+>")
_BULK_LOCAL = re.compile(r"^(?:no-?reply|do-?not-?reply|donotreply|notifications?|mailer-daemon|postmaster"
                         r"|bounces?|news(?:letter)?|alerts?)(?:[+._-].*)?$")
_QUOTE_START = re.compile(
    r"^(?:>|-{2,}\s*(?:Original Message|Forwarded message)\s*-{2,}|_{10,}\s*$"
    r"|On .{4,200} wrote:\s*$|Am .{4,200} schrieb .{0,120}:\s*$)", re.IGNORECASE)


_HEADER_LINE = re.compile(r"^([^\s:]+)[ \t]*:[ \t]*([^\n]*(?:\n[ \t][^\n]*)*)", re.MULTILINE)
_FOLD = re.compile(r"\r?\n[ \t]+")


def parse_header_block(block: bytes) -> dict[str, str]:
    """Unfold and split a header block. Names are lower-cased; the first value wins, except
    To/Cc/Bcc/References, whose repeated headers are joined. Lines that are not headers
    (garbage, an mbox ``From `` line) are ignored. ``Received`` headers are all kept, newest
    first, one per line (see :mod:`.delivery`). Never raises."""
    try:
        text = block.decode("utf-8")
    except UnicodeDecodeError:
        text = block.decode("latin-1")
    if "\r" in text:
        text = text.replace("\r\n", "\n")
    headers: dict[str, str] = {}
    for name, value in _HEADER_LINE.findall(text):
        key = name.lower()
        if "\n" in value:
            value = _FOLD.sub(" ", value)
        value = value.strip()
        if key not in headers:
            headers[key] = value
        elif key in _MULTI_HEADERS and value:
            headers[key] = f"{headers[key]}, {value}"
        elif key in _STACKED_HEADERS and value:
            headers[key] = f"{headers[key]}\n{value}"
    return headers


def split_message(data: bytes) -> tuple[bytes, bytes, bool]:
    """(header block, body, complete) of a raw message; ``complete`` is False when no blank
    line ends the headers (a file cut off in its header block)."""
    if data[:1] in (b"\n", b"\r"):
        return b"", data.lstrip(b"\r\n"), True
    m = _HDR_END.search(data)
    if not m:
        return data, b"", False
    return data[: m.start()], data[m.end():], True


def decode_words(value: str) -> str:
    """Decode RFC 2047 encoded words (``=?utf-8?q?...?=``); leave anything broken as it is."""
    if "=?" not in value:
        return value
    try:
        return str(make_header(decode_header(value)))
    except (LookupError, UnicodeError, ValueError, binascii.Error, AssertionError):
        return value


_ADDR_ANGLE = re.compile(r"^\s*([^<>\"(),;:@]*?)\s*<([^<>\s@]+@[^<>\s]+)>\s*$")
_ADDR_BARE = re.compile(r"^\s*<?([^<>\s@\"(),;:]+@[^<>\s\"(),;:]+)>?\s*$")


def _fast_addresses(value: str) -> list[tuple[str, str]] | None:
    """The common shapes (``Name <a@b>``, ``a@b``) without the stdlib's slow tokenizer;
    None sends anything unusual (quotes, comments, groups) to :func:`getaddresses`."""
    if '"' in value or "(" in value or ";" in value or "\\" in value:
        return None
    pairs: list[tuple[str, str]] = []
    for part in value.split(","):
        if not part.strip():
            continue
        m = _ADDR_ANGLE.match(part)
        if m:
            pairs.append((m.group(1), m.group(2)))
            continue
        m = _ADDR_BARE.match(part)
        if not m:
            return None
        pairs.append(("", m.group(1)))
    return pairs


def parse_people(value: str) -> tuple[Person, ...]:
    """Addresses of a To/Cc/From header, names decoded; garbage entries are dropped."""
    if not value:
        return ()
    pairs = _fast_addresses(value)
    try:
        if pairs is None:
            pairs = getaddresses([value])
    except (ValueError, IndexError, TypeError):
        return ()
    people: list[Person] = []
    for name, addr in pairs:
        addr = addr.strip().strip("<>")
        name = decode_words(name).strip().strip('"').strip()
        if not addr and not name:
            continue
        if addr and "@" not in addr and not name:
            continue  # stray words from a broken header
        people.append(Person(name=name, address=addr))
    return tuple(people)


_DATE_ERRORS = (TypeError, ValueError, IndexError, OverflowError)


def _read_date(value: str) -> datetime | None:
    """The Date header as written (its own offset kept), or None when absent or unreadable."""
    if not value:
        return None
    try:
        return parsedate_to_datetime(value)
    except _DATE_ERRORS:
        return None


def _as_utc(parsed: datetime | None) -> datetime | None:
    try:
        return utc(parsed)
    except _DATE_ERRORS:  # astimezone overflows at the ends of the calendar
        return None


def _offset_minutes(parsed: datetime | None) -> int | None:
    offset = parsed.utcoffset() if parsed is not None and parsed.tzinfo is not None else None
    if offset is None:
        return None
    minutes = int(offset.total_seconds() // 60)
    return minutes if -14 * 60 <= minutes <= 14 * 60 else None


def parse_date(value: str) -> datetime | None:
    """Aware UTC datetime of a Date header, or None when it cannot be read."""
    return _as_utc(_read_date(value))


def parse_date_offset(value: str) -> int | None:
    """UTC offset in minutes the Date header was written in; None when absent or ``-0000``
    (RFC 5322: "no information about the local time zone") or unreadable."""
    return _offset_minutes(_read_date(value))


def gmail_labels(value: str) -> tuple[str, ...]:
    """Takeout's ``X-Gmail-Labels``: comma-separated, labels with commas are double-quoted."""
    if not value:
        return ()
    try:
        row = next(csv.reader([value], skipinitialspace=True))
    except (csv.Error, StopIteration):
        row = value.split(",")
    return tuple(decode_words(label.strip()) for label in row if label.strip())


def is_bulk(headers: dict[str, str], sender: Person) -> bool:
    """Newsletters, notifications, auto-replies and no-reply senders."""
    if "list-id" in headers or "list-unsubscribe" in headers:
        return True
    if headers.get("precedence", "").strip().lower() in ("bulk", "list", "junk"):
        return True
    auto = headers.get("auto-submitted", "").strip().lower()
    if auto and auto != "no":
        return True
    local = sender.address.partition("@")[0]
    return bool(local and _BULK_LOCAL.match(local))


def _param(content_type: str, name: str) -> str:
    for m in _PARAM.finditer(content_type):
        if m.group(1).lower() == name:
            return m.group(2) if m.group(2) is not None else m.group(3)
    return ""


def decode_bytes(data: bytes, charset: str | None) -> str:
    """Decode with the declared charset; unknown or lying charsets fall back with replacement."""
    cs = (charset or "").strip().strip('"').lower() or "utf-8"
    if cs in ("us-ascii", "ascii", "unknown-8bit", "x-unknown", "default"):
        cs = "utf-8"
    try:
        codecs.lookup(cs)
    except LookupError:
        cs = "utf-8"
    try:
        return data.decode(cs)
    except UnicodeDecodeError:
        if cs == "utf-8":
            return data.decode("cp1252", errors="replace")
        return data.decode(cs, errors="replace")


def _transfer_decode(data: bytes, cte: str) -> bytes:
    cte = cte.strip().lower()
    try:
        if cte == "base64":
            return binascii.a2b_base64(b"".join(data.split()) + b"==")
        if cte == "quoted-printable":
            return binascii.a2b_qp(data)
    except (binascii.Error, ValueError):
        return data
    return data


def _part_text(part: EmailMessage) -> str:
    try:
        payload = part.get_payload(decode=True)
    except (ValueError, LookupError, AssertionError):
        payload = None
    if not isinstance(payload, bytes):
        raw = part.get_payload()
        payload = raw.encode("utf-8", "replace") if isinstance(raw, str) else b""
    text = decode_bytes(payload, part.get_content_charset())
    return html_to_text(text) if part.get_content_subtype() == "html" else text


def _mime_body(header_block: bytes, body: bytes) -> str:
    msg = email.message_from_bytes(header_block + b"\n\n" + body, policy=email.policy.compat32)
    plain: EmailMessage | None = None
    html: EmailMessage | None = None
    for part in msg.walk():
        if part.is_multipart():
            continue
        if part.get_content_maintype() != "text" or part.get_filename():
            continue
        if (part.get("Content-Disposition") or "").strip().lower().startswith("attachment"):
            continue
        sub = part.get_content_subtype()
        if sub == "plain" and plain is None:
            plain = part
        elif sub == "html" and html is None:
            html = part
    chosen = plain or html
    return _part_text(chosen) if chosen is not None else ""


def _split_parts(body: bytes, boundary: str) -> list[bytes] | None:
    """The parts of a multipart body, or None when the boundary is not there (broken MIME)."""
    delim = b"--" + boundary.encode("latin-1", "replace")
    pieces = body.split(b"\n" + delim) if not body.startswith(delim) else (b"\n" + body).split(b"\n" + delim)
    if len(pieces) < 2:
        return None
    parts = []
    for piece in pieces[1:]:
        if piece.startswith(b"--"):
            break
        parts.append(piece.split(b"\n", 1)[1] if b"\n" in piece else b"")
    return parts


def _fast_multipart(headers: dict[str, str], body: bytes, depth: int = 0) -> str | None:
    """text/plain (else HTML) of a multipart body without the ``email`` package's object tree;
    None for anything unusual, which then goes to the stdlib parser."""
    boundary = _param(headers.get("content-type", ""), "boundary")
    if not boundary or depth > 3:
        return None
    parts = _split_parts(body, boundary)
    if parts is None:
        return None
    html: tuple[dict[str, str], bytes] | None = None
    for part in parts:
        block, content, _ = split_message(part)
        ph = parse_header_block(block)
        ctype = ph.get("content-type", "text/plain").lower()
        if ph.get("content-disposition", "").lower().startswith("attachment") or "name=" in ctype:
            continue
        if ctype.startswith("multipart/"):
            inner = _fast_multipart(ph, content, depth + 1)
            if inner:
                return inner
        elif ctype.startswith("text/plain"):
            data = _transfer_decode(content, ph.get("content-transfer-encoding", ""))
            return decode_bytes(data.rstrip(b"\r\n"), _param(ph.get("content-type", ""), "charset"))
        elif ctype.startswith("text/html") and html is None:
            html = (ph, content)
    if html is not None:
        ph, content = html
        data = _transfer_decode(content, ph.get("content-transfer-encoding", ""))
        return html_to_text(decode_bytes(data, _param(ph.get("content-type", ""), "charset")))
    return None


def extract_body(headers: dict[str, str], header_block: bytes, body: bytes) -> str:
    """The readable text of a message: text/plain, else HTML made plain; never raises."""
    ctype = headers.get("content-type", "text/plain") or "text/plain"
    main = ctype.split(";", 1)[0].strip().lower()
    if len(body) > _MAX_MIME_BYTES:
        body = body[:_MAX_MIME_BYTES]
    try:
        if main in ("text/plain", "text/html", "text", ""):
            data = _transfer_decode(body, headers.get("content-transfer-encoding", ""))
            text = decode_bytes(data, _param(ctype, "charset"))
            return html_to_text(text) if main == "text/html" else text
        if main.startswith("multipart/"):
            fast = _fast_multipart(headers, body.replace(b"\r\n", b"\n") if b"\r\n" in body else body)
            if fast is not None:
                return fast
            return _mime_body(header_block, body)
        if main == "message/rfc822":
            return _mime_body(header_block, body)
    except Exception:  # broken MIME must never stop a scan
        return decode_bytes(body[:65536], "utf-8")
    return ""


def trim_quoted(text: str) -> str:
    """Keep the body up to the first quoted block or "Original Message" marker."""
    lines = text.replace("\r\n", "\n").split("\n")
    for i, line in enumerate(lines):
        if _QUOTE_START.match(line.lstrip() if not line.startswith(">") else line):
            return "\n".join(lines[:i]).rstrip()
    return text.rstrip()


def message_from_parts(headers: dict[str, str], body_text: str, *, source: str, ref: str,
                       clean: Callable[..., str], sent_hint: bool | None = None) -> Message:
    """Build the Message item. ``clean`` is ``ctx.clean`` (cap + secret redaction)."""
    senders = parse_people(headers.get("from", "")) or parse_people(headers.get("sender", ""))
    sender = senders[0] if senders else Person()
    to = parse_people(headers.get("to", ""))
    cc = parse_people(headers.get("cc", ""))
    labels = gmail_labels(headers.get("x-gmail-labels", ""))
    msgid_match = _MSGID.search(headers.get("message-id", ""))
    message_id = msgid_match.group(0) if msgid_match else headers.get("message-id", "").strip()
    reply = _MSGID.search(headers.get("in-reply-to", ""))
    refs = _MSGID.findall(headers.get("references", ""))
    thread = (headers.get("x-gm-thrid", "").strip() or (refs[0] if refs else "")
              or (reply.group(0) if reply else "") or message_id)
    list_id = headers.get("list-id", "")
    lid = re.search(r"<([^<>]+)>", list_id)
    folder = _folder_label(headers.get("x-folder", ""))
    if folder and not labels:
        labels = (folder,)
    if sent_hint and not labels:  # a reader found it in a Sent folder (maildir .Sent, Sent.mbox)
        labels = ("Sent",)
    relay = external_hop(headers.get("received", ""))
    failure = auth_failure(headers.get("authentication-results", ""), sender.address)
    behalf = next((p.address for p in parse_people(headers.get("sender", ""))
                   if p.address and senders and p.address != sender.address), "")
    authored = sent_hint
    if authored is None and "Sent" in labels:
        authored = True
    if relay or failure:  # delivered from outside / not vouched for: nobody's Sent mail
        authored = False
    people = tuple(dict.fromkeys(p for p in (sender, *to, *cc) if p.address or p.name))
    written = _read_date(headers.get("date", ""))  # parsed once: the timestamp and its offset
    return Message(
        source=source,
        ref=ref,
        timestamp=_as_utc(written),
        utc_offset_minutes=_offset_minutes(written),
        people=people,
        authored_by_owner=authored,
        sender=sender,
        to=to,
        cc=cc,
        subject=clean(decode_words(headers.get("subject", "")).strip(), 1000),
        body=clean(trim_quoted(body_text)) if body_text else "",
        message_id=message_id,
        in_reply_to=reply.group(0) if reply else "",
        thread_id=thread,
        labels=labels,
        list_id=(lid.group(1) if lid else list_id).strip(),
        is_bulk=is_bulk(headers, sender),
        delivered_from=relay,
        auth_failure=failure,
        on_behalf_of=behalf,
    )


def _folder_label(value: str) -> str:
    """``X-Folder`` (PST/Exchange exports such as the Enron corpus name the folder a message was
    filed in): its last component as a label, but only an inbox. A header can take trust away
    and never grant it, and anyone can type ``X-Folder: Sent Items`` into a message they send."""
    last = decode_words(value).replace("/", "\\").rstrip("\\").rsplit("\\", 1)[-1].strip()
    return last if last.lower() == "inbox" else ""
