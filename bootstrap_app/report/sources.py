"""What memseed can read and what it remembers: the data behind `memseed sources` and the app.

Everything here is derived from :mod:`connectors.registry` — the kinds detected by shape, the
URI forms, whether each URI can be read right now (a cloud source is never shown as available
when its login is missing) — and from the store: the sources remembered for ``reseed`` with
their last sync and the number of items read from them. The CLI and the Sources page only
format what :func:`source_catalog` returns.

Why remembered sources come from the store and not from the disk: listing them used to detect
every location again (a walk of each remembered folder, per listing, slow on a big document
folder or a maildir). The last scan recorded what each location resolved to (``parts``) and
every item it read, so the counts and the last sync are the store's. Only ``check=True``
(``memseed sources --check``) looks at the disk, to say whether each location is still readable.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from bootstrap_app.config import Settings
from bootstrap_app.errors import MemseedError
from bootstrap_app.store import Store
from bootstrap_app.text.paths import printable
from connectors import registry
from connectors.base import Availability, short_scope

__all__ = ["AccountInfo", "KindInfo", "RememberedSource", "SourceCatalog", "UriInfo", "account_overview",
           "from_env", "remembered_sources", "short_scope", "source_catalog"]


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


def _under(location: str, source_id: str) -> bool:
    """``kind:/path`` (or ``kind:/path/sub``, ``kind:/path!part``) is a source at ``location``."""
    rest = source_id.partition(":")[2]
    return rest == location or rest.startswith((location.rstrip("/") + "/", location + "!"))


def _remembered(store: Store, row: dict[str, Any], *, check: bool = False,
                item_sources: list[str] | None = None) -> RememberedSource:
    """A remembered location with the items its last scan read (summed over the sources it holds).

    From the store alone: the parts the last scan recorded, or, for a location scanned before
    they were recorded, the item sources whose path lies under it. ``check``: detect the
    location again (the disk) and report it unreadable when it no longer is.
    """
    location = str(row["location"])
    if check:
        try:
            found = registry.detect(location)
        except MemseedError as exc:
            return RememberedSource(printable(location), row["added"], row["last_scanned"], 0,
                                    error=str(exc.args[0]) if exc.args else type(exc).__name__)
        parts = [(s.id, s.kind) for s in found]
    elif row.get("parts") is not None:
        parts = list(row["parts"])
    else:
        ids = item_sources if item_sources is not None else store.item_sources()
        parts = [(i, i.partition(":")[0]) for i in ids if _under(location, i)]
    # shown as text (a name that is not valid UTF-8 with its bytes as \xNN); the store keeps the real one
    return RememberedSource(printable(location), row["added"], row["last_scanned"],
                            store.items_under(i for i, _ in parts),
                            tuple(dict.fromkeys(kind for _, kind in parts)))


def source_catalog(settings: Settings, store: Store, *, remembered: bool = True, check: bool = False) -> SourceCatalog:
    """Kinds, URI forms with their availability (account, scopes), and remembered sources
    (from the store; ``check`` also detects each location again to report unreadable ones)."""
    home: Path = settings.home
    kinds = [KindInfo(cls.kind, cls.description) for cls in registry.by_shape()]
    uris = []
    for form, cls in registry.uri_forms():
        state = registry.availability(cls, home)
        uris.append(UriInfo(form, cls.kind, cls.description, state.ok, state.detail, state.account,
                            state.scopes, cls.auth, cls.uri_schemes[1:]))
    return SourceCatalog(kinds, uris, remembered_sources(store, check=check) if remembered else [])


def remembered_sources(store: Store, *, check: bool = False) -> list[RememberedSource]:
    """Every remembered location with its kinds, items and last sync (see the module docstring)."""
    stored = store.sources()
    item_sources = store.item_sources() if any(r["parts"] is None for r in stored) and not check else None
    return [_remembered(store, row, check=check, item_sources=item_sources) for row in stored]


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
