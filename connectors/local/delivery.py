"""How a message reached the mailbox: the ``Received`` chain and ``Authentication-Results``.

Why memseed reads these: a From header is typed by whoever sends the mail, so it proves nothing
about authorship. Two traces are added by servers instead:

- ``Received`` (RFC 5321 §4.4): every server that accepts the message prepends ``from <helo>
  (<rdns> [ip]) by <host> with <protocol>``. A hop whose sending host belongs to another
  organisation than the receiving host is *delivery from outside*: the owner's own client does
  not hand mail to the owner's mailbox through a stranger's server. Authenticated submission
  (``with ESMTPSA``/``ESMTPA``/``HTTP``) is the owner's client talking to their own provider and
  never counts; private and loopback addresses are internal.
- ``Authentication-Results`` (RFC 8601): the receiving server's verdict on DKIM, SPF and DMARC.
  Only the topmost one is read (the one the receiving server wrote; lower ones are whatever the
  sender put there). A failing method, or passes that do not align with the From domain, mean
  the server does not vouch for the From address. ``none`` is not a failure (no SPF record, no
  signature, no DMARC policy) — but the header itself is evidence: a border server stamps it on
  mail it *receives* (RFC 8601 §5), while a sent copy is stored by the owner's own client and
  carries none. A received copy that no method authenticated (``spf=none; dkim=none;
  dmarc=none`` or ``; none``) is therefore not vouched for either: it is exactly what a spoof
  from a domain without DMARC looks like, and relayed through the owner's own mail provider its
  ``Received`` chain never leaves one organisation. Microsoft's composite ``compauth`` verdict
  counts like DMARC, and ``auth=pass`` (the sender logged in to this server, RFC 8601 §2.7.4)
  vouches too.

Both can only take trust *away* from a message (see ``Message.third_party_reason``): a forged
``Received`` header claiming an internal hop is simply not evidence of anything.
"""

from __future__ import annotations

import ipaddress
import re
from functools import lru_cache

__all__ = ["NOTHING_AUTHENTICATED", "auth_failure", "external_hop", "internal_submission", "org_domain"]

_FROM = re.compile(r"^\s*from\s+(\S+)(?:\s+\(([^)]*)\))?", re.IGNORECASE)
_BY = re.compile(r"\bby\s+([A-Za-z0-9.-]+)", re.IGNORECASE)
_WITH = re.compile(r"\bwith\s+([A-Za-z0-9]+)", re.IGNORECASE)
_IP = re.compile(r"\[(?:IPv6:)?([0-9A-Fa-f:.]+)\]")
_HOSTNAME = re.compile(r"^(?=.*[A-Za-z])[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+\.?$")
_TWO_LEVEL = frozenset({"co", "com", "org", "net", "ac", "gov", "edu", "ne", "or", "go"})
_METHOD = re.compile(r"(?<![\w.])(dkim|spf|dmarc|compauth|auth)\s*=\s*([a-z]+)((?:\s+(?:\([^)]*\)|[a-z.]+=[^\s;]+))*)", re.IGNORECASE)
NOTHING_AUTHENTICATED = "nothing authenticated the sender"
"""How :func:`auth_failure` begins its reason for a received copy no method authenticated."""
_NO_RESULT = re.compile(r";\s*none\s*(?:$|;)", re.IGNORECASE)
"""RFC 8601 §2.2: ``authserv-id; none`` — the server ran no authentication on this copy."""
_EXCHANGE_HOP = re.compile(r"\bwith\s+(?:Microsoft\s+SMTP\s+Server|mapi|HTTPS)\b", re.IGNORECASE)
"""How Exchange names the protocol of the hop that hands a message to the mailbox."""
_PROP = re.compile(r"\b(header\.d|header\.i|header\.from|smtp\.mailfrom)=([^\s;]+)", re.IGNORECASE)


