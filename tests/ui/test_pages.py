"""Every page of the app under Streamlit's AppTest, against a real store in the hermetic home."""

from __future__ import annotations

import shutil
import stat
from pathlib import Path

import pytest

from bootstrap_app.review import decisions
from bootstrap_app.review import model as rm
from bootstrap_app.store import Store

from .conftest import app_at

PAGES = ("sources", "scan", "identity", "review", "write", "doctor")
TITLES = {"identity": "Who you are"}


def _no_exception(at) -> None:  # type: ignore[no-untyped-def]
    assert not at.exception, [e.value for e in at.exception]


@pytest.mark.parametrize("page", PAGES)
def test_every_page_renders_with_an_empty_store(page: str) -> None:
    at = app_at(page)
    _no_exception(at)
    assert at.title[0].value == TITLES.get(page, page.capitalize())
    assert at.caption  # every page explains itself


def test_empty_states_point_to_the_next_step() -> None:
    texts = lambda at: " ".join(i.value for i in at.info)  # noqa: E731
    assert "No proposals yet — run a scan" in texts(app_at("review"))
    assert "No sources yet" in texts(app_at("sources"))
    assert "No approved proposals yet" in texts(app_at("write"))


def _cards(at) -> list[str]:  # type: ignore[no-untyped-def]
    return [b.key[len("approve_"):] for b in at.button if b.key and b.key.startswith("approve_")]


def test_review_paginates_500_proposals(seeded) -> None:  # type: ignore[no-untyped-def]
    seeded(500)
    at = app_at("review")
    _no_exception(at)
    first = _cards(at)
    assert len(first) == 25
    assert at.pagination[0].num_pages == 20
    at.pagination[0].set_value(20).run()
    last = _cards(at)
    assert len(last) == 25 and not set(first) & set(last)
    # approving the last page moves its rows out of "To review": the page number is clamped
    for fp in last:
        at.checkbox(key=f"sel_{fp}").check()
    at.button(key="bulk_approve").click().run()
    _no_exception(at)
    assert at.pagination[0].num_pages == 19 and at.pagination[0].value == 19
    assert len(_cards(at)) == 25 and not set(_cards(at)) & set(last)


def test_filters_narrow_the_cards(seeded) -> None:  # type: ignore[no-untyped-def]
    store = seeded(40)
    by_fp = {r.fingerprint: r for r in rm.load_rows(store)}
    at = app_at("review")
    at.segmented_control(key="rv_type").set_value("project").run()
    assert _cards(at) and all(str(by_fp[fp].proposal.type) == "project" for fp in _cards(at))
    at.segmented_control(key="rv_type").set_value("all").run()
    at.multiselect(key="rv_flags").set_value(["sensitive"]).run()
    assert _cards(at) and all(by_fp[fp].proposal.sensitive for fp in _cards(at))
    at.multiselect(key="rv_flags").set_value([]).run()
    k17 = next(r for r in by_fp.values() if r.proposal.key == "k17")
    at.text_input(key="rv_text").set_value(k17.proposal.id).run()  # search by the short id people copy
    assert _cards(at) == [k17.fingerprint]
    at.text_input(key="rv_text").set_value("no such words anywhere").run()
    assert not _cards(at) and "Nothing matches these filters." in [i.value for i in at.info]


def test_approve_is_in_the_store_and_survives_a_reload(seeded, settings) -> None:  # type: ignore[no-untyped-def]
    seeded(10)
    at = app_at("review")
    target = _cards(at)[0]
    at.button(key=f"approve_{target}").click().run()
    _no_exception(at)
    with Store(settings.db_path) as other:  # a new connection sees the decision
        decision = other.decision(target)
        assert decision is not None and decision.approved
    reloaded = app_at("review")  # a new session: the decision is read back from the store
    assert target not in _cards(reloaded)
    reloaded.segmented_control(key="rv_status").set_value("approved").run()
    assert _cards(reloaded) == [target]


def test_reject_edit_and_undo(seeded, settings) -> None:  # type: ignore[no-untyped-def]
    seeded(10)
    at = app_at("review")
    one, two = _cards(at)[:2]
    at.button(key=f"reject_{one}").click().run()
    at.button(key=f"edit_{two}").click().run()
    at.text_area(key=f"ed_body_{two}").set_value("Maya prefers tea.")
    at.button(key=f"FormSubmitter:form_{two}-Save and approve").click().run()
    _no_exception(at)
    with Store(settings.db_path) as other:
        assert str(other.decision(one).status) == "rejected"  # type: ignore[union-attr]
        edited = other.decision(two)
        assert edited is not None and str(edited.status) == "edited"
        assert edited.edited and edited.edited["body"] == "Maya prefers tea."
    at.segmented_control(key="rv_status").set_value("all").run()
    at.button(key=f"undo_{one}").click().run()
    with Store(settings.db_path) as other:
        assert other.decision(one) is None


