"""Redaction that keeps numbers: phone and card numbers go, timestamps, decimals, coordinates,
versions and ids stay — on real chat, calendars and repositories, and on every region's phones."""

from __future__ import annotations

import re

import pytest

from bootstrap_app.safety.pii import pii_kinds
from bootstrap_app.text import card_spans, clean_text
from bootstrap_app.text.numbers import phone_spans
from tests.conftest import realdata_file
from tests.numeric_corpus import phone_numbers, real_numbers

_PLACEHOLDERS = ("[REDACTED:phone]", "[REDACTED:card]")


@pytest.fixture(scope="module")
def real_corpus(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[str]]:
    root = realdata_file("slack").parent
    return real_numbers(root, tmp_path_factory.mktemp("repos"))


def test_real_numbers_are_never_redacted(real_corpus: dict[str, list[str]]) -> None:
    assert sum(len(v) for v in real_corpus.values()) >= 200
    assert all(len(v) >= 50 for v in real_corpus.values()), {k: len(v) for k, v in real_corpus.items()}
    eaten = [(origin, s, out) for origin, snippets in real_corpus.items() for s in snippets
             if any(p in (out := clean_text(s)) for p in _PLACEHOLDERS)]
    assert not eaten, f"{len(eaten)} real non-phone numbers redacted, e.g. {eaten[:5]}"


def test_real_numbers_raise_no_phone_flag(real_corpus: dict[str, list[str]]) -> None:
    flagged = [s for snippets in real_corpus.values() for s in snippets if "phone" in pii_kinds(s)]
    assert not flagged, f"{len(flagged)} flagged as phone numbers, e.g. {flagged[:5]}"


def test_every_regions_phone_numbers_are_redacted_whole() -> None:
    corpus = phone_numbers()
    assert len({region for region, _w, _s in corpus}) >= 200
    missed = []
    for region, written, sentence in corpus:
        out = clean_text(sentence)
        if "[REDACTED:phone]" not in out or re.search(r"\d", out.replace("[REDACTED:phone]", "")):
            missed.append((region, written, out))
    assert not missed, f"{len(missed)} of {len(corpus)} not redacted whole, e.g. {missed[:5]}"


def test_every_regions_phone_numbers_are_flagged() -> None:
    missed = [(r, s) for r, _w, s in phone_numbers()[::7] if "phone" not in pii_kinds(s)]
    assert not missed, missed[:5]


@pytest.mark.parametrize("text", [
    "I1127 01:24:35.123456 12345 exec.cpp:134] Launching task",
    '"Sahout el Ma": [16.9166667, -15.1666667],',
    "speed-up 1.234567890 over the baseline",
    "longitude 151.209295523912345 east",
    "lon=-73.985656147281234",
    "release 2.4155552671.1 is out",
    "see issue #4155552671 and commit a4155552671",
    "https://example.org/archives/p1609626089253900?thread_ts=1609626089.253900",
    "took 4111111111111111.5 ns",
    "build 4111111111111111-rc1",
    "cache-lga21951-LGA 1610466510 2697336931 Varnish",
])
def test_numbers_that_are_not_personal_stay(text: str) -> None:
    assert not any(p in clean_text(text) for p in _PLACEHOLDERS)
    assert not phone_spans(text) and not card_spans(text)


@pytest.mark.parametrize(("text", "kind"), [
    ("card 4111 1111 1111 1111 exp 09/29", "card"),
    ("paid with 4111111111111111.", "card"),
    ("amex 3782 822463 10005", "card"),
    ("call me on +1 415 555 0134 after six", "phone"),
    ("Tel: 4155552671", "phone"),
    ("(415) 555-2671", "phone"),
    ("mobile 020 7946 0958", "phone"),
    ("tel:+49-30-1234567", "phone"),
])
def test_personal_numbers_go(text: str, kind: str) -> None:
    out = clean_text(text)
    assert f"[REDACTED:{kind}]" in out
    assert not re.search(r"\d{4}", out.replace(f"[REDACTED:{kind}]", ""))

