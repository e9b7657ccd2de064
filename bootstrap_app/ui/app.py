"""The memseed onboarding wizard: a Streamlit app frame over six pages.

Run it with ``memseed app`` (or ``memseed app --demo``), which starts Streamlit bound to
127.0.0.1 with usage statistics off. The frame only sets up the page and the navigation;
each page lives in ``views/`` and reads everything it shows from the state store.
"""

from __future__ import annotations

import sys
from pathlib import Path

import streamlit as st

if __package__ in (None, ""):  # run as a script by `streamlit run`: make the package importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from bootstrap_app.ui.common import sidebar_mode
from bootstrap_app.ui.launch_token import require_token, resume_page

__all__: list[str] = []

_VIEWS = Path(__file__).resolve().parent / "views"

st.set_page_config(page_title="memseed", page_icon=":material/psychiatry:", layout="wide")
require_token()  # nothing below runs (no page, no widget, no callback) without the launch token

pages = [
    st.Page(_VIEWS / "sources.py", title="1 · Sources", icon=":material/folder_open:", url_path="sources",
            default=True),
    st.Page(_VIEWS / "scan.py", title="2 · Scan", icon=":material/manage_search:", url_path="scan"),
    st.Page(_VIEWS / "identity.py", title="3 · Who you are", icon=":material/badge:", url_path="identity"),
    st.Page(_VIEWS / "review.py", title="4 · Review", icon=":material/fact_check:", url_path="review"),
    st.Page(_VIEWS / "write.py", title="5 · Write", icon=":material/edit_note:", url_path="write"),
    st.Page(_VIEWS / "doctor.py", title="Doctor", icon=":material/health_and_safety:", url_path="doctor"),
]

with st.sidebar:
    st.markdown("### memseed")
    st.caption("Give your coding agent a memory of you on day one — only what you approve.")
sidebar_mode()
navigation = st.navigation(pages)
resume_page(pages)  # a reload or bookmark admitted by the browser pass opens the page it asked for
navigation.run()