def test_sensitive_is_unticked_and_left_out_of_bulk_approve(seeded, settings) -> None:  # type: ignore[no-untyped-def]
    store = seeded(25)
    rows = {r.fingerprint: r for r in rm.load_rows(store)}
    at = app_at("review")
    shown = _cards(at)
    sensitive = [fp for fp in shown if rows[fp].proposal.sensitive]
    assert sensitive
    for fp in shown:
        assert at.checkbox(key=f"sel_{fp}").value is (not rows[fp].proposal.sensitive)
    at.button(key="bulk_approve").click().run()
    _no_exception(at)
    with Store(settings.db_path) as other:
        for fp in shown:
            decision = other.decision(fp)
            if rows[fp].proposal.sensitive:
                assert decision is None
            else:
                assert decision is not None and decision.approved
    # ticking a sensitive one by hand is the only way it joins a bulk action
    at.segmented_control(key="rv_status").set_value("undecided").run()
    at.checkbox(key=f"sel_{sensitive[0]}").check().run()
    at.button(key="bulk_reject").click().run()
    with Store(settings.db_path) as other:
        assert str(other.decision(sensitive[0]).status) == "rejected"  # type: ignore[union-attr]
        assert all(other.decision(fp) is None for fp in sensitive[1:])


def test_sources_add_upload_remove_and_harness_folders(hermetic: Path, settings) -> None:  # type: ignore[no-untyped-def]
    folder = hermetic / "notes"
    folder.mkdir()
    (folder / "plan.md").write_text("# Plan\n\nShip the ledger.\n")
    memory = hermetic / ".claude" / "projects" / "-src-app" / "memory"
    memory.mkdir(parents=True)
    (memory / "MEMORY.md").write_text("- [Tea](tea.md) — prefers tea\n")
    at = app_at("sources")
    at.text_input(key="source_path").set_value(str(folder))
    at.button(key="add_source").click().run()
    _no_exception(at)
    assert at.text_input(key="source_path").value == "", "an added path clears the box"
    at.text_input(key="source_path").set_value(str(folder))
    at.button(key="add_source").click().run()
    assert any("already in your sources" in i.value for i in at.info) and not at.success
    at.text_input(key="source_path").set_value(str(folder / "plan.md"))  # one document: not a "folder"
    at.button(key="add_source").click().run()
    assert any("detected: document." in s.value for s in at.success), [s.value for s in at.success]
    at.text_input(key="source_path").set_value(str(hermetic / "missing"))
    at.button(key="add_source").click().run()
    assert at.error, "a path that does not exist is refused with a message"
    assert at.text_input(key="source_path").value == str(hermetic / "missing"), "kept in the box to correct"
    at.file_uploader(key="source_upload").set_value(
        ("inbox.mbox", b"From maya@x.example Thu Jan  1 00:00:00 2026\nSubject: hi\n\nhello\n", "application/mbox"))
    at.run()
    _no_exception(at)
    harness_buttons = [b for b in at.button if b.key and b.key.startswith("add_harness_")]
    assert harness_buttons
    harness_buttons[0].click().run()
    with Store(settings.db_path) as other:
        locations = [s["location"] for s in other.sources()]
    uploads = settings.home / "uploads"
    assert str(folder) in locations and str(memory) in locations
    assert str(uploads / "inbox.mbox") in locations
    assert stat.S_IMODE(uploads.stat().st_mode) == 0o700
    assert str(hermetic / "missing") not in locations
    at.button(key=f"forget_{locations.index(str(folder))}").click().run()
    with Store(settings.db_path) as other:
        assert str(folder) not in [s["location"] for s in other.sources()]


