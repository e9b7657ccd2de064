"""One identity matcher: every owner address and name a scan finds by itself, given back as
``--owner`` (in every written form the readers accept), names the same owner, and ``reseed``
still works afterwards.

The library half replays each corpus's items into fresh collectors (the same matcher the
``--owner`` check uses, :func:`bootstrap_app.identity.hints.match_given`); the CLI half runs the real
commands on a git repository built with ``git``, the case that used to fail ("matched nobody").
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from bootstrap_app.demo import build_demo
from bootstrap_app.identity.names import name_key
from bootstrap_app.identity.owner import OwnerIdentity
from bootstrap_app.identity.resolve import IdentityCollector
from bootstrap_app.types import Item
from connectors.base import ReadContext
from connectors.registry import detect
from tests.conftest import REALDATA

GIT_ENV = {"GIT_AUTHOR_DATE": "2026-01-05T10:00:00+00:00", "GIT_COMMITTER_DATE": "2026-01-05T10:00:00+00:00",
           "GIT_CONFIG_NOSYSTEM": "1", "GIT_TERMINAL_PROMPT": "0"}


def _git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, text=True,
                          env={**os.environ, **GIT_ENV}).stdout


def _items(location: Path) -> list[Item]:
    return [item for source in detect(location) for item in source.read(ReadContext())]


def _resolve(items: list[Item], *given: str) -> OwnerIdentity:
    collector = IdentityCollector(explicit=given)
    for item in items:
        collector.observe(item)
    return collector.resolve()


def _written_forms(address: str) -> list[str]:
    """The address as mail headers, list archives and people write it."""
    local, _, host = address.partition("@")
    return [address, address.upper(), f"<{address}>", f"Someone <{address}>", f"mailto:{address}",
            f"{local} at {host}", f"{local} (at) {host.replace('.', ' dot ')}"]


def _given_back(found: OwnerIdentity) -> list[str]:
    values = [form for a in sorted(found.addresses) if "@" in a for form in _written_forms(a)]
    values += [uid.upper() for uid in sorted(found.slack_ids) if "@" not in uid]
    values += [n for n in found.names if name_key(n)]
    return values


def _assert_same_owner(items: list[Item], where: str) -> int:
    """Every value the scan reports for its own owner, given back, names that owner; returns how many."""
    found = _resolve(items)
    if not found.known:
        return _candidates_given_back(items, found, where)
    values = _given_back(found)
    assert values, f"{where}: an owner with nothing to give back: {found}"
    for value in values:
        again = _resolve(items, value)
        assert not again.unmatched, f"{where}: --owner {value!r} matched nobody (nearest {again.unmatched})"
        assert found.ordered[0] in again.addresses | again.slack_ids or found.addresses & again.addresses, (
            f"{where}: --owner {value!r} named {sorted(again.addresses)}, the scan alone {sorted(found.addresses)}")
        if found.names and again.names:
            assert name_key(again.names[0]) == name_key(found.names[0]), f"{where}: {value!r} renamed the owner"
    return len(values)


def _candidates_given_back(items: list[Item], found: OwnerIdentity, where: str) -> int:
    """Nothing proves an owner (a list archive, a Slack export): each likely owner the scan offers,
    given back by the value it shows (address or Slack id) or by its name, is then the owner."""
    checked = 0
    for candidate in found.candidates:
        for value in (candidate.owner, *((candidate.name,) if name_key(candidate.name) else ())):
            again = _resolve(items, value)
            assert not again.unmatched, f"{where}: candidate {value!r} matched nobody ({again.unmatched})"
            if value == candidate.owner:
                # the value itself, or the chat user it names (Slack users are keyed by profile e-mail)
                assert again.known and any(why.startswith("given as owner") for why in again.reasons.values()), (
                    f"{where}: --owner {value!r} (offered as likely owner) did not make it the owner")
            checked += 1
    return checked


def _own_repo(root: Path, email: str = "ada.lovelace@analytic.example", name: str = "Ada Lovelace") -> Path:
    repo = root / "engine"
    repo.mkdir(parents=True)
    _git(repo, "init", "-q", "-b", "main")
    _git(repo, "config", "user.email", email)
    _git(repo, "config", "user.name", name)
    for i in range(3):
        (repo / f"part{i}.py").write_text(f"def part{i}():\n    return {i}\n", encoding="utf-8")
        _git(repo, "add", ".")
        _git(repo, "commit", "-q", "-m", f"add part {i}")
    return repo


def test_generated_footprints_give_their_owner_back(hermetic: Path, tmp_path: Path) -> None:
    demo = build_demo(tmp_path / "demo")
    checked = 0
    for location in [_own_repo(tmp_path), *sorted(p for p in demo.iterdir() if not p.name.startswith("."))]:
        checked += _assert_same_owner(_items(location), location.name)
    checked += _assert_same_owner(_items(demo), "demo footprint")
    assert checked >= 10


def test_a_list_archive_address_written_user_at_host_is_read_and_matched(hermetic: Path, tmp_path: Path) -> None:
    """Pipermail writes ``From: jdoe at example.org (Jane Doe)``: the reader keeps the address, and
    ``--owner jdoe@example.org`` (or the spelled form) finds her."""
    box = tmp_path / "list.mbox"
    messages = []
    for i in range(6):
        messages.append(f"From jdoe at example.org  Mon Jan  5 10:0{i}:00 2026\n"
                        f"From: jdoe at example.org (Jane Doe)\nTo: dev at lists.example.org\n"
                        f"Date: Mon, 05 Jan 2026 10:0{i}:00 +0000\nSubject: patch {i}\n"
                        f"Message-ID: <{i}@example.org>\n\nA patch, take {i}.\n")
    box.write_text("\n".join(messages), encoding="utf-8")
    items = _items(box)
    assert {item.sender.address for item in items} == {"jdoe@example.org"}  # type: ignore[attr-defined]
    for value in ("jdoe@example.org", "jdoe at example.org", "Jane Doe"):
        owner = _resolve(items, value)
        assert not owner.unmatched and "jdoe@example.org" in owner.addresses, value


def test_cli_owner_is_the_repositorys_git_identity_and_reseed_works(hermetic: Path, tmp_path: Path) -> None:
    """The reported bug: `--owner` with the repository's own user.email said "matched nobody"."""
    repo = _own_repo(tmp_path)
    memseed = [str(Path(sys.executable).with_name("memseed"))]
    alone = subprocess.run([*memseed, "scan", str(repo), "--out", str(tmp_path / "p.jsonl")],
                           capture_output=True, text=True, env=dict(os.environ))
    assert alone.returncode == 0, alone.stderr
    assert "owner: Ada Lovelace, ada.lovelace@analytic.example" in alone.stderr
    for value in ("ada.lovelace@analytic.example", "Ada Lovelace", "ada.lovelace at analytic.example"):
        given = subprocess.run([*memseed, "scan", str(repo), "--owner", value, "--out", str(tmp_path / "p.jsonl")],
                               capture_output=True, text=True, env=dict(os.environ))
        assert given.returncode == 0, f"{value}: {given.stderr}"
        assert "matched nobody" not in given.stderr
        assert "owner: Ada Lovelace, ada.lovelace@analytic.example" in given.stderr, given.stderr
    (repo / "part9.py").write_text("def part9():\n    return 9\n", encoding="utf-8")
    _git(repo, "add", ".")
    _git(repo, "commit", "-q", "-m", "add part 9")
    reseed = subprocess.run([*memseed, "reseed"], capture_output=True, text=True,
                            env={**os.environ, "MEMSEED_OWNER": "Ada Lovelace"})
    assert reseed.returncode == 0, reseed.stderr
    assert "matched nobody" not in reseed.stderr
    assert "memseed reseed:" in reseed.stdout


