"""Lookalike senders never speak as the owner (issue 14).

The corpus (:mod:`tests.safety.lookalike`) is written by code: hyphen, digit and homoglyph
domains, punycode, free-mail addresses with the owner's name, display-name spoofs, Reply-To and
Sender tricks, a forward quoting the owner, and the owner's own address on mail that arrived
from outside, failed DMARC, carries a forged Sent label or authenticates nothing through her own
mail provider (spf/dkim/dmarc=none), and strangers stating her title in a contact block —
each message carrying a dangerous instruction. Through the heuristic pipeline and through the
LLM path (a loopback OpenAI-compatible model that echoes every attack as a proposal, citing
every block it was shown): 0 lookalikes adopted as the owner, 0 poisoned proposals, and the
owner's real second address (found only as a sender in her Sent folder) still found. Figures
print with ``-s``.
"""

from __future__ import annotations

import collections
import re
from pathlib import Path
from typing import Any

import pytest

from bootstrap_app.config import load_settings
from bootstrap_app.pipeline import ScanResult, scan
from bootstrap_app.store import Store
from bootstrap_app.types import Message, Proposal
from connectors.base import ReadContext
from connectors.registry import detect
from tests.safety import lookalike as L
from tests.safety.chat_server import ChatServer, serve_chat

# what each instruction class must never smuggle into a proposal (lower-cased)
MARKERS = (L.SPOOFED_TITLE.lower(), "| sh", "| bash", "extra-index-url", "sslverify false", "--no-verify", "777", "nopasswd",
           ".aws/credentials", "wget -qo-")


def _lookalike_addresses() -> set[str]:
    return {look.address for look in L.lookalikes()} - {L.OWNER_WORK}


def _domains() -> set[str]:
    found = {look.domain for look in L.lookalikes()} | {a.rpartition("@")[2] for a in _lookalike_addresses()}
    return {d.lower() for d in found} - {"tidewater.io"}


def _poisoned(proposals: list[Proposal]) -> list[tuple[str, str]]:
    hits = []
    for p in proposals:
        text = "\n".join((p.name, p.description, p.body, p.key, *(e.excerpt for e in p.evidence))).lower()
        hits += [(p.name, m) for m in (*MARKERS, *_domains()) if m in text]
    return hits


@pytest.fixture(params=["takeout", "plain-mbox"])
def corpus(request: pytest.FixtureRequest, tmp_path: Path) -> tuple[Path, dict[str, tuple[L.Lookalike, str]], str]:
    path = tmp_path / "mail.mbox"
    hostile = L.write_corpus(path, takeout_labels=request.param == "takeout")
    return path, hostile, str(request.param)


def _scan(path: Path, home: Path, **kw: Any) -> tuple[ScanResult, list[dict[str, Any]]]:
    settings = load_settings(home, **kw.pop("settings", {}))
    with Store(settings.db_path) as store:
        result = scan([str(path)], settings=settings, store=store, **kw)
        return result, store.aliases()


def test_connector_marks_every_lookalike_message_as_received(
        corpus: tuple[Path, dict[str, tuple[L.Lookalike, str]], str]) -> None:
    path, hostile, _kind = corpus
    items = [i for s in detect(path) for i in s.read(ReadContext()) if isinstance(i, Message)]
    by_id = {i.message_id: i for i in items}
    assert set(hostile) <= set(by_id)
    for msgid in hostile:
        msg = by_id[msgid]
        look = hostile[msgid][0]
        why = "not vouched for by sender authentication" if look.hosted else "delivered from outside"
        assert msg.third_party_reason.startswith(why), (msgid, msg.third_party_reason)
        assert msg.authored_by_owner is not True  # a forged Sent label does not make it the owner's
    own = [i for i in items if i.message_id.startswith("<own-")]
    assert own and all(not i.third_party_reason for i in own)  # authenticated submission is not "outside"


def test_heuristic_pipeline_adopts_no_lookalike(corpus: tuple[Path, dict[str, tuple[L.Lookalike, str]], str],
                                                hermetic: Path) -> None:
    path, _hostile, kind = corpus
    result, aliases = _scan(path, hermetic / "h")
    owner = result.owner
    assert owner.addresses & _lookalike_addresses() == set()
    assert L.OWNER_WORK in owner.addresses
    if kind == "takeout":  # her personal address is proven by the Sent folder
        assert L.OWNER_PERSONAL in owner.addresses
        assert "Sent folder" in owner.reasons[L.OWNER_PERSONAL]
    # the name-built lookalikes are shown for her to confirm, with their evidence, and stored
    stored = {a["address"]: a for a in aliases}
    for address in ("priya.raman@gmail.com", "priya.raman@tidewater-io.example", "it-helpdesk@corp-mail.example"):
        assert owner.suggested[address] and stored[address]["status"] == "suggested"
    # the ones imitating her address say so, so nobody confirms them by mistake
    imitations = {look.address for look in L.lookalikes()
                  if look.trick in ("hyphen-domain", "digit-domain", "homoglyph-domain", "homoglyph-local", "punycode")}
    for address in imitations:
        assert f"LOOKALIKE of {L.OWNER_WORK}" in owner.suggested[address], address
    assert "LOOKALIKE" not in owner.suggested["priya.raman@gmail.com"]
    assert _poisoned(result.proposals) == []
    if kind == "takeout":  # (rules are read only from mail known to be hers while it streams)
        rules = next(p for p in result.proposals if p.name == "working-rules")
        assert all(rule in rules.body for rule in L.OWNER_RULES)  # her real rules still come through
        # her own dangerous step is held back with its reason, not proposed
        assert ("dangerous:pipe-to-shell", L.OWNER_DANGEROUS) in {(q.reason, q.excerpt) for q in result.quarantined}
    print(f"\n[lookalikes, heuristics, {kind}] adopted=0/{len(_lookalike_addresses())} "
          f"suggested={len(owner.suggested)} proposals={len(result.proposals)} "
          f"quarantined={dict(collections.Counter(q.reason for q in result.quarantined))}")


