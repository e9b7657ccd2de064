"""Bulk mail is recognised by conventions every sender shares, never by a mailbox's own words.

Each case is a real RFC 5322 message written by the stdlib and read back through the mbox
reader; the personal mail next to it (same sender, same body, no such header) must stay personal,
so a rule that flags everything cannot pass.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from .test_mbox import _msg, _read, _write

BULK_CASES = {
    "list-post": {"List_Post": "<mailto:dev@lists.example.org>"},
    "list-help": {"List_Help": "<mailto:dev-request@lists.example.org?subject=help>"},
    "precedence-junk": {"Precedence": "junk"},
    "auto-submitted": {"Auto_Submitted": "auto-generated"},
    "x-autoreply": {"X_Autoreply": "yes"},
    "exchange-suppress-all": {"X_Auto_Response_Suppress": "All"},
    "exchange-suppress-oof": {"X_Auto_Response_Suppress": "DR, OOF, AutoReply"},
    "null-return-path": {"Return_Path": "<>"},
    "mailer-daemon-return-path": {"Return_Path": "<MAILER-DAEMON@mx.example.net>"},
    "list-bounces-return-path": {"Return_Path": "<dev-bounces+maya=example.com@lists.example.org>"},
    "verp-return-path": {"Return_Path": "<news+bounce-8f3a@mail.shop.example>"},
}


@pytest.mark.parametrize("case", sorted(BULK_CASES))
def test_header_convention_marks_bulk_and_plain_mail_stays_personal(case: str, tmp_path: Path) -> None:
    items, _ = _read(_write(tmp_path / "b.mbox", [_msg(1, **BULK_CASES[case]), _msg(2)]))
    assert [i.is_bulk for i in items] == [True, False]


@pytest.mark.parametrize("header", ["DR, RN, NRN", "no"])
def test_exchange_suppress_of_receipts_only_is_personal(header: str, tmp_path: Path) -> None:
    """Outlook asks not to get read receipts on ordinary mail: that alone is not automation."""
    items, _ = _read(_write(tmp_path / "b.mbox", [_msg(1, X_Auto_Response_Suppress=header)]))
    assert [i.is_bulk for i in items] == [False]


def test_undisclosed_recipients_group_is_bulk(tmp_path: Path) -> None:
    hidden = _msg(1)
    hidden.replace_header("To", "undisclosed-recipients:;")
    items, _ = _read(_write(tmp_path / "b.mbox", [hidden, _msg(2)]))
    assert [i.is_bulk for i in items] == [True, False]


@pytest.mark.parametrize("sender", ["Shop <no-reply@shop.example>", "Bot <donotreply@bank.example>",
                                    "Mailer <mailer-daemon@mx.example.net>", "News <newsletter+weekly@news.example>"])
def test_no_reply_shaped_sender_is_bulk(sender: str, tmp_path: Path) -> None:
    items, _ = _read(_write(tmp_path / "b.mbox", [_msg(1, sender=sender)]))
    assert [i.is_bulk for i in items] == [True]


@pytest.mark.parametrize("return_path", ["<jon@example.com>", "<jon-reyes@example.com>", "<bouncer.fan@example.com>"])
def test_person_shaped_return_path_is_personal(return_path: str, tmp_path: Path) -> None:
    items, _ = _read(_write(tmp_path / "b.mbox", [_msg(1, Return_Path=return_path)]))
    assert [i.is_bulk for i in items] == [False]