REAL_CORPORA = ["email/enron/enron-kaminski-v-inbox.mbox", "email/enron/enron-germany-c-inbox.mbox",
                "email/notmuch/notmuch-list-2009-default-corpus.mbox", "email/notmuch/notmuch-lkml-corpus.mbox",
                "email/notmuch/notmuch-list-2009-eml", "slack/slack-export-viewer-testarchive",
                "slack/julialang-subset-export-layout", "ics"]


@pytest.mark.realdata
@pytest.mark.slow
@pytest.mark.parametrize("corpus", REAL_CORPORA)
def test_real_corpora_give_their_owner_back(hermetic: Path, corpus: str) -> None:
    path = REALDATA / corpus
    if not REALDATA.is_dir():
        pytest.skip(f"real data folder {REALDATA} is absent")
    assert path.exists(), f"{path} is missing from the real data"
    _assert_same_owner(_items(path), corpus)


@pytest.mark.realdata
@pytest.mark.slow
def test_real_repositories_cloned_as_their_top_author_give_the_owner_back(hermetic: Path, tmp_path: Path) -> None:
    """Each bundle cloned with ``user.email`` set to its most frequent author (a person scanning their
    own checkout): the scan names that author, and every address and name it reports comes back."""
    bundles = sorted((REALDATA / "repos").glob("*.bundle")) if REALDATA.is_dir() else []
    if not bundles:
        pytest.skip(f"no repository bundles under {REALDATA}")
    owners = 0
    for bundle in bundles:
        repo = tmp_path / bundle.stem
        subprocess.run(["git", "clone", "-q", str(bundle), str(repo)], check=True, capture_output=True,
                       env={**os.environ, **GIT_ENV})
        authors = _git(repo, "log", "--format=%ae").split()
        top = max(set(authors), key=lambda a: (authors.count(a), a))
        _git(repo, "config", "user.email", top)
        items = _items(repo)
        found = _resolve(items)
        assert top.lower() in found.addresses, f"{bundle.name}: the scan did not take user.email {top}"
        owners += 1
        _assert_same_owner(items, bundle.name)
    assert owners == len(bundles)
