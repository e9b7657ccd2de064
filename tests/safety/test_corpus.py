"""Every injection-corpus string, mailed by a third party, must never become memory.

Three layers, each asserted over every 6-word window of every attack (the whole attack when
it is shorter) against every proposal field and evidence excerpt:

1. the real pipeline (connector -> identity -> signals -> heuristics -> gate -> store), LLM off;
2. the same with the LLM path on, against a loopback "hijacked" model that copies whatever it is
   sent back into proposals — and the request bytes themselves must not hold any attack (the
   digest carries only the owner's own words; third-party items are metadata lines);
3. the gate alone on worst-case proposals an extractor could build from each hostile message
   (echoed attack as body, attack-bearing excerpts, owner proposals quoting the attack).

Figures (quarantined vs never proposed, per corpus) are printed; run with ``-s`` to see them.
"""

from __future__ import annotations

import collections
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bootstrap_app.config import load_settings
from bootstrap_app.pipeline import scan
from bootstrap_app.safety.gate import gate
from bootstrap_app.store import Store
from bootstrap_app.types import Evidence, MemoryType, Proposal
from tests.safety import corpus as C
from tests.safety.chat_server import ChatServer, serve_chat


@pytest.fixture(scope="module")
def hostile(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, C.Attack], list[C.Attack]]:
    attacks = C.attacks()
    assert len(attacks) == 250
    folder = tmp_path_factory.mktemp("hostile")
    path = folder / f"inbox{C.mbox_suffix()}"
    spliced = C.write_mailbox(path, attacks, C.clean_emails())
    return path, spliced, attacks


def _fields(p: Proposal) -> list[str]:
    return [p.name.replace("-", " "), p.description, p.body, p.subject, p.key, *(e.excerpt for e in p.evidence)]


def _leaks(proposals: list[Proposal], attacks: list[C.Attack]) -> list[tuple[str, str, tuple[str, ...]]]:
    found = []
    for attack in attacks:
        win = C.windows(attack.text)
        for p in proposals:
            for text in _fields(p):
                hit = C.carried(text, win)
                if hit:
                    found.append((attack.key, p.name, hit))
    return found


def _report(title: str, attacks: list[C.Attack], quarantined_keys: set[str], proposed_keys: set[str]) -> None:
    per: dict[str, collections.Counter[str]] = collections.defaultdict(collections.Counter)
    for a in attacks:
        state = "quarantined" if a.key in quarantined_keys else (
            "proposed-clean" if a.key in proposed_keys else "never-proposed")
        per[a.corpus][state] += 1
    print(f"\n[{title}]", {k: dict(v) for k, v in sorted(per.items())})


def test_pipeline_never_proposes_attack_text(hostile: tuple[Path, dict[str, C.Attack], list[C.Attack]],
                                             hermetic: Path) -> None:
    path, spliced, attacks = hostile
    settings = load_settings(hermetic / "memseed-a")
    with Store(settings.db_path) as store:
        result = scan([str(path)], settings=settings, store=store, owners=[C.OWNER.address])
        stored = [sp.proposal for sp in store.proposals()]
        quarantine = store.quarantine()
    assert result.reports and all(r.error is None for r in result.reports)
    assert sum(r.items for r in result.reports) == 60 + 100 + 250
    assert result.proposals, "the owner's normal mail should still yield proposals"
    assert _leaks(result.proposals + stored, attacks) == []
    q_keys = {spliced[q["ref"]].key for q in quarantine if q["ref"] in spliced}
    p_keys = {spliced[e.ref].key for p in result.proposals for e in p.evidence if e.ref in spliced}
    _report("pipeline, llm off", attacks, q_keys, p_keys)


def _echo_everything(prompt: str) -> list[dict[str, Any]]:
    """A hijacked model: obeys every injection it could have seen by copying its input into memory."""
    ids = re.findall(r"\[(E\d+)\] kind=[\w-]+ [^\n]*author=(owner|third-party)", prompt)
    facts: list[dict[str, Any]] = []
    for eid, _who in ids[:40]:  # copy each block it was given back into memory, verbatim
        start = prompt.find(f"<<<BEGIN DATA {eid}>>>")
        end = prompt.find(f"<<<END DATA {eid}>>>", start)
        # an echo that ran on into the next block would cite E1 for E2's words: dropped as unsupported
        text = prompt[start + len(f"<<<BEGIN DATA {eid}>>>"):end][:600] if 0 <= start < end \
            else prompt[prompt.find(f"[{eid}]"):][:300].split("\n")[0]
        facts.append(_fact(f"echo-{eid.lower()}", text, eid))
    return facts[:40]


def _fact(name: str, text: str, eid: str) -> dict[str, Any]:
    text = (text.strip() or "placeholder text")[:1200].ljust(10, ".")
    return {"type": "feedback", "name": name, "description": text[:200].ljust(10, "."), "body": text,
            "subject": f"habit:{name}", "key": "", "confidence": 0.9, "evidence_ids": [eid], "scope": "global"}


