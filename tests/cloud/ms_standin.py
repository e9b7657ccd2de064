"""A loopback Microsoft identity platform + Microsoft Graph, speaking the real wire formats.

The real ``msal`` and ``requests`` run unchanged against it: msal insists on an ``https``
authority, so the server speaks TLS with a throw-away certificate for 127.0.0.1 (generated
with ``cryptography``, which msal already depends on); tests point ``REQUESTS_CA_BUNDLE`` at it.

Identity: ``/{tenant}/v2.0/.well-known/openid-configuration``, ``/{tenant}/oauth2/v2.0/devicecode``
and ``/token`` (device-code grant: ``authorization_pending`` first, then tokens with an unsigned
id_token and client_info; refresh-token grant; ``invalid_grant`` once revoked).

Graph: ``/me``, ``/me/mailFolders/{folder}/messages/delta``, ``/me/calendarView/delta``,
``/me/drive/root/delta`` (pages by an opaque ``$skiptoken`` nextLink, rounds end in a
``$deltatoken`` deltaLink that returns only later changes), ``/me/drive/items/{id}/content``
(302 to a download URL), ``/me/messages/{id}`` (404 once deleted), ``$select`` (and
``internetMessageHeaders`` only when selected, as Graph documents), ``$filter=receivedDateTime ge``, the ``Prefer`` headers
for text bodies, UTC times and page size. Fault knobs: the next N Graph requests fail with
429 (+ ``Retry-After``) or 503, a collection's delta link answers 410, tokens can be revoked.
"""

from __future__ import annotations

import base64
import datetime as dt
import html
import json
import re
import ssl
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit
from zoneinfo import ZoneInfo

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID
from icalendar.timezone.windows_to_olson import WINDOWS_TO_OLSON

from .ms_world import TENANT_ID, World, b64

__all__ = ["MSStandIn", "World", "make_cert"]


def make_cert(folder: Path) -> tuple[Path, Path]:
    """A self-signed certificate for IP 127.0.0.1 (cert.pem doubles as the CA bundle)."""
    import ipaddress

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "memseed test stand-in")])
    now = dt.datetime.now(dt.UTC)
    cert = (x509.CertificateBuilder().subject_name(name).issuer_name(name).public_key(key.public_key())
            .serial_number(x509.random_serial_number()).not_valid_before(now - dt.timedelta(days=1))
            .not_valid_after(now + dt.timedelta(days=7))
            .add_extension(x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]),
                           critical=False)
            .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
            .sign(key, hashes.SHA256()))
    folder.mkdir(parents=True, exist_ok=True)
    cert_path, key_path = folder / "cert.pem", folder / "key.pem"
    cert_path.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_path.write_bytes(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                           serialization.NoEncryption()))
    return cert_path, key_path


