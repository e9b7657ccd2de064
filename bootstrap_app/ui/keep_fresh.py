"""The Review page's "Keep memory fresh": what the last re-seed found, and a switch for the timer.

Why on the Review page: a re-seed's only outcome is proposals that wait here, so this is
where the person sees how many the last one found and decides whether re-seeding runs on its
own. The switch calls :mod:`bootstrap_app.memory.schedule` — the same plan and apply as
``memseed schedule --daily`` / ``--off`` — and shows the same status lines as ``--status``.
"""

from __future__ import annotations

from datetime import datetime
from datetime import time as clock

import streamlit as st

from bootstrap_app.errors import MemseedError
from bootstrap_app.memory import schedule
from bootstrap_app.memory.freshness import check_written
from bootstrap_app.report.scan import run_outcome
from bootstrap_app.store import Store
from bootstrap_app.ui.common import get_settings, show_error

__all__ = ["keep_fresh_section"]


def _switch() -> None:
    settings = get_settings()
    system = schedule.system_name()
    try:
        if st.session_state["fresh_on"]:
            when: clock = st.session_state["fresh_time"]
            plan = schedule.plan_on(schedule.Schedule(when.strftime("%H:%M")), settings.home, system)
        else:
            plan = schedule.plan_off(settings.home, system)
        st.session_state["fresh_problems"] = [*plan.notes[1:], *schedule.apply(plan, schedule.run_system)]
    except MemseedError as exc:
        st.session_state["fresh_error"] = exc


def keep_fresh_section(store: Store) -> None:
    last = next((r for r in store.runs(limit=200) if r["kind"] == "reseed"), None)
    if last is not None:
        found = int(last["summary"].get("new_proposals", 0) or 0)
        outcome = run_outcome(last)
        trouble = "" if outcome == "complete" else f" Outcome: {outcome}."
        st.caption(f"The last re-seed ({last['started'][:16].replace('T', ' ')}) found {found} new proposal"
                   f"{'' if found == 1 else 's'} for review.{trouble}")
    system = schedule.system_name()
    installed = schedule.installed(system)
    with st.expander("Keep memory fresh", expanded=False):
        st.caption("Re-seed every day from the sources you added: new proposals wait here, nothing is written "
                   "without you.")
        st.time_input("At", value=clock(installed.hour, installed.minute) if installed else clock(7, 30),
                      key="fresh_time", step=900)
        st.toggle("Keep memory fresh", value=installed is not None, key="fresh_on", on_change=_switch)
        if "fresh_error" in st.session_state:
            show_error(st.session_state.pop("fresh_error"))
        for line in st.session_state.pop("fresh_problems", []):
            st.caption(line)
        waiting = len(store.proposals(status="undecided"))
        stale = len({s.fingerprint for s in check_written(store)[1]})
        for line in schedule.status_lines(system, last, waiting, stale, datetime.now().astimezone(),
                                          schedule.run_system):
            st.caption(line)
