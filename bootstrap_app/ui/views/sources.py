"""Sources page: say where memseed should look (paths, uploads, existing agent memory), and
what each source gave in the last scan.

Every source added here is remembered in the store (``store.remember_source``), so the Scan
page, ``memseed sources`` and re-seeding all see the same list. Suggested aliases (addresses that
only look like the owner's) are settled on the Identity page (``views/identity.py``).
"""

from __future__ import annotations

from datetime import UTC, datetime

import streamlit as st

from bootstrap_app.errors import MemseedError
from bootstrap_app.harnesses import HARNESS_CLASSES
from bootstrap_app.identity.aliases import list_aliases
from bootstrap_app.report.accounting import source_accounting
from bootstrap_app.report.sources import account_overview, remembered_sources
from bootstrap_app.ui.bring_memory import bring_memory_section
from bootstrap_app.ui.common import account_table, get_settings, get_store, is_demo, page_header, show_error
from bootstrap_app.ui.device_login import device_login, has_device_login
from bootstrap_app.ui.local import (
    UPLOAD_TYPES,
    describe_location,
    find_harness_folders,
    find_session_folders,
    normalize_location,
    safe_describe,
    save_upload,
)
from connectors.registry import AUTH_PROVIDERS

__all__: list[str] = []

# per login: (option handed to ``provider.login``, its label) asked on this page
ACCOUNT_FIELDS: dict[str, list[tuple[str, str]]] = {
    "google": [("client_secrets", "OAuth client JSON of your Google Cloud project (Desktop app)")],
    "microsoft": [("client_id", "Client id of your Entra ID app registration (or set MEMSEED_MS_CLIENT_ID)")],
}


@st.cache_data(ttl=30, show_spinner=False)
def _describe(location: str) -> tuple[list[tuple[str, str]], str | None]:
    return safe_describe(location)


def _add(location: str) -> None:
    """Validate then remember a source; the message is kept for the next run to show."""
    _added(location)


def _added(location: str) -> bool:
    """:func:`_add`, False when the location could not be added (the typed text then stays in the
    box to be corrected)."""
    location = normalize_location(location)
    if not location:
        return False
    if any(entry["location"] == location for entry in get_store().sources()):
        st.session_state["sources_msg"] = ("info", f"`{location}` is already in your sources.")
        return True
    try:
        found = describe_location(location)
    except MemseedError as exc:
        st.session_state["sources_error"] = exc
        return False
    get_store().remember_source(location)
    _describe.clear()
    kinds = ", ".join(sorted({kind for kind, _ in found}))
    st.session_state["sources_msg"] = ("success", f"Added `{location}` — detected: {kinds}.")
    return True


def _offer(found: list[tuple[str, str]], key: str, known: set[str]) -> None:
    """One line per (markdown, location) found on this machine, with an Add button or "added"."""
    for index, (text, location) in enumerate(found):
        col_text, col_button = st.columns([6, 1], vertical_alignment="center")
        col_text.markdown(text)
        if normalize_location(location) in known:
            col_button.caption("added")
        else:
            col_button.button("Add", key=f"{key}_{index}", on_click=_add, args=(location,))


def _forget(location: str) -> None:
    get_store().forget_source(location)
    st.session_state["sources_msg"] = ("info", f"Removed `{location}` from the list (nothing was deleted).")


def _logout(name: str) -> None:
    AUTH_PROVIDERS[name].logout(get_settings().home)
    st.session_state["sources_msg"] = ("info", f"Signed out of {name.capitalize()} (the stored token is gone).")


def _when(stamp: str) -> str:
    """A stored ISO timestamp as a person reads it: ``2026-11-24 10:20 UTC``."""
    try:
        return datetime.fromisoformat(stamp).astimezone(UTC).strftime("%Y-%m-%d %H:%M UTC")
    except ValueError:
        return stamp


def _add_typed() -> None:
    if _added(st.session_state.get("source_path", "")):
        st.session_state["source_path"] = ""


page_header("Sources", "Tell memseed where your footprint lives: mail, calendars, documents, chat "
            "exports, git repositories, and the memory other agents already keep. Everything is read "
            "locally; nothing leaves this machine.")

message = st.session_state.pop("sources_msg", None)
if message:
    getattr(st, message[0])(message[1])
if (problem := st.session_state.pop("sources_error", None)) is not None:
    show_error(problem)

settings = get_settings()
store = get_store()

left, right = st.columns(2, gap="large")
with left:
    st.subheader("Add a folder or file")
    st.text_input("Path", key="source_path", placeholder="~/Takeout, ~/mail/archive.mbox, ~/code/my-repo",
                  help="A .mbox, a folder of .eml or a maildir, an .ics, a Google Takeout folder or .zip, a "
                       "git repository, a Slack export, a harness memory folder, or any folder of documents.")
    st.button("Add source", key="add_source", on_click=_add_typed, type="primary")
with right:
    st.subheader("Or upload an export")
    upload = st.file_uploader("Mailbox (.mbox), calendar (.ics), Takeout or Slack export (.zip)",
                              type=list(UPLOAD_TYPES), key="source_upload")
    if upload is not None and st.session_state.get("_last_upload") != upload.file_id:
        try:
            saved = save_upload(settings, upload.name, upload.getvalue())
        except MemseedError as exc:
            show_error(exc)
        else:
            st.session_state["_last_upload"] = upload.file_id
            _add(str(saved))
            st.rerun()
    st.caption(f"Uploads are kept in `{settings.home / 'uploads'}`, readable only by you.")

