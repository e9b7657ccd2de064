"""Fixtures for the Microsoft tests: a running stand-in, the env pointing at it, a signed-in home."""

from __future__ import annotations

import datetime as dt
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from .ms_standin import MSStandIn, World

__all__ = ["OWNER", "PEERS", "account", "ms", "populate", "signed_in"]

OWNER = ("Maya Okafor", "maya@contoso.test")
PEERS = [("Ravi Shah", "ravi@fabrikam.test"), ("Lena Vogel", "lena@contoso.test"), ("Tom Berg", "tom@tailspin.test")]


def populate(world: World, *, sent: int = 12, inbox: int = 14) -> None:
    """A small mailbox, a calendar with a weekly series in a Windows zone, and a drive."""
    base = dt.datetime(2026, 9, 1, 8, 30, tzinfo=dt.UTC)
    for i in range(sent):
        peer = PEERS[i % len(PEERS)]
        world.add_message("sentitems", subject=f"Re: rollout plan {i}", sender=OWNER, to=[peer],
                          body=f"Let's ship step {i} on Thursday.\n\nOn Mon, Ravi wrote:\n> old text",
                          when=base + dt.timedelta(days=i), conversation=f"conv-{i % 4}")
    for i in range(inbox):
        peer = PEERS[i % len(PEERS)]
        world.add_message("inbox", subject=f"rollout plan {i}", sender=peer, to=[OWNER], cc=[PEERS[1]],
                          body=f"Question {i} about the rollout.", when=base + dt.timedelta(days=i, hours=2),
                          conversation=f"conv-{i % 4}")
    world.add_message("inbox", subject="Weekly digest", sender=("Digest", "no-reply@news.test"), to=[OWNER],
                      body="Top stories", when=base)


@pytest.fixture
def ms(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[MSStandIn]:
    """A running stand-in; memseed's env points at it (authority, Graph root, client id, CA)."""
    with MSStandIn(tmp_path / "tls") as server:
        monkeypatch.setenv("REQUESTS_CA_BUNDLE", str(server.cert))
        monkeypatch.setenv("MEMSEED_MS_AUTHORITY", server.authority)
        monkeypatch.setenv("MEMSEED_GRAPH_API_ROOT", server.graph_root)
        monkeypatch.setenv("MEMSEED_MS_CLIENT_ID", server.world.client_id)
        monkeypatch.setenv("MEMSEED_TOKEN_STORE", "file")
        yield server


@pytest.fixture
def signed_in(ms: MSStandIn, tmp_path: Path) -> Path:
    """An app home with a completed device-code sign-in (through the real msal)."""
    from connectors.microsoft import auth

    home = tmp_path / "app"
    home.mkdir()
    auth.login(home, echo=lambda text: None, sleep=lambda seconds: None)
    return home


@pytest.fixture
def account(ms: MSStandIn) -> Path:
    """The app home (MEMSEED_HOME) signed in, with mail, a weekly series in a Windows zone and one file."""
    from connectors.microsoft import auth

    home = Path(os.environ["MEMSEED_HOME"])
    home.mkdir(parents=True, exist_ok=True)
    auth.login(home, echo=lambda t: None, sleep=lambda s: None)
    populate(ms.world)
    now = dt.datetime.now(dt.UTC).replace(tzinfo=None, microsecond=0)
    for week in range(4):
        ms.world.add_event(subject="Platform sync", start=(now - dt.timedelta(weeks=week + 1)).replace(hour=10),
                           minutes=45, zone="GMT Standard Time", attendees=PEERS[:2], series="AAMkSERIES=")
    ms.world.add_file("Projects/rollout.md", b"# Rollout\nWe ship behind feature flags.\n")
    return home
