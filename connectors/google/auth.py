"""Signing in to a Google account: the ``google`` auth provider.

Why installed-app OAuth on a loopback port: Google blocked the copy/paste (OOB) flow in 2023
and its device flow refuses Gmail, Calendar and Drive scopes, so the browser must come back
to a port on this machine. Over SSH that port is forwarded (we print the exact command).
Only read-only scopes are asked for; the authorized-user JSON (it holds the refresh token)
goes to the token store (keyring, else a 0600 file), never next to the project.

Several accounts may be signed in at once (each ``memseed auth google`` adds one; see
:mod:`.logins`): ``credentials(home, account)`` hands out the one a ``google:ACCOUNT`` URI
names, the default (the first signed in) otherwise; :func:`statuses` lists each.

``MEMSEED_GOOGLE_CREDENTIALS`` names an ``authorized_user`` JSON used as-is (its ``token_uri``
honoured, the access token refreshed in memory and never written back): no browser, no store.
``MEMSEED_GOOGLE_API_ROOT`` replaces both Google API hosts (a loopback stand-in in tests and
the demo); see :func:`connectors.google.client.api_root`.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import socket
import webbrowser
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bootstrap_app.errors import AuthError, AuthRequired

from ..base import Availability, short_scope
from ..tokenstore import delete_secret, load_secret, save_secret
from .client import GoogleSession
from .logins import Logins, parse_logins

__all__ = [
    "ENV_CREDENTIALS",
    "SCOPES",
    "credentials",
    "login",
    "logout",
    "name",
    "scopes",
    "status",
    "statuses",
]

name = "google"
SCOPES: tuple[str, ...] = (
    "https://www.googleapis.com/auth/gmail.readonly",
    "https://www.googleapis.com/auth/calendar.readonly",
    "https://www.googleapis.com/auth/drive.readonly",
)
scopes = SCOPES
ENV_CREDENTIALS = "MEMSEED_GOOGLE_CREDENTIALS"
ENV_CLIENT_SECRETS = "MEMSEED_GOOGLE_CLIENT_SECRETS"
_SECRET = "google"
_RELOGIN = "run `memseed auth google`"


def _libraries() -> str:
    """"" when the Google client libraries import, else the missing module's name."""
    try:
        import google.oauth2.credentials  # noqa: F401
        import google_auth_httplib2  # noqa: F401
        import googleapiclient  # noqa: F401
    except ImportError as exc:
        return exc.name or "google-api-python-client"
    return ""


def _stored(home: Path) -> dict[str, Any] | None:
    raw = load_secret(home, _SECRET)
    if not raw:
        return None
    try:
        data = json.loads(raw)
    except ValueError as exc:
        raise AuthRequired("Google: the stored sign-in is damaged", hint=_RELOGIN) from exc
    return data if isinstance(data, dict) else None


def _logins(home: Path) -> Logins:
    return parse_logins(_stored(home))


def credentials(home: Path | None, account: str = "") -> Any:
    """``google.oauth2.credentials.Credentials`` for ``account`` (the default account when "";
    never written back). ``MEMSEED_GOOGLE_CREDENTIALS`` wins over any stored account (the source
    then checks the address it answers for).

    Raises :class:`AuthRequired` when nobody, or not that account, is signed in."""
    missing = _libraries()
    if missing:
        raise AuthError(f"Google: client library {missing} is not installed", hint="pip install memseed")
    from google.oauth2.credentials import Credentials

    env = os.environ.get(ENV_CREDENTIALS, "").strip()
    if env:
        try:
            info = json.loads(Path(env).expanduser().read_text(encoding="utf-8"))
            return _from_info(Credentials, info)
        except (OSError, ValueError) as exc:
            raise AuthError(f"Google: {ENV_CREDENTIALS}={env} is not a readable authorized_user JSON ({exc})",
                            hint="point it at a file with client_id, client_secret, refresh_token") from exc
    logins = _logins(home) if home is not None else Logins()
    if not logins:
        raise AuthRequired("Google: not signed in", hint=_RELOGIN)
    data = logins.entry(account)
    if data is None or "credentials" not in data:
        raise AuthRequired(f"Google account {account} is not signed in: run `memseed auth google` and sign in "
                           f"as {account}", hint=f"signed in: {', '.join(logins.names())}")
    try:
        return _from_info(Credentials, data["credentials"])
    except ValueError as exc:
        raise AuthRequired("Google: the stored sign-in is incomplete", hint=_RELOGIN) from exc


