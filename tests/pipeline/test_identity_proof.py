"""Only strong evidence makes an address the owner's; everything else is a suggestion (issue 14)."""

from __future__ import annotations

from datetime import date

from bootstrap_app.identity.resolve import ACCOUNT_ALIAS, IdentityCollector
from bootstrap_app.types import ChatMessage, Event, Message, Person, Repo

from .synth import OWNER, PRIYA, TOM, at, mail, mailbox


def resolve(items, **kw):  # type: ignore[no-untyped-def]
    collector = IdentityCollector(**kw)
    for item in items:
        collector.observe(item)
    return collector, collector.resolve()


def test_strong_evidence_kinds() -> None:
    repo = Repo(source="git:/r", ref="r", name="r", git_user_email="ada.home@fastmail.example",
                authors=(("Ada Lovelace", "ada.home@fastmail.example", 9), ("Ada Lovelace", "ada@oldjob.example", 4)))
    cal = Event(source="ics:/c", ref="e", summary="x", calendar_owner="ada.cal@acme.example")
    # a calendar's account is proof only where another source shows it (here: mail to it)
    lone = Event(source="ics:/d", ref="e", summary="x", calendar_owner="feed.cal@acme.example")
    to_cal = mail(990, PRIYA, Person("", "ada.cal@acme.example"), at(date(2026, 3, 9), 10))
    collector, owner = resolve([*mailbox(), repo, cal, lone, to_cal], explicit=("given@acme.example",),
                               confirmed=("ada.phone@acme.example",))
    collector.account_alias("ada.alias@acme.example")
    owner = collector.resolve()
    assert owner.reasons == {
        "given@acme.example": "given as owner",
        "ada.phone@acme.example": "alias confirmed by the owner",
        "ada.alias@acme.example": ACCOUNT_ALIAS,
        OWNER.address: owner.reasons[OWNER.address],
        "ada.home@fastmail.example": "git user.email",
        "ada.cal@acme.example": "owner of the exported calendar",
    }
    assert "Sent folder" in owner.reasons[OWNER.address]
    assert owner.suggested["feed.cal@acme.example"].startswith("account of the exported calendar")
    # a commit author with her name is not her git user.email: a suggestion
    assert owner.suggested["ada@oldjob.example"] == "git author with the owner's name"


def test_lookalikes_are_suggested_never_owner_and_rejected_ones_vanish() -> None:
    items = mailbox()
    when = at(date(2026, 3, 9), 10)
    spoofs = [Person("Ada Lovelace", "ada@acme-example.example"), Person("", "alovelace@gmail.com"),
              Person("Ada Lovelace", "helpdesk@corp.example")]
    items += [mail(900 + i, p, OWNER, when) for i, p in enumerate(spoofs)]
    items.append(ChatMessage(source="slack:/s", ref="c/1", user=Person("Ada Lovelace", "U0SPOOF"), text="hi"))
    _, owner = resolve(items)
    assert owner.addresses == {OWNER.address}
    assert set(owner.suggested) >= {p.address for p in spoofs} | {"u0spoof"}
    assert "u0spoof" not in owner.slack_ids
    assert all(not owner.mark(m).authored_by_owner for m in items[-4:-1])
    _, again = resolve(items, rejected=frozenset({"alovelace@gmail.com"}))
    assert "alovelace@gmail.com" not in again.suggested


def test_sent_label_counts_only_on_mail_that_did_not_arrive_from_outside() -> None:
    forged = Message(source="mbox:/m", ref="x", sender=Person("Ada Lovelace", "ada@acme-example.example"),
                     to=(PRIYA,), labels=("Sent",), delivered_from="mx.evil.example")
    _, owner = resolve([*mailbox(), forged])
    assert "ada@acme-example.example" not in owner.addresses


def test_own_address_on_received_mail_is_not_the_owners_words() -> None:
    _, owner = resolve(mailbox())
    base = mail(5000, OWNER, PRIYA, at(date(2026, 3, 9), 10))
    assert owner.mark(base).authored_by_owner is True
    for spoof in (Message(**{**_fields(base), "labels": ("Inbox",)}),
                  Message(**{**_fields(base), "auth_failure": "dmarc=fail"}),
                  Message(**{**_fields(base), "delivered_from": "mail.evil.example"}),
                  Message(**{**_fields(base), "on_behalf_of": "bulk@evil.example"})):
        assert owner.mark(spoof).authored_by_owner is False, spoof.third_party_reason


def test_fallback_names_the_mailbox_holder_only_when_nothing_else_does() -> None:
    inbox = [mail(i, PRIYA if i % 2 else TOM, OWNER, at(date(2026, 3, 2 + i % 20), 10)) for i in range(30)]
    _, alone = resolve(inbox)
    assert alone.reasons[OWNER.address].startswith("most frequent recipient")
    # given another account of hers: the mailbox's own address is still named by the fallback
    _, other = resolve(inbox, explicit=("ada.home@fastmail.example",))
    assert OWNER.address in other.addresses
    # a Sent folder settles whose mailbox it is: a flood addressed to a lookalike cannot win
    sent = [mail(100 + i, OWNER, PRIYA, at(date(2026, 3, 2), 9), labels=("Sent",)) for i in range(3)]
    flood = [mail(200 + i, TOM, Person("Ada Lovelace", "ada@acme-mail.example"), at(date(2026, 3, 3), 9))
             for i in range(60)]
    _, flooded = resolve([*sent, *flood])
    assert flooded.addresses == {OWNER.address}
    assert flooded.suggested["ada@acme-mail.example"].startswith("most frequent recipient")


def _fields(m: Message) -> dict[str, object]:
    from dataclasses import fields

    return {f.name: getattr(m, f.name) for f in fields(m)}
