"""Who counts as a person: rules that drop services and feeds must not drop real people.

The address rules look at shapes that are conventions (no-reply senders, role mailboxes, bulk-mail
providers' sending domains); the name rule needs a function word, two resource nouns, or a name
that is a resource noun alone. One noun in a real name is a surname or a given name.
"""

from __future__ import annotations

import pytest

from bootstrap_app.signals.base import is_bulk_address, is_person


@pytest.mark.parametrize("address", ["jane.doe@news.com.au", "maria@news.bbc.co.uk", "ann@e1.example.com",
                                     "bob@mail2.bigco.com", "lee@em.example.org"])
def test_a_person_at_a_news_or_numbered_domain_is_not_bulk(address: str) -> None:
    assert not is_bulk_address(address)
    assert is_person(address, "")


@pytest.mark.parametrize("address", ["noreply@example.com", "newsletter@example.com", "info@example.com",
                                     "list-request@example.org", "bounce-123@bounces.example.com",
                                     "x@mail.sendgrid.net", "y@mcsv.net"])
def test_senders_that_are_not_people_by_convention(address: str) -> None:
    assert is_bulk_address(address)


@pytest.mark.parametrize("name", ["Billie Holiday", "Ada Room", "Kim Group", "Sam Event", "Jo Support",
                                  "Maria de la Cruz"])
def test_a_surname_that_is_also_a_noun_is_a_person(name: str) -> None:
    assert is_person("someone@example.com", name)


@pytest.mark.parametrize("name", ["Booking for the Main Room", "The Ops Team", "Team Calendar", "Support",
                                  "Holidays and Events"])
def test_names_of_rooms_feeds_and_services_are_not_people(name: str) -> None:
    assert not is_person("x@example.com", name)
