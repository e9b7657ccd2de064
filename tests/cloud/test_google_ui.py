"""The wizard's Sources page: Connect Google calls the same library login; a signed-in account is added."""

from __future__ import annotations

import pytest

from bootstrap_app.config import load_settings
from bootstrap_app.store import Store
from tests.ui.conftest import app_at

from .google_standin import GoogleStandIn


def test_signed_in_account_is_added_to_the_sources(google: GoogleStandIn) -> None:
    at = app_at("sources")
    assert not at.exception
    assert any("signed in" in m.value for m in at.markdown)
    at.button(key="add_account_google").click().run()
    assert not at.exception
    with Store(load_settings(None).db_path) as store:
        assert "google:" in [s["location"] for s in store.sources()]


def test_connect_google_without_a_client_file_says_what_to_do(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("MEMSEED_GOOGLE_CREDENTIALS", raising=False)
    at = app_at("sources")
    assert any("not signed in" in m.value for m in at.markdown)
    at.text_input(key="auth_google_client_secrets").set_value("/nonexistent/client.json")
    at.button(key="connect_google").click().run()
    assert not at.exception
    assert "no OAuth client file" in " ".join(str(e.value) for e in at.error)
    assert "--client-secrets" in " ".join(str(i.value) for i in at.info)  # the fix, as the CLI says it


def test_a_login_from_the_env_file_has_no_sign_out_and_says_the_file_is_used(google: GoogleStandIn) -> None:
    at = app_at("sources")
    assert not at.exception
    assert not any(b.key == "logout_google" for b in at.button)  # signing out would change nothing
    assert any("MEMSEED_GOOGLE_CREDENTIALS" in c.value and "in use" in c.value for c in at.caption)
    assert any("gmail.readonly, calendar.readonly" in c.value for c in at.caption)  # scopes by their short names


def test_auth_cli_says_the_env_file_still_signs_in(google: GoogleStandIn) -> None:
    from click.testing import CliRunner

    from bootstrap_app.cli import main

    runner = CliRunner()
    out = runner.invoke(main, ["auth", "--logout", "google"])
    assert out.exit_code == 0
    assert "was not signed in" in out.output and "still used" in out.output
    login = runner.invoke(main, ["auth", "google", "--no-browser", "--client-secrets", "/dev/null"])
    assert "MEMSEED_GOOGLE_CREDENTIALS is set and overrides" in login.output + (login.stderr or "")


def test_account_overview_shows_who_scopes_and_what_a_scan_read(google: GoogleStandIn) -> None:
    from bootstrap_app.pipeline import scan
    from bootstrap_app.report.sources import account_overview

    settings = load_settings(None)
    with Store(settings.db_path) as store:
        before = {a.name: a for a in account_overview(settings, store)}
    g = before["google"]
    assert g.signed_in and g.env_login and g.scopes == ("gmail.readonly", "calendar.readonly", "drive.readonly")
    assert (g.added, g.last_scanned, g.items) == (False, None, 0)
    assert not before["microsoft"].signed_in and not before["microsoft"].env_login
    with Store(settings.db_path) as store:
        store.remember_source("google:")
    result = scan(["google:"], settings=settings)
    with Store(settings.db_path) as store:
        after = {a.name: a for a in account_overview(settings, store)}["google"]
    assert all(r.error is None for r in result.reports)
    assert after.added and after.last_scanned
    assert after.items > 0 and after.items == sum(r.items for r in result.reports)  # mail, events and files
