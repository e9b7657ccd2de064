"""Noise rules by shape: one-to-many mail, unanswered senders where answers are visible, inbox-only
archives, and placeholder calendar titles — all on synthetic data that uses none of the words
of the real corpora, so a rule that only knew those words would fail here."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, date, datetime, timedelta

from bootstrap_app.types import Event, Message, Person

from .synth import OWNER, PRIYA, TOM, at, mail, mailbox
from .test_signals import build

DAY = date(2026, 3, 2)


def _team(n: int) -> tuple[Person, ...]:
    return tuple(Person(f"Member {i}", f"member{i}@acme.example") for i in range(n))


def test_announcements_to_many_or_to_nobody_make_no_collaborator() -> None:
    """A colleague who only ever mails 30 people (owner among them) or everyone in Bcc is not a
    collaborator, even when the owner once answered; the same person writing directly is."""
    items = mailbox()
    herald = Person("Hana Herald", "hana@acme.example")
    items += [replace(mail(30_000 + i, herald, OWNER, at(DAY, 9)), to=(OWNER, *_team(29))) for i in range(20)]
    items += [replace(mail(31_000 + i, herald, OWNER, at(DAY, 9)), to=(), people=(herald,)) for i in range(20)]
    items.append(mail(32_000, OWNER, herald, at(DAY, 10), labels=("Sent",)))
    _owner, signals = build(items)
    assert herald.address not in {c.key for c in signals.contacts.ranked}
    items += [mail(33_000 + i, herald, OWNER, at(DAY + timedelta(days=i), 11)) for i in range(3)]
    _owner, signals = build(items)
    assert herald.address in {c.key for c in signals.contacts.ranked}


def test_unanswered_direct_mail_ranks_only_when_answers_cannot_be_seen() -> None:
    """With the owner's sent mail in the archive, 12 unanswered direct mails rank nobody; in an
    inbox-only export the same 12 mails make a collaborator, below every two-way exchange."""
    writer = Person("Wen Writer", "wen@partner.example")
    direct = [mail(40_000 + i, writer, OWNER, at(DAY + timedelta(days=i), 10)) for i in range(12)]
    _owner, signals = build([*mailbox(), *direct])
    ranked = [c.key for c in signals.contacts.ranked]
    assert writer.address not in ranked and ranked[:2] == [PRIYA.address, TOM.address]

    inbox_only = [i for i in mailbox() if not (isinstance(i, Message) and i.sender == OWNER)]
    inbox_only += [mail(41_000 + i, PRIYA, OWNER, at(DAY + timedelta(days=i), 9)) for i in range(4)]
    inbox_only.append(mail(41_100, OWNER, PRIYA, at(DAY, 12), labels=("Sent",)))
    _owner, signals = build([*inbox_only, *direct], owners=[OWNER.address])
    ranked = [c.key for c in signals.contacts.ranked]
    assert writer.address in ranked and ranked.index(PRIYA.address) < ranked.index(writer.address)


def test_bulk_sender_stays_out_even_in_an_inbox_only_archive() -> None:
    shop = Person("Shop", "orders@shop.example")
    items = [mail(50_000 + i, shop, OWNER, at(DAY + timedelta(days=i), 8), bulk=True) for i in range(15)]
    items += [mail(51_000 + i, TOM, OWNER, at(DAY + timedelta(days=i), 9)) for i in range(5)]
    _owner, signals = build(items, owners=[OWNER.address])
    ranked = [c.key for c in signals.contacts.ranked]
    assert shop.address not in ranked and TOM.address in ranked


def _series(uid: str, title: str, hour: int, weeks: int = 8) -> list[Event]:
    start = datetime(2026, 1, 5, hour, tzinfo=UTC)
    return [Event(source="ics:/synthetic", ref=f"{uid}-{w}", timestamp=start + timedelta(weeks=w),
                  start=start + timedelta(weeks=w), end=start + timedelta(weeks=w, minutes=30),
                  summary=title, series_uid=uid, calendar_owner=OWNER.address) for w in range(weeks)]


def test_a_title_that_labels_most_of_the_calendar_is_a_placeholder() -> None:
    """An export whose titles were all replaced by one word: whatever the word, no ritual claims
    it as a topic; a calendar with varied titles keeps its rituals informative."""
    for word in ("Lorem", "Blocked", "Zzq"):
        events = [e for i in range(12) for e in _series(f"s{i}", word, 8 + i % 9)]
        _owner, signals = build(events, owners=[OWNER.address])
        assert signals.rhythms.rituals and not any(r.informative for r in signals.rhythms.rituals), word
    varied = [e for i, t in enumerate(["Ledger sync", "Design review", "Lorem", "Hiring panel"] * 3)
              for e in _series(f"v{i}", t, 8 + i)]
    _owner, signals = build(varied, owners=[OWNER.address])
    assert all(r.informative for r in signals.rhythms.rituals)
