"""The URL contract of issue 10: where requests go with and without ``MEMSEED_GOOGLE_API_ROOT``.

Built from the real client library's requests (no network for the default hosts); against the
stand-in, every path a full ``google:`` scan touched must sit under the documented prefixes.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request

import pytest

from bootstrap_app.config import load_settings
from bootstrap_app.pipeline import scan
from connectors.google import auth
from connectors.google.client import GoogleSession

from .google_standin import GoogleStandIn


def _uris(session: GoogleSession) -> list[str]:
    gmail, cal, drive = session.gmail().users(), session.calendar(), session.drive()
    return [gmail.messages().get(userId="me", id="abc").uri, cal.calendarList().list().uri,
            cal.events().list(calendarId="primary").uri, drive.files().list().uri,
            drive.files().export(fileId="f1", mimeType="text/plain").uri, session.batch_uri()]


def test_default_hosts_are_googles(google: GoogleStandIn, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("MEMSEED_GOOGLE_API_ROOT")
    uris = _uris(GoogleSession(auth.credentials(load_settings(None).home)))
    assert [u.split("?")[0] for u in uris] == [
        "https://gmail.googleapis.com/gmail/v1/users/me/messages/abc",
        "https://www.googleapis.com/calendar/v3/users/me/calendarList",
        "https://www.googleapis.com/calendar/v3/calendars/primary/events",
        "https://www.googleapis.com/drive/v3/files",
        "https://www.googleapis.com/drive/v3/files/f1/export",
        "https://gmail.googleapis.com/batch/gmail/v1"]


@pytest.mark.parametrize("slash", ["", "/"])
def test_the_root_replaces_both_hosts(google: GoogleStandIn, monkeypatch: pytest.MonkeyPatch, slash: str) -> None:
    root = "http://127.0.0.1:9/x/"
    monkeypatch.setenv("MEMSEED_GOOGLE_API_ROOT", root.rstrip("/") + slash)
    uris = _uris(GoogleSession(auth.credentials(load_settings(None).home)))
    assert [u.split("?")[0] for u in uris] == [
        root + "gmail/v1/users/me/messages/abc", root + "calendar/v3/users/me/calendarList",
        root + "calendar/v3/calendars/primary/events", root + "drive/v3/files", root + "drive/v3/files/f1/export",
        root + "batch/gmail/v1"]


def test_a_full_scan_stays_inside_the_documented_paths(google: GoogleStandIn) -> None:
    result = scan(["google:"], settings=load_settings(None))
    assert all(r.error is None for r in result.reports)
    prefixes = ("/token", "/gmail/v1/users/me/", "/calendar/v3/", "/drive/v3/", "/batch/gmail/v1")
    assert google.paths and [p for p in google.paths if not p.startswith(prefixes)] == []
    assert "/batch/gmail/v1" in google.paths and any(p.startswith("/gmail/v1/users/me/messages/")
                                                     for p in google.paths)  # the gets, inside batches


def test_the_standin_refuses_paths_the_real_services_do_not_serve(google: GoogleStandIn) -> None:
    """So a client that put the root in the wrong place could not pass the other tests."""
    token = _access_token(google)
    for path in ("calendars/primary/events", "gmail/v1/users/someone/profile", "files", "batch"):
        request = urllib.request.Request(google.root + path, headers={"Authorization": f"Bearer {token}"})
        with pytest.raises(urllib.error.HTTPError) as caught:
            urllib.request.urlopen(request, timeout=10)
        assert caught.value.code == 404, path
        assert json.loads(caught.value.read())["error"]["errors"][0]["reason"] == "notFound"
    ok = urllib.request.Request(google.root + "gmail/v1/users/me/profile", headers={"Authorization": f"Bearer {token}"})
    assert json.loads(urllib.request.urlopen(ok, timeout=10).read())["emailAddress"] == google.world.account


def _access_token(google: GoogleStandIn) -> str:
    import google_auth_httplib2
    import httplib2

    creds = auth.credentials(load_settings(None).home)
    creds.refresh(google_auth_httplib2.Request(httplib2.Http()))
    return str(creds.token)
