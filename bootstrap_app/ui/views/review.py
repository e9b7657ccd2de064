"""Review page: approve, edit or reject every proposal, with its evidence in view.

Every decision button calls one :mod:`bootstrap_app.review.decisions` function (the same ones the
CLI uses) from its ``on_click`` callback, which writes the decision to the store before
Streamlit reruns the page; the rerun then reads the rows back from the store
(:func:`review_model.load_rows`). Session state holds only widget values (filters, ticks,
which card is being edited), never a decision.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, Literal

import streamlit as st

from bootstrap_app.errors import TargetNotFound
from bootstrap_app.identity.review import hold_back_about_you
from bootstrap_app.review import decisions
from bootstrap_app.review import model as rm
from bootstrap_app.review.cards import card_markdown, evidence_markdown, flag_notes
from bootstrap_app.store import Store
from bootstrap_app.ui.common import TARGETS, get_store, md_escape, page_header, remember, restore, show_error
from bootstrap_app.ui.keep_fresh import keep_fresh_section

__all__: list[str] = []

PER_PAGE = 25
_TYPE_OPTIONS = ("all", "user", "feedback", "project", "reference")
_STATUS_LABELS = {"undecided": "To review", "approved": "Approved", "rejected": "Rejected", "all": "All"}
_STATUS_COLORS: dict[str, Literal["gray", "green", "red"]] = {
    "undecided": "gray", "approved": "green", "edited": "green", "rejected": "red"}

page_header("Review", "Each proposal shows the evidence it rests on. Approve what is true and useful, "
            "edit what is nearly right, reject the rest. Nothing is written until you use the Write page; "
            "sensitive proposals are never included in bulk actions unless you tick them yourself.")

store = get_store()


# Card and bulk actions: the decisions call and the verb the page reports. (A comment, not a
# string: Streamlit's "magic" shows any bare string in a page script to the person.)
_ACTIONS: dict[str, tuple[Callable[[Store, Iterable[str]], object], str]] = {
    "approve": (decisions.approve, "Approved"),
    "reject": (decisions.reject, "Rejected"),
    "undo": (decisions.undecide, "Reopened"),
}


def _record(action: str, ids: list[str]) -> None:
    """Write the decision to the store (committed) — the page rerun reads it back."""
    decide, verb = _ACTIONS[action]
    try:
        if ids:  # a bulk action whose ticks were all cleared before the click records nothing
            decide(store, ids)
    except Exception as exc:  # shown on the next run; the store is unchanged for a failed id
        st.session_state["review_error"] = exc
        return
    st.session_state["review_msg"] = f"{verb} {len(ids)} proposal(s)."


def _ticked(rows: list[rm.ReviewRow]) -> list[str]:
    """The rows' ticks as they are now (sensitive rows count only when ticked by hand)."""
    selection = {key[4:]: bool(value) for key, value in st.session_state.items()
                 if isinstance(key, str) and key.startswith("sel_")}
    return rm.bulk_ids(rows, selection)


def _bulk(action: str, rows: list[rm.ReviewRow]) -> None:
    """Read the ticks when the button is pressed, not when it was drawn (a tick may be newer)."""
    _record(action, _ticked(rows))


def _save_edit(fingerprint: str) -> None:
    try:
        decisions.edit(store, fingerprint, name=st.session_state[f"ed_name_{fingerprint}"],
                description=st.session_state[f"ed_desc_{fingerprint}"],
                body=st.session_state[f"ed_body_{fingerprint}"])
    except Exception as exc:
        st.session_state["review_error"] = exc
        return
    st.session_state.pop(f"editing_{fingerprint}", None)
    st.session_state["review_msg"] = "Saved your edit and approved it."


def _toggle_edit(fingerprint: str) -> None:
    key = f"editing_{fingerprint}"
    st.session_state[key] = not st.session_state.get(key, False)


