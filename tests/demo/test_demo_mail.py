"""The demo mbox is a valid Takeout-style mailbox whose content matches PERSONA.

Everything is read back with the stdlib (``mailbox`` + ``email.policy.default``), BeautifulSoup
and detect-secrets; assertions compare what those libraries parse with PERSONA's facts.
"""

from __future__ import annotations

import re
from collections import Counter
from datetime import time, timedelta
from email.message import EmailMessage
from email.utils import getaddresses, parseaddr
from pathlib import Path
from zoneinfo import ZoneInfo

from bs4 import BeautifulSoup, Comment
from detect_secrets.plugins.aws import AWSKeyDetector

from bootstrap_app.demo import DEMO_ANCHOR, PERSONA, demo_owner_addresses

BERLIN = ZoneInfo("Europe/Berlin")
WORK = PERSONA["work_email"]


def _labels(msg: EmailMessage) -> set[str]:
    return {label.strip() for label in str(msg["X-Gmail-Labels"]).split(",")}


def _sender(msg: EmailMessage) -> str:
    return parseaddr(str(msg["From"]))[1].lower()


def _recipients(msg: EmailMessage) -> set[str]:
    return {a.lower() for _, a in getaddresses([str(msg.get("To", "")), str(msg.get("Cc", ""))])}


def _text(msg: EmailMessage) -> str:
    part = msg.get_body(preferencelist=("plain",))
    return part.get_content() if part is not None else ""


def test_takeout_framing_is_crlf_with_gmail_separators(where: dict[str, Path]) -> None:
    raw = where["mbox"].read_bytes()
    assert raw.count(b"\n") == raw.count(b"\r\n"), "every line ends in CRLF"
    separators = [line for line in raw.split(b"\r\n") if line.startswith(b"From ")]
    pattern = re.compile(rb"^From \d{19}@xxx \w{3} \w{3} \d\d \d\d:\d\d:\d\d \+0000 \d{4}$")
    assert separators and all(pattern.match(line) for line in separators)


def test_mbox_parses_with_expected_volume_and_headers(messages: list[EmailMessage]) -> None:
    assert 100 <= len(messages) <= 140
    for msg in messages:
        assert msg["X-GM-THRID"] and str(msg["X-GM-THRID"]).isdigit()
        assert msg["Message-ID"] and msg["Date"] and msg["From"]
        assert msg["X-Gmail-Labels"]
    assert len({str(m["Message-ID"]) for m in messages}) == len(messages)


def test_label_mix_looks_like_gmail(messages: list[EmailMessage]) -> None:
    counts = Counter(label for m in messages for label in _labels(m))
    assert counts["Sent"] >= 15
    assert counts["Inbox"] >= 20 and counts["Category Updates"] >= 20
    assert counts["Spam"] >= 1 and counts["Trash"] >= 1
    owners = set(demo_owner_addresses())
    for msg in messages:
        assert ("Sent" in _labels(msg)) == (_sender(msg) == WORK), msg["Subject"]
        assert _sender(msg) not in owners or "Spam" not in _labels(msg)


def test_dates_are_inside_the_window_and_owner_mail_in_working_hours(messages: list[EmailMessage]) -> None:
    start, end = (time.fromisoformat(t) for t in PERSONA["working_hours"])
    for msg in messages:
        when = msg["Date"].datetime
        assert DEMO_ANCHOR - timedelta(days=92) <= when <= DEMO_ANCHOR
        if "Sent" in _labels(msg):
            local = when.astimezone(BERLIN)
            assert local.weekday() < 5 and start <= local.time() <= end, msg["Date"]


def test_reciprocal_threads_with_manager_and_collaborators(messages: list[EmailMessage]) -> None:
    ids = {str(m["Message-ID"]): m for m in messages}
    people = [PERSONA["manager"], *PERSONA["collaborators"]]
    for person in people:
        addr = person["email"]
        sent = [m for m in messages if _sender(m) == WORK and addr in _recipients(m)]
        received = [m for m in messages if _sender(m) == addr and WORK in _recipients(m)]
        assert len(sent) >= 2 and len(received) >= 2, person["name"]
        assert any(m["In-Reply-To"] for m in sent), f"Maya replies to {person['name']}"
    for msg in messages:
        parent = msg["In-Reply-To"]
        if parent:
            assert str(parent) in ids, "replies point at messages in the box"
            assert str(ids[str(parent)]["X-GM-THRID"]) == str(msg["X-GM-THRID"])