def test_sources_page_shows_what_the_last_scan_read(hermetic: Path, settings) -> None:  # type: ignore[no-untyped-def]
    """A scanned source is described from the store (items, last scan), not by walking it again:
    it still lists after its folder is gone; an added but unscanned one is detected."""
    from bootstrap_app.pipeline import scan

    folder = hermetic / "notes"
    folder.mkdir()
    for i in range(7):
        (folder / f"n{i}.md").write_text(f"# Note {i}\n\nShip the ledger, step {i}.\n")
    fresh = hermetic / "fresh"
    fresh.mkdir()
    (fresh / "a.md").write_text("# A\n\nA note.\n")
    with Store(settings.db_path) as store:
        scan([str(folder)], settings=settings, store=store)
        store.remember_source(str(fresh))
    shutil.rmtree(folder)
    at = app_at("sources")
    _no_exception(at)
    captions = " ".join(c.value for c in at.caption)
    assert "folder · 7 item(s) · last scanned" in captions and not at.error
    assert "Detected: folder · 1 part(s) · not scanned yet" in captions


def _approve_some(store: Store, count: int) -> list[str]:
    ids = [r.fingerprint for r in rm.load_rows(store) if not r.proposal.sensitive][:count]
    decisions.approve(store, ids)
    return ids


def test_write_preview_write_and_undo(seeded, hermetic: Path, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(hermetic / ".claude"))
    project = hermetic / "code" / "ledger"
    project.mkdir(parents=True)
    store = seeded(8)
    ids = _approve_some(store, 3)
    approved = [r.proposal for r in rm.load_rows(store) if r.fingerprint in ids]
    about_you = [p for p in approved if p.type.value == "user"]
    assert about_you and len(about_you) < 3  # both placements are exercised
    at = app_at("write")
    assert at.metric[0].value == "3"
    assert at.radio(key="write_user_facts").value == "claude-md", "facts about you: every session, by default"
    at.text_input(key="write_project").set_value(str(project))
    at.button(key="write_preview").click().run()
    _no_exception(at)
    memory_files = lambda: sorted((hermetic / ".claude" / "projects").glob("*/memory/*.md"))  # noqa: E731
    assert not memory_files(), "a preview writes nothing"
    diff = "\n".join(c.value for c in at.code)
    assert "+++ " in diff and "MEMORY.md" in diff
    shown = [str(f) for f in at.dataframe[0].value["file"]]
    assert shown and all(f.startswith("projects/") or f == "CLAUDE.md" for f in shown), \
        "files relative to the memory folder"
    at.button(key="write_apply").click().run()
    _no_exception(at)
    written = memory_files()
    topics = [p for p in written if p.name != "MEMORY.md"]
    user_level = hermetic / ".claude" / "CLAUDE.md"
    # facts about the person -> the user-level CLAUDE.md every session loads; the others, tied to
    # no repository -> the project named on the page
    assert len(topics) == 3 - len(about_you) and any(p.name == "MEMORY.md" for p in written)
    assert all("code-ledger" in p.parent.parent.name for p in topics), "unscoped facts go to the project named"
    assert all(f"User: {p.description} — " in user_level.read_text() for p in about_you)
    assert any(f"Wrote {len(written) + 1} file(s) to Claude Code" in s.value for s in at.success)
    undo = [b for b in at.button if (b.key or "").startswith("undo_now_")]
    assert len(undo) == 1
    undo[0].click().run()
    _no_exception(at)
    assert memory_files() == [] and not user_level.exists()
    assert any("Undid write" in s.value for s in at.success)
    with Store(store.path) as other:
        assert [w.status for w in other.writes()] == ["undone"]


def test_write_capacity_error_says_what_fits(hermetic: Path, monkeypatch: pytest.MonkeyPatch,
                                              settings) -> None:  # type: ignore[no-untyped-def]
    from bootstrap_app.types import MemoryType, Proposal

    monkeypatch.setenv("HERMES_HOME", str(hermetic / ".hermes"))
    big = [Proposal(type=MemoryType.USER, name=f"user fact {i}", description=f"fact {i}",
                    body=f"Maya fact {i}: " + "detail " * 60, subject=f"big:{i}", key=str(i)) for i in range(6)]
    with Store(settings.db_path) as store:
        store.save_proposals(store.start_run("scan", []), big)
        decisions.approve(store, [p.fingerprint for p in big])
    at = app_at("write")
    at.multiselect(key="write_targets").set_value(["hermes"]).run()
    at.button(key="write_preview").click().run()
    _no_exception(at)
    assert at.error and "do not fit" in at.error[0].value
    assert any("These fit, in order" in w.value for w in at.warning)
    at.button(key="fit_hermes").click().run()
    _no_exception(at)
    assert not at.error
    at.button(key="write_apply").click().run()
    user_md = (hermetic / ".hermes" / "memories" / "USER.md").read_text()
    assert 0 < len(user_md) <= 1375