def _card(row: rm.ReviewRow) -> None:
    fp = row.fingerprint
    with st.container(border=True, key=f"card_{fp}"):
        head, side = st.columns([5, 2])
        with head:
            st.markdown(f"**{md_escape(row.current.name)}** &nbsp; `{row.proposal.id}`")
            st.caption(md_escape(row.current.description) or "—")
        with side:
            st.checkbox("Include in bulk actions", key=f"sel_{fp}", value=rm.default_selected(row))
        badges = st.container(horizontal=True)
        with badges:
            st.badge(str(row.proposal.type), color="blue")
            st.badge(_STATUS_LABELS.get(row.status, row.status) if row.status != "edited" else "Edited",
                     color=_STATUS_COLORS.get(row.status, "gray"))
            st.badge(f"confidence {row.proposal.confidence:.2f}", color="gray")
            if row.proposal.scope != "global":
                st.badge(f"project {Path(row.proposal.scope).name}", color="violet")
            if row.proposal.supersedes:
                st.badge(f"replaces {row.proposal.supersedes}", color="yellow")
            for flag in row.proposal.flags:
                if flag == "sensitive":
                    st.badge("sensitive", color="red", icon=":material/warning:")
                else:
                    st.badge(flag, color="orange")
        notes = flag_notes(row.proposal)
        if notes:  # a legend for every flag, naming the lines it is about
            st.caption("  \n".join(f"**{n.flag}**: {md_escape(n.meaning)}"
                                   + "".join(f"  \n  ↳ {md_escape(line)}" for line in n.lines) for n in notes))
        if st.session_state.get(f"editing_{fp}"):
            with st.form(key=f"form_{fp}", border=False):
                st.text_input("Name", value=row.current.name, key=f"ed_name_{fp}")
                st.text_input("Description", value=row.current.description, key=f"ed_desc_{fp}")
                st.text_area("Body", value=row.current.body, key=f"ed_body_{fp}", height=140)
                st.form_submit_button("Save and approve", on_click=_save_edit, args=(fp,), type="primary")
            st.button("Cancel edit", key=f"cancel_{fp}", on_click=_toggle_edit, args=(fp,))
        else:
            st.markdown(card_markdown(row.current.body))
        if row.proposal.supersedes and row.proposal.previous:  # an update: what stops being true
            with st.expander(f"Replaces {row.proposal.supersedes} — it said"):
                st.markdown(md_escape(row.proposal.previous))
        with st.expander(f"Evidence ({len(row.proposal.evidence)})"):
            for ev in row.proposal.evidence:
                st.markdown(evidence_markdown(ev))
            if not row.proposal.evidence:
                st.caption("No evidence recorded.")
        actions = st.container(horizontal=True)
        with actions:
            st.button("Approve", key=f"approve_{fp}", on_click=_record, args=("approve", [fp]),
                      type="primary" if not row.approved else "secondary", disabled=row.status == "approved")
            st.button("Edit", key=f"edit_{fp}", on_click=_toggle_edit, args=(fp,))
            st.button("Reject", key=f"reject_{fp}", on_click=_record, args=("reject", [fp]),
                      disabled=row.status == "rejected")
            if row.decided:
                st.button("Undo decision", key=f"undo_{fp}", on_click=_record, args=("undo", [fp]))


@st.cache_data(max_entries=16, show_spinner=False)
def _budget(key: tuple[Any, ...], _rows: list[rm.ReviewRow], _written: set[str]) -> list[rm.BudgetLine]:
    """Cached on :func:`review_model.budget_key` alone (it covers the target, the rows and ``written``),
    so a meter is recomputed only when something it depends on changes."""
    return rm.budget(_rows, key[0], written=_written)


def _budget_meter(rows: list[rm.ReviewRow]) -> None:
    """One meter per capped file of every harness (``Harness.capacity``); uncapped harnesses show none."""
    lines: list[tuple[str, rm.BudgetLine]] = []
    for target, label in TARGETS.items():
        written = set(store.written(target))
        try:
            lines += [(label, line) for line in _budget(rm.budget_key(rows, target, written), rows, written)]
        except Exception as exc:  # an unreadable memory file or no default folder: say so, keep reviewing
            if not isinstance(exc, TargetNotFound):
                st.caption(f"{label} budget unavailable: {exc}")
    if not lines:
        return
    with st.expander("Budget of capped memory files", expanded=any(not b.ok for _, b in lines)):
        st.caption("Agents load only so much of their memory files. Each meter counts what a capped file "
                   "holds now plus the approved entries, in the harness's own unit.")
        for label, line in lines:
            st.progress(min(line.ratio, 1.0),
                        text=f"{label} {line.name}: {line.after:,} / {line.limit:,} {line.unit} "
                             f"({line.used:,} already there, {len(line.entries)} approved to add)")
            if not line.ok:
                fit, over = line.fitting()
                st.warning(f"{label} {line.name} is over its cap. In order, these fit: {', '.join(fit) or 'none'}; "
                           f"these do not: {', '.join(over)}. Reject or shorten some (Edit) to choose what "
                           "goes — nothing is dropped silently.", icon=":material/warning:")


