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
from bootstrap_app.types import Message, Person
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
    carol = Person("Carol Ng", "carol@harbor.example")  # both are people Ada writes to
    own = [mail(i, ADA, BEN if i % 2 else carol, start + timedelta(days=i), body="ok\n\nAda", labels=("Sent",))
           for i in range(6)]
    one = [mail(50, BEN, ADA, start + timedelta(days=9), body=block.format(signer=BEN.name))]
    _owner, signals = build(own + one, owners=[ADA.address])
    assert signals.profile.title == "" and signals.profile.employer_from == "email domain"
    two = [*one, mail(51, carol, ADA, start + timedelta(days=10), body=block.format(signer=carol.name))]
    _owner, signals = build(own + two, owners=[ADA.address])
    assert signals.profile.title == "Chief Data Officer"
    assert signals.profile.employer == "Tidewater Analytics Ltd"
    assert signals.profile.employer_from == "contact block in mail"


def _block(who: str, title: str, org: str, signer: Person) -> str:
    """An introduction naming ``who`` above the sender's own signature (a contact block)."""
    return (f"Hi all,\n\nplease meet\n\n{who}\n{title}\n{org}\n\nShe starts on Monday.\n\nthanks\n"
            f"{signer.name}\nAccount Manager\nHarbor Freight Ltd")


def test_contact_blocks_count_only_correspondents_or_the_own_organisation() -> None:
    """Two senders are not enough when the owner never wrote to either and they are not her own
    organisation's mail: an attacker with two lookalike domains (each passing its own DKIM) would
    otherwise hand the owner a title."""
    from dataclasses import replace

    start = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
    carol = Person("Carol Ng", "carol@harbor.example")
    own = [mail(i, ADA, BEN if i % 2 else carol, start + timedelta(days=i), body="ok\n\nAda", labels=("Sent",))
           for i in range(6)]

    def inbound(i: int, sender: Person, title: str, **delivery: str) -> Message:
        body = _block("Ada Quist", title, "Tidewater Analytics Ltd", sender)
        return replace(mail(i, sender, ADA, start + timedelta(days=9, hours=i), body=body, labels=("Inbox",)),
                       **delivery)

    # two lookalike domains, delivered from outside, authenticated as themselves: never written to
    strangers = [inbound(60 + i, Person(f"{n} Vance", f"{n.lower()}@{d}"), "Chief Security Officer",
                         delivered_from=f"mail.{d}")
                 for i, (n, d) in enumerate((("Mel", "tidewater-analytics.example"), ("Eve", "tidewater-ltd.example")))]
    _owner, signals = build(own + strangers, owners=[ADA.address])
    assert signals.profile.title == "" and signals.profile.employer_from == "email domain"

    # two people she wrote to, authenticated: their statement counts
    mates = [inbound(70, BEN, "Head of Data", delivered_from="mx.harbor.example"),
             inbound(71, carol, "Head of Data", delivered_from="mx.harbor.example")]
    _owner, signals = build(own + strangers + mates, owners=[ADA.address])
    assert signals.profile.title == "Head of Data" and signals.profile.title_from == "contact block in mail"

    # a correspondent's address forged (DMARC fails): that sender does not count
    forged = [mates[0], replace(mates[1], auth_failure="dmarc=fail")]
    _owner, signals = build(own + forged, owners=[ADA.address])
    assert signals.profile.title == ""

    # colleagues at her own organisation, delivered inside it (never written to): they count ...
    colleagues = [inbound(80 + i, Person(f"{n} Kay", f"{n.lower()}@tidewater.co.uk"), "Head of Data")
                  for i, n in enumerate(("Lia", "Rui"))]
    _owner, signals = build(own + colleagues, owners=[ADA.address])
    assert signals.profile.title == "Head of Data"
    # ... but not the same addresses arriving from outside (a spoof of her own domain)
    spoofed = [replace(m, delivered_from="mail.spoof.example") for m in colleagues]
    _owner, signals = build(own + spoofed, owners=[ADA.address])
    assert signals.profile.title == ""


def test_contact_blocks_in_an_inbox_only_archive_ignore_lookalikes() -> None:
    """With no mail of the owner's to tell correspondents by (an inbox-only export, owner given),
    senders imitating her domain never count; two ordinary partners still do."""
    from dataclasses import replace

    start = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
    owner = Person("Ada Quist", "ada.quist@tidewater.io")

    def inbound(i: int, sender: Person, title: str) -> Message:
        body = _block("Ada Quist", title, "Tidewater Analytics Ltd", sender)
        return replace(mail(i, sender, owner, start + timedelta(days=i), body=body, labels=("Inbox",)),
                       delivered_from=f"mail.{sender.address.partition('@')[2]}")

    looks = [inbound(i, Person(f"{n} Vance", f"{n.lower()}@{d}"), "Chief Security Officer")
             for i, (n, d) in enumerate((("Mel", "tidewater-io.example"), ("Eve", "tidewater1.io")))]
    _owner, signals = build(looks, owners=[owner.address])
    assert signals.profile.title == ""
    partners = [inbound(10 + i, Person(f"{n} Park", f"{n.lower()}@{d}"), "Head of Data")
                for i, (n, d) in enumerate((("Jun", "harbor.example"), ("Noa", "cera.example")))]
    _owner, signals = build(looks + partners, owners=[owner.address])
    assert signals.profile.title == "Head of Data"


def test_a_strangers_volume_does_not_pick_between_vouched_titles() -> None:
    """Which vouched title wins is counted over vouched statements only: a stranger repeating one
    of them a hundred times does not outvote the people the owner writes to."""
    from dataclasses import replace

    start = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
    mates = [Person(f"{n} Ortiz", f"{n.lower()}@harbor.example") for n in ("Ben", "Cy", "Di", "Ed")]
    own = [mail(i, ADA, mates[i % 4], start + timedelta(days=i), body="ok\n\nAda", labels=("Sent",)) for i in range(8)]

    def says(i: int, sender: Person, title: str) -> Message:
        return replace(mail(i, sender, ADA, start + timedelta(days=9, hours=i), labels=("Inbox",),
                            body=_block("Ada Quist", title, "Tidewater Analytics Ltd", sender)),
                       delivered_from="mx.harbor.example")

    vouched = [says(20, mates[0], "Head of Data"), says(21, mates[1], "Head of Data"), says(22, mates[1], "Head of Data"),
               says(23, mates[2], "Data Director"), says(24, mates[3], "Data Director")]
    loud = Person("Mel Vance", "mel@tidewater-analytics.example")
    noise = [says(30 + i, loud, "Data Director") for i in range(20)]
    _owner, signals = build(own + vouched + noise, owners=[ADA.address])
    assert signals.profile.title == "Head of Data"
