"""The Date header's fast path (``mailparse._rfc5322_date``) reads exactly what the stdlib reads.

Why a test of its own: every message of a mailbox goes through the fast path, and a date that
came out different (an offset, a naive vs aware datetime, a date the stdlib refuses) would move
items in time. So it is compared with :func:`email.utils.parsedate_to_datetime` on generated
dates full of impossible and awkward parts, and on every real Date header at hand.
"""

from __future__ import annotations

import random
from datetime import datetime
from email.utils import parsedate_to_datetime

import pytest

from connectors.local.mailparse import _RFC5322_DATE, _read_date, parse_header_block, split_message
from tests.conftest import REALDATA

_WEEKDAYS = ("", "Mon, ", "Sun, ", "Fri, ")
_MONTHS = ("Jan", "Feb", "Mar", "Jun", "Sep", "Dec")


def _stdlib(value: str) -> datetime | None:
    try:
        return parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError, OverflowError):
        return None


def _same(value: str) -> None:
    fast, slow = _read_date(value), _stdlib(value)
    assert repr(fast) == repr(slow), value  # repr: naive vs aware and the offset itself must agree
    if fast is not None and slow is not None:
        assert fast.utcoffset() == slow.utcoffset()


def _generated(count: int) -> list[str]:
    rng = random.Random(23)
    out = []
    for _ in range(count):
        day = rng.choice(("1", "01", "09", "28", "29", "30", "31", "32", "00", "7"))
        year = rng.choice(("2020", "2021", "1900", "1000", "9999", "0099", "1969", "2000"))
        clock = ":".join(rng.choice(("00", "09", "23", "24", "59", "60", "99")) for _ in range(3))
        zone = rng.choice(("+", "-")) + rng.choice(("0000", "0130", "0190", "2359", "2400", "9999", "0060"))
        comment = rng.choice(("", " (UTC)", " (Pacific Standard Time)", " ()"))
        out.append(f"{rng.choice(_WEEKDAYS)}{day} {rng.choice(_MONTHS)} {year} {clock} {zone}{comment}")
    return out


def test_generated_dates_read_as_the_stdlib_reads_them() -> None:
    values = _generated(6000)
    assert sum(bool(_RFC5322_DATE.fullmatch(v)) for v in values) > 5000  # the fast path is what is tested
    for value in values:
        _same(value)


@pytest.mark.parametrize("value", [
    "Tue, 03 Mar 2020 10:00:00 +0000", "Tue, 03 Mar 2020 10:00:00 -0000", "Tue, 03 Mar 2020 10:00:00 -0000 (UTC)",
    "Sat, 29 Feb 2020 23:59:59 +1400", "Sun, 29 Feb 2021 12:00:00 +0100", "Mon, 31 Jun 2020 12:00:00 +0100",
    "Tue, 03 Mar 2020 10:00:00 +2400", "Tue, 03 Mar 2020 10:00:00 -2359", "Tue, 03 Mar 0099 10:00:00 +0000",
    "Tue, 03 Mar 2020 10:00 +0000", "Tue,03 Mar 2020 10:00:00 +0000", "tue, 03 mar 2020 10:00:00 +0000",
    "Tue, 03 Mar 2020 10:00:00 GMT", "Tue, 03 Mar 2020 10:00:00 EST", "Tue, 03 Mar 20 10:00:00 +0000",
    "Tue, 3 Mar 2020 10:00:00 +0000 (CET) extra", "03 Mar 2020 10:00:00 +0000", "Tue, 03 Mar 2020 10.00.00 +0000",
    "Tue, 03 Mar 2020 10:00:00", "Tue, 03 Mar 2020 10:00:00 +000", "Tue, 03 Mar 2020  10:00:00 +0000",
    "Tue, 03 Mar 2020 10:00:00 +0000 (A (nested) zone)", "Tue, ٠٣ Mar 2020 10:00:00 +0000", "garbage", " ",
])
def test_awkward_dates_read_as_the_stdlib_reads_them(value: str) -> None:
    _same(value)


def test_real_date_headers_read_as_the_stdlib_reads_them() -> None:
    folder = REALDATA / "email"
    if not folder.is_dir():
        pytest.skip(f"real data folder {REALDATA} is absent")
    dates = [parse_header_block(split_message(p.read_bytes())[0]).get("date", "") for p in sorted(folder.rglob("*.eml"))]
    dates = [d for d in dates if d]
    assert dates
    for value in dates:
        _same(value)
