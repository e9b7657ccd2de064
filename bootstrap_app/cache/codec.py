"""Items to JSON and back, exactly: the format of the local item cache (:mod:`bootstrap_app.cache.append`).

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

Why two encoders for one format: a large mailbox writes every one of its items here while the
scan runs, and the generic walk plus ``json.dumps`` was the scanning process's largest cost. So
:func:`item_to_json` first tries a plan compiled once per item class (the field names, their
defaults, one ``attrgetter`` for all values) with an encoder that knows only the exact value types
items hold, and hands the result to ``orjson``. Both give the very same text (the test compares
them on awkward and real items); whatever the fast path does not know exactly (a subclass of a
value type, a NaN, which ``orjson`` would write as ``null``, a lone surrogate, an integer past 64
bits) goes the generic way with ``json``, as before. The text did not change, so :data:`FORMAT`
did not either: caches written earlier read back as they are. Reading stays with ``json``:
``orjson`` reads an integer past 64 bits as a float, which would not give the item back.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from dataclasses import MISSING, fields
from datetime import datetime
from operator import attrgetter
from typing import Any

import orjson

from bootstrap_app.errors import StoreError
from bootstrap_app.items import ITEM_CLASSES, Item, MemoryType, Person

__all__ = ["FORMAT", "generic_item_to_json", "isoformat", "item_from_json", "item_to_json"]

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


_LAST_STAMP: tuple[datetime | None, str] = (None, "")


def isoformat(value: datetime) -> str:
    """``value.isoformat()``, remembering the last one: a scan writes every item's timestamp twice
    in a row (its change digest, then its cached JSON), and the text of an aware datetime costs
    half of the digest. Keyed by identity, and swapped as one tuple, so a scan in another thread
    can only miss, never read another datetime's text."""
    global _LAST_STAMP  # a one-entry memo
    last = _LAST_STAMP
    if last[0] is value:
        return last[1]
    text = value.isoformat()
    _LAST_STAMP = (value, text)
    return text


class _Unusual(Exception):
    """A value the fast encoder does not handle exactly: the item goes the generic way instead."""


def _fast_tuple(value: tuple[Any, ...]) -> Any:
    out: list[Any] = []
    for v in value:  # people first: most tuples hold them
        kind = type(v)
        out.append({"$p": [v.name, v.address]} if kind is Person else v if kind in _AS_IS else _fast(v))
    return {"$t": out}


def _fast_dict(value: dict[Any, Any]) -> Any:
    return {"$d": {str(k): v if type(v) in _AS_IS else _fast(v) for k, v in value.items()}}


def _fast_float(value: float) -> float:
    if not math.isfinite(value):  # orjson writes NaN and infinities as null, json as NaN: keep json's
        raise _Unusual
    return value


_AS_IS = frozenset({str, int, bool, type(None)})
"""Exact types the fast path writes as themselves, with the same text ``json`` gives."""

_FAST: dict[type[Any], Callable[[Any], Any]] = {
    Person: lambda p: {"$p": [p.name, p.address]},
    tuple: _fast_tuple,
    datetime: lambda v: {"$dt": isoformat(v)},
    dict: _fast_dict,
    MemoryType: lambda v: {"$m": v.value},
    float: _fast_float,
}
"""The exact types items hold besides :data:`_AS_IS`, each as :func:`_encode` writes it; a type
not here (a subclass) raises :class:`_Unusual`."""


def _fast(value: Any) -> Any:
    encode = _FAST.get(type(value))
    if encode is None:
        raise _Unusual
    return encode(value)


_PLANS: dict[tuple[type[Any], str], tuple[tuple[str, ...], tuple[Any, ...], Callable[[Any], Any]]] = {}


def _plan(cls: type[Any], omit: str) -> tuple[tuple[str, ...], tuple[Any, ...], Callable[[Any], Any]]:
    """Names, defaults and one getter of all values of ``cls``'s fields but ``omit``, made once:
    the getter reads every value in one call, and never reads ``omit`` (a lazy body stays unread)."""
    found = _PLANS.get((cls, omit))
    if found is None:
        kept = tuple((name, default) for name, default in _defaults(cls) if name != omit)
        names = tuple(name for name, _ in kept)
        # attrgetter of one name gives the value, not a 1-tuple
        get = attrgetter(*names) if len(names) > 1 else _one_tuple(names[0])
        found = _PLANS[(cls, omit)] = (names, tuple(default for _, default in kept), get)
    return found


def _one_tuple(name: str) -> Callable[[Any], tuple[Any]]:
    return lambda item: (getattr(item, name),)


def _fast_fields(item: Item, omit: str) -> dict[str, Any]:
    names, defaults, get = _plan(type(item), omit)
    data: dict[str, Any] = {}
    for name, default, value in zip(names, defaults, get(item), strict=True):
        if value != default:
            kind = type(value)  # the commonest kinds inline: this runs for every field of every item
            if kind in _AS_IS:
                data[name] = value
            elif kind is tuple:
                data[name] = _fast_tuple(value)
            elif kind is Person:
                data[name] = {"$p": [value.name, value.address]}
            else:
                data[name] = _fast(value)
    return data


def item_to_json(item: Item, omit: str = "", extra: dict[str, Any] | None = None) -> str:
    """One item as compact JSON text: its kind and every field not at its default.

    ``omit`` names a field left out unread (a body kept by reference instead); ``extra`` is
    written beside the fields, for the caller's :func:`item_from_json` ``build`` to read back."""
    try:
        return orjson.dumps({"kind": item.kind, "f": _fast_fields(item, omit), **(extra or {})}).decode()
    except (_Unusual, TypeError):  # TypeError: orjson's refusal (a lone surrogate, a huge int)
        return generic_item_to_json(item, omit, extra)


def generic_item_to_json(item: Item, omit: str = "", extra: dict[str, Any] | None = None) -> str:
    """:func:`item_to_json` the generic way (every value type, subclasses too, with ``json``): the
    reference the fast path must equal, and what it falls back to."""
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