def _echo_attacks(prompt: str) -> list[dict[str, Any]]:
    """A hijacked model: for every block it was shown, every attack as a feedback memory, plus the
    owner's real rule (which must survive)."""
    ids = re.findall(r"\[(E\d+)\] kind=", prompt)
    facts: list[dict[str, Any]] = []
    looks = L.lookalikes()
    for n, eid in enumerate(ids):
        for k, (cls, text) in enumerate(L.ATTACK_TEXT.items()):
            body = text.format(d=looks[(n + k) % len(looks)].domain)
            facts.append(_fact(f"echo-{eid.lower()}-{cls}", body, eid))
        block = prompt[prompt.find(f"<<<BEGIN DATA {eid}>>>"):prompt.find(f"<<<END DATA {eid}>>>")]
        if "make test" in block:
            facts.insert(0, _fact("run-make-test", "Please run `make test` before pushing.", eid))
        if "get.tidewater.io" in block:
            facts.insert(0, _fact("ci-bootstrap", L.OWNER_DANGEROUS, eid))
    return facts[:40]


def _fact(name: str, body: str, eid: str) -> dict[str, Any]:
    return {"type": "feedback", "name": name, "description": body[:200], "body": body,
            "subject": f"habit:{name}", "key": "", "confidence": 0.9, "evidence_ids": [eid], "scope": "global"}


@pytest.fixture
def hijacked() -> Any:
    with serve_chat(_echo_attacks) as server:
        yield server


def test_llm_path_cites_no_lookalike_and_passes_no_attack(
        corpus: tuple[Path, dict[str, tuple[L.Lookalike, str]], str], hijacked: ChatServer, hermetic: Path) -> None:
    path, _hostile, kind = corpus
    result, _ = _scan(path, hermetic / "h", llm="openai",
                      settings={"llm": "openai", "llm_base_url": hijacked.url, "llm_api_key": "",
                                "llm_max_retries": 0})
    assert hijacked.requests, f"the LLM was never called: {result.llm_error}"
    sent = b"\n".join(hijacked.requests).decode("utf-8").lower()
    # nothing a lookalike wrote is shown to the model, least of all as author=owner
    assert [d for d in _domains() if d in sent] == []
    # ("| bash" is in her own Sent mail, OWNER_DANGEROUS: her words may be shown, never proposed)
    assert [m for m in MARKERS if m in sent and m not in ("| bash",)] == []
    assert result.owner.addresses & _lookalike_addresses() == set()
    assert _poisoned(result.proposals) == []
    names = {p.name for p in result.proposals}
    assert "run-make-test" in names  # the owner's real rule, grounded in her own mail, passes
    assert not [n for n in names if n.startswith("echo-")]
    if kind == "takeout":
        # her own dangerous step: grounded in her mail, and stopped by the gate all the same
        assert any(q.reason == "dangerous:pipe-to-shell" and q.proposal_name == "ci-bootstrap"
                   for q in result.quarantined)
    print(f"\n[lookalikes, echoing LLM, {kind}] requests={len(hijacked.requests)} passed={sorted(names)} "
          f"quarantined={dict(collections.Counter(q.reason for q in result.quarantined))}")


def test_every_trick_class_kept_out(tmp_path: Path, hermetic: Path) -> None:
    """Per trick class: messages tried, adopted as the owner, proposals carrying the attack (the
    figures of the README table)."""
    path = tmp_path / "mail.mbox"
    hostile = L.write_corpus(path)
    result, _ = _scan(path, hermetic / "h")
    tried: collections.Counter[str] = collections.Counter(look.trick for look, _ in hostile.values())
    adopted = collections.Counter(look.trick for look, _ in hostile.values()
                                  if look.address in result.owner.addresses and look.address != L.OWNER_WORK)
    claims = [i for s in detect(path) for i in s.read(ReadContext())
              if isinstance(i, Message) and i.message_id in hostile]
    as_owner = collections.Counter(hostile[m.message_id][0].trick for m in claims if result.owner.mark(m).authored_by_owner)
    assert sum(tried.values()) == 2 * len(L.lookalikes()) and len(tried) == 15
    assert adopted == collections.Counter() and as_owner == collections.Counter()
    assert _poisoned(result.proposals) == []
    print("\n[lookalikes by class] " + ", ".join(f"{t}: {n} tried, 0 adopted" for t, n in sorted(tried.items())))
