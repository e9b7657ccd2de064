"""One person's footprint held in memory for exploring: its sources, items, owner, signals, scan.

Why hold the items: the CLI and the wizard stream items and keep only aggregates, which is
right for a ten-gigabyte mailbox but leaves a notebook nothing to chart. Here every item is kept
(a notebook explores a footprint of a size a person can look at), the owner is resolved and
the signals built exactly as a scan does, and the scan itself runs against a store of the
notebook's choosing, so the proposals are the ones ``memseed scan`` would make.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import platformdirs

from bootstrap_app.config import ENV_HOME, Settings
from bootstrap_app.identity.owner import OwnerIdentity
from bootstrap_app.items import Item
from bootstrap_app.pipeline import ScanResult, scan
from bootstrap_app.signals import SignalBuilder, Signals
from bootstrap_app.store import Store
from connectors.base import ReadContext
from connectors.registry import detect

__all__ = ["ENV_SOURCES", "Footprint", "notebook_sources", "read_footprint"]

ENV_SOURCES = "MEMSEED_NOTEBOOK_SOURCES"
"""``path[:path…]`` (the platform's path separator) to explore instead of the demo; the word
``remembered`` takes the sources the person's own app dir remembers."""


@dataclass
class Footprint:
    """What a notebook explores; every table and chart in :mod:`bootstrap_app.explore` takes it."""

    locations: tuple[str, ...]
    items: list[Item]
    """Every item read, marked with whether the owner wrote it."""
    owner: OwnerIdentity
    signals: Signals
    result: ScanResult
    store: Store
    skipped: dict[str, int] = field(default_factory=dict)
    """Per source location: what its reader skipped while the notebook read it."""

    @property
    def signal_data(self) -> dict[str, Any]:
        return self.signals.to_dict()


def _person_app_home() -> Path:
    """The person's app dir as :func:`bootstrap_app.config.app_home` finds it, without creating it."""
    return Path(os.environ.get(ENV_HOME) or platformdirs.user_data_dir("memseed", appauthor=False)).expanduser()


def _remembered(real_home: Path) -> list[str]:
    db = real_home / "state.db"
    if not db.exists():
        return []
    conn = sqlite3.connect(f"{db.resolve().as_uri()}?mode=ro", uri=True, timeout=1.0)
    try:
        return [row[0] for row in conn.execute("SELECT location FROM sources ORDER BY added")]
    finally:
        conn.close()


def notebook_sources(environ: Mapping[str, str] | None = None, real_home: Path | None = None) -> list[str]:
    """The locations a notebook explores: ``$MEMSEED_NOTEBOOK_SOURCES`` split on the path separator,
    the remembered sources when it says ``remembered``, or ``[]`` (the notebook then uses the demo).

    Call it before the notebook sandboxes ``MEMSEED_HOME``: ``real_home`` defaults to the person's
    app dir as the environment names it then. Their store is opened read-only."""
    env = os.environ if environ is None else environ
    raw = env.get(ENV_SOURCES, "").strip()
    if not raw:
        return []
    if raw == "remembered":
        return _remembered(real_home or _person_app_home())
    return [part for part in raw.split(os.pathsep) if part.strip()]


def read_footprint(locations: Sequence[str], *, settings: Settings, store: Store | None = None,
                   owners: Sequence[str] = ()) -> Footprint:
    """Scan ``locations`` as ``memseed scan`` does, then read them again keeping every item, marked
    by the owner that scan resolved (so the tables and the proposals agree on who "you" are).

    ``store`` defaults to the settings' store: give the notebook's sandboxed one."""
    store = store or Store(settings.db_path)
    result = scan(list(locations), settings=settings, store=store, owners=owners)
    owner = result.owner
    items: list[Item] = []
    skipped: dict[str, int] = {}
    for location in locations:
        for source in detect(location):
            ctx = ReadContext()
            items.extend(owner.mark(item) for item in source.read(ctx))
            skipped[source.location] = skipped.get(source.location, 0) + len(ctx.skips)
    builder = SignalBuilder()
    for item in items:
        builder.observe(item)
    return Footprint(tuple(locations), items, owner, builder.build(owner), result, store, skipped)
