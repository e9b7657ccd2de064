"""One rule per text question: the PII flag and the redaction agree on what a card number is."""

from __future__ import annotations

import pytest

from bootstrap_app.safety.pii import pii_kinds
from bootstrap_app.text import card_spans, clean_text


@pytest.mark.parametrize(("text", "card"), [
    ("card 4111 1111 1111 1111 exp 09/29", True),
    ("card 4111-1111-1111-1111", True),
    ("card 4111 1111 1111 1112 fails Luhn", False),
    ("0000 0000 0000 0000 is a placeholder, not a card", False),
    ("order 12345 shipped", False),
])
def test_flag_and_redaction_share_the_card_rule(text: str, card: bool) -> None:
    assert bool(card_spans(text)) is card
    assert ("[REDACTED:card]" in clean_text(text)) is card
    assert ("finance" in pii_kinds(text)) is card  # none of these says "bank" or "salary"
