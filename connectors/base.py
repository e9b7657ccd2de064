"""The source contract: :class:`Source`, the :class:`ReadContext` a read gets, :class:`Availability`.

A connector is one small module with a :class:`Source` subclass that declares, in its class
statement, everything the rest of memseed needs to know about it
(``class EmlSource(Source, kind="eml", priority=35, description=..., cursor_doc=...)``): its ``kind``, a one-line
``description``, the URI forms it answers (``uri_schemes``, canonical first, aliases after), the
login it needs (``auth``: ``""``, ``"google"`` or ``"microsoft"``), what its incremental
cursor holds (``cursor_doc``), and whether a reseed may serve its earlier items from the local
item cache (``cache``). ``sniff(path)`` recognises path-shaped sources cheaply and
without side effects; ``read(ctx)`` streams normalized items and leaves ``ctx.new_cursor`` for
the next incremental read (only after a *complete* read, so a crash never skips data).

A source that reads an online account rather than a path subclasses :class:`AccountSource`: its
URI is its kind and the account (``gmail:[ACCOUNT]``), so it declares neither ``uri_schemes``
nor ``uri_form`` unless it has aliases. A whole account standing for several of them
(``google:``) is an :class:`AccountComposite` listing its ``parts``.

Connectors are listed in one explicit registry, :mod:`connectors.registry`; nothing registers
by being imported. A connector depends only on the core types, errors and text utilities —
never on the pipeline — and never fetches secrets itself: credentials are handed in through
``ctx.credentials(name)``.

Connectors *stream*: they yield items one at a time and never load a whole mailbox or
repository into memory. A bad item never stops a read: the connector calls
``ctx.skip(source, ref, reason)`` and goes on. Only when the whole source is unreadable does it
raise :class:`~bootstrap_app.errors.SourceError` (one line naming the source once, and a hint).

Free text leaves a connector only through ``ctx.clean(text)``, which redacts secrets and
strips invisible characters, so nothing downstream (store, UI, LLM) ever sees a raw secret.
"""

from __future__ import annotations

import dataclasses
import os
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import datetime
from functools import cached_property
from pathlib import Path
from typing import Any, ClassVar

from bootstrap_app.errors import AuthRequired, SourceNotFound
from bootstrap_app.text import redact_secrets
from bootstrap_app.text.paths import printable
from bootstrap_app.types import Item, Skip
from connectors.signature import location_signature

__all__ = [
    "CACHE_MODES",
    "DECLARATIONS",
    "AccountComposite",
    "AccountSource",
    "Availability",
    "Cursor",
    "ReadContext",
    "Source",
    "available_cores",
    "short_scope",
]

Cursor = dict[str, Any]
"""Opaque per-source resume state (e.g. last mtime, last message offset). JSON-serialisable."""


def _no_credentials(provider: str) -> Any:
    raise AuthRequired(f"{provider}: not signed in", hint=f"run `memseed auth {provider}` first")


@dataclass(frozen=True)
class Availability:
    """Whether a source kind can be read right now, and as whom (for `memseed sources` and the app)."""

    ok: bool
    detail: str = ""
    """One line: why not, or what it will read ("not signed in: run `memseed auth google`")."""
    account: str = ""
    scopes: tuple[str, ...] = ()


def short_scope(scope: str) -> str:
    """``https://www.googleapis.com/auth/gmail.readonly`` -> ``gmail.readonly`` (``Mail.Read`` stays).

    The one rule for naming a scope to a person: the sign-in's own error (a box left unticked),
    `memseed auth --status`, `memseed sources` and the app all show scopes through it."""
    return scope.rstrip("/").rsplit("/", 1)[-1]


