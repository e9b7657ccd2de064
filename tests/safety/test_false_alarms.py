"""False alarms on real mail: clean BIPIA emails and two Enron inboxes.

Measured three ways and printed (run with ``-s``):

- the real pipeline: quarantine records per mailbox (the figure that reaches a person);
- the gate on one third-party contact fact per message whose evidence excerpt is the first
  200 characters of the body — the worst excerpt an extractor could pick; only the
  Hermes-equivalent set applies to excerpts, so this is the rate of evidence dropped;
- the raw scanner on whole bodies, Hermes set vs. full set with tripwires (why tripwires are
  applied to proposals, never to raw mail).

Bound for Enron: the gate may drop at most 1% of messages' excerpts. Justification: the
Hermes-equivalent set matched 2 of 886 whole Enron bodies when this was written (a forwarded
"check-in with" and a real curl/cat line), and an excerpt is a 200-char prefix of a body.
"""

from __future__ import annotations

import collections
import email
import mailbox
from email.policy import default as default_policy
from pathlib import Path

import pytest

from bootstrap_app.config import load_settings
from bootstrap_app.pipeline import scan
from bootstrap_app.safety.gate import gate
from bootstrap_app.safety.injection import scan_text
from bootstrap_app.types import Evidence, MemoryType, Proposal
from tests.conftest import realdata_by_digest
from tests.mail_oracle import HELD_OUT_INBOX, TUNING_INBOX, MailOracle
from tests.safety import corpus as C

ENRON = {"tuning": TUNING_INBOX, "held-out": HELD_OUT_INBOX}
"""The Enron inboxes by their digest in the real-data manifest (their file names name people)."""


def _bodies(path: Path) -> list[str]:
    out: list[str] = []
    for raw in mailbox.mbox(str(path), create=False):
        msg = email.message_from_bytes(raw.as_bytes(), policy=default_policy)
        try:
            part = msg.get_body(preferencelist=("plain",))  # type: ignore[attr-defined]
            out.append(part.get_content() if part is not None else "")
        except (LookupError, ValueError):
            out.append("")
    return out


def _contact_facts(bodies: list[str]) -> list[Proposal]:
    return [Proposal(type=MemoryType.REFERENCE, name=f"sender-{i}", description="Sender of billing mail",
                     body="Sender of 3 messages between 2001-01 and 2001-06.", subject=f"contact:{i}",
                     evidence=(Evidence("mbox:/inbox", f"<m{i}>", authored_by_owner=False,
                                        excerpt=" ".join(b.split())[:200]),))
            for i, b in enumerate(bodies)]


def test_clean_bipia_has_zero_false_alarms() -> None:
    bodies = [m.content for m in C.clean_emails()]
    assert [b[:50] for b in bodies if scan_text(b, tripwires=False)] == []
    assert [b[:50] for b in bodies if scan_text(b)] == []  # even the tripwires stay quiet here
    gated = gate(_contact_facts(bodies))
    assert gated.quarantined == []


@pytest.mark.parametrize("name", sorted(ENRON))
def test_enron_false_alarm_rate_is_bounded(name: str, hermetic: Path) -> None:
    path = realdata_by_digest(ENRON[name])
    owner = MailOracle(path).address  # the mailbox's most frequent recipient
    result = scan([str(path)], settings=load_settings(hermetic / f"ms-{name}"), owners=[owner])
    items = sum(r.items for r in result.reports)
    assert items > 300
    assert result.quarantined == [], "heuristic proposals carry no free text, so nothing to quarantine"
    bodies = _bodies(path)
    gated = gate(_contact_facts(bodies))
    dropped = collections.Counter(q.reason for q in gated.quarantined)
    raw_hermes = sum(1 for b in bodies if scan_text(b, tripwires=False, structure=False))
    raw_full = sum(1 for b in bodies if scan_text(b))
    print(f"\n[{name}] messages={len(bodies)} pipeline quarantines=0 "
          f"gate excerpt drops={sum(dropped.values())} {dict(dropped)} "
          f"raw hermes-set={raw_hermes} raw with tripwires={raw_full}")
    assert sum(dropped.values()) <= len(bodies) // 100
    assert raw_hermes <= len(bodies) // 100
