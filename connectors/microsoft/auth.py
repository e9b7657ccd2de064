"""Microsoft sign-in: msal's device-code flow, with the token cache kept in the token store.

Why device code: it works the same in a terminal, over SSH and in the Streamlit wizard (the
person opens a short URL on any device and types a code); no local web server or redirect
URI is needed. The flow is split into :func:`start_login` / :meth:`DeviceLogin.poll` so the
app can poll once per rerun without blocking; :func:`login` is the blocking loop the CLI runs.

Why the cache goes through :mod:`connectors.tokenstore`: the msal cache holds a refresh token
(a long-lived key to the mailbox). The store puts it in the OS keyring, or a 0600 file that is
refused on load when others can read it. The client id and authority are stored with it, so
a later scan (cron ``reseed``) can refresh tokens without any setting.

msal does network I/O in its constructor (tenant discovery), so the application object is
built only when a token is actually needed; :func:`status` reads the cache offline.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bootstrap_app.config import load_settings
from bootstrap_app.errors import AuthError, AuthRequired, SourceOffline
from connectors.base import Availability
from connectors.tokenstore import delete_secret, load_secret, save_secret

if TYPE_CHECKING:  # msal and requests load on first use: every CLI command imports the registry
    import msal

__all__ = [
    "DEFAULT_AUTHORITY",
    "NAME",
    "SCOPES",
    "DeviceLogin",
    "MicrosoftCredentials",
    "credentials",
    "login",
    "logout",
    "start_login",
    "status",
]

NAME = "microsoft"
SCOPES: tuple[str, ...] = ("User.Read", "Mail.Read", "Calendars.Read", "Files.Read")
"""Delegated, read-only: who you are, your mail, your calendar, your own OneDrive files."""
name, scopes = NAME, SCOPES  # this module is the AuthProvider registered as "microsoft"
DEFAULT_AUTHORITY = "https://login.microsoftonline.com/common"
_SECRET = "microsoft"
_HTTP_CACHE: dict[Any, Any] = {}
"""msal's cache of discovery answers, shared by every application object of this process: the
three Microsoft sources of one scan each build one, and need the tenant discovery only once."""
_RELOGIN = "run `memseed auth microsoft` to sign in again"
_NO_CLIENT = ("register an app in Entra ID (Mobile and desktop, 'Allow public client flows' on) and pass "
              "`memseed auth microsoft --client-id ID`, or set MEMSEED_MS_CLIENT_ID")


def _authority(home: Path, explicit: str | None = None) -> str:
    """``--authority`` > ``$MEMSEED_MS_AUTHORITY`` > ``ms_authority`` in config.toml > ``/common``."""
    return (explicit or load_settings(home).ms_authority or DEFAULT_AUTHORITY).rstrip("/")


def _client_id(home: Path, explicit: str | None) -> str:
    """``--client-id`` > ``$MEMSEED_MS_CLIENT_ID`` > config.toml > the one of the last sign-in."""
    if explicit:
        return explicit
    configured = load_settings(home).ms_client_id
    if configured:
        return configured
    try:
        return str(_stored(home).get("client_id") or "")
    except AuthError:
        return ""  # an unreadable or over-exposed cache: the new sign-in replaces it


def _stored(home: Path) -> dict[str, Any]:
    raw = load_secret(home, _SECRET)
    if not raw:
        return {}
    try:
        data = json.loads(raw)
    except json.JSONDecodeError as exc:
        raise AuthRequired("Microsoft token cache is unreadable", hint=_RELOGIN) from exc
    return data if isinstance(data, dict) else {}


def _save(home: Path, client_id: str, authority: str, cache: msal.SerializableTokenCache) -> None:
    save_secret(home, _SECRET, json.dumps({"client_id": client_id, "authority": authority,
                                           "cache": cache.serialize()}))


def _app(client_id: str, authority: str, cache: msal.SerializableTokenCache) -> msal.PublicClientApplication:
    """The msal application (does tenant discovery: network). Instance discovery is off: the
    authority is the person's own choice (or a test stand-in), not something to look up."""
    import msal
    import requests

    try:
        return msal.PublicClientApplication(client_id, authority=authority, token_cache=cache,
                                            instance_discovery=False, http_cache=_HTTP_CACHE)
    except requests.ConnectionError as exc:
        raise SourceOffline(f"Microsoft sign-in service {authority} cannot be reached (offline?)",
                            hint="check the network connection and try again") from exc
    except ValueError as exc:
        raise AuthError(f"Microsoft authority {authority} is not usable: {str(exc).splitlines()[0][:200]}",
                        hint="set MEMSEED_MS_AUTHORITY to https://login.microsoftonline.com/"
                             "common, /consumers or /organizations") from exc