def available_cores() -> int:
    """The cores this process may run on (its CPU affinity where the system tells it): the
    default of ``--jobs`` / the ``jobs`` setting."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


@dataclass
class ReadContext:
    """What a connector needs from the scan: limits, cursor, and where to report skips."""

    since: datetime | None = None
    cursor: Cursor | None = None
    max_text_chars: int = 20_000
    max_file_bytes: int = 20 * 1024 * 1024
    on_skip: Callable[[Skip], None] | None = None
    on_progress: Callable[[str, int], None] | None = None
    should_stop: Callable[[], bool] = lambda: False
    cleaner: Callable[[str], str] = redact_secrets
    new_cursor: Cursor | None = None
    skips: list[Skip] = field(default_factory=list)
    credentials: Callable[[str], Any] = _no_credentials
    """``ctx.credentials("google")`` -> the provider's credentials (``"google:ACCOUNT"``: that one of
    several signed-in accounts); raises AuthRequired when not signed in. Handed in by the caller so a connector never reads token storage itself."""
    home: Path | None = None
    """The app dir, for the rare source that keeps state files of its own."""
    sleep: Callable[[float], None] = time.sleep
    """Injectable for backoff and pacing (tests pass a recorder)."""
    claimed: Callable[[Path], bool] = lambda path: False
    """True for a path some *other* source reads (a repo or mbox inside a document folder), so a
    catch-all walker leaves it to that source. Set from the registry by the pipeline."""
    scratch_dir: str | None = None
    """Where a connector may unpack an archive member it must seek in (inside the app's
    folder when a scan runs; the system temp folder when None)."""
    resynced: bool = False
    """Set by :meth:`resync`: the cursor was given but could not be used, so this read is full."""

    jobs: int = 1
    """Worker processes a source may parse a large file with (``--jobs``); 1 reads in this process."""
    prepare: Callable[[Item], None] | None = None
    """What the scan will read of the items it keeps, worked out where they are made: a reader
    with worker processes calls it there on each item whose text the scan reads (the owner's
    own mail), so the work is done on the workers' cores and travels back with the item. Must
    be picklable; its ``setup()``, when it has one, runs once before the workers start. The
    scan sets it (:data:`bootstrap_app.signals.textfacts.PREPARE`); None: nothing is prepared."""
    on_bytes: Callable[[str, int, int], None] | None = None
    """``(source, bytes done, bytes in all)`` as a file source moves through its input (progress)."""

    continued: bool = False
    """Set by a source that continued an interrupted full read from its own checkpoint (Gmail's
    last finished page): it yields only the rest, so the item cache keeps what the interrupted
    read delivered instead of pruning it as gone."""

    window_from: datetime | None = None
    window_to: datetime | None = None
    """The analysis window a source read (a calendar's recurrence window), set by :meth:`leave_out`."""
    left_out: int = 0
    """Items the source holds but did not read because of its window or a cap (see ``left_out_reasons``)."""
    left_out_reasons: list[str] = field(default_factory=list)

    found: int = 0
    """The ledger: units the reader found (files of a folder, messages of an mbox, rows of an
    export, entries of a memory folder), each of which must end as an item, a skip with its
    reason, or a unit passed over (:meth:`pass_over`). Counted only by readers that call
    :meth:`find` (``counted``); the scan checks found = read + skipped for them."""
    counted: bool = False
    passed: dict[str, int] = field(default_factory=dict)
    """Units passed over by choice, by reason (older than ``--since``, unchanged since the last read)."""
    units_read: int | None = None
    units_failed: int = 0
    """Set by a reader whose items are not its units (a calendar: the occurrences of an event
    series): how many units gave items, and how many failed. The ledger then uses these instead
    of counting items and the skips' refs."""
    notes: set[int] = field(default_factory=set)
    """Indexes into ``skips`` of notes: a skip about the source or an item that was still read
    (a fallback encoding, a resume point not saved), not a unit left out."""

    def find(self, count: int = 1) -> None:
        """Count ``count`` units found (see ``found``): the ledger's left-hand side."""
        self.found += count
        self.counted = True

    def pass_over(self, reason: str, count: int = 1) -> None:
        """Say that ``count`` found units were not read by choice, and why (not an error)."""
        if count > 0:
            self.passed[reason] = self.passed.get(reason, 0) + count

    def leave_out(self, count: int, reason: str, window: tuple[datetime, datetime] | None = None) -> None:
        """Say that ``count`` items were not read, why (and how to read them), and the window read.

        Why apart from :meth:`skip`: a skip is one broken item; this is a *choice* (a window, a cap)
        that the person can change, so the scan summary states the window and the count beside it."""
        if window is not None:
            self.window_from = min(window[0], self.window_from) if self.window_from else window[0]
            self.window_to = max(window[1], self.window_to) if self.window_to else window[1]
        self.left_out += max(0, count)
        if count > 0 and reason not in self.left_out_reasons:
            self.left_out_reasons.append(reason)

    def resync(self) -> None:
        """Say that the cursor could not be used (Gmail history 404, Calendar 410) and that what
        follows is a full read: a source with ``cache`` must call it, so the item cache is rebuilt
        from this read instead of having the whole source appended to it a second time."""
        self.resynced = True

    def skip(self, source: str, ref: str, reason: str, *, note: bool = False) -> None:
        """Report a unit that could not be read (``ref`` names it), or with ``note`` a remark
        about the source or about an item that was still read, which the ledger does not count."""
        # a name that is not valid UTF-8 must not break the report that says it was skipped
        entry = Skip(printable(source), printable(ref), printable(reason))
        if note:
            self.notes.add(len(self.skips))
        self.skips.append(entry)
        if self.on_skip:
            self.on_skip(entry)

    def progress(self, source: str, count: int) -> None:
        if self.on_progress:
            self.on_progress(source, count)

    def progress_bytes(self, source: str, done: int, total: int) -> None:
        if self.on_bytes:
            self.on_bytes(source, done, total)

    def clean(self, text: str, limit: int | None = None) -> str:
        """Cap, then redact secrets. Every free-text field passes through here."""
        cap = self.max_text_chars if limit is None else limit
        if len(text) > cap:
            text = text[:cap]
        return self.cleaner(text)


DECLARATIONS: dict[str, type] = {
    "kind": str, "description": str, "uri_schemes": tuple, "uri_form": str, "auth": str,
    "cursor_doc": str, "priority": int, "catch_all": bool, "cache": str, "reader_version": int,
}
"""What a source may declare as a class keyword, and its type (documented on :class:`Source`)."""
CACHE_MODES = ("", "append")
"""What ``cache`` may say: ``""`` (every reseed reads the source in full) or ``"append"``."""
_TYPE_WORDS = {str: "a string", tuple: "a tuple of strings", int: "a whole number", bool: "True or False"}


class Source:
    """Base class of every connector: declare the class attributes, implement ``read``.

    The declarations are given as class keywords, so a source's whole declaration is its one
    ``class`` statement; plain class attributes still work (a subclass may override one).
    """

    kind: ClassVar[str] = ""
    """Unique name (``mbox``, ``gmail``); stamped in every item's ``source`` id."""
    description: ClassVar[str] = ""
    """One line for `memseed sources` and the app."""
    uri_schemes: ClassVar[tuple[str, ...]] = ()
    """URI schemes this source answers, canonical first, aliases after (``google-calendar``, ``gcal``)."""
    uri_form: ClassVar[str] = ""
    """How the URI is written in help texts (``gmail:[ACCOUNT]``); defaults to ``<scheme>:``."""
    auth: ClassVar[str] = ""
    """The login the source needs: ``""`` (none), ``"google"`` or ``"microsoft"``."""
    cursor_doc: ClassVar[str] = ""
    """What the incremental cursor holds, in one line (``""``: no cursor, every read is full)."""
    priority: ClassVar[int] = 50
    """Lower runs first in detection; specific shapes (Takeout, Slack) before generic folders."""
    catch_all: ClassVar[bool] = False
    """True for the source of last resort (plain document folders): a folder whose parts another
    source claims is walked instead of being swallowed by it."""
    cache: ClassVar[str] = ""
    """``"append"``: a read from the cursor yields exactly the items added since it (Gmail by
    history id, Outlook mail by delta link), so a reseed keeps the earlier ones in the local item
    cache (:mod:`bootstrap_app.cache.append`) and asks the provider only for what is new; such a
    source calls ``ctx.resync()`` when it must fall back to a full read. ``""`` (default): a
    reseed reads the source in full (cheap local snapshots, or a cursor that does not report
    what was deleted)."""
    reader_version: ClassVar[int] = 1
    """Raise it when what ``read`` yields from the same input changes (a new field, a fixed parser):
    a path source's items kept for re-analysis (:mod:`bootstrap_app.cache.snapshots`) were made by
    the old reader and are read again instead of replayed."""

    def __init_subclass__(cls, **declared: Any) -> None:
        """Set the declarations given as class keywords (``class X(Source, kind="x", ...)``).

        Why check them here: a misspelt name (``cursor=``) or a wrong type (``uri_schemes="x"``,
        which would answer the schemes ``x`` letter by letter) fails when the module is imported,
        naming what is allowed, instead of leaving a source that silently lacks a declaration.
        """
        unknown = sorted(set(declared) - DECLARATIONS.keys())
        if unknown:
            raise TypeError(f"{cls.__name__}: unknown source declaration(s) {', '.join(unknown)}; "
                            f"a source declares {', '.join(DECLARATIONS)}")
        for name, value in declared.items():
            expected = DECLARATIONS[name]
            if expected is tuple:
                fits = isinstance(value, tuple) and all(isinstance(v, str) for v in value)
            else:
                fits = isinstance(value, expected)
            if not fits:
                raise TypeError(f"{cls.__name__}: {name} must be {_TYPE_WORDS[expected]}, not {value!r}")
        if declared.get("cache", "") not in CACHE_MODES:
            raise TypeError(f"{cls.__name__}: cache must be one of {CACHE_MODES}, not {declared['cache']!r}")
        super().__init_subclass__()
        for name, value in declared.items():
            setattr(cls, name, value)

    def __init__(self, location: str | os.PathLike[str]) -> None:
        self.location = str(location)

    def _uri(self) -> tuple[str, str] | None:
        """(scheme, rest) when the location is one of this source's URIs (and not a path)."""
        scheme, sep, rest = self.location.partition(":")
        if sep and scheme in self.uri_schemes and not os.path.exists(self.location):
            return scheme, rest
        return None

    @property
    def label(self) -> str:
        """What the person sees this source as when it is added (its kind, unless it says better)."""
        return self.kind

    @cached_property
    def id(self) -> str:
        """Stable id of this source: the canonical URI, or ``kind:absolute-location``. Worked out
        once per source: connectors stamp it on every item and skip."""
        uri = self._uri()
        if uri is not None:
            return f"{self.uri_schemes[0]}:{uri[1]}"
        loc = self.location
        if ":" not in loc or os.path.exists(loc):
            loc = str(Path(loc).expanduser().resolve())
        return printable(f"{self.kind}:{loc}")

    def stamp(self) -> str | None:
        """What says, without reading it, that the location still holds what the last read saw:
        size, modification, inode-change time and inode of each file under a local path. None
        (no path, or too many files to stat cheaply): the source is read on every re-analysis.
        A source whose content is not in its files' stats (a git working copy) overrides it."""
        return location_signature(self.location) if os.path.exists(self.location) else None

    def local_path(self, what: str = "file or folder") -> Path:
        """The location as a path that exists, or :class:`SourceNotFound` naming it: the first
        step of a path-shaped source's read (a path that vanished since detection, a typo)."""
        path = Path(self.location)
        if not path.exists():
            raise SourceNotFound(f"{printable(path)}: no such {what}", hint="check the path")
        return path

    @classmethod
    def sniff(cls, path: Path) -> bool:
        """True when ``path`` has this source's shape. Must be cheap (no full reads) and never
        raise for an ordinary missing or unreadable path. URI-only sources keep this default."""
        return False

    @classmethod
    def from_uri(cls, uri: str) -> list[Source]:
        """The sources a URI of this kind names: one by default; a composite (``google:``) several."""
        return [cls(uri)]

    @classmethod
    def expand(cls, path: Path) -> list[Source]:
        """The sources a path this class sniffed stands for: itself by default; a folder holding
        two kinds of data (an agent's sessions beside its memory) one source for each."""
        return [cls(path)]

    @classmethod
    def availability(cls, home: Path | None = None) -> Availability:
        """Whether this kind can be read now. Sources with ``auth`` are answered by their login
        provider in :mod:`connectors.registry`; others are always available."""
        return Availability(True)

    def read(self, ctx: ReadContext) -> Iterator[Item]:  # pragma: no cover - overridden
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.location!r})"


