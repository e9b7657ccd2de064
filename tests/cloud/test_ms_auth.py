"""Microsoft sign-in: the real msal device-code flow against the loopback identity platform."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest

from bootstrap_app.errors import AuthError, AuthRequired, SourceOffline
from connectors.microsoft import auth

from .ms_standin import MSStandIn

TOKEN_FILE = Path("tokens") / "microsoft.json"


def test_device_code_login_saves_a_private_cache(ms: MSStandIn, tmp_path: Path) -> None:
    shown: list[str] = []
    waits: list[float] = []
    account = auth.login(tmp_path, echo=shown.append, sleep=waits.append)
    assert account == "maya@contoso.test"
    assert "MEMS-EED1" in shown[0] and "/devicelogin" in shown[0]
    assert waits == [1.0]  # one authorization_pending, then the interval the server asked for
    polls = [p for kind, p in ms.world.log if kind == "authority" and p.endswith("/token")]
    assert len(polls) == 2
    path = tmp_path / TOKEN_FILE
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    stored = json.loads(path.read_text())
    assert stored["client_id"] == ms.world.client_id and stored["authority"] == ms.authority
    assert "RefreshToken" in json.loads(stored["cache"])
    status = auth.status(tmp_path)
    assert status.ok and status.account == "maya@contoso.test" and "Mail.Read" in status.scopes


def test_status_is_offline_and_a_readable_cache_is_refused(signed_in: Path, ms: MSStandIn) -> None:
    before = len(ms.world.log)
    assert auth.status(signed_in).ok
    assert len(ms.world.log) == before  # status reads the cache, not the network
    os.chmod(signed_in / TOKEN_FILE, 0o644)
    status = auth.status(signed_in)
    assert not status.ok and "readable by other users" in status.detail
    with pytest.raises(AuthError, match="readable by other users"):
        auth.credentials(signed_in)
    auth.login(signed_in, echo=lambda t: None, sleep=lambda s: None)  # signing in again replaces it
    assert stat.S_IMODE((signed_in / TOKEN_FILE).stat().st_mode) == 0o600
    assert auth.status(signed_in).ok


def test_credentials_give_a_token_graph_accepts(signed_in: Path, ms: MSStandIn) -> None:
    creds = auth.credentials(signed_in)
    token = creds.token()
    assert token in ms.world.tokens
    assert creds.token("maya@contoso.test") == token  # served from the cache
    with pytest.raises(AuthRequired, match="not signed in"):
        creds.token("someone@else.test")


def test_expired_token_refreshes_and_revoked_consent_is_one_line(ms: MSStandIn, tmp_path: Path) -> None:
    ms.world.access_ttl = 60  # msal treats tokens with < 5 minutes left as expired
    auth.login(tmp_path, echo=lambda t: None, sleep=lambda s: None)
    first = auth.credentials(tmp_path).token()
    refreshed = auth.credentials(tmp_path).token()  # refresh-token grant, cache saved back
    assert refreshed != first and refreshed in ms.world.tokens
    saved = (tmp_path / TOKEN_FILE).read_bytes()
    ms.world.revoked = True
    with pytest.raises(AuthRequired) as err:
        auth.credentials(tmp_path).token()
    message = str(err.value)
    assert "invalid_grant" in message and "memseed auth microsoft" in message
    assert len(message.splitlines()) == 2  # the message line and its hint
    assert (tmp_path / TOKEN_FILE).read_bytes() == saved  # nothing written on failure


def test_logout_forgets_tokens(signed_in: Path) -> None:
    assert auth.logout(signed_in)
    assert not (signed_in / TOKEN_FILE).exists()
    assert not auth.status(signed_in).ok
    with pytest.raises(AuthRequired, match="memseed auth microsoft"):
        auth.credentials(signed_in)
    assert not auth.logout(signed_in)


def test_missing_client_id_and_offline_authority(ms: MSStandIn, tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("MEMSEED_MS_CLIENT_ID")
    with pytest.raises(AuthError, match="no Microsoft client id") as err:
        auth.login(tmp_path, echo=lambda t: None)
    assert "--client-id" in str(err.value)
    with pytest.raises(AuthError, match="rejected the client id"):
        auth.login(tmp_path, echo=lambda t: None, client_id="not-registered")
    ms.stop()
    with pytest.raises(SourceOffline, match="cannot be reached"):
        auth.login(tmp_path, echo=lambda t: None, client_id=ms.world.client_id)


def test_non_blocking_start_and_poll(ms: MSStandIn, tmp_path: Path) -> None:
    ms.world.pending_polls = 2
    pending = auth.start_login(tmp_path)
    assert "MEMS-EED1" in pending.message
    assert pending.poll() is None
    assert pending.poll() is None
    assert not auth.status(tmp_path).ok  # nothing saved while pending
    assert pending.poll() == "maya@contoso.test"
    assert auth.status(tmp_path).ok


def test_memseed_auth_microsoft_end_to_end(ms: MSStandIn) -> None:
    from click.testing import CliRunner

    from bootstrap_app.cli import main

    home = Path(os.environ["MEMSEED_HOME"])
    runner = CliRunner()
    before = runner.invoke(main, ["auth", "--status"], catch_exceptions=False)
    assert before.exit_code == 0 and "not signed in: run `memseed auth microsoft`" in before.output
    result = runner.invoke(main, ["auth", "microsoft", "--client-id", ms.world.client_id], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    assert "MEMS-EED1" in result.output and "connected as maya@contoso.test" in result.output
    assert stat.S_IMODE((home / TOKEN_FILE).stat().st_mode) == 0o600
    status = runner.invoke(main, ["auth", "--status"], catch_exceptions=False)
    assert "signed in as maya@contoso.test" in status.output and "Mail.Read" in status.output
    os.chmod(home / TOKEN_FILE, 0o644)
    refused = runner.invoke(main, ["scan", "outlook:", "-q"])
    assert refused.exit_code == 2 and "readable by other users" in refused.output
    os.chmod(home / TOKEN_FILE, 0o600)
    out = runner.invoke(main, ["auth", "--logout", "microsoft"], catch_exceptions=False)
    assert "microsoft: signed out" in out.output and not (home / TOKEN_FILE).exists()
    wrong = runner.invoke(main, ["auth", "microsoft", "--client-id", "not-registered"])
    assert wrong.exit_code == 2 and "rejected the client id" in wrong.output


@pytest.mark.parametrize("error,description,expect,cls", [
    ("invalid_grant", "AADSTS65001: The user or administrator has not consented to use the application.",
     "accept every requested permission", AuthRequired),
    ("invalid_request", "AADSTS90094: The grant requires admin permission.", "ask your admin", AuthError),
    ("invalid_client", "AADSTS7000218: The request body must contain client_assertion or client_secret.",
     "Allow public client flows", AuthError),
    ("invalid_grant", "AADSTS700082: The refresh token has expired due to inactivity.",
     "expired or was revoked", AuthRequired),
])
def test_identity_platform_errors_name_their_fix(error: str, description: str, expect: str,
                                                 cls: type[Exception]) -> None:
    exc = auth._fail({"error": error, "error_description": description}, "token refresh")
    assert type(exc) is cls
    first = str(exc).splitlines()[0]
    assert expect in first and description.split(":")[0] in first
