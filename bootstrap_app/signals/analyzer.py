"""The analyzer contract: what every signal analyzer declares, and how items reach it.

Why a contract: the pipeline streams every item exactly once and must not know what each
analyzer looks for. An analyzer declares the item kinds it ``consumes`` (see
:data:`~bootstrap_app.types.ITEM_KINDS`); :class:`KindRouter` hands it those items and no
others, so dispatch on item classes lives in one dict lookup instead of ``isinstance`` chains
spread over the code base. Adding "what the repo's Taskfile says" is one analyzer class plus
one line in :data:`bootstrap_app.signals.ANALYZERS`.

The shape of an analyzer:

- ``signal`` names what it yields (a :class:`~bootstrap_app.signals.Signals` field, or a key of
  ``Signals.extra`` for analyzers added later);
- ``consumes`` is the set of item kinds it wants;
- ``known_owners`` (constructor keyword) are addresses the run already knows are the owner's
  (``--owner``, settings); most analyzers ignore them;
- ``observe(item)`` is called for every consumed item while the stream runs, and keeps counters
  and pointers (:class:`~bootstrap_app.signals.base.Ref`), never whole items or third-party text;
- ``result(owner)`` is called once, after the stream, when the owner is known, and returns the
  signal. It must work on an analyzer that observed nothing.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable
from dataclasses import dataclass
from typing import ClassVar

from bootstrap_app.identity.owner import OwnerIdentity
from bootstrap_app.types import ITEM_KINDS, Item

__all__ = ["Analyzer", "KindRouter"]


@dataclass
class Analyzer(ABC):
    """Base of every signal analyzer (see the module docstring for the contract)."""

    signal: ClassVar[str]
    consumes: ClassVar[frozenset[str]]

    known_owners: frozenset[str] = frozenset()

    @abstractmethod
    def observe(self, item: Item) -> None:
        """Count what matters about one item of a consumed kind."""

    @abstractmethod
    def result(self, owner: OwnerIdentity) -> object:
        """The signal, now that the owner is known."""


class KindRouter:
    """Sends each item to the analyzers that declared its kind, and to no other."""

    def __init__(self, analyzers: Iterable[Analyzer]) -> None:
        self.analyzers = tuple(analyzers)
        routes: dict[str, list[Analyzer]] = {}
        for analyzer in self.analyzers:
            unknown = set(analyzer.consumes) - ITEM_KINDS
            if unknown or not analyzer.consumes:
                raise ValueError(f"{type(analyzer).__name__} declares item kinds {sorted(unknown) or 'none'}; "
                                 f"known kinds: {', '.join(sorted(ITEM_KINDS))}")
            for kind in sorted(analyzer.consumes):
                routes.setdefault(kind, []).append(analyzer)
        self.routes = {kind: tuple(group) for kind, group in routes.items()}

    def observe(self, item: Item) -> None:
        for analyzer in self.routes.get(item.kind, ()):
            analyzer.observe(item)