def _from_info(cls: Any, info: Any) -> Any:
    """google-auth's loader always resets ``token_uri`` to Google's; the file's own is honoured.
    Anything but a JSON object is a ValueError (google-auth would fail with an AttributeError)."""
    if not isinstance(info, dict):
        raise ValueError(f"a JSON {type(info).__name__}, not an object")
    creds = cls.from_authorized_user_info(info)
    uri = str(info.get("token_uri") or "")
    return creds.with_token_uri(uri) if uri else creds


def status(home: Path) -> Availability:
    """Signed in? No network: a revoked consent shows up at the next read, not here."""
    missing = _libraries()
    if missing:
        return Availability(False, f"client library {missing} not installed: pip install memseed")
    env = os.environ.get(ENV_CREDENTIALS, "").strip()
    if env:
        if not Path(env).expanduser().is_file():
            return Availability(False, f"{ENV_CREDENTIALS}={env}: no such file")
        try:  # parsed, not refreshed: a file that cannot sign in is not listed as available
            creds = credentials(home)
        except AuthError as exc:
            return Availability(False, str(exc).splitlines()[0])
        return Availability(True, f"credentials from ${ENV_CREDENTIALS}", account=str(creds.account or ""),
                            scopes=SCOPES)
    try:
        logins = _logins(home)
    except AuthError as exc:
        return Availability(False, str(exc).splitlines()[0])
    if not logins:
        return Availability(False, f"not signed in: {_RELOGIN}")
    others = [a for a in logins.names() if a != logins.default]
    detail = "signed in" + (f"; also {', '.join(others)} (read one with google:ACCOUNT)" if others else "")
    return _account_state(logins, logins.default, detail)


def _account_state(logins: Logins, account: str, detail: str) -> Availability:
    granted = tuple((logins.entry(account) or {}).get("credentials", {}).get("scopes") or SCOPES)
    return Availability(True, detail, account=str((logins.entry(account) or {}).get("account") or account),
                        scopes=granted)


def statuses(home: Path) -> list[Availability]:
    """One state per signed-in account, the default first (what `memseed auth --status` lists)."""
    try:
        logins = _logins(home)
    except AuthError:
        logins = Logins()
    if os.environ.get(ENV_CREDENTIALS, "").strip() or len(logins.accounts) < 2:
        return [status(home)]
    return [_account_state(logins, a, "signed in (default)" if a == logins.default else "signed in")
            for a in logins.names()]


def logout(home: Path, account: str = "") -> bool:
    """Forget the stored sign-in of ``account``, or of every account when none is named (the
    grant itself stays until revoked in the Google account)."""
    if not account:
        return delete_secret(home, _SECRET)
    logins = _logins(home)
    if logins.entry(account) is None:
        return False
    rest = logins.without(account)
    if not rest:
        return delete_secret(home, _SECRET)
    save_secret(home, _SECRET, json.dumps(rest.to_record()))
    return True


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _can_open_browser() -> bool:
    if os.environ.get("SSH_CONNECTION") and not os.environ.get("DISPLAY"):
        return False
    try:
        webbrowser.get()
    except webbrowser.Error:
        return False
    return True


class _EchoLines(io.TextIOBase):
    """Routes what the OAuth flow prints (the sign-in URL) through ``echo``."""

    def __init__(self, echo: Callable[[str], None]) -> None:
        self.echo = echo

    def write(self, text: str) -> int:
        for line in text.splitlines():
            if line.strip():
                self.echo(line)
        return len(text)


def _client_secrets(home: Path, given: str | os.PathLike[str] | None) -> Path:
    candidates = [given, os.environ.get(ENV_CLIENT_SECRETS), home / "google-client-secret.json"]
    for c in candidates:
        if c and Path(c).expanduser().is_file():
            return Path(c).expanduser()
    raise AuthError("Google: no OAuth client file", hint=(
        "create a Desktop OAuth client in your Google Cloud project, download its JSON and run "
        "`memseed auth google --client-secrets FILE`"))


