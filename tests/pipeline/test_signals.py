"""Signal analyzers on synthetic items: reciprocity, bulk senders, rituals across DST, hours."""

from __future__ import annotations

from datetime import date

from bootstrap_app.identity.resolve import IdentityCollector
from bootstrap_app.signals import SignalBuilder
from bootstrap_app.signals.base import is_bulk_address
from bootstrap_app.types import Message, Person

from .synth import NEWS, NOREPLY, OWNER, PRIYA, TOM, at, mail, mailbox, standup_series


def build(items, owners=()):
    collector = IdentityCollector(explicit=tuple(owners))
    builder = SignalBuilder()
    for item in items:
        collector.observe(item)
        builder.observe(item)
    owner = collector.resolve()
    return owner, builder.build(owner)


def test_reciprocity_beats_volume() -> None:
    items = mailbox()
    # a colleague who mails the owner 100 times but never gets an answer
    shouter = Person("Loud Larry", "larry@acme.example")
    items += [mail(10_000 + i, shouter, OWNER, at(date(2026, 3, 3), 11)) for i in range(100)]
    _owner, signals = build(items)
    ranked = [c.key for c in signals.contacts.ranked]
    assert ranked[:2] == [PRIYA.address, TOM.address]
    assert shouter.address not in ranked


def test_newsletters_and_noreply_never_collaborators() -> None:
    items = mailbox()
    # even when the owner answers a newsletter once, it stays out
    items.append(mail(20_000, OWNER, NEWS, at(date(2026, 3, 4), 12), labels=("Sent",)))
    _owner, signals = build(items)
    keys = {c.key for c in signals.contacts.ranked}
    assert NEWS.address not in keys and NOREPLY.address not in keys
    assert is_bulk_address("no-reply@accounts.example") and is_bulk_address("notifications@github.com")
    assert not is_bulk_address("priya@acme.example")


def test_identity_from_sent_label_and_fallback() -> None:
    owner, _ = build(mailbox())
    assert owner.addresses == {OWNER.address}
    assert owner.name == "Ada Lovelace"
    # no Sent labels: the most frequent recipient is the inbox owner; an address built from her
    # name is only a suggestion (a stranger can register it), never one of her addresses
    inbox = [mail(i, PRIYA if i % 2 else TOM, Person("Lovelace, Ada", "ada@acme.example"),
                  at(date(2026, 3, 2 + i % 20), 10)) for i in range(30)]
    inbox.append(mail(99, Person("", "alovelace@aol.example"), PRIYA, at(date(2026, 3, 5), 10)))
    owner2, _ = build(inbox)
    assert "ada@acme.example" in owner2.addresses
    assert "alovelace@aol.example" not in owner2.addresses
    assert owner2.suggested["alovelace@aol.example"] == "address built from the owner's name"
    assert not owner2.mark(inbox[-1]).authored_by_owner
    assert owner2.name == "Ada Lovelace"
    assert PRIYA.address not in owner2.addresses


def test_mark_sets_authorship() -> None:
    owner, _ = build(mailbox())
    sent = mail(1, OWNER, PRIYA, at(date(2026, 3, 2), 9))
    got = mail(2, PRIYA, OWNER, at(date(2026, 3, 2), 9))
    assert owner.mark(sent).authored_by_owner is True
    assert owner.mark(got).authored_by_owner is False
    assert isinstance(owner.mark(got), Message)


def test_ritual_day_and_time_in_owner_zone_across_dst() -> None:
    items = mailbox() + standup_series()
    _owner, signals = build(items, owners=[OWNER.address])
    assert signals.profile.timezone == "Europe/Berlin"
    rituals = {r.title: r for r in signals.rhythms.rituals}
    standup = rituals["Team standup"]
    assert standup.days == ("Mon", "Tue", "Wed", "Thu", "Fri")
    assert standup.time == "09:30"  # UTC moved from 08:30 to 07:30 at the DST switch
    assert standup.minutes == 15 and standup.kind == "standup"
    one = rituals["Ada / Daniel"]
    assert one.kind == "1:1" and one.days == ("Thu",) and one.time == "10:00" and one.cadence == "weekly"
    assert signals.manager is not None and signals.manager.key == "daniel@acme.example"


def test_working_hours_window_and_signature() -> None:
    _owner, signals = build(mailbox())
    assert signals.profile.hours is not None
    start, end = signals.profile.hours
    # from the Date offsets, no calendar: the most common offset (the mails straddle the DST
    # switch), never a zone name guessed from it
    assert signals.profile.timezone == "UTC+01:00"
    assert signals.profile.timezone_from == "Date headers of sent mail"
    # the owner's mails go out 09:15-16:15 Berlin time
    assert "09:00" <= start <= "09:30" and "16:00" <= end <= "16:30"
    assert signals.profile.title == "Staff Engineer"
    assert signals.profile.team == "Analytics"
    assert signals.profile.employer == "Acme Labs"


def test_employer_from_domain_without_signature() -> None:
    _owner, signals = build(mailbox(signature=False))
    assert signals.profile.employer == "Acme"
    assert signals.profile.title == ""
