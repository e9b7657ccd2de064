"""memseed: propose, review and write an AI agent's memory of its user.

The public API is listed in ``__all__``; the CLI, the app and the notebooks call only these.
A notebook session, step by step::

    from bootstrap_app import build_demo, detect, scan, load_settings, Store, approve, plan_write
    settings = load_settings()
    with Store(settings.db_path) as store:
        result = scan([str(build_demo(settings.home / "demo"))], settings=settings, store=store)
        approve(store, [p.id for p in result.proposals[:3]])
        print(plan_write(store, "claude-code").diff())

Every name is imported on first use, so ``import bootstrap_app.errors`` stays light and the
LLM helpers (``llm_proposals``, ``build_digest``, ``preview_llm_request``), which need the
optional ``llm`` extra, cost nothing until called.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the names below are imported on first use (see __getattr__)
    from connectors.registry import detect

    from .config import Settings, load_settings
    from .decisions import approve, approve_all_of_type, edit, reject, undecide
    from .demo import PERSONA, build_demo, demo_owner_addresses
    from .errors import MemseedError
    from .extract.digest import build_digest, preview_llm_request
    from .extract.llm import llm_proposals
    from .harnesses import Plan, WriteOptions, WriteOutcome, get_harness
    from .pipeline import ScanEvent, ScanResult, SourceReport, scan, scan_demo
    from .safety import check_entry, gate, pii_flags, redact_secrets, run_doctor, scan_text
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
    from .writing import apply_write, history, plan_write, undo_write

__all__ = [
    "PERSONA",
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
    "Plan",
    "Proposal",
    "Repo",
    "ScanEvent",
    "ScanResult",
    "Settings",
    "Skip",
    "SourceReport",
    "Store",
    "WriteOptions",
    "WriteOutcome",
    "apply_write",
    "approve",
    "approve_all_of_type",
    "build_demo",
    "build_digest",
    "check_entry",
    "demo_owner_addresses",
    "detect",
    "edit",
    "gate",
    "get_harness",
    "history",
    "llm_proposals",
    "load_settings",
    "pii_flags",
    "plan_write",
    "preview_llm_request",
    "redact_secrets",
    "reject",
    "run_doctor",
    "scan",
    "scan_demo",
    "scan_text",
    "undecide",
    "undo_write",
]

# Why lazy: connectors import bootstrap_app.errors/types, and the pipeline imports connectors;
# eager imports here would make `import connectors.base` (as a first import) circular, and
# `import bootstrap_app.errors` should not pull in the whole engine.
_HOME = {
    "detect": "connectors.registry",
    "Settings": ".config", "load_settings": ".config",
    "approve": ".decisions", "approve_all_of_type": ".decisions", "edit": ".decisions",
    "reject": ".decisions", "undecide": ".decisions",
    "PERSONA": ".demo", "build_demo": ".demo", "demo_owner_addresses": ".demo",
    "MemseedError": ".errors",
    "build_digest": ".extract.digest", "preview_llm_request": ".extract.digest",
    "llm_proposals": ".extract.llm",
    "Plan": ".harnesses", "WriteOptions": ".harnesses", "WriteOutcome": ".harnesses",
    "get_harness": ".harnesses",
    "ScanEvent": ".pipeline", "ScanResult": ".pipeline", "SourceReport": ".pipeline",
    "scan": ".pipeline", "scan_demo": ".pipeline",
    "check_entry": ".safety", "gate": ".safety", "pii_flags": ".safety", "redact_secrets": ".safety",
    "run_doctor": ".safety", "scan_text": ".safety",
    "Store": ".store",
    "apply_write": ".writing", "history": ".writing", "plan_write": ".writing", "undo_write": ".writing",
    **{name: ".types" for name in ("ChatMessage", "Decision", "DecisionStatus", "Document", "Event",
                                   "Evidence", "Item", "MemoryEntry", "MemoryType", "Message", "Person",
                                   "Proposal", "Repo", "Skip")},
}


def __getattr__(name: str) -> Any:
    module = _HOME.get(name)
    if module is None:
        raise AttributeError(f"module 'bootstrap_app' has no attribute {name!r}")
    value = getattr(importlib.import_module(module, __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
