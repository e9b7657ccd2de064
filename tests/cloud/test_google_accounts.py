"""Several Google accounts in one app dir: ``google:ACCOUNT`` picks the sign-in, status lists each.

Two accounts are stored with different refresh tokens at the stand-in's token endpoint; revoking
one of them at Google shows which sign-in a read really used.
"""

from __future__ import annotations

import json
import urllib.parse
import urllib.request
from pathlib import Path

import pytest
from click.testing import CliRunner

from bootstrap_app.cli import main
from bootstrap_app.config import load_settings
from bootstrap_app.errors import AuthRequired
from connectors import registry
from connectors.base import ReadContext
from connectors.google import auth
from connectors.google.gmail import GmailSource
from connectors.google.logins import Logins, parse_logins
from connectors.tokenstore import load_secret, save_secret

from .conftest import MAYA
from .google_standin import GoogleStandIn
from .test_google_auth import _client_file, _consent_screen, _login_in_thread

SAM = "sam@example.com"


def _two_accounts(google: GoogleStandIn, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Maya signed in first (the default), then Sam, each with a refresh token of their own."""
    monkeypatch.delenv("MEMSEED_GOOGLE_CREDENTIALS")
    home = load_settings(None).home
    google.world.refresh_tokens.add("refresh-2")
    logins = Logins().with_account(MAYA, {"account": MAYA, "credentials": google.authorized_user("refresh-1")})
    logins = logins.with_account(SAM, {"account": SAM, "credentials": google.authorized_user("refresh-2")})
    save_secret(home, "google", json.dumps(logins.to_record()))
    return home


def _read(uri: str, home: Path) -> list[object]:
    ctx = ReadContext(credentials=lambda login: registry.credentials(login, home), home=home, sleep=lambda _s: None)
    return list(GmailSource(uri).read(ctx))


def test_the_uri_picks_the_account_and_a_bare_uri_the_default(google: GoogleStandIn,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    home = _two_accounts(google, monkeypatch)
    google.world.revoked.add("refresh-1")  # Maya's grant is gone at Google; Sam's is not
    with pytest.raises(AuthRequired, match="invalid_grant"):
        _read("gmail:", home)  # the default account: Maya's token
    google.world.account = SAM  # the stand-in now answers as Sam's mailbox
    assert _read(f"gmail:{SAM}", home)  # Sam's own token: refreshed and read
    with pytest.raises(AuthRequired, match=r"nobody@example\.com is not signed in") as err:
        _read("gmail:nobody@example.com", home)
    assert MAYA in err.value.hint and SAM in err.value.hint  # who is signed in, to pick from


def test_status_lists_each_account_and_logout_forgets_one(google: GoogleStandIn,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    home = _two_accounts(google, monkeypatch)
    runner = CliRunner()
    shown = runner.invoke(main, ["auth", "--status"], catch_exceptions=False).output
    assert f"signed in as {MAYA} (default)" in shown and f"signed in as {SAM}" in shown
    assert shown.count("gmail.readonly") == 2
    assert auth.status(home).account == MAYA and SAM in auth.status(home).detail
    out = runner.invoke(main, ["auth", "--logout", f"google:{SAM}"], catch_exceptions=False)
    assert out.exit_code == 0 and f"google:{SAM}: signed out" in out.output
    left = parse_logins(json.loads(load_secret(home, "google") or "{}"))
    assert left.names() == [MAYA] and left.default == MAYA
    shown = runner.invoke(main, ["auth", "--status"], catch_exceptions=False).output
    assert SAM not in shown and f"signed in as {MAYA}" in shown
    refused = runner.invoke(main, ["auth", "--logout", "microsoft:someone@contoso.test"])
    assert refused.exit_code != 0 and "signs out all its accounts at once" in refused.output
    assert runner.invoke(main, ["auth", "--logout", f"google:{MAYA}"]).exit_code == 0
    assert load_secret(home, "google") is None and not auth.status(home).ok  # the last one: record gone


def _sign_in(google: GoogleStandIn, home: Path, client: Path, code: str) -> tuple[str, list[str]]:
    """One `memseed auth google` through the consent flow; (account, lines it printed)."""
    worker, lines, result, seen = _login_in_thread(google, home, client)
    params, port = _consent_screen(lines, seen)
    urllib.request.urlopen(f"http://127.0.0.1:{port}/?state={params['state'][0]}&code={code}&scope="
                           + urllib.parse.quote(" ".join(auth.SCOPES)), timeout=10).read()
    worker.join(20)
    assert "account" in result, result
    return str(result["account"]), lines


def test_signing_in_again_adds_an_account_and_keeps_the_first_as_default(
        google: GoogleStandIn, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("MEMSEED_GOOGLE_CREDENTIALS")
    monkeypatch.setenv("OAUTHLIB_INSECURE_TRANSPORT", "1")  # the stand-in's token endpoint is http
    home = load_settings(None).home
    client = _client_file(google, tmp_path / "client.json")
    google.world.codes.update({"code-m": "refresh-maya", "code-s": "refresh-sam", "code-s2": "refresh-sam2"})
    assert _sign_in(google, home, client, "code-m")[0] == MAYA
    google.world.account = SAM  # the next consent is given by Sam's account
    account, lines = _sign_in(google, home, client, "code-s")
    assert account == SAM and any(f"`google:{SAM}` reads this one" in line for line in lines)
    logins = parse_logins(json.loads(load_secret(home, "google") or "{}"))
    assert logins.names() == [MAYA, SAM] and logins.default == MAYA
    assert logins.entry(SAM)["credentials"]["refresh_token"] == "refresh-sam"  # type: ignore[index]
    _sign_in(google, home, client, "code-s2")  # Sam again: renewed in place, not a third account
    logins = parse_logins(json.loads(load_secret(home, "google") or "{}"))
    assert logins.names() == [MAYA, SAM] and logins.entry(SAM)["credentials"]["refresh_token"] == "refresh-sam2"  # type: ignore[index]


def test_logins_record_shapes() -> None:
    legacy = parse_logins({"account": "Maya@Example.com", "credentials": {"refresh_token": "r"}})
    assert legacy.names() == ["maya@example.com"] and legacy.entry()["credentials"] == {"refresh_token": "r"}
    two = legacy.with_account("b@example.com", {"credentials": {}})
    assert two.default == "maya@example.com" and two.names() == ["maya@example.com", "b@example.com"]
    assert two.entry("B@example.com") is not None and two.entry("c@example.com") is None
    assert two.without("maya@example.com").default == "b@example.com"  # the default passes on
    again = parse_logins(json.loads(json.dumps(two.to_record())))
    assert again.names() == two.names() and again.default == two.default
    assert not parse_logins(None) and not parse_logins({"unrelated": 1})
