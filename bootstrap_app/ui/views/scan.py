"""Scan page: read the chosen sources in a background thread and show progress per source.

The scan runs in :mod:`bootstrap_app.ui.jobs` (never in the page's own thread), so the page
stays responsive and can cancel. The pipeline saves the run, its proposals and what the
safety gate quarantined in the store; this page only displays them.
"""

from __future__ import annotations

from collections import Counter

import streamlit as st

from bootstrap_app.identity.aliases import list_aliases
from bootstrap_app.report.accounting import source_accounting
from bootstrap_app.report.scan import name_once
from bootstrap_app.ui.common import account_table, get_settings, get_store, page_header
from bootstrap_app.ui.jobs import ScanJob, current_job, start_scan

__all__: list[str] = []

page_header("Scan", "memseed reads each source, derives candidate memories with the evidence behind "
            "them, and holds back anything that looks like an instruction from someone else. Nothing is "
            "written anywhere yet — you review every proposal next.")

settings = get_settings()
store = get_store()
remembered = [entry["location"] for entry in store.sources()]


def _start() -> None:
    start_scan(list(st.session_state.get("scan_sources", [])), settings)


def _progress_table(job: ScanJob) -> None:
    """One row per source; the throughput columns (``SourceProgress.meter``, the same arithmetic
    as the CLI's stderr line) stay blank until a reader has reported progress, and the byte
    columns until it has said how large the source is (file sources: mbox, Takeout)."""
    rows = []
    for p in job.progress():
        meter, reading = p.meter, p.state == "reading" and job.running
        rate = meter.items_per_second if meter.now else 0.0
        rows.append({
            "source": p.source, "kind": p.kind, "items": p.items, "skipped": p.skipped,
            "items/s": f"{rate:,.0f}" if rate else "",
            "MB/s": f"{meter.bytes_per_second / 1e6:.1f}" if meter.total_bytes and meter.now else "",
            "read": f"{100 * meter.done_bytes / meter.total_bytes:.0f}%" if meter.total_bytes else "",
            "time left": meter.left_text() if reading and meter.now else "",
            "elapsed (s)": round(p.elapsed, 1), "state": p.state, "error": p.error or ""})
    if rows:
        st.dataframe(rows, hide_index=True, width="stretch")
    else:
        st.caption("Finding sources…")


@st.fragment(run_every=1.0)
def _live(job: ScanJob) -> None:
    """Redraws itself every second while the scan runs; one full rerun when it ends."""
    if job.running:
        st.info(f"Scanning… {job.stage} · {job.elapsed:.0f} s", icon=":material/hourglass_top:")
        _progress_table(job)
        st.button("Cancel scan", key="cancel_scan", on_click=job.cancel, disabled=job.cancelled)
    else:
        st.rerun()


job = current_job(settings)

if job is not None and job.running:
    _live(job)
else:
    if not remembered:
        st.info("No sources yet — add some on the Sources page.", icon=":material/info:")
        st.page_link("views/sources.py", label="Go to Sources", icon=":material/arrow_back:")
    else:
        chosen = st.multiselect("Sources to scan", remembered, default=remembered, key="scan_sources")
        st.button("Start scan", key="start_scan", type="primary", disabled=not chosen,
                  on_click=_start)

if job is not None and not job.running:
    st.divider()
    if job.error:
        st.error(f"The scan did not finish: {job.error}", icon=":material/error:")
    elif job.cancelled:
        st.warning("Scan cancelled. What was read before you cancelled is kept.", icon=":material/block:")
    else:
        st.success(f"Scan finished in {job.elapsed:.1f} s.", icon=":material/check_circle:")
    st.subheader("Per source")
    _progress_table(job)
    errors = [p for p in job.progress() if p.error]
    for p in errors:
        st.error(name_once(p.source, p.error or ""), icon=":material/error:")

last_run = store.runs(limit=1)
if last_run:
    run = last_run[0]
    st.divider()
    st.subheader(f"Last scan (run {run['id']}, {run['status']})")
    proposals = store.proposals(run_id=run["id"])
    by_type = Counter(str(sp.proposal.type) for sp in proposals)
    cols = st.columns(5)
    cols[0].metric("Proposals", len(proposals))
    for col, kind in zip(cols[1:], ("user", "feedback", "project", "reference"), strict=True):
        col.metric(kind.capitalize(), by_type.get(kind, 0))
    st.subheader("What each source gave")
    account_table(source_accounting(store, run["id"]))
    quarantined = store.quarantine(run_id=run["id"])
    st.subheader("Held back by the safety gate")
    if not quarantined:
        st.caption("Nothing was quarantined in this scan.")
    else:
        reasons = Counter(q["reason"] for q in quarantined)
        st.dataframe([{"reason": r, "count": n} for r, n in reasons.most_common()], hide_index=True)
        with st.expander(f"Show the {len(quarantined)} quarantined item(s)"):
            st.dataframe([{k: q[k] for k in ("reason", "source", "ref", "excerpt")} for q in quarantined],
                         hide_index=True, width="stretch")
    pending = list_aliases(store, "suggested")
    if pending:
        st.warning(f"{len(pending)} address(es) only look like yours and are not counted as you until you "
                   "confirm them.", icon=":material/person_search:")
    st.page_link("views/identity.py", label="Next: check who memseed thinks you are", icon=":material/arrow_forward:")
