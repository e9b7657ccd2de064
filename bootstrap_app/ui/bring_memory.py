"""The Sources page's "Bring memory from another agent": pick an agent's memory found on this
machine and the agent to bring it to; each entry then waits on the Review page.

Why a section of its own and not only "Add" in the list above: adding a folder makes its memory
one source among many; bringing it names the target, so entries the target already holds are
not asked about, and the person sees at once what will not come across and why. The work is
:func:`bootstrap_app.memory.move.start_import` — the function ``memseed import`` calls; the
write itself is the Write page's (the same journaled write, undone byte for byte).
"""

from __future__ import annotations

from collections.abc import Sequence

import streamlit as st

from bootstrap_app.errors import MemseedError
from bootstrap_app.harnesses import HARNESS_CLASSES
from bootstrap_app.harnesses.plan import LocalMemory
from bootstrap_app.memory.move import start_import
from bootstrap_app.ui.common import get_settings, get_store, show_error

__all__ = ["bring_memory_section", "outcome_caption"]

_REASONS = {"unsafe": "held back by the safety gate", "duplicate": "already there or given twice",
            "decided": "rejected before", "empty": "empty", "approved": "approved before"}
"""What a reported status means, for an outcome that gives no reason of its own."""


def outcome_caption(status: str, ref: str, reason: str) -> str:
    """One entry that will not come across. The importer's reason already says what happened in
    its own words ("held back by the safety gate: …", "same memory as …"), so it is shown as is;
    the status's meaning stands in only when there is no reason (a prefix on top would repeat it)."""
    return f"`{ref}` — {reason or _REASONS.get(status, status)}"


def _bring(location: str, index: int) -> None:
    target = str(st.session_state[f"bring_to_{index}"])  # the choice as it is now, not as first drawn
    try:
        run = start_import(location, target, settings=get_settings(), store=get_store())
    except MemseedError as exc:
        st.session_state["bring_error"] = exc
        return
    st.session_state["bring_result"] = (location, target, run.read, dict(run.counts()),
                                        [(o.status, o.ref, o.reason) for o in run.outcomes if o.status != "proposed"])


def bring_memory_section(folders: Sequence[LocalMemory]) -> None:
    """The section: one row per agent memory found, a target to pick, and the last result."""
    st.subheader("Bring memory from another agent")
    st.caption("Carry what one agent already knows to another: each memory becomes a proposal you approve on "
               "the Review page, then the Write page writes it in the other agent's own format.")
    if not folders:
        st.info("No agent memory found on this machine to bring over.", icon=":material/info:")
        return
    labels = {cls.name: cls.label for cls in HARNESS_CLASSES if cls.default_home}
    for index, folder in enumerate(folders):
        targets = [name for name in labels if name != folder.harness]
        col_text, col_target, col_button = st.columns([4, 2, 1], vertical_alignment="center")
        col_text.markdown(f"**{folder.harness}** — `{folder.path}`")
        col_target.selectbox("to", targets, format_func=labels.__getitem__, key=f"bring_to_{index}",
                                      label_visibility="collapsed")
        col_button.button("Bring", key=f"bring_{index}", on_click=_bring, args=(folder.location, index))
    if "bring_error" in st.session_state:
        show_error(st.session_state.pop("bring_error"))
    if "bring_result" in st.session_state:
        location, target, read, counts, reported = st.session_state["bring_result"]
        proposed = counts.get("proposed", 0)
        st.success(f"{read} memor{'y' if read == 1 else 'ies'} read from `{location}` for {labels.get(target, target)}: "
                   f"{proposed} wait for your review.")
        for status, ref, reason in reported:
            st.caption(outcome_caption(status, ref, reason))
        if proposed:
            st.page_link("views/review.py", label="Review them", icon=":material/arrow_forward:")