def test_write_reports_a_blocked_entry_and_writes_the_rest(hermetic: Path, monkeypatch: pytest.MonkeyPatch,
                                                           settings) -> None:  # type: ignore[no-untyped-def]
    """Hermes blocks at load a modifying verb before an agent file's name: the page warns about
    that entry, names it with its reason, and Write puts the other one in place."""
    from bootstrap_app.types import MemoryType, Proposal

    monkeypatch.setenv("HERMES_HOME", str(hermetic / ".hermes"))
    facts = [Proposal(type=MemoryType.FEEDBACK, name="small functions", description="small functions",
                      body="Prefer small functions with one job.", subject="s:1", key="1"),
             Proposal(type=MemoryType.FEEDBACK, name="short rules", description="short rules",
                      body="When you write rules, keep CLAUDE.md short.", subject="s:2", key="2")]
    with Store(settings.db_path) as store:
        store.save_proposals(store.start_run("scan", []), facts)
        decisions.approve(store, [p.fingerprint for p in facts])
    at = app_at("write")
    at.multiselect(key="write_targets").set_value(["hermes"]).run()
    at.button(key="write_preview").click().run()
    _no_exception(at)
    assert any("1 approved entry is blocked by hermes" in w.value for w in at.warning)
    assert any(f"({facts[1].id}): blocked, not written" in c.value and "agent_config_mod" in c.value
               for c in at.caption)
    at.button(key="write_apply").click().run()
    _no_exception(at)
    memory = (hermetic / ".hermes" / "memories" / "MEMORY.md").read_text()
    assert "small functions" in memory and "CLAUDE.md" not in memory


def test_write_asks_a_folder_for_a_harness_without_a_home(seeded, hermetic: Path) -> None:  # type: ignore[no-untyped-def]
    """The markdown target has no home of its own (no ``default_home``): the page asks for its folder."""
    _approve_some(seeded(8), 3)
    at = app_at("write")
    at.multiselect(key="write_targets").set_value(["markdown", "hermes"]).run()
    assert [t.key for t in at.text_input if (t.key or "").startswith("write_root_")] == ["write_root_markdown"]
    at.text_input(key="write_root_markdown").set_value(str(hermetic / "notes")).run()
    at.button(key="write_preview").click().run()
    _no_exception(at)
    at.button(key="write_apply").click().run()
    _no_exception(at)
    assert (hermetic / "notes" / "MEMORY.md").is_file() and len(list((hermetic / "notes").glob("*.md"))) == 4
    assert (hermetic / ".hermes" / "memories" / "MEMORY.md").is_file() or \
        (hermetic / ".hermes" / "memories" / "USER.md").is_file()


def test_untrusted_text_is_shown_literally(settings) -> None:  # type: ignore[no-untyped-def]
    from datetime import UTC, datetime

    from bootstrap_app.types import Evidence, MemoryType, Proposal

    hostile = Proposal(type=MemoryType.PROJECT, name="vendor note", description="from a vendor mail",
                       body="See ![pixel](http://tracker.example/p.png) and <b>bold</b>", subject="v:1",
                       evidence=(Evidence("mbox:/m", "<1@x>", datetime(2026, 1, 2, tzinfo=UTC), False,
                                          "[click](http://evil.example)"),))
    with Store(settings.db_path) as store:
        store.save_proposals(store.start_run("scan", []), [hostile])
    at = app_at("review")
    rendered = [m.value for m in at.markdown]
    assert any("\\!\\[pixel\\]" in m for m in rendered)
    assert not any("![pixel](" in m or "[click](" in m for m in rendered)
    assert any("third party" in m for m in rendered)


def test_doctor_lists_findings_with_file_and_line(hermetic: Path) -> None:
    memory = hermetic / "audit" / "memory"
    memory.mkdir(parents=True)
    (memory / "MEMORY.md").write_text("- [Missing](missing.md) — points nowhere\n")
    (memory / "broken.md").write_text("---\nname: broken\ndescription: [unclosed\n---\nbody\n")
    at = app_at("doctor")
    at.selectbox(key="doctor_target").set_value("claude-code")
    at.text_input(key="doctor_path").set_value(str(memory))
    at.button(key="doctor_run").click().run()
    _no_exception(at)
    table = at.dataframe[0].value
    assert list(table.columns) == ["severity", "code", "file", "line", "message"]
    assert any("missing.md" in m for m in table["message"])
    assert any(str(f).endswith("broken.md") for f in table["file"])
    at.text_input(key="doctor_path").set_value(str(hermetic / "nowhere"))
    at.button(key="doctor_run").click().run()
    assert at.error and "does not exist" in at.error[0].value


