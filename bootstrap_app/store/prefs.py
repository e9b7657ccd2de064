"""Small remembered choices of the front ends, per app home: a key -> JSON value table.

Why in the state store and not in ``config.toml``: these are not settings a person writes by
hand (the Write page's targets and folders, the Review page's filters, whether a source is
theirs) but choices clicked in the wizard, and they must survive a restart of the app exactly
like decisions do. The table is created on first use, so older stores need no migration step.
"""

from __future__ import annotations

import json
from typing import Any

from .schema import now

__all__ = ["PrefsMixin"]

_TABLE = "CREATE TABLE IF NOT EXISTS prefs (key TEXT PRIMARY KEY, value TEXT NOT NULL, updated TEXT NOT NULL)"


class PrefsMixin:
    """``pref`` / ``set_pref``: one JSON value per key (``None`` deletes)."""

    _db: Any

    def _prefs_table(self) -> None:
        self._db.execute(_TABLE)

    def pref(self, key: str, default: Any = None) -> Any:
        self._prefs_table()
        row = self._db.execute("SELECT value FROM prefs WHERE key=?", (key,)).fetchone()
        if row is None:
            return default
        try:
            return json.loads(row[0])
        except ValueError:
            return default

    def set_pref(self, key: str, value: Any) -> None:
        self._prefs_table()
        if value is None:
            self._db.execute("DELETE FROM prefs WHERE key=?", (key,))
            return
        self._db.execute("INSERT INTO prefs(key, value, updated) VALUES (?, ?, ?) ON CONFLICT(key) DO UPDATE "
                         "SET value=excluded.value, updated=excluded.updated", (key, json.dumps(value), now()))

    def prefs(self, prefix: str) -> dict[str, Any]:
        """Every key starting with ``prefix`` (the prefix removed) and its value."""
        self._prefs_table()
        rows = self._db.execute("SELECT key, value FROM prefs WHERE key >= ? AND key < ?",
                                (prefix, prefix + "\uffff")).fetchall()
        return {k[len(prefix):]: json.loads(v) for k, v in rows}

    # -- what the person said about a source's owner (the wizard's Identity page) ------------
    def source_ownership(self) -> dict[str, str]:
        """location -> ``shared`` or ``not-mine`` for sources the person said are not (only) theirs;
        the scan ignores such a source's owner evidence (its account, its Sent folder)."""
        return {k: str(v) for k, v in self.prefs("source_owner.").items()}

    def set_source_ownership(self, location: str, ownership: str | None) -> None:
        """``None`` (the default, "mine") forgets what was said."""
        self.set_pref(f"source_owner.{location}", ownership)
