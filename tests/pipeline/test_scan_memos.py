"""The scanning process's per-person memos (identity collector, contacts) count exactly what a
fresh look at every person would: each showing counts, names normalising to nothing included,
and a pair cites its first mails and its newest one. Synthetic people only."""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import replace
from datetime import date, timedelta

from bootstrap_app.identity.names import normal_name
from bootstrap_app.identity.resolve import IdentityCollector
from bootstrap_app.signals.contacts import ContactsAccumulator
from bootstrap_app.types import Message, Person

from .synth import OWNER, PRIYA, at, mail
from .test_signals import build

DAY = date(2026, 3, 2)
_SHOWN = [
    OWNER, PRIYA, Person("Raman, Priya", "priya@acme.example"), Person("priya@acme.example", "priya@acme.example"),
    Person("(via list)", ""), Person("Bo Berg", ""), Person("", "bo@acme.example"), Person("'Bo'  Berg", ""),
]


def _messages() -> list[Message]:
    out = []
    for i in range(40):  # every person shown many times, as sender, in To and in Cc
        sender, to, cc = _SHOWN[i % len(_SHOWN)], _SHOWN[(i * 3 + 1) % len(_SHOWN)], _SHOWN[(i * 5 + 2) % len(_SHOWN)]
        out.append(replace(mail(i, sender, to, at(DAY + timedelta(days=i), 9)), cc=(cc, to)))
    return out


def _looked_at_afresh(messages: list[Message]) -> tuple[Counter[str], dict[str, Counter[str]], Counter[str]]:
    """bare names, names per address and activity, worked out person by person with no memo."""
    bare: Counter[str] = Counter()
    names: defaultdict[str, Counter[str]] = defaultdict(Counter)
    activity: Counter[str] = Counter()
    for msg in messages:
        for p in (msg.sender, *msg.to, *msg.cc):
            if not p.address and p.name:
                bare[normal_name(p.name)] += 1
            if p.address:
                activity[p.address] += 1
                if p.name and p.name.lower() != p.address:
                    names[p.address][normal_name(p.name)] += 1
    return bare, dict(names), activity


def test_the_identity_collector_counts_every_showing_of_a_person() -> None:
    messages = _messages()
    collector = IdentityCollector()
    for msg in messages:
        collector.observe(msg)
    bare, names, activity = _looked_at_afresh(messages)
    assert "" in bare  # a name that normalises to nothing still counts, as it always did
    assert collector.bare_names == bare and dict(collector.names) == names and collector.activity == activity
    assert list(collector.names) == list(names)  # in the order first seen, too
    assert collector.seen == set(activity)
    assert collector.mail_seen == {p.address for m in messages for p in (m.sender, *m.to, *m.cc) if p.address}


def test_the_contacts_memo_counts_names_like_a_fresh_look() -> None:
    messages = _messages()
    acc = ContactsAccumulator()
    for msg in messages:
        acc.observe(msg)
    _, names, _ = _looked_at_afresh(messages)
    assert {k: v for k, v in acc.names.items() if "@" in k} == names


def test_a_pair_cites_its_first_mails_and_its_newest() -> None:
    days = [DAY + timedelta(days=d) for d in (0, 1, 5, 2, 9, 3)]  # the 9th-day mail is the newest
    items = [mail(i, PRIYA, OWNER, at(d, 10)) for i, d in enumerate(days)]
    items += [mail(100 + i, OWNER, PRIYA, at(d, 11)) for i, d in enumerate(days)]
    _, signals = build(items, owners=[OWNER.address])
    priya = next(c for c in signals.contacts.ranked if c.key == PRIYA.address)
    notes = [r.note for r in priya.refs]
    assert notes == [f"mail from Priya Raman to Ada Lovelace, {DAY + timedelta(days=d)}" for d in (0, 1, 9)] + \
                    [f"mail from Ada Lovelace to Priya Raman, {DAY + timedelta(days=d)}" for d in (0, 1, 9)]
    assert [r.ref for r in priya.refs] == ["m0", "m1", "m4", "m100", "m101", "m104"]
    assert (priya.to_owner, priya.from_owner) == (6, 6)