class AccountSource(Source):
    """Base of the sources that read one online account instead of a path (``gmail:``, ``outlook:``).

    Why defaults here: such a source is named by its kind and the account (``gmail:[ACCOUNT]``;
    no account means the signed-in one), so ``uri_schemes`` defaults to ``(kind,)`` and
    ``uri_form`` to ``"<canonical scheme>:[ACCOUNT]"``. A source with aliases declares
    ``uri_schemes`` (canonical first, ``("google-calendar", "gcal")``) and still gets the form.
    The id is the canonical scheme and the account in lower case, whichever alias named it.
    """

    def __init_subclass__(cls, **declared: Any) -> None:
        kind = declared.get("kind")
        if isinstance(kind, str) and kind:
            schemes = declared.setdefault("uri_schemes", (kind,))
            if isinstance(schemes, tuple) and schemes:
                declared.setdefault("uri_form", f"{schemes[0]}:[ACCOUNT]")
        super().__init_subclass__(**declared)

    @cached_property
    def account(self) -> str:
        """The account named in the URI, lower case; "" for whoever is signed in."""
        return self.location.partition(":")[2].strip().lower()

    @cached_property
    def id(self) -> str:
        return f"{self.uri_schemes[0]}:{self.account}"

    @cached_property
    def account_cache(self) -> dict[str, Any]:
        """What the sources of one account share within a scan (Graph's ``/me`` entry): the parts
        :meth:`AccountComposite.from_uri` hands out get one dict, so ``microsoft:`` asks for
        ``/me`` once, not once per part. A source on its own has a dict of its own."""
        return {}


class AccountComposite(AccountSource):
    """A whole account (``google:``, ``microsoft:``) that stands for several sources of it.

    Why a composite and not one source: each service keeps its own cursor (a Gmail
    ``historyId``, a Graph delta link) and fails on its own (a missing Drive scope or OneDrive
    licence must not cost the mail). :meth:`from_uri` hands the scan one source per part, for
    the same account; each is scanned, reported and remembered on its own.
    """

    parts: ClassVar[tuple[type[AccountSource], ...]] = ()
    """The sources the account stands for, in the order they are scanned."""

    @classmethod
    def from_uri(cls, uri: str) -> list[Source]:
        account = uri.partition(":")[2].strip()
        parts = [part(f"{part.uri_schemes[0]}:{account}") for part in cls.parts]
        shared: dict[str, Any] = {}  # one account: its parts share what they learn of it
        for part in parts:
            part.account_cache = shared
        return list(parts)

    def read(self, ctx: ReadContext) -> Iterator[Item]:
        """Only when a caller did not expand the URI: each part reads in full, no cursor kept."""
        for part in self.from_uri(self.location):
            yield from part.read(dataclasses.replace(ctx, cursor=None, new_cursor=None))
