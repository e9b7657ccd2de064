"""The Source protocol, the read context, and the registry that detects sources by shape.

A connector is one small module exposing a :class:`Source` subclass registered with
:func:`register`. Connectors *stream*: they yield items one at a time and never load a
whole mailbox or repository into memory. A bad item never stops a read: the connector calls
``ctx.skip(ref, reason)`` and goes on. Only when the whole source is unreadable does it raise
:class:`~bootstrap_app.errors.SourceError`.

Free text leaves a connector only through ``ctx.clean(text)``, which redacts secrets and
strips invisible characters, so nothing downstream (store, UI, LLM) ever sees a raw secret.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import datetime
from functools import cached_property
from pathlib import Path
from typing import Any, ClassVar

from bootstrap_app.errors import SourceNotFound, UnsupportedSource
from bootstrap_app.types import Item, Skip

__all__ = [
    "Cursor",
    "ReadContext",
    "Source",
    "detect",
    "register",
    "registered",
]

Cursor = dict[str, Any]
"""Opaque per-source resume state (e.g. last mtime, last message offset). JSON-serialisable."""


def _default_clean(text: str) -> str:
    from bootstrap_app.safety.secrets import redact_secrets

    return redact_secrets(text)


@dataclass(frozen=True)
class Availability:
    """Interim copy of the lead's contract (main's version wins on merge)."""

    ok: bool
    detail: str = ""
    account: str = ""
    scopes: tuple[str, ...] = ()


def _no_credentials(name: str) -> Any:
    from bootstrap_app.errors import AuthRequired

    raise AuthRequired(f"no {name} credentials", hint=f"run `memseed auth {name}`")


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
    cleaner: Callable[[str], str] = _default_clean
    new_cursor: Cursor | None = None
    skips: list[Skip] = field(default_factory=list)
    credentials: Callable[[str], Any] = _no_credentials
    home: Path | None = None
    sleep: Callable[[float], None] = time.sleep

    def skip(self, source: str, ref: str, reason: str) -> None:
        entry = Skip(source, ref, reason)
        self.skips.append(entry)
        if self.on_skip:
            self.on_skip(entry)

    def progress(self, source: str, count: int) -> None:
        if self.on_progress:
            self.on_progress(source, count)

    def clean(self, text: str, limit: int | None = None) -> str:
        """Cap, then redact secrets. Every free-text field passes through here."""
        cap = self.max_text_chars if limit is None else limit
        if len(text) > cap:
            text = text[:cap]
        return self.cleaner(text)


class Source:
    """Base class of every connector. Subclasses set ``kind`` and implement ``read``."""

    kind: ClassVar[str] = ""
    description: ClassVar[str] = ""
    uri_schemes: ClassVar[tuple[str, ...]] = ()
    uri_form: ClassVar[str] = ""
    auth: ClassVar[str] = ""
    cursor_doc: ClassVar[str] = ""
    priority: ClassVar[int] = 50
    """Lower runs first in detection; specific shapes (Takeout, Slack) before generic folders."""

    def __init__(self, location: str | os.PathLike[str]) -> None:
        self.location = str(location)

    @cached_property
    def id(self) -> str:
        """Stable id of this source: ``kind:absolute-location``. Worked out once per source:
        connectors stamp it on every item and skip, and resolving the path costs a few syscalls."""
        loc = self.location
        if ":" not in loc or os.path.exists(loc):
            loc = str(Path(loc).expanduser().resolve())
        return f"{self.kind}:{loc}"

    @classmethod
    def sniff(cls, path: Path) -> bool:  # pragma: no cover - overridden
        """True when ``path`` has this source's shape. Must be cheap (no full reads)."""
        return False

    @classmethod
    def from_uri(cls, uri: str) -> list[Source]:
        return [cls(uri)]

    @classmethod
    def availability(cls, ctx_home: Path | None = None) -> Availability:
        return Availability(ok=True)

    def read(self, ctx: ReadContext) -> Iterator[Item]:  # pragma: no cover - overridden
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.location!r})"


_REGISTRY: list[type[Source]] = []
_URI_SCHEMES: dict[str, Callable[[str], Source]] = {}


def register(cls: type[Source]) -> type[Source]:
    """Class decorator: make a connector available to :func:`detect`."""
    if cls not in _REGISTRY:
        _REGISTRY.append(cls)
        _REGISTRY.sort(key=lambda c: c.priority)
    return cls


def register_scheme(scheme: str, factory: Callable[[str], Source]) -> None:
    """Make ``scheme:`` URIs (``claude-code:``, ``gmail:`` ...) resolvable by :func:`detect`."""
    _URI_SCHEMES[scheme] = factory


def registered() -> list[type[Source]]:
    _load_builtin()
    return list(_REGISTRY)


def _load_builtin() -> None:
    import importlib

    for module in ("connectors.local", "connectors.harness_memory"):
        try:
            importlib.import_module(module)
        except ImportError as exc:  # a connector module that is not there yet is not fatal
            if exc.name and not exc.name.startswith("connectors"):
                raise


def detect(location: str | os.PathLike[str]) -> list[Source]:
    """Resolve a path or URI into the sources it holds.

    A file or folder with a recognised shape gives one source; a folder that holds several
    (a home-made "footprint" folder) is walked and gives one source per recognised part.
    """
    _load_builtin()
    text = str(location)
    scheme, sep, rest = text.partition(":")
    if sep and scheme in _URI_SCHEMES and not os.path.exists(text):
        return [_URI_SCHEMES[scheme](rest)]
    path = Path(text).expanduser()
    if not path.exists():
        raise SourceNotFound(f"{text}: no such file or folder",
                             hint="check the path, or run `memseed sources` for the URI forms")
    for cls in _REGISTRY:
        try:
            if cls.sniff(path):
                return [cls(path)]
        except OSError:
            continue
    if path.is_dir():
        found: list[Source] = []
        try:
            children = sorted(path.iterdir())
        except OSError as exc:
            raise SourceNotFound(f"{text}: cannot list folder ({exc.strerror})",
                                 hint="check the folder's permissions") from exc
        for child in children:
            if child.name.startswith(".") or child.is_symlink():
                continue
            try:
                found.extend(detect(child))
            except UnsupportedSource:
                continue
        if found:
            return found
    raise UnsupportedSource(
        f"{text}: not a source memseed can read",
        hint="give a .mbox, .eml folder, maildir, .ics, Takeout folder/zip, git repo, "
             "Slack export, harness memory folder, or a folder of documents",
    )