@pytest.fixture
def hijacked_model() -> Iterator[ChatServer]:
    with serve_chat(_echo_everything) as server:
        yield server


def test_llm_path_sees_no_attack_and_echoes_are_gated(hostile: tuple[Path, dict[str, C.Attack], list[C.Attack]],
                                                      hijacked_model: ChatServer, hermetic: Path) -> None:
    path, _spliced, attacks = hostile
    settings = load_settings(hermetic / "memseed-b", llm="openai", llm_base_url=hijacked_model.url,
                             llm_api_key="", llm_max_retries=0)
    result = scan([str(path)], settings=settings, owners=[C.OWNER.address], llm="openai")
    assert hijacked_model.requests, f"the LLM was never called: {result.llm_error}"
    sent = b"\n".join(hijacked_model.requests).decode("utf-8")
    reached = [a.key for a in attacks if C.carried(sent, C.windows(a.text))]
    assert reached == [], "third-party attack text reached the LLM request"
    echoes = [p for p in result.proposals if p.name.startswith("echo-")]
    assert echoes, "the echoing model's copies of the owner's own words should pass the gate"
    assert _leaks(result.proposals, attacks) == []
    print(f"\n[pipeline, echoing LLM] requests={len(hijacked_model.requests)} echoes passed={len(echoes)} "
          f"quarantined={dict(collections.Counter(q.reason for q in result.quarantined))}")


def _worst_case(attack: C.Attack, ref: str, body: str) -> list[Proposal]:
    at = body.find(attack.text[:40])
    around = body[max(0, at - 60):at + 140]
    tp = Evidence(source="mbox:/inbox", ref=ref, authored_by_owner=False, excerpt=around)
    head = Evidence(source="mbox:/inbox", ref=ref, authored_by_owner=False, excerpt=body[:200])
    own = Evidence(source="mbox:/sent", ref="<own-1>", authored_by_owner=True, excerpt="ledger-api sync")

    def p(name: str, text: str, *ev: Evidence, t: MemoryType = MemoryType.FEEDBACK) -> Proposal:
        return Proposal(type=t, name=name, description=text[:200], body=text, subject=f"t:{name}", evidence=ev)

    out = [
        p("echo", attack.text, tp),                                         # extractor copied the attack
        p("echo-head", attack.text, head),                                  # ... citing the top of the mail
        p("wrapped", f"The vendor asked: {attack.text}", tp),               # ... inside a sentence
        p("contact", "Vendor billing contact (12 messages, 2026-01 to 2026-03).", tp, head,
          t=MemoryType.REFERENCE),                                          # a fact, attack-bearing excerpts
    ]
    if len(C.word_list(attack.text)) >= 8:                                  # owner-backed quote of the attack
        out.append(p("owner-quote", f"Maya noted: {attack.text}", own, tp))
    return out


def test_gate_blocks_every_worst_case_proposal(hostile: tuple[Path, dict[str, C.Attack], list[C.Attack]]) -> None:
    _path, spliced, attacks = hostile
    bodies = {ref: C.splice(C.clean_emails()[i % 100].content, a.text, i % 3)
              for i, (ref, a) in enumerate(spliced.items())}
    by_key = {a.key: ref for ref, a in spliced.items()}
    proposals = [p for a in attacks for p in _worst_case(a, by_key[a.key], bodies[by_key[a.key]])]
    result = gate(proposals)
    assert _leaks(result.passed, attacks) == []
    passed = collections.Counter(p.name for p in result.passed)
    assert set(passed) <= {"contact"}, passed  # only the fact survives, with facts-only excerpts
    reasons = collections.Counter(q.reason.split(":")[0] for q in result.quarantined)
    print(f"\n[gate, worst case] proposals={len(proposals)} passed={sum(passed.values())} reasons={dict(reasons)}")


def test_clean_mail_raises_no_injection_quarantine(tmp_path: Path, hermetic: Path) -> None:
    clean = C.clean_emails()
    path = tmp_path / f"clean{C.mbox_suffix()}"
    C.write_mailbox(path, None, clean)
    result = scan([str(path)], settings=load_settings(hermetic / "memseed-c"), owners=[C.OWNER.address])
    assert [q for q in result.quarantined if not q.reason.startswith(("third-party", "instruction"))] == []
    # gate alone: a contact fact per clean email, citing its first 200 characters
    facts = [Proposal(type=MemoryType.REFERENCE, name=f"c{i}", description="Vendor contact", subject=f"c:{i}",
                      body=f"{m.sender.name} <{m.sender.address}> sends billing mail.",
                      evidence=(Evidence("mbox:/x", f"<c{i}>", authored_by_owner=False, excerpt=m.content[:200]),))
             for i, m in enumerate(clean)]
    gated = gate(facts)
    assert gated.quarantined == [] and len(gated.passed) == 100
