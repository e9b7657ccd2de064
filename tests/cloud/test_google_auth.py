"""Signing in and failing well: the consent flow, stored tokens, and every account error in one line."""

from __future__ import annotations

import json
import os
import socket
import stat
import threading
import urllib.parse
import urllib.request
from pathlib import Path

import pytest

from bootstrap_app.config import load_settings
from bootstrap_app.errors import AuthError, AuthRequired, NoSourceReadable, QuotaExceeded, SourceOffline
from bootstrap_app.pipeline import scan
from bootstrap_app.store import Store
from connectors.base import ReadContext
from connectors.google import auth
from connectors.google.gmail import GmailSource
from connectors.registry import AUTH_PROVIDERS, availability

from .conftest import MAYA
from .google_standin import GoogleStandIn


def _ctx(**kw: object) -> ReadContext:
    home = load_settings(None).home
    return ReadContext(credentials=lambda _p: auth.credentials(home), home=home, sleep=lambda _s: None,
                       **kw)  # type: ignore[arg-type]


def _one_line(exc: BaseException) -> str:
    first = str(exc).splitlines()[0]
    assert first.count("gmail:") <= 1
    return first


def _nothing_written(settings_home: Path) -> None:
    with Store(load_settings(None).db_path) as store:
        assert store.cursor("gmail:") is None
    assert not list((settings_home / "cloud").glob("*.json")) if (settings_home / "cloud").exists() else True


def test_revoked_consent_is_one_line_with_the_fix_and_writes_nothing(google: GoogleStandIn) -> None:
    google.world.revoked.add("refresh-1")
    settings = load_settings(None)
    with pytest.raises(AuthRequired) as caught:
        list(GmailSource("gmail:").read(_ctx()))
    line = _one_line(caught.value)
    assert "invalid_grant" in line and "memseed auth google" in caught.value.hint
    assert "7 days" in caught.value.hint  # the Testing-status expiry is named
    with pytest.raises(NoSourceReadable, match="invalid_grant") as whole:
        scan(["gmail:"], settings=settings)
    assert str(whole.value).splitlines()[0].count("gmail:") == 1  # the source is named once
    assert "memseed auth google" in whole.value.hint  # the fix survives into the scan's message
    _nothing_written(settings.home)


def test_expired_access_token_is_refreshed_without_the_user(google: GoogleStandIn) -> None:
    source = GmailSource("gmail:")
    ctx = _ctx()
    creds = ctx.credentials("google")
    ctx.credentials = lambda _p: creds
    list(source.read(ctx))
    google.world.access.clear()  # every access token the server issued is now expired
    google.reset_stats()
    ctx2 = _ctx()
    ctx2.credentials = lambda _p: creds  # the same credentials object, holding the dead token
    again = list(source.read(ctx2))
    assert again and google.stats["token"] == 1  # refreshed once, then carried on


def test_missing_scope_is_named(google: GoogleStandIn) -> None:
    google.world.granted = (auth.SCOPES[1], auth.SCOPES[2])  # consent given without Gmail
    with pytest.raises(AuthRequired, match="missing scope") as caught:
        list(GmailSource("gmail:").read(_ctx()))
    assert "tick every box" in caught.value.hint


def test_daily_quota_exhausted(google: GoogleStandIn) -> None:
    google.fault(403, 1, match="/profile", reason="dailyLimitExceeded")
    with pytest.raises(QuotaExceeded, match="quota") as caught:
        list(GmailSource("gmail:").read(_ctx()))
    assert "reseed" in caught.value.hint


