"""Calling Google politely: service objects, pacing, retries, batches and one-line errors.

Why our own retry loop: google-api-python-client retries only when asked, ignores
``Retry-After`` and never retries a batch or its inner calls (see the cloud reference §1.5).
Here every call goes through :meth:`GoogleSession.call`, which paces to the per-user quota
(a token bucket), honours ``Retry-After`` and otherwise backs off exponentially with full
jitter, and turns every failure into one :class:`~bootstrap_app.errors.MemseedError` with the
fix. ``sleep`` is injected (``ctx.sleep``) so tests see each wait without waiting.

Clients are built from the discovery documents shipped in the wheel (no network) and pointed
at ``MEMSEED_GOOGLE_API_ROOT`` when it is set; the batch URI is built by hand because the
library's ``new_batch_http_request`` ignores ``api_endpoint``.
"""

from __future__ import annotations

import json
import os
import random
import time
from collections.abc import Callable, Sequence
from email.utils import parsedate_to_datetime
from typing import Any

from bootstrap_app.errors import AuthRequired, MemseedError, QuotaExceeded, SourceError, SourceOffline

__all__ = ["ENV_API_ROOT", "Gone", "GoogleSession", "Throttle", "api_root", "http_reasons", "translate"]

ENV_API_ROOT = "MEMSEED_GOOGLE_API_ROOT"


def api_root() -> str:
    """The stand-in root that replaces ``https://gmail.googleapis.com/`` and
    ``https://www.googleapis.com/``, or "" for the real services."""
    root = os.environ.get(ENV_API_ROOT, "").strip()
    return root if not root or root.endswith("/") else root + "/"


_RATE_REASONS = frozenset({"rateLimitExceeded", "userRateLimitExceeded", "RATE_LIMIT_EXCEEDED"})
_QUOTA_REASONS = frozenset({"quotaExceeded", "dailyLimitExceeded", "RESOURCE_EXHAUSTED"})
_SCOPE_REASONS = frozenset({"insufficientPermissions", "ACCESS_TOKEN_SCOPE_INSUFFICIENT"})
_DISABLED_REASONS = frozenset({"accessNotConfigured", "SERVICE_DISABLED"})
_RELOGIN = "run `memseed auth google`"
_TESTING = ("if your OAuth app is in 'Testing' status its refresh tokens expire after 7 days; "
            "publish it 'In production' to stop the weekly sign-in")


class Gone(Exception):
    """A sync token or history id the server no longer knows (Gmail 404, Calendar 410)."""

    def __init__(self, status: int) -> None:
        super().__init__(status)
        self.status = status


