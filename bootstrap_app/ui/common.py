"""What every page of the app shares: settings, the store, the demo label, page headers.

Why the store is opened per session and never cached across sessions: the store is the
truth (DESIGN §7) and SQLite connections are not meant to be shared between threads that
may write at once. Each browser session keeps one connection in its session state — a
cache of a handle, not of data: every page reads its data from the store on every run.

The app's mode comes from the environment that ``memseed app`` sets before starting
Streamlit (``MEMSEED_HOME``, ``MEMSEED_APP_DEMO``, ``MEMSEED_DEMO_ROOT``,
``MEMSEED_DEMO_PROJECT``), so the same app file serves the demo and real use.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import streamlit as st

from bootstrap_app.config import Settings, load_settings
from bootstrap_app.errors import MemseedError
from bootstrap_app.harnesses import labels
from bootstrap_app.report.accounting import SourceAccount
from bootstrap_app.store import Store
from bootstrap_app.ui import DEMO_ENV, DEMO_PROJECT_ENV, DEMO_ROOT_ENV

__all__ = [
    "DEMO_ENV",
    "DEMO_PROJECT_ENV",
    "DEMO_ROOT_ENV",
    "TARGETS",
    "account_table",
    "default_project",
    "demo_root",
    "get_settings",
    "get_store",
    "is_demo",
    "md_escape",
    "page_header",
    "remember",
    "restore",
    "show_error",
    "sidebar_mode",
]


TARGETS: dict[str, str] = labels()
"""Write targets in the order the app offers them, with their display names (the harness registry's)."""


def is_demo() -> bool:
    return os.environ.get(DEMO_ENV, "") == "1"


def demo_root() -> Path | None:
    raw = os.environ.get(DEMO_ROOT_ENV)
    return Path(raw) if raw else None


def default_project() -> str:
    """The project folder the Write page proposes: the demo repo in demo mode, else blank."""
    return os.environ.get(DEMO_PROJECT_ENV, "") if is_demo() else ""


def get_settings() -> Settings:
    """Settings for this session (app home from ``MEMSEED_HOME``), loaded once per session."""
    settings = st.session_state.get("_memseed_settings")
    if settings is None:
        settings = load_settings()
        st.session_state["_memseed_settings"] = settings
    return settings


def get_store() -> Store:
    """This session's connection to the state store (opened on first use)."""
    settings = get_settings()
    store = st.session_state.get("_memseed_store")
    if store is None or store.path != settings.db_path:
        store = Store(settings.db_path)
        st.session_state["_memseed_store"] = store
    return store


_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|<>~$:])")


def md_escape(text: str) -> str:
    """Show untrusted text literally in markdown: no links, no images (no remote fetches), no HTML.

    Proposal bodies and evidence excerpts come from mail, chat and documents written by other
    people; rendered as markdown they could pull remote images (tracking) or fake UI.
    """
    return _MD_SPECIAL.sub(r"\\\1", text).replace("\n", "  \n")


def page_header(title: str, blurb: str) -> None:
    """Every page opens the same way: a title and one or two sentences saying what it is for."""
    st.title(title)
    st.caption(blurb)


def show_error(exc: BaseException) -> None:
    """Show a memseed error as message + hint; anything else as an exception (it is a bug)."""
    if isinstance(exc, MemseedError):
        st.error(str(exc.args[0]) if exc.args else type(exc).__name__)
        if exc.hint:
            st.info(f"What to do: {exc.hint}")
    else:
        st.exception(exc)


def sidebar_mode() -> None:
    """The sidebar label: demo mode and its throwaway home, or the real app home."""
    settings = get_settings()
    with st.sidebar:
        if is_demo():
            root = demo_root() or settings.home
            st.warning(f"**Demo mode** — a throwaway home at `{root}`. Nothing here touches your "
                       "real files; it is deleted when the app stops.", icon=":material/science:")
        else:
            st.caption(f"App home: `{settings.home}`")


def account_table(accounts: list[SourceAccount]) -> None:
    """Per source: what its reader found, items read, skipped, whether that adds up (the ledger),
    the window, what was left out and why, proposals given, and when none, the reason and the fix
    (Scan and Sources pages show the same table)."""
    if not accounts:
        st.caption("No scan yet.")
        return
    st.dataframe([{"source": Path(a.source.partition(":")[2] or a.source).name or a.source, "kind": a.kind,
                   "found": "" if a.found is None else f"{a.found:,}", "items read": a.items,
                   "skipped": "" if a.found is None else f"{a.skipped:,}",
                   "check": "" if a.found is None else ("MISMATCH: a reader fault" if not a.balanced else
                                                        "partial" if a.partial else "all accounted for"),
                   "proposals": a.proposals, "why none": a.reason, "what to do": a.fix,
                   "window": a.window or "all",
                   "left out": "; ".join(f"{why} ({n:,})" for why, n in a.left_out.items()) or "nothing"}
                  for a in accounts], hide_index=True, width="stretch",
                 column_config={"why none": st.column_config.TextColumn(width="large"),
                                "what to do": st.column_config.TextColumn(width="large")})


def restore(key: str, default: Any) -> None:
    """First run of this session: widget ``key`` starts with the value remembered for this app
    home (``Store.pref``), else ``default``. The widget is then created without a default."""
    if key not in st.session_state:
        st.session_state[key] = get_store().pref(f"ui.{key}", default)


def remember(key: str) -> None:
    """``on_change`` of a remembered widget: keep its value for the next session in this app home."""
    get_store().set_pref(f"ui.{key}", st.session_state.get(key))
