"""Items to JSON and back, exactly: the format of the local item cache (:mod:`bootstrap_app.itemcache`).

Why JSON and not pickle: the cache lives in the state database for months and is read by later
memseed versions; pickle would run code named by the bytes it loads, and a changed class would
break it silently. JSON holds only data, and :data:`FORMAT` is stored next to every cache so a
format change makes the cache unusable (read the source in full again) instead of wrong.

Why one generic codec over the dataclass fields instead of one function per kind: every item
kind is a frozen dataclass whose fields are built from a handful of value types (text, numbers,
flags, ``datetime``, :class:`Person`, tuples, string-keyed dicts, :class:`MemoryType`). Encoding
those values, tagged where JSON has no type of its own, covers every kind and every field a
later change adds; the round-trip test checks each kind, the demo persona's items included.

A value is encoded as itself when JSON has its type (str, int, float, bool, None) and as a
one-key object otherwise: ``{"$dt": iso}`` datetime, ``{"$p": [name, address]}`` Person,
``{"$t": [...]}`` tuple, ``{"$d": {...}}`` dict, ``{"$m": value}`` MemoryType. Fields still at
their default are left out (most received mail has no body, cc, labels ...), which keeps a cached
mailbox small.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import MISSING, fields
from datetime import datetime
from typing import Any

from bootstrap_app.errors import StoreError
from bootstrap_app.items import ITEM_CLASSES, Item, MemoryType, Person

__all__ = ["FORMAT", "item_from_json", "item_to_json"]

FORMAT = 1
"""Version of this encoding; a cache written with another one is not used (see the module docstring)."""

_KINDS: dict[str, type[Any]] = {cls.kind: cls for cls in ITEM_CLASSES}


_PLAIN = frozenset({str, int, float, bool, type(None)})
"""Exact types written as themselves: checked first by identity, as most values are one of them
(a subclass, such as :class:`MemoryType`, takes the general path below)."""


def _encode(value: Any) -> Any:
    kind = type(value)
    if kind in _PLAIN:
        return value
    if kind is Person:
        return {"$p": [value.name, value.address]}
    if kind is tuple:
        return {"$t": [v if type(v) in _PLAIN else _encode(v) for v in value]}
    if value is None or isinstance(value, bool | int | float) or (isinstance(value, str)
                                                                 and not isinstance(value, MemoryType)):
        return value
    if isinstance(value, MemoryType):
        return {"$m": value.value}
    if isinstance(value, datetime):
        return {"$dt": value.isoformat()}
    if isinstance(value, Person):
        return {"$p": [value.name, value.address]}
    if isinstance(value, tuple):
        return {"$t": [_encode(v) for v in value]}
    if isinstance(value, dict):
        return {"$d": {str(k): _encode(v) for k, v in value.items()}}
    raise TypeError(f"an item field holds a {type(value).__name__}, which the item cache cannot store")


def _decode(value: Any) -> Any:
    if not isinstance(value, dict):
        return value
    if len(value) != 1:
        raise ValueError(f"not an encoded value: {sorted(value)[:3]}")
    (tag, inner), = value.items()
    if tag == "$dt":
        return datetime.fromisoformat(inner)
    if tag == "$p":
        name, address = inner
        return Person(name=name, address=address)
    if tag == "$t":
        return tuple(_decode(v) for v in inner)
    if tag == "$d":
        return {k: _decode(v) for k, v in inner.items()}
    if tag == "$m":
        return MemoryType(inner)
    raise ValueError(f"unknown value tag {tag!r}")


def _default(f: Any) -> Any:
    if f.default is not MISSING:
        return f.default
    if f.default_factory is not MISSING:
        return f.default_factory()
    return MISSING


_DEFAULTS: dict[type[Any], tuple[tuple[str, Any], ...]] = {}


def _defaults(cls: type[Any]) -> tuple[tuple[str, Any], ...]:
    """(name, default) of every field of an item class, worked out once per class (a mailbox
    encodes hundreds of thousands of items, and ``fields()`` and default factories cost per call).
    The defaults are only compared with, never handed out, so a shared ``{}`` stays empty."""
    found = _DEFAULTS.get(cls)
    if found is None:
        found = _DEFAULTS[cls] = tuple((f.name, _default(f)) for f in fields(cls))
    return found


def item_to_json(item: Item, omit: str = "", extra: dict[str, Any] | None = None) -> str:
    """One item as compact JSON text: its kind and every field not at its default.

    ``omit`` names a field left out unread (a body kept by reference instead); ``extra`` is
    written beside the fields, for the caller's :func:`item_from_json` ``build`` to read back."""
    data: dict[str, Any] = {}
    for name, default in _defaults(type(item)):
        if name == omit:
            continue
        value = getattr(item, name)
        if value != default:
            data[name] = _encode(value)
    return json.dumps({"kind": item.kind, "f": data, **(extra or {})}, ensure_ascii=False, separators=(",", ":"))


def item_from_json(text: str, build: Callable[[type[Any], dict[str, Any], dict[str, Any]], Item] | None = None
                   ) -> Item:
    """The item :func:`item_to_json` wrote. Anything else is a :class:`StoreError` (a damaged or
    foreign row), never a half-built item. ``build(cls, fields, row)`` makes the item when given
    (``row``: the whole decoded object, with what ``extra`` wrote); else ``cls(**fields)``."""
    try:
        data = json.loads(text)
        cls = _KINDS[data["kind"]]
        values = {name: _decode(value) for name, value in data["f"].items()}
        return build(cls, values, data) if build is not None else cls(**values)
    except (ValueError, KeyError, TypeError) as exc:
        raise StoreError(f"a cached item cannot be read back ({type(exc).__name__}: {exc})",
                         hint="run `memseed scan` on the source again; it rebuilds the cache") from exc
