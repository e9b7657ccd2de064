"""A kept fact must be supported by the text it cites, not merely cite an id that exists.

The scripted model cites real evidence ids for facts those items never state (invented places,
dates, numbers, names, tools). None may be kept; each drop names what the cited text lacks.
Facts the cited text does state are kept, so the check is not simply refusing everything.
"""

from __future__ import annotations

from typing import Any

from bootstrap_app.config import Settings
from bootstrap_app.extract.digest import Digest, build_digest
from bootstrap_app.extract.llm import llm_extract

from .conftest import FakeLLM, footprint_items, footprint_signals


def _eid(digest: Digest, ref: str) -> str:
    return next(eid for eid, ev in digest.evidence.items() if ev.ref == ref)


def _fact(name: str, description: str, body: str, key: str, cite: list[str], kind: str = "user") -> dict[str, Any]:
    return {"type": kind, "name": name, "description": description, "body": body, "subject": f"llm:{name}",
            "key": key, "confidence": 0.8, "evidence_ids": cite, "scope": "global"}


def test_invented_facts_citing_real_ids_are_all_dropped(llm_server: FakeLLM, llm_settings: Settings) -> None:
    digest = build_digest(footprint_items(), footprint_signals(), max_chars=llm_settings.llm_max_chars)
    sent, runbook = _eid(digest, "<sent-1@northwind>"), _eid(digest, "runbooks/ledger-oncall.md")
    standup = _eid(digest, "standup-1")
    invented = [
        _fact("moved-to-lisbon", "Maya moved to Lisbon in 2024", "Maya relocated to Lisbon in 2024.",
              "lives in Lisbon", [sent]),
        _fact("kubernetes-version", "The ledger runs on Kubernetes 1.29",
              "ledger-api is deployed on Kubernetes 1.29 clusters.", "Kubernetes 1.29", [runbook]),
        _fact("standup-thursday", "Standup moved to Thursdays at 15:00",
              "The platform standup is on Thursdays at 15:00 with Priya.", "Thursday standup", [standup]),
        _fact("prefers-rust", "Maya writes her services in Rust", "Maya prefers Rust for backend services.",
              "rust backend services", [sent, runbook]),
        _fact("manager-role", "Maya manages the payments team", "Maya is the engineering manager of Payments.",
              "manages payments", [sent], kind="project"),
    ]
    llm_server.reply_proposals(invented)
    result = llm_extract(footprint_items(), footprint_signals(), settings=llm_settings)
    assert result.proposals == []
    assert result.returned == 5
    reasons = dict(result.dropped)
    assert set(reasons) == {f["name"] for f in invented}
    for name, reason in reasons.items():
        assert reason.startswith("not supported by the cited text"), (name, reason)
    assert "'Lisbon'" in reasons["moved-to-lisbon"] and "'1.29'" in reasons["kubernetes-version"]
    assert result.drop_counts() == {"not supported by the cited text": 5}


def test_facts_the_cited_text_states_are_kept(llm_server: FakeLLM, llm_settings: Settings) -> None:
    digest = build_digest(footprint_items(), footprint_signals(), max_chars=llm_settings.llm_max_chars)
    sent, runbook = _eid(digest, "<sent-1@northwind>"), _eid(digest, "runbooks/ledger-oncall.md")
    standup = _eid(digest, "standup-1")
    stated = [
        _fact("ledger-uses-uv", "Maya uses uv, not pip, for ledger-api", "ledger-api uses uv instead of pip.",
              "uv for ledger-api", [sent], kind="project"),
        _fact("oncall-pages-platform", "The ledger on-call runbook says to page the platform rotation",
              "Ledger on-call: page the platform rotation.", "ledger on-call runbook", [runbook], kind="reference"),
        _fact("platform-standup", "Maya runs a weekday Platform standup",
              "Maya organises the Platform standup every weekday.", "platform standup", [standup]),
    ]
    llm_server.reply_proposals(stated)
    result = llm_extract(footprint_items(), footprint_signals(), settings=llm_settings)
    assert [p.name for p in result.proposals] == ["ledger-uses-uv", "oncall-pages-platform", "platform-standup"]
    assert result.dropped == []


def test_summary_counts_each_drop_reason(llm_server: FakeLLM, llm_settings: Settings) -> None:
    """Issue 22's summary: returned, kept, dropped by category (what the CLI and the wizard show)."""
    digest = build_digest(footprint_items(), footprint_signals(), max_chars=llm_settings.llm_max_chars)
    sent = _eid(digest, "<sent-1@northwind>")
    llm_server.reply_proposals([
        _fact("ledger-uses-uv", "Maya uses uv, not pip, for ledger-api", "ledger-api uses uv.", "uv for ledger-api",
              [sent], kind="project"),
        _fact("no-evidence-a", "Maya likes tea", "Maya likes tea.", "tea", []),
        _fact("no-evidence-b", "Maya likes coffee", "Maya likes coffee.", "coffee", []),
        _fact("lisbon", "Maya lives in Lisbon", "Maya lives in Lisbon.", "Lisbon", [sent]),
        {**_fact("bad-confidence", "x", "y", "z", [sent]), "confidence": 1.5},
    ])
    result = llm_extract(footprint_items(), footprint_signals(), settings=llm_settings)
    summary = result.summary()
    assert (summary["returned"], summary["kept"], summary["dropped"]) == (5, 1, 4)
    assert summary["drop_reasons"] == {"cite no evidence": 2, "not supported by the cited text": 1,
                                       "off-schema": 1}
    rows = result.report()
    assert {r["name"]: r["status"] for r in rows}["ledger-uses-uv"] == "kept"
    assert {r["name"]: r.get("category") for r in rows}["lisbon"] == "not supported by the cited text"
