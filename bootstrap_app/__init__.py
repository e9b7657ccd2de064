"""memseed: propose, review and write an AI agent's memory of its user.

The public API is listed in ``__all__``; the CLI, the app and the notebooks call only these.
A notebook session, step by step::

    from bootstrap_app import build_demo, detect, scan, load_settings, Store, approve, plan_write
    settings = load_settings()
    with Store(settings.db_path) as store:
        result = scan([str(build_demo(settings.home / "demo"))], settings=settings, store=store)
        approve(store, [p.id for p in result.proposals[:3]])
        print(plan_write(store, "claude-code").diff())

Every name is imported eagerly, in layer order (see docs/architecture.md): the core types,
errors and text rules first, then the engine. Heavy third-party libraries that one command or
file format needs (``openai`` for the LLM helpers, bs4, python-docx, keyring ...) are imported
inside the functions that use them, so importing the package (and every CLI start) stays cheap.
"""

from __future__ import annotations

from connectors.registry import detect

from . import types
from .config import Settings, load_settings
from .demo import PERSONA, build_demo, demo_owner_addresses
from .errors import MemseedError
from .extract.digest import build_digest, preview_llm_request
from .extract.llm import llm_proposals
from .harnesses import Plan, WriteOptions, WriteOutcome, get_harness
from .harnesses.doctor import run_doctor
from .memory.write import apply_write, history, plan_write, undo_write
from .pipeline import ScanEvent, ScanResult, SourceReport, scan, scan_demo
from .review.decisions import approve, approve_all_of_type, edit, reject, undecide
from .safety import check_entry, gate, pii_flags, redact_secrets, scan_text
from .store import Store
from .types import *  # noqa: F403 - the core records and their helpers, as types.__all__ lists them

__all__ = [
    *types.__all__,
    "PERSONA",
    "MemseedError",
    "Plan",
    "ScanEvent",
    "ScanResult",
    "Settings",
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
