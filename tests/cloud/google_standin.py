"""A loopback stand-in for Google's token endpoint, Gmail, Calendar and Drive APIs.

It speaks the real wire formats (JSON error bodies with ``reason``s, Gmail's multipart/mixed
batch at ``/batch/gmail/v1`` parsed and answered part by part, ``Retry-After``), so the real
google-auth and google-api-python-client run unchanged; only ``MEMSEED_GOOGLE_API_ROOT`` and
the credentials' ``token_uri`` point here. ``stats`` counts HTTP requests, inner batch calls,
bytes sent and calls per method, which the tests and the benchmark assert on; ``paths`` and
``batch_sizes`` record what was asked where. Paths outside the documented prefixes are 404s,
so a client that applies the API root wrongly fails every test. ``fault()``
makes the next N matching calls fail (429 + Retry-After, 500, 403 userRateLimitExceeded).
"""

from __future__ import annotations

import base64
import secrets
import threading
import urllib.parse
from collections import Counter
from dataclasses import dataclass
from email import message_from_bytes, policy
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from .google_routes import BATCH_PATH, error, route
from .google_routes import as_json as _json
from .google_world import World

__all__ = ["Fault", "GoogleStandIn"]

_REASONS = {400: "Bad Request", 401: "Unauthorized", 403: "Forbidden", 404: "Not Found", 410: "Gone",
            429: "Too Many Requests", 500: "Internal Server Error", 200: "OK"}


@dataclass
class Fault:
    status: int
    count: int
    match: str
    retry_after: str | None = None
    reason: str = ""