def test_identity_aliases_in_bulk_with_undo(hermetic: Path, settings) -> None:  # type: ignore[no-untyped-def]
    with Store(settings.db_path) as store:
        store.suggest_aliases({"maya.okafor@fastmail.example": "shown with the owner's name (2 time(s))",
                               "maya.okafor@northwind-1abs.example": "address built from the owner's name",
                               "m.okafor@mail.example": "the owner's surname at a free-mail provider"})
    at = app_at("identity")
    _no_exception(at)
    shown = at.dataframe[0].value if at.dataframe else None
    assert shown is not None and "maya.okafor@fastmail.example" in list(shown["address"])
    at.multiselect(key="identity_pick").set_value(["maya.okafor@fastmail.example", "m.okafor@mail.example"]).run()
    at.button(key="identity_confirm").click().run()
    _no_exception(at)
    at.multiselect(key="identity_pick").set_value(["maya.okafor@northwind-1abs.example"]).run()
    at.button(key="identity_reject").click().run()
    status = lambda: {a["address"]: a["status"] for a in Store(settings.db_path).aliases()}  # noqa: E731
    assert status() == {"maya.okafor@fastmail.example": "confirmed", "m.okafor@mail.example": "confirmed",
                        "maya.okafor@northwind-1abs.example": "rejected"}
    assert not [m for m in at.multiselect if m.key == "identity_pick"]  # nothing left to decide
    # the decided ones are listed, each with an undo
    undo = sorted(b.key for b in at.button if (b.key or "").startswith("identity_undo_"))
    assert undo == ["identity_undo_confirmed_0", "identity_undo_confirmed_1", "identity_undo_rejected_0"]
    at.button(key="identity_undo_rejected_0").click().run()
    assert status()["maya.okafor@northwind-1abs.example"] == "suggested"
    # a typed address becomes yours; a bad one stays in the box with the reason
    at.text_input(key="identity_address").set_value("not an address").run()
    at.button(key="identity_add").click().run()
    assert at.error and at.text_input(key="identity_address").value == "not an address"
    at.text_input(key="identity_address").set_value("maya@home.example").run()
    at.button(key="identity_add").click().run()
    assert status()["maya@home.example"] == "confirmed" and at.text_input(key="identity_address").value == ""


def test_proposals_about_you_wait_for_the_identity_page(settings) -> None:  # type: ignore[no-untyped-def]
    from .conftest import synthetic_proposals

    with Store(settings.db_path) as store:
        store.save_proposals(store.start_run("scan", []), synthetic_proposals(8))
    at = app_at("review")
    assert any("about you are held back" in w.value for w in at.warning)
    assert not any(s.value.startswith("User (") for s in at.subheader)
    app_at("identity")  # shown once
    at = app_at("review")
    assert not any("held back" in w.value for w in at.warning)
    assert any(s.value.startswith("User (") for s in at.subheader)


def test_scan_page_points_at_pending_aliases(hermetic: Path, settings) -> None:  # type: ignore[no-untyped-def]
    with Store(settings.db_path) as store:
        run = store.start_run("scan", ["x"])
        store.finish_run(run, "finished", {})
        store.suggest_aliases({"maya@northwind-1abs.example": "shown with the owner's name"})
    at = app_at("scan")
    _no_exception(at)
    assert any("1 address(es) only look like yours" in w.value for w in at.warning)
    with Store(settings.db_path) as store:
        store.decide_alias("maya@northwind-1abs.example", "rejected")
    at.run()
    assert not any("look like yours" in w.value for w in at.warning)


