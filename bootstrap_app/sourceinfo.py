"""What memseed can read and what it remembers: the data behind `memseed sources` and the app.

Everything here is derived from :mod:`connectors.registry` — the kinds detected by shape, the
URI forms, whether each URI can be read right now (a cloud source is never shown as available
when its login is missing) — and from the store: the sources remembered for ``reseed`` with
their last sync and the number of items read from them. The CLI and the Sources page only
format what :func:`source_catalog` returns.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from bootstrap_app.config import Settings
from bootstrap_app.errors import MemseedError
from bootstrap_app.store import Store
from connectors import registry
from connectors.base import Availability, short_scope

__all__ = ["AccountInfo", "KindInfo", "RememberedSource", "SourceCatalog", "UriInfo", "account_overview",
           "from_env", "short_scope", "source_catalog"]


@dataclass(frozen=True)
class KindInfo:
    kind: str
    description: str


@dataclass(frozen=True)
class UriInfo:
    uri: str
    kind: str
    description: str
    available: bool
    detail: str = ""
    account: str = ""
    scopes: tuple[str, ...] = ()
    auth: str = ""
    aliases: tuple[str, ...] = ()


@dataclass(frozen=True)
class RememberedSource:
    location: str
    added: str
    last_scanned: str | None
    items: int
    kinds: tuple[str, ...] = ()
    error: str = ""


@dataclass(frozen=True)
class SourceCatalog:
    kinds: list[KindInfo] = field(default_factory=list)
    uris: list[UriInfo] = field(default_factory=list)
    remembered: list[RememberedSource] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def _remembered(store: Store, row: dict[str, Any]) -> RememberedSource:
    """A remembered location with the items read from it (summed over the sources it holds)."""
    location = str(row["location"])
    try:
        found = registry.detect(location)
    except MemseedError as exc:
        return RememberedSource(location, row["added"], row["last_scanned"], 0,
                                error=str(exc.args[0]) if exc.args else type(exc).__name__)
    return RememberedSource(location, row["added"], row["last_scanned"],
                            sum(store.item_count(s.id) for s in found),
                            tuple(dict.fromkeys(s.kind for s in found)))


def source_catalog(settings: Settings, store: Store, *, remembered: bool = True) -> SourceCatalog:
    """Kinds, URI forms with their availability (account, scopes), and remembered sources."""
    home: Path = settings.home
    kinds = [KindInfo(cls.kind, cls.description) for cls in registry.by_shape()]
    uris = []
    for form, cls in registry.uri_forms():
        state = registry.availability(cls, home)
        uris.append(UriInfo(form, cls.kind, cls.description, state.ok, state.detail, state.account,
                            state.scopes, cls.auth, cls.uri_schemes[1:]))
    rows = [_remembered(store, row) for row in store.sources()] if remembered else []
    return SourceCatalog(kinds, uris, rows)


def from_env(state: Availability) -> bool:
    """The login is a credentials file named by an environment variable, not a stored sign-in:
    signing out would not change what memseed uses, so the UI and CLI say so instead."""
    return state.ok and state.detail.startswith("credentials from $")


@dataclass(frozen=True)
class AccountInfo:
    """One login as the Sources page shows it: who, which scopes, and what was read through it."""

    name: str
    label: str
    signed_in: bool
    detail: str
    account: str = ""
    scopes: tuple[str, ...] = ()
    env_login: bool = False
    uri: str = ""
    added: bool = False
    last_scanned: str | None = None
    items: int = 0


def account_overview(settings: Settings, store: Store) -> list[AccountInfo]:
    """Every login in :data:`connectors.registry.AUTH_PROVIDERS` with its state (no network) and,
    when its all-services URI (``google:``) is a remembered source, its last sync and item count."""
    rows = {str(row["location"]): row for row in store.sources()}
    out = []
    for name, provider in registry.AUTH_PROVIDERS.items():
        state = provider.status(settings.home)
        uri = f"{name}:"
        row = rows.get(uri)
        seen = _remembered(store, row) if row is not None else None
        out.append(AccountInfo(
            name, name.capitalize(), state.ok, state.detail, state.account,
            tuple(short_scope(s) for s in state.scopes), from_env(state), uri, row is not None,
            seen.last_scanned if seen else None, seen.items if seen else 0))
    return out