if (message := st.session_state.pop("review_msg", None)) is not None:
    st.success(message)
if (problem := st.session_state.pop("review_error", None)) is not None:
    show_error(problem)

rows, held = hold_back_about_you(store, rm.load_rows(store))
if held:
    st.warning(f"{held} proposal(s) about you are held back until you have checked who memseed thinks you are.",
               icon=":material/badge:")
    st.page_link("views/identity.py", label="Check who you are first", icon=":material/arrow_back:")
if not rows:
    st.info("No proposals yet — run a scan.", icon=":material/info:")
    st.page_link("views/scan.py", label="Go to Scan", icon=":material/arrow_back:")
    st.stop()

facets = rm.facet_counts(rows)
counts = st.columns(4)
counts[0].metric("To review", facets["status"].get("undecided", 0))
counts[1].metric("Approved", facets["status"].get("approved", 0))
counts[2].metric("Rejected", facets["status"].get("rejected", 0))
counts[3].metric("Sensitive", facets["flag"].get("sensitive", 0))
keep_fresh_section(store)
_budget_meter(rows)

restore("rv_type", "all")  # the filters are kept per app home, like the Write page's choices
restore("rv_status", "undecided")
restore("rv_flags", [])
st.session_state["rv_flags"] = [f for f in st.session_state["rv_flags"] if f in facets["flag"]]
type_choice = st.segmented_control(
    "Type", _TYPE_OPTIONS, key="rv_type", on_change=remember, args=("rv_type",),
    format_func=lambda t: f"All ({len(rows)})" if t == "all" else f"{t} ({facets['type'].get(t, 0)})")
filters = st.columns([3, 2, 2], vertical_alignment="bottom")
with filters[0]:
    status = st.segmented_control("Status", tuple(_STATUS_LABELS), key="rv_status",
                                  format_func=_STATUS_LABELS.__getitem__, on_change=remember, args=("rv_status",))
with filters[1]:
    flags = st.multiselect("Flags", sorted(facets["flag"]), key="rv_flags", placeholder="any",
                           on_change=remember, args=("rv_flags",))
with filters[2]:
    text = st.text_input("Search", key="rv_text", placeholder="words or an id")

flt = rm.ReviewFilter(types=() if type_choice in (None, "all") else (str(type_choice),), status=str(status or "all"),
                      flags=tuple(flags), text=text)
shown = rm.filter_rows(rows, flt)
page_key = f"rv_page_{flt.status}_{'-'.join(flt.types)}_{'-'.join(flt.flags)}_{flt.text}"
page = rm.paginate(shown, st.session_state.get(page_key, 1), PER_PAGE)
if page_key in st.session_state and st.session_state[page_key] != page.page:
    st.session_state[page_key] = page.page  # clamped: decisions moved rows out of this filter

if not shown:
    st.info("Nothing matches these filters." if flt != rm.ReviewFilter() else
            "Everything has been reviewed — go to Write, or pick another status above.", icon=":material/info:")
    st.stop()

bulk = _ticked(page.rows)
bar = st.container(horizontal=True, vertical_alignment="center")
with bar:
    st.markdown(f"Showing {page.start + 1}–{page.start + len(page.rows)} of {page.total}")
    st.button(f"Approve all visible ({len(bulk)})", key="bulk_approve", on_click=_bulk,
              args=("approve", page.rows), disabled=not bulk)
    st.button(f"Reject all visible ({len(bulk)})", key="bulk_reject", on_click=_bulk,
              args=("reject", page.rows), disabled=not bulk)
st.caption("Bulk actions apply to the ticked proposals on this page; sensitive ones start unticked.")

for memory_type, group in rm.group_by_type(page.rows):
    st.subheader(f"{memory_type.value.capitalize()} ({len(group)})")
    for row in group:
        _card(row)

if page.pages > 1:
    st.pagination(page.pages, key=page_key, default=1)
