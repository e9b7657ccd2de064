"""Accented names and domains: folded for matching, other scripts kept apart."""

from __future__ import annotations

from bootstrap_app.identity.confusables import imitates, skeleton
from bootstrap_app.identity.names import name_key, name_tokens


def test_accented_name_is_one_token_per_word() -> None:
    assert name_tokens("Zoë Müller") == ("zoe", "muller")
    assert name_key("Núñez, José") == name_key("Jose Nunez") == "jose nunez"


def test_accents_do_not_make_two_people_collide() -> None:
    assert name_key("Zoë Müller") != name_key("Zoí Máller")


def test_cyrillic_lookalike_name_is_not_the_owners_name() -> None:
    assert name_key("Priy\u0430 Raman") != name_key("Priya Raman")  # Cyrillic a


def test_accent_plus_hyphen_domain_imitates() -> None:
    assert skeleton("tid\u00e9water") == skeleton("tidewater")
    owned = frozenset({"priya.raman@tidewater.io"})
    assert imitates("priya.raman@tid\u00e9-waters.io", owned) == "priya.raman@tidewater.io"


def test_combosquatting_and_subdomain_domains_imitate() -> None:
    owned = frozenset({"priya.raman@tidewater.io"})
    for address in ("priya.raman@tidewater.io.evil.example", "priya.raman@tidewater-support.com",
                    "it@sso-tidewater.net"):
        assert imitates(address, owned) == "priya.raman@tidewater.io", address
    assert imitates("a@pineapple.com", frozenset({"b@apple.com"})) == ""
    assert imitates("a@nottidewaters.example", owned) == ""
