"""No filter list may hold a word that only the test corpora taught it.

Every word in memseed's noise filters (sender shapes, not-a-person names, placeholder titles)
that also occurs in the real corpora's address, name or title fields must be a convention that
holds for any mailbox, listed below with where the convention comes from. A word added because
one corpus's robot or gym happens to use it (the way earlier versions listed them) fails here
until someone can say which convention it belongs to.
"""

from __future__ import annotations

import re

from bootstrap_app.signals import base, rhythms
from connectors.local import mailparse
from tests.conftest import realdata_file

CONVENTIONS: dict[str, set[str]] = {
    "role mailboxes (RFC 2142: info, sales, support, marketing, news, webmaster, postmaster; and "
    "common practice)": {"info", "sales", "support", "marketing", "news", "webmaster", "admin", "contact",
                         "feedback", "service", "services", "team", "events"},
    "no-reply / notification senders": {"no", "not", "do", "reply", "noreply", "notify", "notification"},
    "list managers and bulk senders (Mailman, LISTSERV, -request/-owner/-bounces, RFC 3834 bounces; "
    "bulk-mail providers' sending domains)":
        {"mailman", "listserv", "lists", "owner", "bounce", "bounces", "newsletter", "mail", "em", "mailchimp",
         "sendgrid", "mailgun", "amazonses", "mailjet", "sendinblue", "constantcontact", "mandrillapp",
         "sparkpostmail", "mcsv", "mcdlv", "rsgsv"},
    "calendar systems and resources (Google calendar domain, room/resource calendars)":
        {"calendar", "google", "com", "group", "room", "event"},
    "free/busy and untitled placeholders (Exchange/Outlook 'Show As', 'Out of Office')":
        {"busy", "free", "tentative", "away", "office", "meeting"},
    "English function words (a name holding one is not a person's)": {"for", "the", "of", "and"},
}
_FILTERS = (base.BULK_LOCAL, base._BULK_DOMAIN, base._FUNCTION_WORD, base._RESOURCE_NOUN, base._CALENDAR_SYSTEM,
            rhythms._UNINFORMATIVE, mailparse._BULK_LOCAL)
_FIELDS = re.compile(r"^(?:from|to|cc|x-from|x-to|reply-to|sender|return-path|organizer|attendee|summary)[;:](.*)$",
                     re.IGNORECASE | re.MULTILINE)


def _filter_words() -> set[str]:
    words: set[str] = set()
    for rx in _FILTERS:
        words |= set(re.findall(r"[a-z]{2,}", re.sub(r"\\[a-zA-Z]", " ", rx.pattern)))
    return words


def test_filter_words_seen_in_the_corpora_are_conventions() -> None:
    vocabulary: set[str] = set()
    for folder in (realdata_file("email"), realdata_file("ics")):
        for path in folder.rglob("*"):
            if path.is_file() and path.suffix in (".mbox", ".eml", ".ics"):
                for m in _FIELDS.finditer(path.read_text(encoding="utf-8", errors="replace")):
                    vocabulary |= set(re.findall(r"[a-z]+", m.group(1).lower()))
    documented = set().union(*CONVENTIONS.values())
    seen = _filter_words() & vocabulary
    assert len(seen) >= 20, "the corpora were read"
    assert sorted(seen - documented) == []


def test_the_check_catches_a_corpus_word() -> None:
    """The guard itself: a word only a corpus sender uses is neither a convention nor a filter word."""
    documented = set().union(*CONVENTIONS.values())
    assert "arsystem" not in documented and "arsystem" not in _filter_words()
    assert {"info", "noreply", "busy", "for"} <= documented & _filter_words()