def _cache(home: Path) -> tuple[dict[str, Any], msal.SerializableTokenCache]:
    import msal

    stored = _stored(home)
    cache = msal.SerializableTokenCache()
    if stored.get("cache"):
        cache.deserialize(stored["cache"])
    return stored, cache


def _accounts(cache: msal.SerializableTokenCache) -> list[str]:
    import msal

    found = cache.search(msal.TokenCache.CredentialType.ACCOUNT)
    return sorted({str(a.get("username") or "") for a in found if a.get("username")})


_AADSTS: dict[str, tuple[str, str]] = {
    # the identity platform's own error numbers for the cases people hit with a self-registered app
    "AADSTS90094": ("an administrator of your organization must approve this app",
                    "ask your admin to grant consent, or sign in with a personal account (authority /consumers)"),
    "AADSTS65001": ("the app's permissions were not (or no longer) consented to",
                    "run `memseed auth microsoft` and accept every requested permission"),
    "AADSTS7000218": ("the app registration does not allow public client flows",
                      "in Entra ID > your app > Authentication, turn on 'Allow public client flows'"),
    "AADSTS50020": ("this account is not allowed by the app registration's audience",
                    "register the app for 'any organization and personal accounts', or set "
                    "MEMSEED_MS_AUTHORITY to match the account"),
}


def _fail(result: dict[str, Any], what: str) -> AuthError:
    code = str(result.get("error") or "unknown_error")
    detail = str(result.get("error_description") or "").splitlines()[0][:160]
    known = next((v for k, v in _AADSTS.items() if k in detail), None)
    if known is not None:
        cls = AuthRequired if code in ("invalid_grant", "interaction_required") else AuthError
        return cls(f"Microsoft {what} failed ({code}, {detail.split(':')[0]}): {known[0]}; {known[1]}",
                   hint="nothing was saved; `memseed auth --status` shows who is signed in")
    if code in ("invalid_grant", "interaction_required", "expired_token", "bad_token"):
        return AuthRequired(f"Microsoft sign-in expired or was revoked ({code}: {detail}): "
                            "run `memseed auth microsoft`", hint="nothing was saved from this read")
    if code == "authorization_declined":
        return AuthError("Microsoft sign-in was declined", hint="run `memseed auth microsoft` and approve")
    if code in ("unauthorized_client", "invalid_client"):
        return AuthError(f"Microsoft rejected the client id ({code}: {detail})", hint=_NO_CLIENT)
    return AuthError(f"Microsoft {what} failed ({code}: {detail})", hint=_RELOGIN)


@dataclass
class DeviceLogin:
    """One device-code sign-in in progress. ``message`` tells the person where to go."""

    home: Path
    client_id: str
    authority: str
    app: msal.PublicClientApplication
    cache: msal.SerializableTokenCache
    flow: dict[str, Any] = field(default_factory=dict)

    @property
    def message(self) -> str:
        return str(self.flow.get("message", ""))

    @property
    def interval(self) -> float:
        return float(self.flow.get("interval", 5) or 1)

    @property
    def expired(self) -> bool:
        return float(self.flow.get("expires_at", 0)) < time.time()

    def poll(self) -> str | None:
        """Ask once: the account when signed in (and saved), None while still pending."""
        import requests

        try:
            result = self.app.acquire_token_by_device_flow(self.flow, exit_condition=lambda flow: True)
        except requests.ConnectionError as exc:
            raise SourceOffline("Microsoft sign-in service cannot be reached (offline?)",
                                hint="check the network connection and run `memseed auth microsoft` again") from exc
        if result.get("error") in ("authorization_pending", "slow_down"):
            if self.expired:
                raise AuthError("Microsoft sign-in code expired before it was used",
                                hint="run `memseed auth microsoft` again and enter the code sooner")
            return None
        if "access_token" not in result:
            raise _fail(result, "sign-in")
        _save(self.home, self.client_id, self.authority, self.cache)
        claims = result.get("id_token_claims") or {}
        return str(claims.get("preferred_username") or claims.get("email") or claims.get("name") or "account")