def login(home: Path, *, echo: Callable[[str], None] = print, client_secrets: str | None = None,
          no_browser: bool = False, timeout: float = 300.0, **_options: Any) -> str:
    """Run the consent flow and store the sign-in; returns the account's address."""
    missing = _libraries()
    if missing:
        raise AuthError(f"Google: client library {missing} is not installed", hint="pip install memseed")
    from google_auth_oauthlib.flow import InstalledAppFlow
    from oauthlib.oauth2.rfc6749.errors import OAuth2Error

    secrets = _client_secrets(home, client_secrets)
    try:
        flow = InstalledAppFlow.from_client_secrets_file(str(secrets), scopes=list(SCOPES))
    except (ValueError, KeyError, OSError) as exc:
        raise AuthError(f"Google: {secrets} is not an OAuth client file ({exc})",
                        hint="download the JSON of a *Desktop app* OAuth client") from exc
    port = _free_port()
    browser = not no_browser and _can_open_browser()
    if not browser:
        echo(f"No browser here: open the URL below on your own computer. Over SSH, first run "
             f"`ssh -L {port}:127.0.0.1:{port} <this host>` there so Google can come back to port {port}.")
    try:
        with contextlib.redirect_stdout(_EchoLines(echo)):
            creds = flow.run_local_server(host="localhost", bind_addr="127.0.0.1", port=port, open_browser=browser,
                                          authorization_prompt_message="Sign in to Google: {url}",
                                          timeout_seconds=int(timeout), prompt="consent", access_type="offline")
    except AttributeError as exc:  # the flow reads the redirect it never got
        raise AuthError(f"Google: no answer from the browser within {int(timeout)} s",
                        hint="run `memseed auth google` again and finish the sign-in") from exc
    except OAuth2Error as exc:
        raise AuthError(f"Google refused the sign-in ({exc.error}): {exc.description or ''}".strip(),
                        hint=_consent_hint(exc.error)) from exc
    except Warning as exc:  # oauthlib's "Scope has changed": boxes unticked, or more than read-only
        granted = set(getattr(exc, "new_scope", None) or ())
        _require_scopes(granted)
        extra = ", ".join(sorted(short_scope(s) for s in granted - set(SCOPES)))
        raise AuthError(f"Google: the sign-in also carries permissions memseed did not ask for ({extra})",
                        hint="remove this app's access at https://myaccount.google.com/permissions, "
                             "then run `memseed auth google` again (memseed keeps read-only access only)") from exc
    except Exception as exc:
        from google.auth.exceptions import GoogleAuthError

        if isinstance(exc, GoogleAuthError | OSError):
            raise AuthError(f"Google: sign-in failed ({exc})", hint="check the network and try again") from exc
        raise
    # granted_scopes is what the token endpoint answered; scopes is only what was asked for
    _require_scopes(creds.granted_scopes or creds.scopes or ())
    account = _account_of(creds)
    info = json.loads(creds.to_json())
    info["account"] = account
    try:
        logins = _logins(home)
    except AuthError:
        logins = Logins()  # a damaged or over-exposed record is replaced by this sign-in
    logins = logins.with_account(account, {"account": account, "credentials": info})
    where = save_secret(home, _SECRET, json.dumps(logins.to_record()))
    echo(f"Signed in to Google as {account or '(unknown address)'}; token stored in {where}.")
    if len(logins.accounts) > 1:
        echo(f"{len(logins.accounts)} Google accounts are signed in; `google:` reads {logins.default}, "
             f"`google:{account}` reads this one.")
    return account


def _require_scopes(granted: Any) -> None:
    """Refuse a sign-in missing a read scope (Google lets a person untick each box): better
    one clear error now than a 403 on every scan of that service."""
    have = set(granted.split() if isinstance(granted, str) else granted)
    lacking = [short_scope(s) for s in SCOPES if s not in have]
    if lacking:
        raise AuthError(f"Google: consent given without {', '.join(lacking)}",
                        hint="run `memseed auth google` again and tick every box on the consent screen")


def _consent_hint(error: str) -> str:
    if error == "access_denied":
        return ("an app in 'Testing' status admits only its test users: add your address under OAuth consent "
                "screen > Test users, or publish the app (unverified apps show a warning)")
    return "check the OAuth client (a Desktop app client) and run `memseed auth google` again"


def _account_of(creds: Any) -> str:
    """The address of the account just signed in (one Gmail profile call, 1 quota unit)."""
    try:
        return str(GoogleSession(creds).gmail().users().getProfile(userId="me").execute().get("emailAddress", ""))
    except Exception:  # the sign-in itself worked; the address is a nicety
        return ""
