"""A small Microsoft Graph client over plain ``requests``: paging, delta rounds, throttling.

Why not msgraph-sdk: it is async-only, ~130 MB installed, brings azure-identity instead of
our msal cache, and is hard to point at a test stand-in. The few things memseed needs from
Graph fit here:

* ``@odata.nextLink`` is followed verbatim (it is opaque: never edit ``$skip``);
* a delta round is followed until a page carries ``@odata.deltaLink``; the whole URL is the
  cursor, and the caller saves it only after the round completed (nothing half-written);
  HTTP 410 on a saved link means "sync state gone": the round restarts from scratch;
* 429/503/504 honour ``Retry-After`` (capped), otherwise exponential backoff with full
  jitter; the sleep is injected (``ctx.sleep``) so tests see every wait;
* failures become one-line errors that say what to do: expired or revoked consent, a
  missing permission, quota exhausted, offline.
"""

from __future__ import annotations

import math
import os
import random
import time
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from bootstrap_app.errors import AuthError, AuthRequired, QuotaExceeded, SourceError, SourceOffline

if TYPE_CHECKING:  # requests loads with the first client, not with the registry
    import requests

__all__ = ["DEFAULT_ROOT", "DeltaGone", "GraphClient", "graph_root"]

DEFAULT_ROOT = "https://graph.microsoft.com/v1.0/"
_RETRY_STATUS = frozenset({429, 500, 502, 503, 504})


def graph_root() -> str:
    """``MEMSEED_GRAPH_API_ROOT`` (a national cloud, or a test stand-in) or the public v1.0 root."""
    root = os.environ.get("MEMSEED_GRAPH_API_ROOT") or DEFAULT_ROOT
    return root if root.endswith("/") else root + "/"


class DeltaGone(SourceError):
    """HTTP 410 on a delta link: the server dropped the sync state; start a new round."""


def _origin(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}".lower()


def _error_code(resp: requests.Response) -> tuple[str, str]:
    try:
        err = resp.json().get("error") or {}
    except ValueError:
        return "", resp.text[:120]
    if isinstance(err, str):
        return err, ""
    return str(err.get("code") or ""), str(err.get("message") or "").splitlines()[0][:160] if err.get("message") else ""


