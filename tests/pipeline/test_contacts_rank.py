"""Collaborators by direct two-way exchange (issue 20): templated senders, the owner's own
suggested aliases, To before Cc, and the counts shown as evidence. Synthetic people only; the
templates are shaped like, but share no word with, any corpus's."""

from __future__ import annotations

from dataclasses import replace
from datetime import date, timedelta

from bootstrap_app.signals.automated import SubjectShapes, subject_skeleton
from bootstrap_app.types import Person

from .synth import OWNER, PRIYA, at, mail, mailbox
from .test_signals import build

DAY = date(2026, 3, 2)
BOT = Person("", "workflow@acme.example")


def _inbox_only(extra: list) -> list:
    """An inbox export: the owner's own mail is absent, so "never answered" proves nothing."""
    base = [i for i in mailbox() if getattr(i, "sender", None) != OWNER]
    return [*base, *extra]


def test_subject_skeleton_keeps_words_and_slots_numbers_ids_addresses() -> None:
    assert subject_skeleton("Re: Ticket #4411 updated by x@y.example") == ("ticket <n> updated by <address>", True)
    assert subject_skeleton("Budget review") == ("budget review", False)
    shapes = SubjectShapes()
    for i in range(6):
        shapes.add("bot", f"Approval pending: request {1000 + i}", False)
        shapes.add("person", f"Thoughts on the {['plan', 'draft', 'launch'][i % 3]}", False)
    assert "6 of 6" in shapes.templated("bot") and shapes.templated("person") == ""
    shapes.add("bot", "Re: Approval pending: request 1000", True)  # once it answers, it is a person
    assert shapes.templated("bot") == ""


def test_templated_unanswered_sender_never_ranks_even_in_an_inbox_export() -> None:
    reminders = [replace(mail(60_000 + i, BOT, OWNER, at(DAY + timedelta(days=i), 9)),
                         subject=f"Reminder: approve request {7000 + i % 4} for {['ana', 'bo'][i % 2]}@acme.example")
                 for i in range(25)]
    _owner, signals = build(_inbox_only(reminders), owners=[OWNER.address])
    ranked = [c.key for c in signals.contacts.ranked]
    assert BOT.address not in ranked and PRIYA.address in ranked
    assert "subjects fill one template" in signals.contacts.excluded_automated[BOT.address]
    # the same sender with subjects in words (a person writing directly) ranks in that export
    human = [replace(m, subject=f"About {w}") for m, w in zip(reminders, ["x", "the plan", "lunch"] * 9, strict=False)]
    _owner, signals = build(_inbox_only(human), owners=[OWNER.address])
    assert BOT.address in [c.key for c in signals.contacts.ranked]


def test_a_suggested_alias_of_the_owner_is_never_a_collaborator() -> None:
    """Mail between the owner and their own address elsewhere (a suggestion: shown with the
    owner's name) is the owner writing to themself, however much of it there is."""
    other_me = Person(OWNER.name, "ada.lovelace@home.example")
    items = mailbox()
    for i in range(20):
        items.append(mail(70_000 + i, OWNER, other_me, at(DAY + timedelta(days=i), 8), labels=("Sent",)))
        items.append(mail(71_000 + i, other_me, OWNER, at(DAY + timedelta(days=i), 9)))
    owner, signals = build(items)
    assert other_me.address in owner.suggested
    assert other_me.address not in [c.key for c in signals.contacts.ranked]


def test_to_ranks_before_cc_and_the_counts_are_the_evidence() -> None:
    to_peer, cc_peer, filler = (Person("Tara To", "tara@acme.example"), Person("Carl Cc", "carl@acme.example"),
                                Person("Fay Filler", "fay@acme.example"))
    items = []
    for i in range(6):
        when = at(DAY + timedelta(days=i), 10)
        items.append(replace(mail(80_000 + i, OWNER, to_peer, when, labels=("Sent",)), cc=(cc_peer,)))
        items.append(replace(mail(81_000 + i, to_peer, OWNER, when + timedelta(hours=1)), cc=(cc_peer,)))
        items.append(replace(mail(82_000 + i, cc_peer, filler, when + timedelta(hours=2)), cc=(OWNER,)))
    _owner, signals = build(items, owners=[OWNER.address])
    ranked = {c.key: c for c in signals.contacts.ranked}
    keys = list(ranked)
    assert keys.index(to_peer.address) < keys.index(cc_peer.address)
    assert ranked[to_peer.address].evidence == "6 mails to the owner, 6 from the owner"
    assert ranked[cc_peer.address].evidence == "6 mails to the owner, 6 from the owner (12 in Cc)"
