"""Identity page: who memseed thinks you are, with the evidence — settled before any review.

Renders :func:`bootstrap_app.identity.review.identity_view`; every button calls one function of
:mod:`bootstrap_app.identity.review` (bulk alias decisions, undo, a typed address, what a
source is) and re-analysis starts the same background scan as the Scan page, with
``cached=True`` so sources the item cache holds (mailboxes, and path sources whose files did not
change) are replayed instead of read again.
"""

from __future__ import annotations

import streamlit as st

from bootstrap_app.errors import MemseedError
from bootstrap_app.identity import review as ir
from bootstrap_app.ui.common import get_settings, get_store, md_escape, page_header, show_error
from bootstrap_app.ui.jobs import ScanJob, current_job, start_scan

__all__: list[str] = []

page_header("Who you are", "Before anything about you is proposed: the names and addresses memseed takes as "
            "yours, and why. Mail from these addresses counts as your own words; correct anything that is not "
            "you, then re-analyse.")

settings = get_settings()
store = get_store()


def _bulk(confirm: bool) -> None:
    chosen = list(st.session_state.get("identity_pick", []))
    try:
        done = ir.decide_aliases(store, chosen, confirm)
    except MemseedError as exc:
        st.session_state["identity_error"] = exc
        return
    st.session_state["identity_msg"] = (f"{'Confirmed' if confirm else 'Rejected'} {len(done)} address(es). "
                                        "Re-analyse to see the effect.")
    st.session_state["identity_pick"] = []


def _undo(address: str) -> None:
    ir.undo_alias(store, address)
    st.session_state["identity_msg"] = f"`{address}` is a suggestion again. Re-analyse to see the effect."


def _add_typed() -> None:
    typed = st.session_state.get("identity_address", "").strip()
    if not typed:
        return
    try:
        ir.add_address(store, typed)
    except MemseedError as exc:
        st.session_state["identity_error"] = exc  # the typed text stays in the box to be corrected
        return
    st.session_state["identity_msg"] = f"Added `{typed}` as yours. Re-analyse to see the effect."
    st.session_state["identity_address"] = ""


def _pick(address: str) -> None:
    ir.add_address(store, address)
    st.session_state["identity_msg"] = f"`{address}` is you. Re-analyse to see the effect."


def _ownership(location: str, key: str) -> None:
    ir.set_source_ownership(store, location, st.session_state[key])
    st.session_state["identity_msg"] = "Saved. Re-analyse so the change counts."


def _reanalyse() -> None:
    start_scan([entry["location"] for entry in store.sources()], settings, cached=True)


if (err := st.session_state.pop("identity_error", None)) is not None:
    show_error(err)
if (msg := st.session_state.pop("identity_msg", None)) is not None:
    st.success(msg, icon=":material/person_check:")

view = ir.identity_view(store)
ir.mark_identity_shown(store, view.run_id)

@st.fragment(run_every=1.0)
def _reanalysing(job: ScanJob) -> None:
    """Redraws itself every second while the re-analysis runs (stage, items replayed so far);
    one full rerun when it ends, so the page shows the new analysis without being left."""
    if job.running:
        items = sum(p.items for p in job.progress())
        st.info(f"Re-analysing… {job.stage} · {items:,} items · {job.elapsed:.0f} s", icon=":material/hourglass_top:")
    else:
        st.rerun()


job = current_job(settings)
if job is not None and job.running:
    _reanalysing(job)
elif view.run_id is None:
    st.info("Nothing scanned yet — scan your sources first.", icon=":material/info:")
    st.page_link("views/scan.py", label="Go to Scan", icon=":material/arrow_back:")

st.subheader("You are")
if view.names:
    st.markdown("Name: " + ", ".join(f"**{md_escape(n)}**" for n in view.names))
if view.addresses:
    st.dataframe([{"address": a.address, "why it is yours": a.evidence, "from": a.source} for a in view.addresses],
                 hide_index=True, width="stretch", key="identity_addresses")
else:
    st.warning("memseed has not found an address that is provably yours, so nothing counts as your own words "
               "yet. Type your address below, or pick yourself." + (f" ({md_escape(view.unknown_why)})"
                                                                     if view.unknown_why else ""),
               icon=":material/person_off:")
if view.candidates:  # offered by the scan when nothing proved an owner
    st.caption("Could one of these be you? (A click makes it yours.)")
    for index, cand in enumerate(view.candidates):
        cols = st.columns([5, 1], vertical_alignment="center")
        cols[0].markdown(f"`{cand['address']}` — {md_escape(cand['evidence'])}")
        cols[1].button("This is me", key=f"identity_cand_{index}", on_click=_pick, args=(cand["address"],))

cols = st.columns([4, 1], vertical_alignment="bottom")
cols[0].text_input("Add an address of yours", key="identity_address", placeholder="you@example.org")
cols[1].button("Add", key="identity_add", on_click=_add_typed)

st.subheader("Addresses that only look like yours")
if view.suggested:
    st.caption("Your name at another domain, your surname at a free-mail provider: exactly what a lookalike "
               "sender registers. Their mail counts as someone else's until you confirm them.")
    st.dataframe([{"address": a.address, "evidence": a.evidence} for a in view.suggested], hide_index=True,
                 width="stretch", key="identity_suggested")
    st.multiselect("Choose addresses", [a.address for a in view.suggested], key="identity_pick")
    bulk = st.columns(3)
    bulk[0].button("Confirm: these are mine", key="identity_confirm", on_click=_bulk, args=(True,))
    bulk[1].button("Reject: not mine", key="identity_reject", on_click=_bulk, args=(False,))
else:
    st.caption("None waiting.")
for title, rows in (("Confirmed as yours", view.confirmed), ("Rejected (never suggested again)", view.rejected)):
    if rows:
        with st.expander(f"{title} ({len(rows)})"):
            for index, alias in enumerate(rows):
                cols = st.columns([5, 1], vertical_alignment="center")
                cols[0].markdown(f"`{alias.address}`")
                cols[1].button("Undo", key=f"identity_undo_{alias.status}_{index}", on_click=_undo,
                               args=(alias.address,))

st.subheader("Whose are your sources?")
st.caption("A shared mailbox or a family calendar says nothing about who you are: mark it, and its account and "
           "Sent folder stop counting as you, and a calendar gives no zone, ritual or meeting of yours (its items "
           "are still read).")
for index, source in enumerate(view.sources):
    key = f"identity_owner_{index}"
    if key not in st.session_state:
        st.session_state[key] = source["ownership"]
    cols = st.columns([3, 2], vertical_alignment="center")
    cols[0].markdown(f"`{source['location']}`" + (f" · {source['kinds']}" if source["kinds"] else ""))
    cols[1].selectbox("This source is", list(ir.OWNERSHIP), key=key, format_func=ir.OWNERSHIP.__getitem__,
                      on_change=_ownership, args=(source["location"], key), label_visibility="collapsed")

st.divider()
st.button("Re-analyse with these corrections", key="identity_reanalyse", type="primary",
          disabled=not view.sources or (job is not None and job.running), on_click=_reanalyse,
          help="Runs the analysis again from the local item cache: nothing is downloaded again, and files "
               "that did not change since the last scan are not read again.")
st.page_link("views/review.py", label="Next: review the proposals", icon=":material/arrow_forward:")
