"""Employer and title: the person's own signature, then contact blocks, and only then the domain.

The domain gives the registrable name (``tidewater`` from ``mail.tidewater.co.uk``, via the
Public Suffix List), the signature the organisation ("Tidewater Analytics"). The tuning Enron
inbox (clean skip when absent) has no signature of its owner with a title, but letters and an
assistant's mail carry the owner's contact block: title and employer come from there, not the
domain. Which lines those are is worked out at test time by a plain reading of the mailbox
(:mod:`tests.mail_oracle`); no one from the corpus is named here.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from pathlib import Path

from bootstrap_app.config import load_settings
from bootstrap_app.pipeline import scan
from bootstrap_app.signals.contact_blocks import contact_blocks, domain_label, org_from_domain, same_person
from bootstrap_app.signals.signature import parse_signature
from bootstrap_app.types import Person
from tests.conftest import realdata_by_digest
from tests.mail_oracle import TUNING_INBOX, MailOracle

from .synth import mail
from .test_signals import build

ADA = Person("Ada Quist", "ada.quist@mail.tidewater.co.uk")
BEN = Person("Ben Ortiz", "ben@harbor.example")


def test_public_suffix_list_finds_the_registrable_name() -> None:
    assert domain_label("a@mail.tidewater.co.uk") == "tidewater"
    assert domain_label("x@research.enron.com") == "enron"
    assert org_from_domain("maya@northwind-labs.example") == "Northwind Labs"
    assert org_from_domain("someone@gmail.com") == "" and org_from_domain("a@yahoo.co.uk") == ""


def test_signature_names_the_organisation_the_domain_only_hints_at() -> None:
    text = "Thanks, see you Monday.\n\nAda Quist\nSenior Data Engineer | Tidewater Analytics\n+44 20 7946 0000"
    assert parse_signature(text, "tidewater") == {"signer": "Ada Quist", "title": "Senior Data Engineer",
                                                   "org": "Tidewater Analytics"}
    assert "org" not in parse_signature(text)  # without the domain hint the line names no org word
    start = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
    items = [mail(i, ADA, BEN, start + timedelta(days=i), body=text, labels=("Sent",)) for i in range(6)]
    items += [mail(100 + i, BEN, ADA, start + timedelta(days=i, hours=2), body="ok") for i in range(6)]
    _owner, signals = build(items, owners=[ADA.address])
    assert signals.profile.employer == "Tidewater Analytics" and signals.profile.employer_from == "signature"
    assert signals.profile.title == "Senior Data Engineer"
    plain = [mail(i, ADA, BEN, start + timedelta(days=i), body="ok\n\nAda", labels=("Sent",)) for i in range(6)]
    _owner, signals = build(plain, owners=[ADA.address])
    assert signals.profile.employer == "Tidewater" and signals.profile.employer_from == "email domain"


def test_contact_blocks_and_nicknames() -> None:
    text = ("Dear Professor,\n\nHere are his details:\n\nMr. Theodore J. Marrow\nManaging Director\n"
            "Halvard Corp.\n12 Quay Street\n\nTheo Marrow, Managing Director, Research, Halvard N.A.\n")
    blocks = contact_blocks(text)
    assert ("marrow theodore", "Managing Director", "Halvard Corp.") in blocks
    assert ("marrow theo", "Managing Director", "Halvard N.A.") in blocks
    assert same_person("marrow theo", "marrow theodore") and not same_person("marrow theo", "marrow tom")
    assert contact_blocks("Please call me tomorrow\nabout the manager role") == []


def test_real_title_and_employer_from_contact_blocks(tmp_path: Path) -> None:
    path = realdata_by_digest(TUNING_INBOX)
    oracle = MailOracle(path)
    result = scan([str(path)], settings=load_settings(tmp_path / "home"))
    role = next(p for p in result.proposals if p.name == "user-role")
    match = re.search(r" is an? (?P<title>.+?) at (?P<employer>.+?)\.?$", role.body.splitlines()[0])
    assert match, role.body
    under_name = oracle.block_lines(path)  # lines under the owner's name in other people's mail
    assert match["title"] in under_name and len(match["title"].split()) >= 2
    assert match["employer"] in under_name or match["employer"] + "." in under_name
    assert "inferred from the email domain" not in role.body


def test_a_contact_block_needs_two_independent_senders() -> None:
    start = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
    # an introduction names Ada's role above the sender's own signature (the closing block is the
    # sender's claim about themselves, never a contact block about somebody else)
    block = ("Hi all,\n\nplease meet\n\nAda Quist\nChief Data Officer\nTidewater Analytics Ltd\n\n"
             "She starts on Monday.\n\nthanks\n{signer}\nAccount Manager\nHarbor Freight Ltd")
    own = [mail(i, ADA, BEN, start + timedelta(days=i), body="ok\n\nAda", labels=("Sent",)) for i in range(6)]
    one = [mail(50, BEN, ADA, start + timedelta(days=9), body=block.format(signer=BEN.name))]
    _owner, signals = build(own + one, owners=[ADA.address])
    assert signals.profile.title == "" and signals.profile.employer_from == "email domain"
    carol = Person("Carol Ng", "carol@harbor.example")
    two = [*one, mail(51, carol, ADA, start + timedelta(days=10), body=block.format(signer=carol.name))]
    _owner, signals = build(own + two, owners=[ADA.address])
    assert signals.profile.title == "Chief Data Officer"
    assert signals.profile.employer == "Tidewater Analytics Ltd"
    assert signals.profile.employer_from == "contact block in mail"