@lru_cache(maxsize=4096)
def org_domain(host: str) -> str:
    """The organisation part of a host name: ``mx.mail.tidewater.io`` -> ``tidewater.io``,
    ``smtp.example.co.uk`` -> ``example.co.uk`` (a short second-level label before a country code;
    memoized: every message asks for its From domain's, and a mailbox has a few hundred)."""
    parts = [p for p in host.lower().strip(".").split(".") if p]
    if len(parts) < 2:
        return host.lower()
    if len(parts) >= 3 and len(parts[-1]) == 2 and parts[-2] in _TWO_LEVEL:
        return ".".join(parts[-3:])
    return ".".join(parts[-2:])


_INTERNAL_NETS = tuple(ipaddress.ip_network(n) for n in (
    "10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "100.64.0.0/10", "127.0.0.0/8", "169.254.0.0/16",
    "::1/128", "fc00::/7", "fe80::/10"))


def _private(ip: str) -> bool:
    """RFC 1918 / ULA / loopback / link-local / carrier NAT (``ipaddress.is_private`` also calls the
    documentation ranges private, and those are what examples and tests use for outside hosts)."""
    try:
        addr = ipaddress.ip_address(ip)
    except ValueError:
        return False
    return any(addr.version == net.version and addr in net for net in _INTERNAL_NETS)


_RDNS = re.compile(r"([A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+)\.?\s+\[(?:IPv6:)?[0-9A-Fa-f:.]+\]")
_BARE_IP = re.compile(r"\(\s*(?:[^\s()@]+@)?((?:\d{1,3}\.){3}\d{1,3})\s*\)")


def _sending_host(value: str) -> tuple[str, bool]:
    """(host name or public IP of the sending side, it is a private/loopback address).

    Why the HELO name is not trusted: the client types it (``from mx.owner.example (unknown
    [203.0.113.5])`` is a stranger claiming to be the owner's server). The name counts only from
    the slot the receiving server fills by reverse DNS: ``name [ip]`` inside the comment
    (Postfix, sendmail, Gmail) or ``from name ([ip] helo=…)`` (Exim). With an address and no
    such name, the address is the sender; the HELO name is used only when there is no address.
    """
    m = _FROM.match(value)
    if not m:
        return "", False
    by = _BY.search(value, m.end(1))
    head = value[: by.start()] if by else value
    helo = m.group(1).strip("[]")
    ips = _IP.findall(head) + _BARE_IP.findall(head)
    if not ips and re.fullmatch(r"[0-9A-Fa-f.:]+", helo):
        ips = [helo]
    if ips and all(_private(ip) for ip in ips):
        return "", True
    rdns = _RDNS.search(head, m.end(1))
    if rdns:
        name = rdns.group(1)
    elif re.match(r"\s*\(\s*\[", head[m.end(1):]) and _HOSTNAME.match(helo):
        name = helo  # Exim: the first word is the reverse-DNS name, the HELO follows as helo=
    elif ips:
        name = ips[0]
    else:
        name = helo if _HOSTNAME.match(helo) else ""
    return name.rstrip(".").lower(), False


def external_hop(received: str) -> str:
    """The first (newest) hop that carried the message in from another organisation, or "".

    ``received`` holds the Received values newest first, one per line.
    """
    for value in received.split("\n"):
        if (start := _FROM.match(value)) and (host := _hop_verdict(_hop_shape(value, start))):
            return host  # a line without ``from <host>`` names no sending host: never a verdict
    return ""


def _hop_shape(value: str, start: re.Match[str] | None = None) -> str:
    """One Received line cut right after the last text its verdict reads: the first ``by`` and
    ``with`` matches and the ``by`` after the sending host's name (the head before it, where the
    sending host is read, is kept whole). What follows (the queue ``id``, ``for <address>``, the
    date) differs from message to message and is never read, so the same server pair gives the
    same shape for every message and its verdict is worked out once (:func:`_hop_verdict`).
    ``start``: ``_FROM.match(value)`` when the caller has it already.
    """
    by, proto = _BY.search(value), _WITH.search(value)
    if not by or not proto:
        return value
    cut = max(by.end(), proto.end())
    start = start or _FROM.match(value)
    # the ``by`` _sending_host reads; when the first ``by`` lies past the host's name, it is that one
    if start and by.start() < start.end(1) and (sender_by := _BY.search(value, start.end(1))):
        cut = max(cut, sender_by.end())
    return value[:cut]