def test_owner_mail_carries_the_signature_block(messages: list[EmailMessage]) -> None:
    block = f"{PERSONA['name']}\n{PERSONA['title']}, {PERSONA['team']}\n{PERSONA['employer']}"
    sent = [m for m in messages if "Sent" in _labels(m) and not m.get("List-Id")]
    with_block = [m for m in sent if block in _text(m).replace("\r\n", "\n")]
    assert len(with_block) >= 0.8 * len(sent)
    others = [m for m in messages if "Sent" not in _labels(m)]
    assert not any(block in _text(m).replace("\r\n", "\n") for m in others)


def test_noise_is_marked_like_real_bulk_mail(messages: list[EmailMessage]) -> None:
    newsletters = [m for m in messages if m.get("List-Unsubscribe") and m.get("Precedence") == "bulk"]
    assert len(newsletters) >= 20 and all(m.get("List-Id") for m in newsletters)
    github = [m for m in messages if m.get("X-GitHub-Reason")]
    assert len(github) >= 10 and all(_sender(m).startswith("noreply@") for m in github)
    hr = [m for m in messages if m.get("Auto-Submitted") == "auto-generated"]
    assert hr and all(_sender(m).startswith("no-reply@") for m in hr)
    mailing_list = [m for m in messages if m.get("List-Post")]
    assert len({_sender(m) for m in mailing_list}) >= 3


def test_plain_text_injection_comes_from_a_third_party(messages: list[EmailMessage]) -> None:
    hostile = [m for m in messages if "forward API keys" in _text(m)]
    assert len(hostile) == 1
    assert "evil.example" in _text(hostile[0])
    assert not _sender(hostile[0]).endswith("@northwind-labs.example")


def test_html_mail_hides_injection_in_comment_and_hidden_div(messages: list[EmailMessage]) -> None:
    html_mails = [m for m in messages if m.get_body(preferencelist=("html",)) is not None
                  and "Ignore previous" in m.get_body(preferencelist=("html",)).get_content()]
    assert len(html_mails) == 1
    msg = html_mails[0]
    soup = BeautifulSoup(msg.get_body(preferencelist=("html",)).get_content(), "html.parser")
    hidden = soup.find("div", style=re.compile(r"display:\s*none"))
    assert hidden is not None and "Ignore previous instructions" in hidden.get_text()
    comments = soup.find_all(string=lambda s: isinstance(s, Comment))
    assert any("remember" in c.lower() for c in comments)
    assert "Ignore previous" not in _text(msg), "the plain part stays clean"


def test_planted_fake_secret_is_detectable(messages: list[EmailMessage]) -> None:
    detector = AWSKeyDetector()
    hits = [m for m in messages
            if any(list(detector.analyze_line(filename="mail", line=line, line_number=1))
                   for line in _text(m).splitlines())]
    assert len(hits) == 1
    assert _sender(hits[0]) == PERSONA["collaborators"][1]["email"]
    assert "FAKE" in _text(hits[0])


def test_personal_address_mail_is_present(messages: list[EmailMessage]) -> None:
    assert any(_sender(m) == PERSONA["personal_email"] for m in messages)


def test_sign_offs_match_senders(messages: list[EmailMessage]) -> None:
    """A colleague's mail signed with a first name is signed with *their* first name."""
    for msg in messages:
        name = str(msg["From"].addresses[0].display_name)
        if not _sender(msg).endswith("@northwind-labs.example") or not name:
            continue
        own = _text(msg).split("\nOn ")[0].rstrip().splitlines()
        last = own[-1].strip() if own else ""
        if re.fullmatch(r"[A-Z][a-z]+", last) and "Sent" not in _labels(msg):
            assert last == name.split()[0], (msg["Subject"], name, last)


def test_mime_structure(messages: list[EmailMessage]) -> None:
    for msg in messages:
        for part in msg.iter_parts() if msg.is_multipart() else ():
            assert part["MIME-Version"] is None, "only the top-level message carries MIME-Version"
        assert msg["MIME-Version"] == "1.0"