class GraphClient:
    """GET-only Graph access for one source. ``token`` returns a fresh bearer token."""

    def __init__(self, token: Callable[[], str], *, root: str | None = None,
                 scope: str = "", sleep: Callable[[float], None] = time.sleep, max_attempts: int = 6,
                 max_wait: float = 120.0, base_delay: float = 1.0, timeout: float = 60.0,
                 rng: random.Random | None = None) -> None:
        self.token = token
        self.root = root or graph_root()
        self.scope = scope
        self.sleep = sleep
        self.max_attempts = max_attempts
        self.max_wait = max_wait
        self.base_delay = base_delay
        self.timeout = timeout
        self.rng = rng or random.Random()
        import requests

        self.session = requests.Session()
        self.requests = 0
        self.waits: list[float] = []

    def url(self, path: str) -> str:
        """The URL to request: a path under the Graph root, or a link Graph handed back
        (nextLink, deltaLink) — which must point at the same origin, since the request carries
        the account's token: a link elsewhere is refused, never followed."""
        if not path.startswith(("https://", "http://")):
            return self.root + path.lstrip("/")
        if _origin(path) != _origin(self.root):
            raise SourceError(f"Microsoft Graph handed back a link outside {_origin(self.root)}; "
                              "not following it (it would carry your token)",
                              hint="scan again; if it repeats, report it — nothing was sent there")
        return path

    def _delay(self, resp: requests.Response | None, attempt: int) -> float:
        if resp is not None:
            raw = resp.headers.get("Retry-After", "")
            try:
                seconds = float(raw)
            except ValueError:
                seconds = math.nan  # absent, or an HTTP date: fall back to backoff
            if math.isfinite(seconds):  # "nan" parses but would make the sleep raise
                return min(max(seconds, 0.0), self.max_wait)
        return self.rng.uniform(0, min(self.max_wait, self.base_delay * 2 ** attempt))

    def get(self, path: str, *, params: dict[str, Any] | None = None, headers: dict[str, str] | None = None,
            stream: bool = False) -> requests.Response:
        """One GET with retries; raises a one-line MemseedError for anything but success."""
        import requests

        url = self.url(path)
        resp: requests.Response | None = None
        for attempt in range(self.max_attempts):
            hdrs = {"Authorization": f"Bearer {self.token()}", "Accept": "application/json", **(headers or {})}
            try:
                self.requests += 1
                resp = self.session.get(url, params=params, headers=hdrs, timeout=self.timeout, stream=stream)
            except requests.ConnectionError as exc:
                raise SourceOffline("Microsoft Graph cannot be reached (offline?): check the network and scan again",
                                    hint="the next scan resumes where the last complete one stopped") from exc
            except requests.Timeout:
                resp = None
            else:
                if resp.status_code < 400:
                    return resp
                if resp.status_code not in _RETRY_STATUS:
                    raise self._error(resp)
            if attempt + 1 < self.max_attempts:
                wait = self._delay(resp, attempt)
                self.waits.append(wait)
                self.sleep(wait)
        if resp is None:  # every attempt timed out: the network, not Graph's quota
            raise SourceOffline(f"Microsoft Graph did not answer within {self.timeout:g} s, "
                                f"{self.max_attempts} times: check the network and scan again",
                                hint="nothing from this source was saved; the next scan starts from the last complete one")
        status = resp.status_code
        raise QuotaExceeded(f"Microsoft Graph quota exhausted: still throttling or failing after "
                            f"{self.max_attempts} attempts (HTTP {status}); wait a few minutes and scan again",
                            hint="nothing from this source was saved; the next scan starts from the last complete one")

    def _error(self, resp: requests.Response) -> Exception:
        code, message = _error_code(resp)
        detail = f"HTTP {resp.status_code} {code}".strip() + (f": {message}" if message else "")
        if resp.status_code == 401:
            return AuthRequired(f"Microsoft rejected the sign-in ({detail}): run `memseed auth microsoft`",
                                hint="the sign-in expired or was revoked; nothing from this source was saved")
        if resp.status_code == 403:
            need = f" the {self.scope} permission" if self.scope else " a permission"
            return AuthError(f"Microsoft Graph denied access: the sign-in lacks{need} ({detail}); run "
                             "`memseed auth microsoft` and accept every requested permission",
                             hint="a work or school account may need an admin to allow the app")
        if resp.status_code == 410:
            return DeltaGone(f"sync state expired ({detail})", hint="a full read follows")
        if resp.status_code == 404 and code == "MailboxNotEnabledForRESTAPI":
            return SourceError(f"this Microsoft account has no Exchange Online mailbox ({detail}); sign in with an "
                               "Outlook.com or Microsoft 365 account", hint="`memseed auth microsoft --logout`, then sign in")
        return SourceError(f"Microsoft Graph answered {detail}",
                           hint="scan again later; if it persists, run `memseed auth microsoft --status`")

    def json(self, path: str, **kw: Any) -> dict[str, Any]:
        resp = self.get(path, **kw)
        try:
            data = resp.json()
        except ValueError as exc:
            raise SourceError(f"Microsoft Graph answered with non-JSON ({resp.text[:80]!r})",
                              hint="check MEMSEED_GRAPH_API_ROOT") from exc
        if not isinstance(data, dict):
            raise SourceError("unexpected Microsoft Graph answer", hint="check MEMSEED_GRAPH_API_ROOT")
        return data

    def pages(self, path: str, *, params: dict[str, Any] | None = None,
              headers: dict[str, str] | None = None) -> Iterator[dict[str, Any]]:
        """Every page of a collection, ``@odata.nextLink`` followed verbatim (headers re-sent)."""
        url: str | None = path
        first = True
        while url:
            page = self.json(url, params=params if first else None, headers=headers)
            first = False
            yield page
            url = page.get("@odata.nextLink")

    def delta(self, initial: str, saved: str | None, *, params: dict[str, Any] | None = None,
              headers: dict[str, str] | None = None) -> Iterator[tuple[list[dict[str, Any]], str | None]]:
        """One delta round: ``(items, None)`` per page, then the last page with its deltaLink.

        ``saved`` is the delta link of the last complete round (None for a first read). A 410
        on it restarts from ``initial`` (the caller sees the restart as a full round).
        """
        try:
            yield from self._round(saved, None, headers) if saved else self._round(initial, params, headers)
        except DeltaGone:
            if not saved:
                raise
            yield from self._round(initial, params, headers)

    def _round(self, start: str, params: dict[str, Any] | None,
               headers: dict[str, str] | None) -> Iterator[tuple[list[dict[str, Any]], str | None]]:
        for page in self.pages(start, params=params, headers=headers):
            link = page.get("@odata.deltaLink")
            yield list(page.get("value") or []), str(link) if link else None
            if link:
                return
        raise SourceError("Microsoft Graph delta round ended without a deltaLink",
                          hint="scan again; the cursor was not advanced")