@lru_cache(maxsize=65536)
def _hop_verdict(value: str) -> str:
    """The sending host when this Received line is a hop from another organisation, else ""."""
    proto = _WITH.search(value)
    protocol = proto.group(1).upper() if proto else ""
    if ("SMTP" in protocol and protocol.endswith("A")) or protocol.startswith("HTTP"):
        return ""  # authenticated submission: the owner's client at their own provider
    by = _BY.search(value)
    host, private = _sending_host(value)
    if private or not host or not by:
        return ""
    if re.fullmatch(r"[0-9a-f.:]+", host):
        return host  # a public address with no name, handing mail to this server
    if org_domain(host) != org_domain(by.group(1)):
        return host
    return ""


def auth_failure(results: str, from_address: str) -> str:
    """Why the topmost Authentication-Results do not vouch for ``from_address``: a failing
    method, passes for another domain, or nothing authenticated at all; "" when one aligned
    method passed (or there is no such header: a sent copy carries none)."""
    if not results or "@" not in from_address:
        return ""
    return _auth_verdict(results, org_domain(from_address.rpartition("@")[2]))


@lru_cache(maxsize=16384)
def _auth_verdict(results: str, from_org: str) -> str:
    """:func:`auth_failure` for one header text and From organisation (servers repeat both)."""
    verdicts: dict[str, str] = {}
    aligned: dict[str, bool] = {}
    for m in _METHOD.finditer(results):
        method, verdict, props = m.group(1).lower(), m.group(2).lower(), m.group(3) or ""
        if method in verdicts:
            continue
        verdicts[method] = verdict
        domains = [v.rpartition("@")[2] for _k, v in _PROP.findall(props)]
        aligned[method] = not domains or any(org_domain(d) == from_org for d in domains)
    for method in ("dmarc", "compauth", "dkim", "spf"):
        if verdicts.get(method) in ("fail", "softfail", "permerror", "quarantine", "reject"):
            return f"{method}={verdicts[method]}"
    if verdicts.get("dmarc") == "pass":
        return "" if aligned.get("dmarc", True) else f"dmarc passed for another domain than {from_org}"
    if verdicts.get("compauth") in ("pass", "softpass") or verdicts.get("auth") == "pass":
        return ""  # Microsoft's composite judgment of the From domain; an SMTP-AUTH'd user of this server
    passes = [m for m in ("dkim", "spf") if verdicts.get(m) == "pass"]
    if passes and not any(aligned[m] for m in passes):
        return f"{'/'.join(passes)} passed for another domain than {from_org}"
    if not passes:  # a received copy that nothing authenticated (see the module docstring)
        said = ", ".join(f"{m}={v}" for m, v in verdicts.items())
        if said or _NO_RESULT.search(results):
            return f"{NOTHING_AUTHENTICATED} ({said or 'none'})"
    return ""


def internal_submission(headers: dict[str, str]) -> bool:
    """Whether Exchange says a user of the organisation submitted this message (``AuthAs: Internal``).

    Why it may vouch: mail between two people of one Microsoft 365 tenant carries
    ``dkim=none; dmarc=none`` (nothing signs it on its way between two mailboxes), which on its own
    reads as "nothing authenticated". Exchange authenticates the submitting user itself and says
    so in ``X-MS-Exchange-Organization-AuthAs``; its header firewall removes every
    ``X-MS-Exchange-Organization-*`` header from mail arriving anonymously, so an outsider cannot
    carry one in. Elsewhere (a Gmail or mbox export) such a header proves nothing, which is why
    the caller only consults it for a copy whose ``Received`` chain never left the organisation:
    mail from outside is judged by its external hop first. And only when Exchange received the
    copy: the newest ``Received`` is written by the mailbox's own server (a sender's headers can
    only sit below it), and Exchange writes ``with Microsoft SMTP Server``, ``with mapi`` or
    ``with HTTPS`` there. A mailbox kept by another provider never stripped the header, so a
    spoof relayed inside that provider could carry it.
    """
    newest = headers.get("received", "").split("\n", 1)[0]
    return (headers.get("x-ms-exchange-organization-authas", "").strip().lower() == "internal"
            and bool(_EXCHANGE_HOP.search(newest)))
