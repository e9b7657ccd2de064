"""Doctor page: check a harness's memory folder for problems the harness would trip over.

``run_doctor`` reads the files (never writes) and reports findings: broken frontmatter, index
lines pointing at missing files, Hermes files over their caps or failing Hermes's own threat
scan, symlinks, secrets. This page only shows them.
"""

from __future__ import annotations

from pathlib import Path

import streamlit as st

from bootstrap_app.harnesses.doctor import detect_target, run_doctor
from bootstrap_app.memory.write import check_write, history
from bootstrap_app.ui.common import TARGETS, get_store, page_header, show_error

__all__: list[str] = []

_SEVERITY_ICON = {"error": ":material/error:", "warning": ":material/warning:", "info": ":material/info:"}

page_header("Doctor", "Check an agent's memory folder for problems: malformed files, an index that points "
            "nowhere, files over their size caps, secrets or instructions hidden in memory. Read-only.")


def _run() -> None:
    """Reads the widgets from session state: a callback's args would be the previous run's values."""
    target = st.session_state["doctor_target"]
    path = st.session_state.get("doctor_path", "").strip()
    project = st.session_state.get("doctor_project", "").strip()
    folder = Path(path).expanduser() if path else None
    try:
        findings = run_doctor(target, folder, project=Path(project).expanduser() if project else None)
    except Exception as exc:
        st.session_state["doctor_error"] = exc
        st.session_state.pop("doctor_findings", None)
        return
    if target == "auto" and folder is not None:
        target = detect_target(folder)
    st.session_state["doctor_findings"] = (target, str(folder) if folder else "", findings)


def _check_last_write() -> None:
    try:
        target, places, findings = check_write(get_store())
    except Exception as exc:
        st.session_state["doctor_error"] = exc
        st.session_state.pop("doctor_findings", None)
        return
    st.session_state["doctor_findings"] = (target, ", ".join(str(p) for p in places), findings)


_CHOICES = {**TARGETS, "auto": "Detect from the folder"}

last = next((r for r in history(get_store(), 20) if r["status"] == "applied"), None)
if last is not None:
    st.button(f"Check what write {last['id']} wrote ({TARGETS.get(last['target'], last['target'])}, "
              f"{len(last['files'])} file(s))", key="doctor_last_write", type="primary", on_click=_check_last_write)
    st.caption("Or check any memory folder:")

cols = st.columns(3)
cols[0].selectbox("Target", list(_CHOICES), key="doctor_target", format_func=_CHOICES.__getitem__)
cols[1].text_input("Memory folder (optional)", key="doctor_path",
                   help="Leave blank to check the target's usual location.")
cols[2].text_input("Project folder (optional)", key="doctor_project",
                   help="Claude Code: check this project's memory and the user-level CLAUDE.md. Blank checks every project.")
st.button("Run checks", key="doctor_run", type="secondary" if last is not None else "primary", on_click=_run)

if (err := st.session_state.pop("doctor_error", None)) is not None:
    show_error(err)

result = st.session_state.get("doctor_findings")
if result is None:
    st.info("Pick a target and run the checks.", icon=":material/info:")
else:
    checked_target, checked_path, findings = result
    where = checked_path or "its usual location"
    if not findings:
        st.success(f"No problems found in {_CHOICES.get(checked_target, checked_target)} memory ({where}).",
                   icon=":material/check_circle:")
    else:
        counts: dict[str, int] = {}
        for f in findings:
            counts[str(f.severity)] = counts.get(str(f.severity), 0) + 1
        st.markdown(" · ".join(f"**{n}** {sev}" for sev, n in sorted(counts.items())))
        if "error" in counts:
            st.caption("Fix the errors first: the harness may skip or misread those files.")
        st.dataframe([{"severity": str(f.severity), "code": f.code, "file": str(f.file or ""),
                       "line": f.line, "message": f.message} for f in findings],
                     hide_index=True, width="stretch")
