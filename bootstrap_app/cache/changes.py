"""What is new since the last scan: item digests, reseed's cheap check, the read context.

Why apart from :mod:`bootstrap_app.pipeline`: ``memseed reseed`` (run from cron) first asks
"has anything changed?" and only then scans. That question needs the sources, the store's
digests and cursors, and the same read context a scan uses -- but none of the scan's identity,
signals, extractors or safety gate. The scan records :func:`item_digest` for each item (it is
defined with the item cache, whose rows carry it too); this module compares against it.
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from typing import Any

from bootstrap_app.cache.append import ingest, item_digest, serves
from bootstrap_app.config import Settings
from bootstrap_app.errors import MemseedError
from bootstrap_app.store import Store
from connectors import registry
from connectors.base import ReadContext, available_cores
from connectors.registry import detect
from connectors.signature import location_signature

__all__ = ["count_new_items", "item_digest", "read_context"]


def read_context(settings: Settings, **kw: Any) -> ReadContext:
    """A read context wired to the registry: logins hand out credentials, and a catch-all folder
    walk leaves paths that another source reads to that source."""
    home = settings.home
    scratch = home / "scratch"  # archives are unpacked only inside the app's folder
    with contextlib.suppress(OSError):
        scratch.mkdir(mode=0o700, parents=True, exist_ok=True)
    return ReadContext(max_text_chars=settings.max_text_chars, max_file_bytes=settings.max_file_bytes,
                       jobs=settings.jobs or available_cores(),
                       credentials=lambda provider: registry.credentials(provider, home), home=home,
                       claimed=registry.claimed_by_other, scratch_dir=str(scratch), **kw)


def count_new_items(locations: Sequence[str], store: Store, settings: Settings) -> tuple[int, list[str]]:
    """Items that are new or changed since the last scan (reseed's cheap "anything new?").

    Each source is read from its stored cursor (connectors that support one skip what they
    already delivered); whatever still comes is compared with the digests the store recorded,
    so a calendar re-expanded in full or an unchanged repository snapshot is not news. Those
    cursors are never advanced here. A source served by the item cache is the exception: what it
    delivers goes into the cache and its cursor moves with it (:func:`~bootstrap_app.cache.append.ingest`),
    so the scan that follows needs no second download; its news are the cached items no scan
    analysed yet. Returns (new or changed items, what could not be read: a remembered location,
    or the one part of it that failed — a file inside a remembered folder — when the rest was read).
    """
    new = 0
    failed: list[str] = []
    known: dict[str, dict[str, str]] = {}
    for location in locations:
        try:
            sources = detect(location)
        except MemseedError:
            failed.append(location)
            continue
        for source in sources:
            if serves(store, source):
                try:
                    new += ingest(store, source, location, read_context(settings, cursor=store.cursor(source.id)))
                except MemseedError:
                    failed.append(location)
                except Exception:  # a connector bug: without its cache, the scan reads it in full and reports it
                    store.cache_drop(source.id)
                    new += 1
                continue
            seen = store.cursor(f"stat:{source.id}")
            signature = location_signature(source.location)
            if seen and seen.get("signature") == signature:
                continue  # not a file under it changed since the last scan: nothing can be new
            ctx = read_context(settings, cursor=store.cursor(source.id))
            before = new
            try:
                for item in source.read(ctx):
                    digests = known.get(item.source)
                    if digests is None:
                        digests = known[item.source] = store.item_digests(item.source)
                    if digests.get(item.ref) != item_digest(item):
                        new += 1
                if new == before and seen and signature is not None:
                    new += 1  # files changed yet none is new: one was deleted, which a memory may name
            except MemseedError:
                # a part of a remembered folder (one broken calendar among several) is named itself:
                # naming the folder said all of it was unreadable, though the rest was read
                failed.append(location if source.location in ("", location) else source.location)
            except Exception:  # a connector bug: let the full scan report it
                new += 1
    return new, failed