def test_offline_is_source_offline(google: GoogleStandIn, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        dead = f"http://127.0.0.1:{s.getsockname()[1]}/"
    info = google.authorized_user()
    info["token_uri"] = dead + "token"
    creds = tmp_path / "dead.json"
    creds.write_text(json.dumps(info), encoding="utf-8")
    monkeypatch.setenv("MEMSEED_GOOGLE_CREDENTIALS", str(creds))
    monkeypatch.setenv("MEMSEED_GOOGLE_API_ROOT", dead)
    with pytest.raises(SourceOffline, match="cannot reach Google") as caught:
        list(GmailSource("gmail:").read(_ctx()))
    assert "nothing was saved" in caught.value.hint
    _nothing_written(load_settings(None).home)


def test_not_signed_in(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("MEMSEED_GOOGLE_CREDENTIALS", raising=False)
    home = load_settings(None).home
    state = availability(GmailSource, home)
    assert not state.ok and "memseed auth google" in state.detail
    with pytest.raises(AuthRequired, match="not signed in"):
        auth.credentials(home)


def _client_file(google: GoogleStandIn, path: Path) -> Path:
    path.write_text(json.dumps({"installed": {
        "client_id": google.world.client_id, "client_secret": google.world.client_secret,
        "auth_uri": google.root + "o/oauth2/auth", "token_uri": google.root + "token",
        "redirect_uris": ["http://localhost"]}}), encoding="utf-8")
    return path


def _login_in_thread(google: GoogleStandIn, home: Path, client: Path) -> tuple[threading.Thread, list[str],
                                                                              dict[str, object], threading.Event]:
    lines: list[str] = []
    result: dict[str, object] = {}
    seen = threading.Event()

    def echo(line: str) -> None:
        lines.append(line)
        if "o/oauth2/auth" in line:
            seen.set()

    def run() -> None:
        try:
            result["account"] = auth.login(home, echo=echo, client_secrets=str(client), no_browser=True, timeout=30)
        except Exception as exc:
            result["error"] = exc

    worker = threading.Thread(target=run)
    worker.start()
    return worker, lines, result, seen


def _consent_screen(lines: list[str], seen: threading.Event) -> tuple[dict[str, list[str]], int]:
    """The sign-in URL the login printed: its query and the loopback port Google returns to."""
    assert seen.wait(20), lines
    url = next(line.split(": ", 1)[1] for line in lines if "o/oauth2/auth" in line)
    params = urllib.parse.parse_qs(urllib.parse.urlsplit(url).query)
    port = urllib.parse.urlsplit(params["redirect_uri"][0]).port
    assert port is not None
    return params, port


def test_consent_refused_by_an_unverified_testing_app_names_the_fix(google: GoogleStandIn, tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("MEMSEED_GOOGLE_CREDENTIALS")
    monkeypatch.setenv("OAUTHLIB_INSECURE_TRANSPORT", "1")
    home = load_settings(None).home
    worker, lines, result, seen = _login_in_thread(google, home, _client_file(google, tmp_path / "c.json"))
    params, port = _consent_screen(lines, seen)
    # what Google sends back when a Testing-status app is used by someone not on its test-user list
    urllib.request.urlopen(f"http://127.0.0.1:{port}/?error=access_denied&state={params['state'][0]}",
                           timeout=10).read()
    worker.join(20)
    error = result.get("error")
    assert isinstance(error, AuthError) and "access_denied" in str(error).splitlines()[0]
    assert "Test users" in error.hint
    assert not (home / "tokens" / "google.json").exists()  # nothing stored


def test_login_flow_stores_a_0600_token_then_status_and_logout(google: GoogleStandIn, tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("MEMSEED_GOOGLE_CREDENTIALS")
    monkeypatch.setenv("OAUTHLIB_INSECURE_TRANSPORT", "1")  # the stand-in's token endpoint is http
    google.world.codes["code-42"] = "refresh-new"
    home = load_settings(None).home
    assert AUTH_PROVIDERS["google"] is auth  # `memseed auth google` and the app reach this login
    worker, lines, result, seen = _login_in_thread(google, home, _client_file(google, tmp_path / "client.json"))
    params, port = _consent_screen(lines, seen)
    assert set(params["scope"][0].split()) == set(auth.SCOPES) and params["access_type"] == ["offline"]
    assert any(f"ssh -L {port}:127.0.0.1:{port}" in line for line in lines)  # the SSH hint
    back = f"http://127.0.0.1:{port}/?state={params['state'][0]}&code=code-42&scope=" + \
        urllib.parse.quote(" ".join(auth.SCOPES))
    urllib.request.urlopen(back, timeout=10).read()
    worker.join(20)
    assert result.get("account") == MAYA, result
    token_file = home / "tokens" / "google.json"
    assert stat.S_IMODE(token_file.stat().st_mode) == 0o600
    assert "refresh-new" in token_file.read_text(encoding="utf-8")
    status = auth.status(home)
    assert status.ok and status.account == MAYA and set(status.scopes) == set(auth.SCOPES)
    assert list(GmailSource("gmail:").read(_ctx()))  # the stored sign-in reads the mailbox
    token_file.chmod(0o644)
    with pytest.raises(AuthError, match="readable by other"):
        auth.credentials(home)
    token_file.chmod(0o600)
    assert auth.logout(home) and not auth.status(home).ok


def test_auth_command_status_and_logout(google: GoogleStandIn, monkeypatch: pytest.MonkeyPatch) -> None:
    from click.testing import CliRunner

    from bootstrap_app.cli import main

    runner = CliRunner()
    shown = runner.invoke(main, ["auth", "--status"])
    assert shown.exit_code == 0 and "MEMSEED_GOOGLE_CREDENTIALS" in shown.output
    monkeypatch.delenv("MEMSEED_GOOGLE_CREDENTIALS")
    home = load_settings(None).home
    from connectors.tokenstore import save_secret

    save_secret(home, "google", json.dumps({"account": MAYA, "credentials": google.authorized_user()}))
    shown = runner.invoke(main, ["auth", "--status"])
    assert f"signed in as {MAYA}" in shown.output and "gmail.readonly" in shown.output
    out = runner.invoke(main, ["auth", "--logout", "google"])
    assert out.exit_code == 0 and "google: signed out" in out.output
    assert "not signed in" in runner.invoke(main, ["auth", "--status"]).output
    missing = runner.invoke(main, ["auth", "google", "--no-browser"])
    assert missing.exit_code == 2 and "--client-secrets" in missing.output  # the fix is named


def test_partial_consent_is_refused_with_the_fix(google: GoogleStandIn, tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """Google's granular consent lets a person untick Gmail; the token endpoint then answers
    with fewer scopes than asked (oauthlib raises a bare ``Warning`` for that)."""
    monkeypatch.delenv("MEMSEED_GOOGLE_CREDENTIALS")
    monkeypatch.delenv("OAUTHLIB_RELAX_TOKEN_SCOPE", raising=False)
    monkeypatch.setenv("OAUTHLIB_INSECURE_TRANSPORT", "1")
    google.world.codes["code-7"] = "refresh-partial"
    google.world.granted = (auth.SCOPES[1], auth.SCOPES[2])  # Gmail unticked on the consent screen
    home = load_settings(None).home
    worker, lines, result, seen = _login_in_thread(google, home, _client_file(google, tmp_path / "c.json"))
    params, port = _consent_screen(lines, seen)
    back = f"http://127.0.0.1:{port}/?state={params['state'][0]}&code=code-7&scope=" + \
        urllib.parse.quote(" ".join(google.world.granted))
    urllib.request.urlopen(back, timeout=10).read()
    worker.join(20)
    error = result.get("error")
    assert isinstance(error, AuthError), result
    assert "without gmail.readonly" in str(error).splitlines()[0] and "tick every box" in error.hint
    assert not (home / "tokens" / "google.json").exists()  # nothing stored


@pytest.mark.parametrize("content", ["[]", '"refresh-1"', "{not json"])
def test_a_credentials_file_that_is_not_an_object_is_one_clear_error(content: str, tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    bad = tmp_path / "creds.json"
    bad.write_text(content, encoding="utf-8")
    monkeypatch.setenv("MEMSEED_GOOGLE_CREDENTIALS", str(bad))
    with pytest.raises(AuthError, match="authorized_user JSON") as caught:
        auth.credentials(load_settings(None).home)
    assert "refresh-1" not in str(caught.value)  # the file's content is never echoed
    state = auth.status(load_settings(None).home)
    assert not state.ok and "authorized_user JSON" in state.detail  # not listed as available


def test_tokens_never_reach_the_app_dir_and_the_credentials_file_is_never_rewritten(google: GoogleStandIn) -> None:
    creds_file = Path(os.environ["MEMSEED_GOOGLE_CREDENTIALS"])
    before = creds_file.read_bytes()
    settings = load_settings(None)
    result = scan(["google:"], settings=settings)
    assert all(r.error is None for r in result.reports)
    issued = list(google.world.access)  # the access tokens the stand-in handed out
    assert issued and google.stats["token"] >= 1
    assert creds_file.read_bytes() == before  # refreshed in memory only
    secrets = [t.encode() for t in issued] + [b"refresh-1", google.world.client_secret.encode()]
    for path in settings.home.rglob("*"):  # the store, its WAL, resume files, logs, anything
        if path.is_file():
            data = path.read_bytes()
            assert not [s for s in secrets if s in data], path
    assert not (settings.home / "tokens").exists()  # MEMSEED_GOOGLE_CREDENTIALS is not copied to the store


def test_an_access_token_refused_inside_a_batch_is_refreshed_and_those_parts_sent_again(
        google: GoogleStandIn) -> None:
    baseline = list(GmailSource("gmail:").read(_ctx()))
    google.reset_stats()
    google.fault(401, 3, match="/messages/", reason="authError")  # three parts meet an expired token
    again = list(GmailSource("gmail:").read(_ctx()))
    assert len(again) == len(baseline) and google.stats["token"] == 2  # one refresh, nothing lost
    assert google.stats["inner"] == len(baseline) + 3  # only the refused parts went again