def _select(obj: dict[str, Any], select: str) -> dict[str, Any]:
    if not select:
        return {k: v for k, v in obj.items() if not k.startswith("_")}
    keep = {s.strip() for s in select.split(",")} | {"id"}
    return {k: v for k, v in obj.items() if k in keep}


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True  # headers and body go out in two writes: no 40 ms delayed-ACK stall
    server: _Server

    def log_message(self, format: str, *args: Any) -> None:
        pass

    # -- plumbing ------------------------------------------------------------------------
    def _send(self, status: int, body: Any = None, headers: dict[str, str] | None = None,
              raw: bytes | None = None) -> None:
        data = raw if raw is not None else json.dumps(body if body is not None else {}).encode()
        with self.server.world.lock:
            self.server.world.bytes_out += len(data)
        self.send_response(status)
        self.send_header("Content-Type", "application/octet-stream" if raw is not None else "application/json")
        self.send_header("Content-Length", str(len(data)))
        for k, v in (headers or {}).items():
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(data)

    def _form(self) -> dict[str, str]:
        length = int(self.headers.get("Content-Length") or 0)
        return {k: v[0] for k, v in parse_qs(self.rfile.read(length).decode()).items()}

    @property
    def base(self) -> str:
        return f"https://127.0.0.1:{self.server.server_port}"

    # -- identity platform ---------------------------------------------------------------
    def do_POST(self) -> None:
        world = self.server.world
        parts = urlsplit(self.path).path.strip("/").split("/")
        with world.lock:
            world.log.append(("authority", self.path))
        form = self._form()
        if parts[-1] == "devicecode":
            code = f"dc-{len(world._polls) + 1}"
            world._polls[code] = 0
            self._send(200, {"device_code": code, "user_code": "MEMS-EED1", "verification_uri":
                             f"{self.base}/devicelogin", "expires_in": 900, "interval": 1,
                             "message": f"To sign in, use a web browser to open the page {self.base}/devicelogin "
                                        "and enter the code MEMS-EED1 to authenticate."})
        elif parts[-1] == "token":
            self._token(form, parts[0])
        else:
            self._send(404, {"error": "not_found"})

    def _token(self, form: dict[str, str], tenant: str) -> None:
        world = self.server.world
        grant = form.get("grant_type", "")
        if form.get("client_id") != world.client_id:
            self._send(400, {"error": "unauthorized_client", "error_description": "AADSTS700016: app not found"})
            return
        if grant == "urn:ietf:params:oauth:grant-type:device_code":
            code = form.get("device_code", "")
            with world.lock:
                polls = world._polls.get(code)
                if polls is not None:
                    world._polls[code] = polls + 1
            if polls is None:
                self._send(400, {"error": "expired_token", "error_description": "AADSTS70020: expired"})
            elif polls < world.pending_polls:
                self._send(400, {"error": "authorization_pending",
                                 "error_description": "AADSTS70016: OAuth 2.0 device flow error"})
            else:
                self._send(200, self._tokens(tenant))
        elif grant == "refresh_token":
            if world.revoked or form.get("refresh_token") not in world.refresh_tokens:
                self._send(400, {"error": "invalid_grant", "suberror": "consent_required",
                                 "error_description": "AADSTS65001: The user or administrator has not "
                                                      "consented to use the application.\r\nTrace ID: x"})
            else:
                self._send(200, self._tokens(tenant))
        else:
            self._send(400, {"error": "unsupported_grant_type"})

    def _tokens(self, tenant: str) -> dict[str, Any]:
        world = self.server.world
        now = int(time.time())
        with world.lock:
            n = len(world.tokens) + 1
            access, refresh = f"at-{n}-{now}", f"rt-{n}-{now}"
            world.tokens.add(access)
            world.refresh_tokens.add(refresh)
        claims = {"iss": f"{self.base}/{TENANT_ID}/v2.0", "aud": world.client_id, "iat": now, "nbf": now,
                  "exp": now + 3600, "oid": world.user["id"], "tid": TENANT_ID, "sub": "subject-1",
                  "name": world.user["displayName"], "preferred_username": world.user["userPrincipalName"]}
        return {"token_type": "Bearer", "scope": "User.Read Mail.Read Calendars.Read Files.Read openid profile",
                "expires_in": world.access_ttl, "ext_expires_in": world.access_ttl,
                "access_token": access, "refresh_token": refresh,
                "id_token": f"{b64({'alg': 'none', 'typ': 'JWT'})}.{b64(claims)}.",
                "client_info": b64({"uid": world.user["id"], "utid": TENANT_ID})}

    # -- Graph ---------------------------------------------------------------------------
    def do_GET(self) -> None:
        world = self.server.world
        url = urlsplit(self.path)
        path = url.path
        query = {k: v[0] for k, v in parse_qs(url.query).items()}
        if path.endswith("/.well-known/openid-configuration"):
            with world.lock:
                world.log.append(("authority", self.path))
            tenant = path.strip("/").split("/")[0]
            root = f"{self.base}/{tenant}/oauth2/v2.0"
            self._send(200, {"issuer": f"{self.base}/{TENANT_ID}/v2.0", "authorization_endpoint": f"{root}/authorize",
                             "token_endpoint": f"{root}/token", "device_authorization_endpoint": f"{root}/devicecode",
                             "tenant_region_scope": "EU"})
            return
        if path.startswith("/download/"):
            with world.lock:
                world.log.append(("download", self.path))
            self._send(200, raw=world.contents.get(path.rsplit("/", 1)[1], b""))
            return
        with world.lock:
            world.log.append(("graph", self.path))
            fault = next((f for f in world.faults if f[0] in self.path), None)
            if fault is not None:
                world.faults.remove(fault)
        if fault is not None:
            self._send(fault[1], {"error": {"code": "TooManyRequests" if fault[1] == 429 else "ServiceUnavailable",
                                            "message": "Please retry later."}}, fault[2])
            return
        token = self.headers.get("Authorization", "").removeprefix("Bearer ")
        if token not in world.tokens or world.revoked:
            self._send(401, {"error": {"code": "InvalidAuthenticationToken", "message": "Access token has expired."}})
            return
        route = path.removeprefix("/v1.0/")
        if route == "me":
            self._send(200, _select(world.user, query.get("$select", "")))
        elif m := re.fullmatch(r"me/messages/([^/]+)", route):
            self._message(unquote(m.group(1)), query)
        elif m := re.fullmatch(r"me/mailFolders/(\w+)/messages/delta", route):
            self._delta(f"mail/{m.group(1)}", route, query)
        elif route == "me/calendarView/delta":
            self._delta("events", route, query)
        elif route == "me/drive/root/delta":
            self._delta("drive", route, query)
        elif m := re.fullmatch(r"me/drive/items/([^/]+)/content", route):
            if m.group(1) not in world.contents:
                self._send(404, {"error": {"code": "itemNotFound", "message": "The resource could not be found."}})
            else:
                self._send(302, raw=b"", headers={"Location": f"{self.base}/download/{m.group(1)}"})
        else:
            self._send(404, {"error": {"code": "ResourceNotFound", "message": f"no route {route}"}})

    def _delta(self, key: str, route: str, query: dict[str, str]) -> None:
        world = self.server.world
        state: dict[str, Any]
        if "$skiptoken" in query:
            state = json.loads(base64.urlsafe_b64decode(query["$skiptoken"] + "=="))
        elif "$deltatoken" in query:
            state = json.loads(base64.urlsafe_b64decode(query["$deltatoken"] + "=="))
            if key in world.gone:
                world.gone.discard(key)
                self._send(410, {"error": {"code": "SyncStateNotFound", "message": "The sync state is gone."}})
                return
            state["offset"] = 0
        else:
            if key == "events" and not ("startDateTime" in query and "endDateTime" in query):
                self._send(400, {"error": {"code": "ErrorInvalidParameter", "message": "window required"}})
                return
            state = {"since": 0, "offset": 0, "select": query.get("$select", ""), "filter": query.get("$filter", ""),
                     "window": [query.get("startDateTime", ""), query.get("endDateTime", "")]}
        prefer = self.headers.get("Prefer", "")
        size = int(m.group(1)) if (m := re.search(r"odata\.maxpagesize=(\d+)", prefer)) else 10
        with world.lock:
            upto = state.get("upto") or world.seq
            changed = [(i, o) for i, o in world.coll(key).changed_since(state["since"])
                       if world.coll(key).items[i][0] <= upto]
        changed = [(i, o) for i, o in changed if o is None or self._keep(key, o, state)]
        page = changed[state["offset"]: state["offset"] + size]
        values = [self._present(key, o, state, prefer) if o is not None else {"id": i, "@removed": {"reason": "deleted"}}
                  for i, o in page]
        with world.lock:
            world.served[key] += sum(1 for v in values if "@removed" not in v)
        body: dict[str, Any] = {"@odata.context": f"{self.base}/v1.0/$metadata#Collection", "value": values}
        link = f"{self.base}/v1.0/{route}"
        if state["offset"] + size < len(changed):
            nxt = {**state, "offset": state["offset"] + size, "upto": upto}
            body["@odata.nextLink"] = f"{link}?$skiptoken={b64(nxt)}"
        else:
            done = {**state, "since": upto, "offset": 0, "upto": 0}
            body["@odata.deltaLink"] = f"{link}?$deltatoken={b64(done)}"
        self._send(200, body)

    def _message(self, msg_id: str, query: dict[str, str]) -> None:
        """``GET /me/messages/{id}``: the message in whichever folder holds it (404 once deleted);
        ``internetMessageHeaders`` only when ``$select`` names it, as Graph documents."""
        world = self.server.world
        with world.lock:
            found = next((o for key, c in world.collections.items() if key.startswith("mail/")
                          for i, (_s, o) in c.items.items() if i == msg_id and o is not None), None)
        if found is None:
            self._send(404, {"error": {"code": "ErrorItemNotFound",
                                       "message": "The specified object was not found in the store."}})
            return
        select = query.get("$select", "")
        out = _select(found, select)
        if "internetMessageHeaders" in select.split(","):
            out["internetMessageHeaders"] = found["_headers"]
        self._send(200, {"@odata.context": f"{self.base}/v1.0/$metadata#users('me')/messages/$entity", **out})

    def _keep(self, key: str, obj: dict[str, Any], state: dict[str, Any]) -> bool:
        if key.startswith("mail/") and (m := re.fullmatch(r"receivedDateTime ge (\S+)", state.get("filter") or "")):
            return str(obj["receivedDateTime"]) >= m.group(1)
        if key == "events":
            lo, hi = state["window"]
            start = obj["_start"].replace(tzinfo=ZoneInfo(WINDOWS_TO_OLSON[obj["_zone"]])).astimezone(dt.UTC)
            return lo <= start.strftime("%Y-%m-%dT%H:%M:%SZ") < hi
        return True

    def _present(self, key: str, obj: dict[str, Any], state: dict[str, Any], prefer: str) -> dict[str, Any]:
        if state.get("since") and obj.get("_changed"):  # a later round: only what changed (Graph's way)
            return {"id": obj["id"], **{k: obj[k] for k in obj["_changed"]}}
        out = dict(obj)
        if key.startswith("mail/") and 'outlook.body-content-type="text"' in prefer:
            text = html.unescape(re.sub(r"<[^>]+>", "", out["body"]["content"])).strip()
            out["body"] = {"contentType": "text", "content": text}
        if key == "events":
            zone = ZoneInfo(WINDOWS_TO_OLSON[obj["_zone"]])
            in_utc = 'outlook.timezone="UTC"' in prefer
            for name, value in (("start", obj["_start"]), ("end", obj["_end"])):
                if in_utc and not obj["isAllDay"]:
                    value = value.replace(tzinfo=zone).astimezone(dt.UTC).replace(tzinfo=None)
                out[name] = {"dateTime": value.strftime("%Y-%m-%dT%H:%M:%S.0000000"),
                             "timeZone": "UTC" if in_utc else obj["_zone"]}
        picked = _select(out, state.get("select", ""))
        if key.startswith("mail/") and "internetMessageHeaders" in state.get("select", "").split(",") \
                and self.server.world.headers_on_delta:  # returned only when $select names it
            picked["internetMessageHeaders"] = obj["_headers"]
        return picked


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    world: World


class MSStandIn:
    """Start with ``with MSStandIn(tmp) as ms:``; ``ms.authority`` and ``ms.graph_root`` are the URLs."""

    def __init__(self, folder: Path, world: World | None = None) -> None:
        self.world = world or World()
        self.cert, self.key = make_cert(folder)
        self.server = _Server(("127.0.0.1", 0), _Handler)
        self.server.world = self.world
        tls = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        tls.load_cert_chain(self.cert, self.key)
        self.server.socket = tls.wrap_socket(self.server.socket, server_side=True)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def base(self) -> str:
        return f"https://127.0.0.1:{self.server.server_port}"

    @property
    def authority(self) -> str:
        return f"{self.base}/common"

    @property
    def graph_root(self) -> str:
        return f"{self.base}/v1.0/"

    def __enter__(self) -> MSStandIn:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()
