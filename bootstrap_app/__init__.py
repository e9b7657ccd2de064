"""memseed: propose, review and write an AI agent's memory of its user.

The public API is listed in ``__all__``; the CLI, the app and the notebooks call only these.
"""

from __future__ import annotations

from .config import Settings, load_settings
from .errors import MemseedError
from .store import Store
from .types import (
    ChatMessage,
    Decision,
    DecisionStatus,
    Document,
    Event,
    Evidence,
    Item,
    MemoryEntry,
    MemoryType,
    Message,
    Person,
    Proposal,
    Repo,
    Skip,
)

__all__ = [
    "ChatMessage",
    "Decision",
    "DecisionStatus",
    "Document",
    "Event",
    "Evidence",
    "Item",
    "MemoryEntry",
    "MemoryType",
    "MemseedError",
    "Message",
    "Person",
    "Proposal",
    "Repo",
    "Settings",
    "Skip",
    "Store",
    "load_settings",
]