def test_sources_brings_memory_from_one_agent_to_another(hermetic: Path, settings) -> None:  # type: ignore[no-untyped-def]
    """"Bring memory from another agent": a Claude Code folder found on this machine, brought to
    Hermes, leaves one proposal per entry for review; one Hermes already holds is reported."""
    memory = hermetic / ".claude" / "projects" / "-src-app" / "memory"
    memory.mkdir(parents=True)
    (memory / "MEMORY.md").write_text("- [Tea](feedback_tea.md) — prefers tea\n- [Tabs](feedback_tabs.md) — tabs\n")
    (memory / "feedback_tea.md").write_text("---\nname: tea\ndescription: prefers green tea in meetings\n"
                                            "type: feedback\n---\nOffer green tea, never coffee.\n")
    (memory / "feedback_tabs.md").write_text("---\nname: tabs\ndescription: indent with tabs in every repository\n"
                                             "type: feedback\n---\nIndent with tabs.\n")
    hermes = hermetic / ".hermes" / "memories"
    hermes.mkdir(parents=True)
    (hermes / "MEMORY.md").write_text("Preference: indent with tabs in every repository — Indent with tabs.\n")
    at = app_at("sources")
    _no_exception(at)
    index = next(i for i in range(5) if str(memory) in " ".join(m.value for m in at.markdown
                                                                if m.value.startswith("**claude-code**")))
    at.selectbox(key=f"bring_to_{index}").set_value("hermes")
    at.button(key=f"bring_{index}").click().run()
    _no_exception(at)
    assert "2 memories read" in at.success[0].value and "1 wait for your review" in at.success[0].value
    assert any("already in the target" in c.value for c in at.caption)
    with Store(settings.db_path) as other:
        assert [sp.proposal.name for sp in other.proposals(status="undecided")] == ["tea"]


def test_review_keeps_memory_fresh_with_the_schedule_library(seeded, hermetic: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """The switch installs the same timer `memseed schedule --daily` does (commands recorded, never run),
    and the page says what the last re-seed found."""
    import subprocess

    from bootstrap_app.memory import schedule

    calls: list[list[str]] = []
    monkeypatch.setattr(schedule, "system_name", lambda platform=None: "systemd")
    monkeypatch.setattr(schedule, "run_system",
                        lambda argv: calls.append(list(argv)) or subprocess.CompletedProcess(argv, 0, "", ""))
    with seeded(3) as store:
        run = store.start_run("reseed", ["x"])
        store.finish_run(run, "finished", {"new_proposals": 2})
    at = app_at("review")
    _no_exception(at)
    assert any("found 2 new proposals" in c.value for c in at.caption)
    at.toggle(key="fresh_on").set_value(True).run()
    _no_exception(at)
    timer = hermetic / ".config" / "systemd" / "user" / "memseed-reseed.timer"
    assert "OnCalendar=*-*-* 07:30:00" in timer.read_text()
    assert ["systemctl", "--user", "enable", "--now", "memseed-reseed.timer"] in calls
    assert any("schedule: daily at 07:30 (systemd)" in c.value for c in at.caption)
def test_doctor_checks_what_the_last_write_wrote(seeded, hermetic: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    from bootstrap_app.memory import write as writing

    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(hermetic / ".claude"))
    store = seeded(8)
    _approve_some(store, 3)
    outcome = writing.apply_write(store, writing.plan_write(store, "claude-code"))
    at = app_at("doctor")
    at.button(key="doctor_last_write").click().run()
    _no_exception(at)
    assert not at.error
    [ok] = [s.value for s in at.success]
    assert "No problems found in Claude Code memory" in ok and str(hermetic / ".claude" / "CLAUDE.md") in ok
    assert outcome.write_id is not None
    # auto-detection names the harness it found, not "Detect from the folder"
    at.selectbox(key="doctor_target").set_value("auto")
    at.text_input(key="doctor_path").set_value(str(hermetic / ".claude"))
    at.button(key="doctor_run").click().run()
    assert any("in Claude Code memory" in s.value for s in at.success), [s.value for s in at.success]


def test_choices_are_remembered_per_app_home(seeded, hermetic: Path) -> None:  # type: ignore[no-untyped-def]
    _approve_some(seeded(12), 2)
    at = app_at("review")
    at.segmented_control(key="rv_type").set_value("project").run()
    at.multiselect(key="rv_flags").set_value(["sensitive"]).run()
    at = app_at("write")
    at.multiselect(key="write_targets").set_value(["markdown", "hermes"]).run()
    at.text_input(key="write_root_markdown").set_value(str(hermetic / "notes")).run()
    again = app_at("review")  # a new session of the same app home
    assert again.segmented_control(key="rv_type").value == "project"
    assert again.multiselect(key="rv_flags").value == ["sensitive"]
    write = app_at("write")
    assert write.multiselect(key="write_targets").value == ["markdown", "hermes"]
    assert write.text_input(key="write_root_markdown").value == str(hermetic / "notes")
    _no_exception(write)
