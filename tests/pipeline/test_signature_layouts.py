"""Signature blocks in every common layout give employer, title and team (issue 20).

The blocks are generated here from a few invented people, one function per layout, so a rule
that only knew one spelling would fail on the others."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta

import pytest

from bootstrap_app.signals.signature import parse_signature
from bootstrap_app.types import Person

from .synth import mail
from .test_signals import build

PEOPLE = [  # name, title, team, organisation (with a company form), domain label
    ("Ines Vastergaard", "Senior Product Manager", "Payments", "Kolvik Systems Ltd", "kolvik"),
    ("Tomasz Brenner", "Staff Engineer", "Data Platform", "Orrin Labs Inc.", "orrin"),
]


def _pipe(name: str, title: str, team: str, org: str) -> str:
    return f"{name} | {title}\n{team} · {org}\nT: +44 20 7946 0958 | M: +44 7700 900123\nwww.example.org"


def _dots(name: str, title: str, team: str, org: str) -> str:
    return f"{name}\n{title} · {team} · {org}"


def _comma(name: str, title: str, team: str, org: str) -> str:
    return f"{name}\n{title}, {team} Team\n{org}"


def _outlook(name: str, title: str, team: str, org: str) -> str:
    return (f"Kind regards,\n\n{name}\n{title}\n{team} Department\n{org}\n"
            "Direct: +1 (713) 555-0142\nFax: +1 (713) 555-0199\n1400 Harbour Street, Suite 900\n"
            "Houston, TX 77002\nname.surname@example.org\n"
            "This e-mail and any attachments are confidential.")


LAYOUTS: dict[str, Callable[[str, str, str, str], str]] = {
    "name | title / team · org": _pipe, "title · team · org": _dots, "title, team / org": _comma,
    "outlook block": _outlook}


@pytest.mark.parametrize("layout", list(LAYOUTS))
@pytest.mark.parametrize("person", PEOPLE, ids=[p[0] for p in PEOPLE])
def test_each_layout_gives_title_team_and_employer(layout: str, person: tuple[str, ...]) -> None:
    name, title, team, org, _hint = person
    text = "Sounds good, I will send the numbers tomorrow.\n\n" + LAYOUTS[layout](name, title, team, org)
    found = parse_signature(text)
    assert (found["signer"], found["title"], found["org"]) == (name, title, org)
    assert found["team"] == team


@pytest.mark.parametrize(("text", "expected"), [
    ("Viele Grüße\n\nDr. Jana Oberholz\nTeamleiterin Datenplattform\nAbteilung Forschung\nMusterwerk GmbH\n"
     "Hauptstraße 5, 10115 Berlin\nTel.: +49 30 1234567",
     ("Teamleiterin Datenplattform", "Abteilung Forschung", "Musterwerk GmbH")),
    ("Cordialement,\n\nÉlodie Marchetti\nDirectrice technique, Équipe Cloud\nExemplar SAS\n",
     ("Directrice technique", "Équipe Cloud", "Exemplar SAS")),
    ("Saludos\n\nJulián Peralta\nGerente de Proyectos\nDepartamento de Sistemas\nEjemplar S.A.\n"
     "Calle Mayor 3, 28013 Madrid", ("Gerente de Proyectos", "Departamento de Sistemas", "Ejemplar S.A.")),
])
def test_other_languages(text: str, expected: tuple[str, str, str]) -> None:
    found = parse_signature(text)
    assert (found["title"], found["team"], found["org"]) == expected


def test_the_domain_names_an_organisation_without_a_company_form() -> None:
    text = "ok\n\nIda Kowal | Head of Research\nForecasting · Brightwater Analytics"
    assert parse_signature(text, "brightwater")["org"] == "Brightwater Analytics"
    assert "org" not in parse_signature(text)


def test_a_bare_company_form_stays_with_its_name() -> None:
    found = parse_signature("thanks\n\nLee Ardent\nVice President, Market Data, Quillon Online, Inc.")
    assert (found["team"], found["org"]) == ("Market Data", "Quillon Online, Inc.")


def test_a_200_line_signature_block_is_read_in_bounded_time_without_crashing() -> None:
    """Only the closing lines are looked at: a block above 200 lines of legal text is not the
    signature, and nothing in the 200 lines makes one up."""
    legal = "\n".join(f"Clause {i}: the Director of {i} | Group · Holdings, Ltd may rely on this" for i in range(200))
    assert parse_signature(f"hi\n\nIda Kowal\nStaff Engineer\n{legal}") == {}
    assert parse_signature(f"hi\n\n{legal}\n\nIda Kowal\nStaff Engineer, Infra Team")["team"] == "Infra"
    assert parse_signature("Ida Kowal | Staff Engineer · " * 20_000) == {}  # one enormous line


def test_the_owners_own_outlook_signature_sets_the_profile() -> None:
    """End to end through the profile: the owner's own block wins, a colleague's is theirs."""
    me, peer = Person("Ines Vastergaard", "ines@kolvik.example"), Person("Tomasz Brenner", "tomasz@kolvik.example")
    start = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
    mine = "Numbers attached.\n\n" + _outlook(me.name, "Senior Product Manager", "Payments", "Kolvik Systems Ltd")
    theirs = "Thanks!\n\n" + _dots(peer.name, "Staff Engineer", "Data Platform", "Orrin Labs Inc.")
    items = [mail(i, me, peer, start + timedelta(days=i), body=mine, labels=("Sent",)) for i in range(5)]
    items += [mail(100 + i, peer, me, start + timedelta(days=i, hours=1), body=theirs) for i in range(5)]
    _owner, signals = build(items, owners=[me.address])
    p = signals.profile
    assert (p.title, p.team, p.employer, p.title_from) == ("Senior Product Manager", "Payments",
                                                          "Kolvik Systems Ltd", "signature")


def test_a_block_without_a_title_still_names_team_and_employer() -> None:
    assert parse_signature("Thanks!\nIda Kowal\nRisk Analytics Group\n713-555-0101") == {
        "signer": "Ida Kowal", "org": "Risk Analytics Group"}
    assert parse_signature("Regards,\nIda Kowal\nQuantitative Research Team\nNorthwind Bank") == {
        "signer": "Ida Kowal", "team": "Quantitative Research", "org": "Northwind Bank"}
    # a form's blank is no employer, and a name alone is no signature
    assert parse_signature("Ida Kowal\nName of Company: ______") == {}
    assert parse_signature("Cheers,\nIda Kowal") == {}
