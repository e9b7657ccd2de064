"""The readable text of a raw message's body: text/plain, else HTML made plain, through any MIME.

Why apart from :mod:`.mailparse`: header parsing is cheap, line-based and needed for every
message (even those whose body is never read), while body extraction is where the cost and the
garbage are -- transfer encodings, charsets, multipart trees, broken MIME. A multipart body is
split here by its boundary without the stdlib ``email`` object tree (the part headers go
through :func:`.mailparse.parse_header_block`); only unusual shapes fall back to
:func:`email.message_from_bytes`. Every step tolerates garbage and never raises.
"""

from __future__ import annotations

import binascii
import email
import email.policy
import re
from email.message import Message as EmailMessage

from .htmltext import html_to_text
from .mailparse import decode_bytes, parse_header_block, split_message

__all__ = ["extract_body"]

_MAX_MIME_BYTES = 8 * 1024 * 1024
_PARAM = re.compile(r';\s*([a-z0-9*_-]+)\s*=\s*(?:"([^"]*)"|([^;\s]*))', re.IGNORECASE)


def _param(content_type: str, name: str) -> str:
    for m in _PARAM.finditer(content_type):
        if m.group(1).lower() == name:
            return m.group(2) if m.group(2) is not None else m.group(3)
    return ""


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