def start_login(home: Path, *, client_id: str | None = None, authority: str | None = None) -> DeviceLogin:
    """Begin a device-code sign-in (non-blocking): show ``.message``, then call ``.poll()``."""
    import msal
    import requests

    cid = _client_id(home, client_id)
    if not cid:
        raise AuthError("no Microsoft client id", hint=_NO_CLIENT)
    auth = _authority(home, authority)
    _, cache = _cache(home) if _stored_ok(home) else ({}, msal.SerializableTokenCache())
    app = _app(cid, auth, cache)
    try:
        flow = app.initiate_device_flow(scopes=list(SCOPES))
    except requests.ConnectionError as exc:
        raise SourceOffline(f"Microsoft sign-in service {auth} cannot be reached (offline?)",
                            hint="check the network connection and try again") from exc
    if "user_code" not in flow:
        raise _fail(flow, "device sign-in")
    return DeviceLogin(home=home, client_id=cid, authority=auth, app=app, cache=cache, flow=flow)


def _stored_ok(home: Path) -> bool:
    try:
        return bool(_stored(home))
    except AuthError:
        return False  # a broken or over-exposed cache is replaced by the new sign-in


def login(home: Path, *, echo: Callable[[str], None], client_id: str | None = None,
          authority: str | None = None, sleep: Callable[[float], None] = time.sleep, **_: Any) -> str:
    """Blocking device-code sign-in for the CLI; returns the signed-in account."""
    pending = start_login(home, client_id=client_id, authority=authority)
    echo(pending.message)
    while True:
        account = pending.poll()
        if account is not None:
            return account
        sleep(pending.interval)


def status(home: Path) -> Availability:
    """Signed in or not, read from the stored cache without touching the network."""
    try:
        stored, cache = _cache(home)
    except AuthError as exc:
        return Availability(ok=False, detail=str(exc).replace("\n ", ""))
    accounts = _accounts(cache)
    if not accounts:
        return Availability(ok=False, detail="not signed in: run `memseed auth microsoft`")
    return Availability(ok=True, detail=f"signed in via {stored.get('authority', DEFAULT_AUTHORITY)}",
                        account=accounts[0], scopes=SCOPES)


def logout(home: Path) -> bool:
    """Forget the stored tokens (the app's consent stays listed at account.microsoft.com)."""
    return delete_secret(home, _SECRET)


class MicrosoftCredentials:
    """What a Microsoft source gets from ``ctx.credentials("microsoft")``: fresh access tokens.

    Tokens come from ``acquire_token_silent`` (cache, else refresh token); a changed cache is
    saved back. ``account`` picks one signed-in account when several are cached.
    """

    def __init__(self, home: Path, stored: dict[str, Any], cache: msal.SerializableTokenCache) -> None:
        self.home = home
        self.client_id = str(stored.get("client_id") or "")
        self.authority = str(stored.get("authority") or _authority(home))
        self.cache = cache
        self.accounts = _accounts(cache)
        self._app: msal.PublicClientApplication | None = None

    @property
    def account(self) -> str:
        return self.accounts[0] if self.accounts else ""

    def token(self, account: str = "") -> str:
        import requests

        if self._app is None:
            self._app = _app(self.client_id, self.authority, self.cache)
        found = self._app.get_accounts(username=account or None)
        if not found:
            raise AuthRequired(f"Microsoft account {account or '(any)'} is not signed in: run "
                               "`memseed auth microsoft`", hint=f"signed in: {', '.join(self.accounts) or 'nobody'}")
        try:
            result = self._app.acquire_token_silent_with_error(list(SCOPES), account=found[0])
        except requests.ConnectionError as exc:
            raise SourceOffline("Microsoft sign-in service cannot be reached (offline?)",
                                hint="check the network connection and scan again") from exc
        if not result or "access_token" not in result:
            raise _fail(result or {"error": "interaction_required",
                                   "error_description": "no usable token in the cache"}, "token refresh")
        if self.cache.has_state_changed:
            _save(self.home, self.client_id, self.authority, self.cache)
            self.cache.has_state_changed = False
        return str(result["access_token"])


def credentials(home: Path) -> MicrosoftCredentials:
    """Provider credentials for the sources; raises AuthRequired when nobody is signed in."""
    stored, cache = _cache(home)
    creds = MicrosoftCredentials(home, stored, cache)
    if not creds.accounts or not creds.client_id:
        raise AuthRequired("Microsoft account is not signed in: run `memseed auth microsoft`",
                           hint="`memseed auth --status` shows the accounts memseed can read")
    return creds
