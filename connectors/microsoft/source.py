"""What the three Microsoft sources share: URI and account handling, availability, the client.

Why a shared base: ``outlook:``, ``outlook-calendar:`` and ``onedrive:`` differ only in which
Graph collection they walk and how an entry becomes an item. Signing in, picking the account
named in the URI (``outlook:me@example.com``) and building a throttling-aware client are the
same for all three, and credentials are always handed in through ``ctx.credentials`` — a
source never opens the token store itself.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime
from types import MappingProxyType
from typing import Any, ClassVar

from bootstrap_app.errors import AuthRequired
from bootstrap_app.types import Person

from ..base import AccountSource, ReadContext
from .auth import MicrosoftCredentials
from .graph import GraphClient

__all__ = ["GraphSource", "graph_person", "parse_graph_time"]


def graph_person(value: Any) -> Person | None:
    """``{"emailAddress": {"name", "address"}}`` (a recipient, sender or organizer) -> Person."""
    if not isinstance(value, dict):
        return None
    inner = value.get("emailAddress")
    addr: dict[str, Any] = inner if isinstance(inner, dict) else value
    name = str(addr.get("name") or "").strip()
    address = str(addr.get("address") or "").strip()
    if not name and not address:
        return None
    if name.lower() == address.lower():
        name = ""  # Graph repeats the address as the name when there is none
    return Person(name=name, address=address)


def parse_graph_time(value: Any) -> datetime | None:
    """Graph's ISO 8601 stamps (``2026-01-05T09:00:00Z``, or 7 fractional digits) -> aware UTC."""
    if not value or not isinstance(value, str):
        return None
    text = value.strip().replace("Z", "+00:00")
    head, dot, rest = text.partition(".")
    if dot:  # Graph writes 7 fractional digits; Python reads at most 6
        digits = "".join(c for c in rest if c.isdigit())
        zone = rest[len(digits):]
        text = f"{head}.{digits[:6]}{zone}"
    try:
        parsed = datetime.fromisoformat(text)
    except ValueError:
        return None
    return parsed.replace(tzinfo=UTC) if parsed.tzinfo is None else parsed.astimezone(UTC)


class GraphSource(AccountSource, auth="microsoft"):
    """Base of the Microsoft Graph sources; the location is the URI (``outlook:`` ...)."""

    scope: ClassVar[str] = ""
    """The delegated permission this source needs (named in a 403's message)."""

    def credentials(self, ctx: ReadContext) -> MicrosoftCredentials:
        creds = ctx.credentials(self.auth)
        if self.account and self.account not in [a.lower() for a in creds.accounts]:
            raise AuthRequired(f"Microsoft account {self.account} is not signed in: run "
                               "`memseed auth microsoft` and sign in with it",
                               hint=f"signed in: {', '.join(creds.accounts) or 'nobody'}")
        return creds

    owner_addresses: tuple[str, ...] = ()
    """The signed-in account's address, once a read has started: the identity platform, not a
    header anyone can write, says it is the owner's (the scan hands it to identity)."""

    owner_directory: Mapping[str, str] = MappingProxyType({})
    """What the organisation's directory says of the signed-in account (``title``, ``employer``,
    ``department``), once a read has fetched ``/me``; the scan hands it to the profile."""
    directory_from: ClassVar[str] = "directory (Microsoft 365)"

    def client(self, ctx: ReadContext) -> tuple[GraphClient, MicrosoftCredentials]:
        creds = self.credentials(ctx)
        account = self.account
        signed_in = (account or creds.account).lower()
        self.owner_addresses = (signed_in,) if "@" in signed_in else ()
        return GraphClient(lambda: creds.token(account), scope=self.scope,
                           sleep=ctx.sleep), creds

