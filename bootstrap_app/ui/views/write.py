"""Write page: preview the exact files for each target, write the approved entries, undo.

The preview is the writer's own plan (``writing.plan_write``): the bytes shown in the diff
are the bytes that are written, and the writer refuses if a file changed in between. Every
write is journaled in the store, so any write in the history can be undone.
"""

from __future__ import annotations

from typing import Any

import streamlit as st

from bootstrap_app.errors import MemseedError
from bootstrap_app.harnesses import harness_class
from bootstrap_app.memory.write import USER_FACTS, apply_write, history, undo_write
from bootstrap_app.review import model as rm
from bootstrap_app.ui.common import (
    TARGETS,
    default_project,
    get_settings,
    get_store,
    md_escape,
    page_header,
    remember,
    restore,
    show_error,
)

__all__: list[str] = []

page_header("Write", "Choose where the approved memories go. Preview shows the exact files and changes; "
            "nothing is written until you press Write, and every write can be undone.")

store = get_store()
# The targets, the project, the user-facts choice and each folder are kept per app home
# (``Store.pref``, see ``common.restore`` / ``common.remember``), so the next session starts with them.


def _preview() -> None:
    """Reads the widgets from session state: a callback's args would be the previous run's values."""
    targets = list(st.session_state.get("write_targets", []))
    project = st.session_state.get("write_project", "").strip()
    roots = {t: st.session_state.get(f"write_root_{t}", "").strip() for t in targets}
    st.session_state["write_plans"] = rm.plan_targets(store, targets, project or None, roots=roots,
                                                      user_facts=st.session_state.get("write_user_facts"))
    st.session_state.pop("write_done", None)


def _preview_only(target: str, ids: list[str]) -> None:
    """Re-plan one capped target with only the chosen entries (the person's choice, not ours)."""
    project = st.session_state.get("write_project", "").strip()
    keep = [tp for tp in st.session_state.get("write_plans", []) if tp.target != target]
    st.session_state["write_plans"] = keep + rm.plan_targets(store, [target], project or None, only=ids,
                                                             user_facts=st.session_state.get("write_user_facts"))


def _apply() -> None:
    done: list[tuple[str, Any]] = []
    for tp in st.session_state.get("write_plans", []):
        if tp.plan is None or tp.plan.empty:
            continue
        try:
            done.append((tp.target, apply_write(store, tp.plan)))
        except Exception as exc:
            st.session_state["write_error"] = exc
            break
    st.session_state["write_done"] = done
    st.session_state.pop("write_plans", None)


def _undo(write_id: int) -> None:
    try:
        restored = undo_write(store, write_id)
    except Exception as exc:
        st.session_state["write_error"] = exc
        return
    st.session_state["write_msg"] = f"Undid write {write_id}: {len(restored)} file(s) put back as they were."
    st.session_state.pop("write_done", None)


if (err := st.session_state.pop("write_error", None)) is not None:
    show_error(err)
if (msg := st.session_state.pop("write_msg", None)) is not None:
    st.success(msg, icon=":material/undo:")

rows = rm.load_rows(store)  # once per run: the metric, the Hermes meter and the capacity advice share it
approved = [row for row in rows if row.approved]
st.metric("Approved proposals", len(approved))
if not approved:
    st.info("No approved proposals yet — approve some on the Review page first.", icon=":material/info:")
    st.page_link("views/review.py", label="Go to Review", icon=":material/arrow_back:")

default = get_settings().default_target
restore("write_targets", [default] if default in TARGETS else [])
st.session_state["write_targets"] = [t for t in st.session_state["write_targets"] if t in TARGETS]
restore("write_project", default_project())
restore("write_user_facts", next(iter(USER_FACTS)))
col_t, col_p = st.columns(2)
with col_t:
    targets = st.multiselect("Targets", list(TARGETS), key="write_targets", format_func=TARGETS.__getitem__,
                             on_change=remember, args=("write_targets",))
with col_p:
    st.text_input("Project for facts tied to no repository (optional)", key="write_project",
                  on_change=remember, args=("write_project",),
                  help="Claude Code keeps memory per project. Facts about one repository always go to that "
                       "repository's memory; facts about you go where every session loads them (below). "
                       "Facts tied to no repository go to this project's memory — or, left blank, where "
                       "every session loads them.")
if "claude-code" in targets:
    st.radio("Claude Code: facts about you go to", list(USER_FACTS), key="write_user_facts",
             format_func=USER_FACTS.__getitem__, on_change=remember, args=("write_user_facts",),
             help="The same choice as `memseed write --user-facts`.")
