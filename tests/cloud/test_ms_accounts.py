"""Which account a Microsoft Graph source reads as, and whose cursor it may follow."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from bootstrap_app.errors import AuthRequired
from connectors.microsoft import OneDriveSource, OutlookCalendarSource, OutlookMailSource

from .ms_fixtures import OWNER, PEERS, populate
from .ms_standin import MSStandIn
from .test_ms_sources import _ctx


def test_account_in_the_uri_must_be_signed_in(signed_in: Path, ms: MSStandIn) -> None:
    assert OutlookMailSource("outlook:Maya@Contoso.test").id == "outlook:maya@contoso.test"
    with pytest.raises(AuthRequired, match=r"other@contoso\.test is not signed in"):
        list(OutlookMailSource("outlook:other@contoso.test").read(_ctx(signed_in)))


def test_sources_name_the_signed_in_address_for_identity(signed_in: Path, ms: MSStandIn) -> None:
    source = OutlookMailSource("outlook:")
    assert source.owner_addresses == ()
    list(source.read(_ctx(signed_in)))
    assert source.owner_addresses == ("maya@contoso.test",)


@pytest.mark.parametrize("source_cls", [OutlookMailSource, OutlookCalendarSource, OneDriveSource])
def test_a_cursor_taken_for_another_account_is_no_cursor(signed_in: Path, ms: MSStandIn, source_cls: type) -> None:
    """``outlook:`` names no account: after signing in as someone else, the saved delta links and
    /me entry are the other mailbox's. The cursor's /me entry says whose it is; a stranger's is
    dropped and the source reads afresh (one /me again, no delta token followed)."""
    populate(ms.world, sent=2, inbox=2)
    ms.world.add_event(subject="Sync", start=dt.datetime.now(dt.UTC).replace(tzinfo=None, microsecond=0),
                       minutes=30, zone="Pacific Standard Time", attendees=PEERS[:1])
    ms.world.add_file("notes.md", b"# Notes\nship it\n")
    first = _ctx(signed_in)
    expected = len(list(source_cls(f"{source_cls.uri_schemes[0]}:").read(first)))
    assert expected and first.new_cursor["me"]["upn"] == OWNER[1]
    own = _ctx(signed_in, cursor=first.new_cursor)
    assert list(source_cls(f"{source_cls.uri_schemes[0]}:").read(own)) == []  # her own cursor: nothing new
    stranger = {**first.new_cursor, "me": {**first.new_cursor["me"], "mail": "sam@fabrikam.test",
                                           "upn": "sam@fabrikam.test", "directory": {"title": "CFO"}}}
    before_me, before_delta = ms.world.graph_requests("/v1.0/me?"), ms.world.graph_requests("$deltatoken")
    source = source_cls(f"{source_cls.uri_schemes[0]}:")
    again = list(source.read(_ctx(signed_in, cursor=stranger)))
    assert len(again) == expected and source.owner_directory.get("title") == "Principal Platform Engineer"
    assert ms.world.graph_requests("/v1.0/me?") == before_me + 1
    assert ms.world.graph_requests("$deltatoken") == before_delta
