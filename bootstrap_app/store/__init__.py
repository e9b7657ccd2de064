"""SQLite state: runs, item refs, proposals, decisions, cursors, quarantine, write journal, and the
owner's suggested / confirmed / rejected address aliases.

Why SQLite: decisions must survive a crash the moment they are made (the app reruns the
page, the CLI may be killed), the CLI and the app must see the same state, and re-seeding
must know every fingerprint ever decided. Every mutating method commits before it returns.

What is stored of items: (source, ref, digest) for every item; proposals hold redacted text and
evidence excerpts of at most 200 characters. The one exception is the item cache (:mod:`.cache`):
the already-redacted items of mailbox sources that declare ``cache="append"``, so a reseed asks the
provider only for new mail; ``memseed sources --forget LOCATION`` drops it.

The tables and the connection live in :mod:`.schema`; the methods are grouped by what they keep —
review state (:mod:`.review`), scan bookkeeping (:mod:`.scanstate`), the write journal
(:mod:`.journal`) and the item cache (:mod:`.cache`) — and combined here into :class:`Store`, the one class callers use.
"""

from __future__ import annotations

from .cache import CacheMixin
from .journal import JournalFile, JournalMixin, WriteRecord
from .prefs import PrefsMixin
from .review import ReviewMixin, StoredProposal, nearest_ids
from .scanstate import ScanStateMixin
from .schema import SCHEMA_VERSION

__all__ = ["SCHEMA_VERSION", "JournalFile", "Store", "StoredProposal", "WriteRecord", "nearest_ids"]


class Store(ReviewMixin, ScanStateMixin, JournalMixin, CacheMixin, PrefsMixin):
    """The state database. Use as a context manager or call :meth:`close`."""