class Throttle:
    """Token bucket for the per-user quota (Gmail: 250 units/s). Waits are made with the
    injected ``sleep`` and counted as if they happened, so a fake sleep still paces."""

    def __init__(self, rate: float = 250.0, burst: float = 250.0, *, sleep: Callable[[float], None] = time.sleep,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.rate, self.burst, self.sleep, self.clock = rate, burst, sleep, clock
        self.tokens = burst
        self.last = clock()
        self.waited = 0.0

    def take(self, units: float) -> None:
        now = max(self.clock(), self.last)
        self.tokens = min(self.burst, self.tokens + (now - self.last) * self.rate)
        self.last = now
        if self.tokens < units:
            wait = (units - self.tokens) / self.rate
            self.sleep(wait)
            self.waited += wait
            self.last += wait
            self.tokens = units
        self.tokens -= units


def http_reasons(exc: Any) -> set[str]:
    """Every ``reason``/``status`` an HttpError's JSON body names (both API error styles)."""
    found: set[str] = set()
    try:
        err = json.loads(exc.content.decode("utf-8", "replace")).get("error", {})
    except (ValueError, AttributeError):
        return found
    if isinstance(err, dict):
        found.add(str(err.get("status", "")))
        for e in err.get("errors", []) or []:
            found.add(str(e.get("reason", "")))
        for d in err.get("details", []) or []:
            if isinstance(d, dict):
                found.add(str(d.get("reason", "")))
    elif isinstance(err, str):
        found.add(err)
    found.discard("")
    return found


def _retry_after(exc: Any) -> float | None:
    resp = getattr(exc, "resp", None)
    value = resp.get("retry-after") if resp is not None else None
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        try:
            return max(0.0, parsedate_to_datetime(value).timestamp() - time.time())
        except (TypeError, ValueError):
            return None


def is_retryable(exc: Any) -> bool:
    status = int(getattr(getattr(exc, "resp", None), "status", 0) or 0)
    return status == 429 or status >= 500 or (status == 403 and bool(http_reasons(exc) & _RATE_REASONS))


def translate(exc: BaseException, label: str) -> MemseedError | None:
    """The one-line error (with the fix) for a failure talking to Google; None for a bug."""
    from google.auth.exceptions import RefreshError, TransportError
    from googleapiclient.errors import HttpError
    from httplib2 import HttpLib2Error

    if isinstance(exc, MemseedError):
        return exc
    if isinstance(exc, RefreshError):
        text = str(exc)
        if "invalid_grant" in text:
            return AuthRequired(f"{label}: Google refused the stored sign-in (invalid_grant: consent revoked or "
                                "expired)", hint=f"{_RELOGIN}; {_TESTING}")
        if "invalid_client" in text or "unauthorized_client" in text:
            return AuthRequired(f"{label}: Google no longer accepts this OAuth client",
                                hint=f"check the client in your Cloud project, then {_RELOGIN}")
        return AuthRequired(f"{label}: the Google sign-in could not be refreshed ({text[:120]})", hint=_RELOGIN)
    if isinstance(exc, TransportError | HttpLib2Error | OSError):
        return SourceOffline(f"{label}: cannot reach Google ({type(exc).__name__}: {str(exc)[:120]})",
                             hint="check the network; nothing was saved, the next scan starts where this one did")
    if isinstance(exc, HttpError):
        status = int(exc.resp.status)
        reasons = http_reasons(exc)
        if status == 401:
            return AuthRequired(f"{label}: Google rejected the access token", hint=_RELOGIN)
        if reasons & _SCOPE_REASONS:
            return AuthRequired(f"{label}: the sign-in lacks a read permission this source needs (missing scope)",
                                hint=f"{_RELOGIN} and tick every box on the consent screen")
        if reasons & _DISABLED_REASONS:
            return SourceError(f"{label}: this API is not enabled in your OAuth client's Cloud project",
                               hint="enable the Gmail, Calendar and Drive APIs for that project, then scan again")
        if reasons & _QUOTA_REASONS or (is_retryable(exc) and status != 500 and status < 502):
            return QuotaExceeded(f"{label}: Google's quota is used up for now (HTTP {status} "
                                 f"{', '.join(sorted(reasons)) or 'rate limited'})",
                                 hint="wait a while and run `memseed reseed`; nothing was saved half-way")
        if status >= 500:
            return SourceError(f"{label}: Google keeps failing (HTTP {status})",
                               hint="try again later; nothing was saved half-way")
        return SourceError(f"{label}: Google answered HTTP {status} ({', '.join(sorted(reasons)) or 'error'})",
                           hint="run `memseed doctor`, or report this with the source URI")
    return None


class GoogleSession:
    """One account's services, all sharing one authorized ``httplib2`` connection.

    ``call`` runs one request under the pacing and retry policy; ``batch`` runs many
    ``messages.get``-style requests as multipart batches, halving on errors and re-queuing
    inner calls that were rate limited."""

    def __init__(self, creds: Any, *, label: str = "google", sleep: Callable[[float], None] = time.sleep,
                 rate: float = 250.0, rng: random.Random | None = None, max_tries: int = 6,
                 backoff_cap: float = 60.0, max_retry_after: float = 600.0) -> None:
        import google_auth_httplib2
        import httplib2

        self.creds = creds
        self.label = label
        self.http = google_auth_httplib2.AuthorizedHttp(creds, http=httplib2.Http(timeout=60))
        self.sleep = sleep
        self.throttle = Throttle(rate, rate, sleep=sleep)
        self.rng = rng or random.Random()
        self.max_tries, self.backoff_cap, self.max_retry_after = max_tries, backoff_cap, max_retry_after
        self.waits: list[float] = []
        self.root = api_root()
        self._services: dict[str, Any] = {}

    def _service(self, api: str, version: str, endpoint: str) -> Any:
        if api not in self._services:
            from googleapiclient.discovery import build

            options = {"api_endpoint": endpoint} if endpoint else None
            self._services[api] = build(api, version, http=self.http, client_options=options,
                                        cache_discovery=False, static_discovery=True)
        return self._services[api]

    def gmail(self) -> Any:
        return self._service("gmail", "v1", self.root)

    def calendar(self) -> Any:
        return self._service("calendar", "v3", self.root and self.root + "calendar/v3/")

    def drive(self) -> Any:
        return self._service("drive", "v3", self.root and self.root + "drive/v3/")

    def batch_uri(self, api: str = "gmail/v1") -> str:
        return f"{self.root or 'https://gmail.googleapis.com/'}batch/{api}"

    def wait(self, seconds: float) -> None:
        self.waits.append(seconds)
        self.sleep(seconds)

    def _backoff(self, attempt: int, exc: Any) -> None:
        """Sleep before retry ``attempt`` (1-based): Retry-After when given, else full jitter."""
        after = _retry_after(exc)
        if after is not None and after > self.max_retry_after:
            raise QuotaExceeded(f"{self.label}: Google asks to wait {after / 60:.0f} minutes (quota used up)",
                                hint="run `memseed reseed` later; nothing was saved half-way")
        self.wait(after if after is not None else self.rng.uniform(0, min(self.backoff_cap, 2.0 ** attempt)))

    def call(self, request: Any, *, units: float = 5.0, gone: tuple[int, ...] = ()) -> Any:
        """``request.execute()`` paced and retried; raises the translated MemseedError, or
        :class:`Gone` for a status listed in ``gone``."""
        from googleapiclient.errors import HttpError

        for attempt in range(1, self.max_tries + 1):
            self.throttle.take(units)
            try:
                return request.execute()
            except HttpError as exc:
                if int(exc.resp.status) in gone:
                    raise Gone(int(exc.resp.status)) from exc
                if not is_retryable(exc) or attempt == self.max_tries:
                    raise translate(exc, self.label) or exc from exc
                self._backoff(attempt, exc)
            except Exception as exc:
                err = translate(exc, self.label)
                if err is None:
                    raise
                raise err from exc
        raise AssertionError("unreachable")  # pragma: no cover

    def batch(self, requests: Sequence[tuple[str, Any]], *, size: int = 50, units: float = 5.0,
              on_result: Callable[[str, Any], None], on_error: Callable[[str, str], None]) -> None:
        """Run (key, request) pairs in batches of at most ``size``; ``on_result(key, body)`` per
        success. Rate-limited and failing (5xx) inner calls are re-queued and the batch size
        halved; a whole-batch failure is retried with backoff, also halved.

        One part Google refuses for itself (404: deleted between listing and fetching; 400; a
        403 that is not about quota or scopes) is ``on_error(key, reason)`` and the batch goes
        on: one bad message never stops a mailbox. What concerns every call (the sign-in, a
        missing scope, the quota) still raises its one-line error."""
        from googleapiclient.errors import HttpError
        from googleapiclient.http import BatchHttpRequest

        queue = list(requests)
        size = limit = max(1, min(size, 100))
        strikes = 0
        while queue:
            chunk, queue = queue[:size], queue[size:]
            failed: list[tuple[str, Any]] = []
            last_error: list[Any] = []
            by_key = dict(chunk)

            def done(request_id: str, response: Any, exc: Any, failed: list[tuple[str, Any]] = failed,
                     by_key: dict[str, Any] = by_key, last_error: list[Any] = last_error) -> None:
                if exc is None:
                    on_result(request_id, response)
                elif is_retryable(exc):
                    failed.append((request_id, by_key[request_id]))
                    last_error.append(exc)
                elif int(exc.resp.status) == 404:
                    on_error(request_id, "Google no longer has it (deleted since it was listed)")
                else:
                    err = translate(exc, self.label) or exc
                    if type(err) is not SourceError:  # sign-in, scope, quota: every call would fail
                        raise err
                    on_error(request_id, str(err).splitlines()[0])

            batch = BatchHttpRequest(callback=done, batch_uri=self.batch_uri())
            for key, request in chunk:
                batch.add(request, request_id=key)
            self.throttle.take(units * len(chunk))
            try:
                batch.execute(http=self.http)
            except HttpError as exc:
                if not is_retryable(exc):
                    raise translate(exc, self.label) or exc from exc
                failed, last_error = list(chunk), [exc]
            except MemseedError:
                raise
            except Exception as exc:
                err = translate(exc, self.label)
                if err is None:
                    raise
                raise err from exc
            if not failed:
                strikes = 0
                size = min(limit, size * 2)  # back up towards the full batch once Google is happy again
                continue
            strikes += 1
            if strikes >= self.max_tries:
                raise translate(last_error[-1], self.label) or QuotaExceeded(f"{self.label}: rate limited")
            size = max(1, size // 2)
            queue = failed + queue
            self._backoff(strikes, last_error[-1])