for target in targets:  # a harness without a home of its own (the markdown folder) needs one chosen
    if not harness_class(target).default_home:
        restore(f"write_root_{target}", "")
        st.text_input(f"{TARGETS[target]}: folder", key=f"write_root_{target}",
                      on_change=remember, args=(f"write_root_{target}",),
                      placeholder=f"where to write ({harness_class(target).entry_format})")
for target in targets:  # a meter per capped file of each chosen target (Harness.capacity)
    try:
        meters = rm.budget(rows, target, written=set(store.written(target)))
    except MemseedError:  # no folder chosen yet (markdown) or an unreadable file: the preview says why
        meters = []
    for line in meters:
        st.progress(min(line.ratio, 1.0),
                    text=f"{TARGETS[target]} {line.name} in `{line.folder}`: {line.after:,} / {line.limit:,} "
                         f"{line.unit}")

st.button("Preview", key="write_preview", type="primary", disabled=not (approved and targets),
          on_click=_preview)

plans: list[rm.TargetPlan] = st.session_state.get("write_plans", [])
for tp in plans:
    st.subheader(TARGETS.get(tp.target, tp.target))
    st.caption(f"Format: {md_escape(harness_class(tp.target).entry_format)}")
    if tp.error is not None:
        show_error(tp.error)
        if tp.capacity:
            lines = rm.budget(rows, tp.target, written=set(store.written(tp.target)))
            for line in lines:
                if not line.ok:
                    fit, over = line.fitting()
                    st.warning(f"{line.name}: {line.after:,} of {line.limit:,} characters. These fit, in order: "
                               f"{', '.join(fit) or 'none'}. These do not: {', '.join(over)}.")
            fits = [fid for line in lines for fid in line.fits]
            if fits:
                st.button(f"Preview only the {len(fits)} entries that fit", key=f"fit_{tp.target}",
                          on_click=_preview_only, args=(tp.target, fits))
            st.info("Choose what goes: on Review, reject or shorten (Edit) entries until the meter is under "
                    "the cap, then preview again — or preview only what fits. memseed never drops an approved "
                    "entry silently.")
        continue
    plan = tp.plan
    st.caption(f"Memory folder: `{plan.root}`")
    if plan.blocked:  # partial: the rest is written, these are named with their reason below
        st.warning(f"{len(plan.blocked)} approved entr{'y is' if len(plan.blocked) == 1 else 'ies are'} blocked by "
                   f"{tp.target}'s safety check and will not be written; the rest will. Reasons below.",
                   icon=":material/block:")
    for note in plan.notes:
        st.caption(note)
    if plan.empty:
        st.success("Nothing to change — every approved entry is already there.", icon=":material/check:")
        continue
    # paths relative to the memory folder named just above, so the table is readable
    st.dataframe([{"file": str(c.path.relative_to(plan.root)) if c.path.is_relative_to(plan.root)
                   else str(c.path), "change": "new" if c.before is None else "changed",
                   "bytes": len(c.after or b"")} for c in plan.files], hide_index=True, width="stretch")
    with st.expander("Diff", expanded=len(plan.files) <= 6):
        st.code(plan.diff(), language="diff")

writable = [tp for tp in plans if tp.plan is not None and not tp.plan.empty]
if writable:
    total = sum(len(tp.plan.files) for tp in writable)
    st.button(f"Write {total} file(s)", key="write_apply", type="primary", on_click=_apply)

done: list[tuple[str, Any]] = st.session_state.get("write_done", [])
for target, outcome in done:
    st.success(f"Wrote {len(outcome.paths)} file(s) to {TARGETS.get(target, target)} — write id "
               f"{outcome.write_id}.", icon=":material/check_circle:")
    st.code("\n".join(outcome.paths) or "(nothing)", language=None)
    if outcome.write_id is not None:
        st.button(f"Undo write {outcome.write_id}", key=f"undo_now_{outcome.write_id}", on_click=_undo,
                  args=(outcome.write_id,))
if done:
    st.page_link("views/doctor.py", label="Check what was just written (Doctor)", icon=":material/health_and_safety:")

st.divider()
st.subheader("History")

records = history(store)
if not records:
    st.caption("No writes yet.")
else:
    st.dataframe([{"write": r["id"], "target": r["target"], "at": r["at"], "status": r["status"],
                   "files": len(r["files"])} for r in records], hide_index=True, width="stretch")
    undoable = [r["id"] for r in records if r["status"] == "applied"]
    if undoable:
        cols = st.columns([2, 1], vertical_alignment="bottom")
        choice = cols[0].selectbox("Undo a write", undoable, key="undo_pick",
                                   format_func=lambda i: f"write {i}")
        cols[1].button("Undo", key="undo_history", on_click=_undo, args=(choice,))