st.divider()
st.subheader("Your sources")
remembered = store.sources()
if not remembered:
    st.info("No sources yet — add a path or upload an export above.", icon=":material/info:")
# a scanned source is described from the store (what its last scan read), so listing never walks
# a big folder again; only one not scanned yet is detected (it was validated when it was added)
for index, (entry, seen) in enumerate(zip(remembered, remembered_sources(store), strict=True)):
    location = entry["location"]
    with st.container(border=True):
        col_text, col_button = st.columns([6, 1], vertical_alignment="center")
        with col_text:
            st.markdown(f"**`{location}`**")
            if seen.last_scanned and seen.kinds:
                st.caption(f"{', '.join(sorted(seen.kinds))} · {seen.items} item(s) · last scanned "
                           f"{_when(seen.last_scanned)}")
            elif (described := _describe(location))[1]:
                st.error(described[1], icon=":material/error:")
            else:
                kinds = sorted({kind for kind, _ in described[0]})
                st.caption(f"Detected: {', '.join(kinds)} · {len(described[0])} part(s) · not scanned yet")
        with col_button:
            st.button("Remove", key=f"forget_{index}", on_click=_forget, args=(location,))

accounts = source_accounting(store)
if accounts:
    with st.expander("What the last scan read from each source", expanded=any(not a.proposals for a in accounts)):
        account_table(accounts)
pending = [a for a in list_aliases(store) if a.status == "suggested"]
if pending:
    st.info(f"{len(pending)} address(es) only look like yours: confirm or reject them (in bulk) on the "
            "Who you are page.", icon=":material/person_search:")
    st.page_link("views/identity.py", label="Who you are", icon=":material/badge:")

st.divider()
st.subheader("Memory your agents already keep")
st.caption(f"{', '.join(c.label for c in HARNESS_CLASSES if c.source_uri)} memory found on this machine. "
           "Adding it lets memseed carry memory from one agent to another and avoid proposing what is already there.")
known = {entry["location"] for entry in remembered}
folders = find_harness_folders()
if not folders:
    st.info("No existing agent memory found on this machine.", icon=":material/info:")
_offer([(f"**{f.harness}** — `{f.path}` ({f.entries} file(s))", f.location) for f in folders], "add_harness", known)
bring_memory_section(folders)

st.subheader("Conversations with your agents")
st.caption("What you told your agents before (corrections, rules, the projects you work on). Only your own "
           "messages are read; the agents' replies and tool output are skipped, and nothing is sent to a model "
           "without the preview.")
sessions = find_session_folders()
if not sessions:
    st.info("No Claude Code or Codex sessions found on this machine.", icon=":material/info:")
_offer([(f"**{f.label}** — `{f.path}` ({f.files} session(s), {f.megabytes:.1f} MB)", f.location) for f in sessions],
       "add_sessions", known)

st.divider()
st.subheader("Accounts")
st.caption("Read-only sign-in to a mail/calendar/documents account; memseed then reads it directly, with "
           "the same care as an export (bulk mail stays at the provider, only your own mail's text is read)."
           + (" In demo mode the bundled persona's footprint is already added." if is_demo() else ""))
for info in account_overview(settings, store):
    name, label, provider = info.name, info.label, AUTH_PROVIDERS[info.name]
    with st.container(border=True, key=f"account_{name}"):
        if info.signed_in:
            st.markdown(f"**{label}** — signed in{f' as `{info.account}`' if info.account else ''}")
            facts = [f"scopes: {', '.join(info.scopes)}"] if info.scopes else []
            if info.added:
                facts.append(f"last sync {_when(info.last_scanned)} · {info.items} item(s) read"
                             if info.last_scanned else "not scanned yet")
            st.caption(" · ".join(facts))
            cols = st.columns(2)
            if info.added:
                cols[0].caption(f"`{info.uri}` is in your sources")
            else:
                cols[0].button(f"Add {info.uri} to sources", key=f"add_account_{name}", on_click=_add,
                               args=(info.uri,))
            if info.env_login:  # signing out would not change what memseed uses
                var = info.detail.removeprefix("credentials from ")
                cols[1].caption(f"Signed in by the credentials file in `{var}` (that env file is in use); "
                                "unset the variable to stop using it.")
            else:
                cols[1].button("Sign out", key=f"logout_{name}", on_click=_logout, args=(name,))
            continue
        st.markdown(f"**{label}** — {info.detail}")
        fields = ACCOUNT_FIELDS.get(name, [])
        options = {key: st.text_input(text, key=f"auth_{name}_{key}") for key, text in fields}
        if has_device_login(provider):  # device code: started here, polled without blocking the app
            device_login(name, [key for key, _ in fields])
            continue
        if st.button(f"Connect {label}", key=f"connect_{name}", type="primary"):
            with st.status(f"Waiting for the {label} sign-in (finish it in the browser)…") as box:
                try:
                    account = provider.login(settings.home, echo=box.write,
                                             **{k: v.strip() for k, v in options.items() if v.strip()})
                except MemseedError as exc:
                    box.update(state="error")
                    show_error(exc)
                else:
                    box.update(label=f"Connected {account or label}", state="complete")
                    _add(f"{name}:")
                    st.rerun()
st.page_link("views/scan.py", label="Next: scan these sources", icon=":material/arrow_forward:")