class GoogleStandIn:
    """``with GoogleStandIn(world) as g:`` serves ``world`` on ``g.root`` (127.0.0.1, free port)."""

    def __init__(self, world: World | None = None) -> None:
        self.world = world or World()
        self.stats: Counter[str] = Counter()
        self.faults: list[Fault] = []
        self.batch_sizes: list[int] = []
        self.paths: list[str] = []
        self.lock = threading.Lock()
        self.server: ThreadingHTTPServer | None = None

    # -- lifecycle ------------------------------------------------------------------------
    def __enter__(self) -> GoogleStandIn:
        standin = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            disable_nagle_algorithm = True  # one small answer per request: no 40 ms delayed-ACK stalls

            def log_message(self, *args: Any) -> None:
                pass

            def _serve(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else b""
                status, headers, payload = standin.handle(self.command, self.path, dict(self.headers.items()), body)
                self.send_response(status)
                for k, v in headers.items():
                    self.send_header(k, v)
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)
                with standin.lock:
                    standin.stats["bytes"] += len(payload)

            do_GET = do_POST = _serve

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        return self

    def __exit__(self, *exc: object) -> None:
        if self.server is not None:
            self.server.shutdown()
            self.server.server_close()

    @property
    def root(self) -> str:
        assert self.server is not None
        return f"http://127.0.0.1:{self.server.server_address[1]}/"

    def authorized_user(self, refresh_token: str = "refresh-1") -> dict[str, str]:
        """The ``authorized_user`` JSON a user would export, with ``token_uri`` pointing here."""
        return {"type": "authorized_user", "client_id": self.world.client_id,
                "client_secret": self.world.client_secret, "refresh_token": refresh_token,
                "token_uri": self.root + "token"}

    def fault(self, status: int, count: int = 1, *, match: str = "/", retry_after: str | None = None,
              reason: str = "") -> None:
        self.faults.append(Fault(status, count, match, retry_after, reason))

    def reset_stats(self) -> None:
        with self.lock:
            self.stats.clear()
            self.batch_sizes.clear()
            self.paths.clear()

    # -- dispatch -------------------------------------------------------------------------
    def handle(self, method: str, path: str, headers: dict[str, str], body: bytes,
               inner: bool = False) -> tuple[int, dict[str, str], bytes]:
        with self.lock:
            self.stats["inner" if inner else "requests"] += 1
            self.paths.append(path.split("?", 1)[0])
            fault = next((f for f in self.faults if f.count > 0 and f.match in path), None)
            if fault is not None:
                fault.count -= 1
        if fault is not None:
            return self._fault(fault)
        parsed = urllib.parse.urlsplit(path)
        query = urllib.parse.parse_qs(parsed.query)
        if parsed.path == "/token" and method == "POST":
            return self._token(urllib.parse.parse_qs(body.decode()), headers)
        if parsed.path == BATCH_PATH and method == "POST":
            return self._batch(headers, body)
        auth = {k.lower(): v for k, v in headers.items()}.get("authorization", "")
        scopes = self.world.access.get(auth.removeprefix("Bearer ").strip())
        if scopes is None:
            return error(401, "Request had invalid authentication credentials.", "authError", "UNAUTHENTICATED")
        with self.lock:
            status, out_headers, payload, name = route(self.world, method, parsed.path, query, scopes)
            self.stats[name] += 1
        return status, out_headers, payload

    def _fault(self, fault: Fault) -> tuple[int, dict[str, str], bytes]:
        reason = fault.reason or {404: "notFound", 429: "rateLimitExceeded",
                                   500: "backendError"}.get(fault.status, "error")
        state = {400: "INVALID_ARGUMENT", 401: "UNAUTHENTICATED", 403: "PERMISSION_DENIED", 404: "NOT_FOUND",
                 429: "RESOURCE_EXHAUSTED", 500: "INTERNAL"}.get(fault.status, "UNAVAILABLE")
        status, headers, payload = error(fault.status, "fault injected by the stand-in", reason, state)
        if fault.retry_after is not None:
            headers["Retry-After"] = fault.retry_after
        return status, headers, payload

    def _token(self, form: dict[str, list[str]], headers: dict[str, str]) -> tuple[int, dict[str, str], bytes]:
        get = {k: v[0] for k, v in form.items()}
        basic = {k.lower(): v for k, v in headers.items()}.get("authorization", "")
        if basic.startswith("Basic "):  # client credentials may come as HTTP Basic auth
            user, _, password = base64.b64decode(basic[6:]).decode().partition(":")
            get.setdefault("client_id", urllib.parse.unquote(user))
            get.setdefault("client_secret", urllib.parse.unquote(password))
        with self.lock:
            self.stats["token"] += 1
        if get.get("client_id") != self.world.client_id or get.get("client_secret") != self.world.client_secret:
            return _json(401, {"error": "invalid_client", "error_description": "The OAuth client was not found."})
        grant = get.get("grant_type")
        if grant == "refresh_token":
            rt = get.get("refresh_token", "")
            if rt in self.world.revoked or rt not in self.world.refresh_tokens:
                return _json(400, {"error": "invalid_grant", "error_description": "Token has been expired or revoked."})
        elif grant == "authorization_code":
            if get.get("code") not in self.world.codes:
                return _json(400, {"error": "invalid_grant", "error_description": "Malformed auth code."})
            rt = self.world.codes.pop(get["code"])
            self.world.refresh_tokens.add(rt)
        else:
            return _json(400, {"error": "unsupported_grant_type"})
        token = "ya29." + secrets.token_hex(8)
        self.world.access[token] = self.world.granted
        answer = {"access_token": token, "expires_in": 3599, "token_type": "Bearer",
                  "scope": " ".join(self.world.granted)}
        if grant == "authorization_code":
            answer["refresh_token"] = rt
        return _json(200, answer)

    def _batch(self, headers: dict[str, str], body: bytes) -> tuple[int, dict[str, str], bytes]:
        """Gmail's batch: a multipart/mixed of ``application/http`` requests, answered in kind."""
        ctype = {k.lower(): v for k, v in headers.items()}.get("content-type", "")
        if not ctype.startswith("multipart/mixed"):
            return error(400, "batch needs multipart/mixed", "badRequest", "INVALID_ARGUMENT")
        outer_auth = {k.lower(): v for k, v in headers.items()}.get("authorization", "")
        envelope = message_from_bytes(f"Content-Type: {ctype}\r\n\r\n".encode() + body, policy=policy.compat32)
        parts = envelope.get_payload()
        if not isinstance(parts, list) or len(parts) > 100:
            return error(400, "a batch holds 1 to 100 requests", "badRequest", "INVALID_ARGUMENT")
        with self.lock:
            self.batch_sizes.append(len(parts))
        boundary = "batch_" + secrets.token_hex(12)
        out = []
        for part in parts:
            raw = part.get_payload(decode=False)
            raw = raw.encode() if isinstance(raw, str) else raw
            head, _, inner_body = raw.replace(b"\r\n", b"\n").partition(b"\n\n")
            lines = head.decode().split("\n")
            method, target, _version = lines[0].split(" ", 2)
            inner_headers = dict(line.split(": ", 1) for line in lines[1:] if ": " in line)
            if not any(k.lower() == "authorization" for k in inner_headers):
                inner_headers["Authorization"] = outer_auth
            if target.startswith("/gmail/v1/"):
                status, h, payload = self.handle(method, target, inner_headers, inner_body, inner=True)
            else:  # Gmail's batch endpoint serves Gmail calls only
                status, h, payload = error(400, f"not a Gmail call: {target}", "badRequest", "INVALID_ARGUMENT")
            extra = "".join(f"{k}: {v}\r\n" for k, v in h.items() if k.lower() != "content-type")
            out.append(f"--{boundary}\r\nContent-Type: application/http\r\n"
                       f"Content-ID: <response-{part['Content-ID'][1:]}\r\n\r\n"
                       f"HTTP/1.1 {status} {_REASONS.get(status, 'Error')}\r\n"
                       f"Content-Type: application/json; charset=UTF-8\r\n{extra}\r\n".encode() + payload + b"\r\n")
        data = b"".join(out) + f"--{boundary}--\r\n".encode()
        return 200, {"Content-Type": f"multipart/mixed; boundary={boundary}"}, data

