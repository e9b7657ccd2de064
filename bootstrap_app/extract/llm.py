"""Opt-in LLM extraction: send the digest, accept only schema-valid, evidence-grounded facts.

Why it is shaped like this (safety.md §2, §5, §8): the model has no tools and answers in a fixed
JSON schema, so the worst an injection hidden in someone's mail can do is produce a bad
*proposal*, which then meets the same safety gate and the same human review as every heuristic
proposal. Around that:

- the request is built only from :func:`~bootstrap_app.extract.digest.build_digest` (bounded,
  redacted, owner-text only) and can be previewed before it is sent;
- the reply is validated strictly (JSON Schema, ``additionalProperties: false``); a reply that
  is not JSON or not the schema's top-level shape is an :class:`~bootstrap_app.errors.LLMError`,
  a single malformed fact is dropped with a reason;
- a fact citing an evidence id the digest does not hold is dropped (principle 2: evidence or it
  did not happen): a made-up citation means the model is not reading the data;
- an instruction (a ``feedback`` fact, or any fact carrying a dangerous step) may
  cite only blocks whose author is proven to be the owner: third-party citations are removed from
  it, and so is every cited block that does not contain the fact's key text (its code spans,
  URLs and addresses, word for word); a fact left with nothing to stand on is dropped as
  ungrounded (:func:`ground_evidence`);
- the output is redacted again and every proposal carries the ``llm`` flag.

- a kept fact must be supported by the text it cites: its names, numbers, dates and key terms
  appear there (:mod:`bootstrap_app.extract.grounding`), or it is dropped with that reason.

Fitting the model and the server: the context size and response format the endpoint takes are
found out and remembered (:mod:`~bootstrap_app.extract.llm_caps`), the digest is sized to leave
room for the answer, and the answer is streamed inside one time budget
(:mod:`~bootstrap_app.extract.llm_transport`). A context-length error shrinks the digest once.
Everything that happened (facts returned, kept, dropped and why; tokens; time) is in the
:class:`LLMResult`, for the scan summary, ``--llm-report`` and the wizard.
"""

from __future__ import annotations

import json
import logging
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from bootstrap_app.config import Settings
from bootstrap_app.errors import LLMContextError, LLMError
from bootstrap_app.text.clean import clean_text
from bootstrap_app.types import Evidence, Item, MemoryType, Proposal, legacy_repo_subject

from . import prompts
from .digest import Digest, llm_request, settings_digest, settings_model
from .grounding import drop_category, ground_evidence, key_texts, support_gaps, ungrounded_instruction
from .llm_caps import Capabilities, Plan, plan, remember
from .llm_transport import Budget, LLMProgress, Reply, complete, make_client

__all__ = ["LLMResult", "ground_evidence", "key_texts", "llm_extract", "llm_proposals", "make_client",
           "proposals_from_reply", "validate_reply"]

log = logging.getLogger(__name__)

MAX_LLM_CONFIDENCE = 0.9
"""Model confidence is uncalibrated; it never outranks a fact the heuristics can count."""
_DISCARDED = "try again or another llm_model; the reply was discarded"


@dataclass
class LLMResult:
    """Everything one LLM extraction produced, for the pipeline, notebooks and the app."""

    proposals: list[Proposal]
    dropped: list[tuple[str, str]] = field(default_factory=list)
    """(fact name or index, reason) for every fact the validation refused."""
    digest: Digest | None = None
    mode: str = "json_schema"
    model: str = ""
    returned: int = 0
    """Facts in the model's answer, kept or not."""
    reply: Reply | None = None
    context: int = 0
    context_from: str = ""
    notes: list[str] = field(default_factory=list)
    """What the pass had to do on the way (a refused format, a shrunk digest)."""

    def drop_counts(self) -> dict[str, int]:
        """Dropped facts per category (see :data:`~bootstrap_app.extract.grounding.DROP_CATEGORIES`)."""
        return dict(Counter(drop_category(reason) for name, reason in self.dropped if name != "*").most_common())

    def summary(self) -> dict[str, Any]:
        """The pass in numbers, for ``--json-summary`` and the wizard."""
        reply = self.reply
        return {"model": self.model, "mode": self.mode, "returned": self.returned, "kept": len(self.proposals),
                "dropped": sum(self.drop_counts().values()), "drop_reasons": self.drop_counts(),
                "answer_tokens": reply.completion_tokens if reply else 0,
                "prompt_tokens": reply.prompt_tokens if reply else 0,
                "seconds": round(reply.seconds, 2) if reply else 0.0, "requests": reply.requests if reply else 0,
                "digest_chars": self.digest.stats.get("chars", 0) if self.digest else 0,
                "context": self.context, "context_from": self.context_from, "notes": list(self.notes)}

    def report(self) -> list[dict[str, Any]]:
        """One record per fact the model returned: kept, or dropped with its category and reason."""
        rows: list[dict[str, Any]] = [{"name": p.name, "status": "kept", "type": str(p.type),
                                       "evidence": [e.ref for e in p.evidence]} for p in self.proposals]
        rows += [{"name": name, "status": "dropped", "category": drop_category(reason), "reason": reason}
                 for name, reason in self.dropped]
        return rows


def _json_in(text: str) -> Any:
    """The JSON object in an answer: the whole text, a fenced block, or the first object in prose."""
    body = text.strip()
    if body.startswith("```"):  # json_object-mode servers sometimes fence the JSON
        body = body.strip("`").removeprefix("json").strip()
    # strict=False: a raw newline or tab inside a string is taken (llama-cpp-python's JSON grammar
    # lets a model write them; SmolLM2-135M did on the demo, and strict parsing lost the answer)
    try:
        return json.loads(body, strict=False)
    except json.JSONDecodeError as first:
        decoder = json.JSONDecoder(strict=False)
        start = body.find("{")
        while start >= 0:  # plain-text mode: the model may wrap the object in prose
            try:
                return decoder.raw_decode(body, start)[0]
            except json.JSONDecodeError:
                start = body.find("{", start + 1)
        raise LLMError(f"the LLM reply is not JSON ({first.msg} at char {first.pos})", hint=_DISCARDED) from first


def validate_reply(text: str) -> tuple[list[dict[str, Any]], list[tuple[str, str]]]:
    """Parse and validate a reply: (valid facts, dropped (name, reason)). Bad top level -> LLMError."""
    import jsonschema

    data = _json_in(text)
    if not isinstance(data, dict) or set(data) != {"proposals"} or not isinstance(data["proposals"], list):
        got = (f"an object with keys {', '.join(sorted(str(k) for k in data)[:6]) or '(none)'}"
               if isinstance(data, dict) else f"a JSON {type(data).__name__}")
        raise LLMError(f"the LLM reply does not match the proposal schema (want {{\"proposals\": [...]}}, "
                       f"got {got})", hint=_DISCARDED)
    schema = prompts.proposal_schema()
    if len(data["proposals"]) > schema["properties"]["proposals"]["maxItems"]:
        raise LLMError("the LLM reply holds more proposals than the schema allows", hint=_DISCARDED)
    item_validator = jsonschema.Draft202012Validator(schema["properties"]["proposals"]["items"])
    good: list[dict[str, Any]] = []
    dropped: list[tuple[str, str]] = []
    for index, fact in enumerate(data["proposals"]):
        name = str(fact.get("name", f"#{index}")) if isinstance(fact, dict) else f"#{index}"
        if isinstance(fact, dict) and fact.get("evidence_ids") == []:
            dropped.append((name, "cites no evidence"))
            continue
        errors = sorted(item_validator.iter_errors(fact), key=lambda e: list(e.path))
        if errors:
            where = "/".join(str(p) for p in errors[0].path) or "fact"
            dropped.append((name, f"off-schema at {where}: {errors[0].message[:160]}"))
            continue
        good.append(fact)
    return good, dropped


def proposals_from_reply(facts: Sequence[dict[str, Any]], digest: Digest) -> tuple[list[Proposal], list[tuple[str, str]]]:
    """Turn validated facts into Proposals; a fact its cited evidence does not support is dropped."""
    proposals: list[Proposal] = []
    dropped: list[tuple[str, str]] = []
    for fact in facts:
        ids = list(dict.fromkeys(fact["evidence_ids"]))
        unknown = [i for i in ids if i not in digest.evidence]
        if unknown:
            dropped.append((fact["name"], f"cites evidence the digest does not hold: {', '.join(unknown)}"))
            continue
        flags = ["llm"]
        values: dict[str, str] = {}
        for key in ("name", "description", "body", "subject", "key"):
            values[key] = clean_text(str(fact[key]))
            if "[REDACTED:" in values[key] and "[REDACTED:" not in str(fact[key]):
                flags.append("redacted")
        if not values["body"] or not values["subject"]:
            dropped.append((fact["name"], "empty after cleaning"))
            continue
        ids, why = ground_evidence(str(fact["type"]), values, ids, digest)
        if not ids:
            dropped.append((fact["name"], f"ungrounded: {why}"))
            continue
        evidence: tuple[Evidence, ...] = tuple(digest.evidence[i] for i in ids)
        ungrounded = all(e.authored_by_owner for e in evidence) and ungrounded_instruction(values, ids, digest)
        if ungrounded:
            dropped.append((fact["name"], f"reads as an instruction ({ungrounded!r}) that the cited owner "
                                          "text does not contain"))
            continue
        gaps = support_gaps(values, ids, digest)
        if gaps:
            dropped.append((fact["name"], "not supported by the cited text: "
                                          f"{', '.join(repr(g) for g in gaps[:5])} not in {', '.join(ids)}"))
            continue
        scope_name = str(fact["scope"]).strip()
        scope = "global" if scope_name.lower() == "global" else digest.scopes.get(scope_name, "global")
        if not any(e.authored_by_owner for e in evidence):
            flags.append("third-party-evidence")
        # "repo:<name>:…" about a scoped repository names that checkout, as memseed's own repo facts
        # do: two checkouts with one folder name must stay two questions (types.repo_subject)
        subject = legacy_repo_subject(values["subject"], scope) or values["subject"]
        proposals.append(Proposal(
            type=MemoryType(fact["type"]), name=values["name"], description=values["description"],
            body=values["body"], subject=subject, key=values["key"], scope=scope,
            confidence=min(MAX_LLM_CONFIDENCE, float(fact["confidence"])), evidence=evidence,
            flags=tuple(dict.fromkeys(flags)),
        ))
    return proposals, dropped


def _overflow(exc: LLMContextError, steps: Plan, chars: int) -> str:
    """"the model's context is N tokens; memseed sent M ..." from what the server said."""
    context = exc.context or steps.context
    sent = (f"memseed sent {exc.sent} prompt tokens" if exc.sent else f"memseed sent a {chars}-character digest")
    where = f"the model's context is {context} tokens" if context else "the request exceeds the model's context"
    return f"{where}; {sent} and asked for up to {steps.max_tokens} answer tokens"


def _shrunk(exc: LLMContextError, steps: Plan, chars: int) -> int:
    """A digest size that should fit, from the numbers in the error (or half, without them).

    The server's own count gives this model's characters per token for this prompt; the digest
    then gets the context less the answer, the fixed prompt and a tenth to spare.
    """
    fixed = len(prompts.system_prompt()) + len(prompts.render_user(""))
    if exc.context and exc.sent:
        ratio = (chars + fixed) / exc.sent
        room = exc.context - steps.max_tokens - 64
        return int(min(chars * 0.9, room * ratio * 0.9 - fixed))
    return chars // 2


def llm_extract(sample: Sequence[Item], signals: dict[str, Any], *, settings: Settings, client: Any = None,
                progress: Callable[[LLMProgress], None] | None = None,
                should_stop: Callable[[], bool] | None = None) -> LLMResult:
    """Digest -> request -> strict validation -> grounded Proposals, with the reasons for every drop.

    ``progress`` hears each streamed token count and retry (the CLI's progress line, the wizard);
    ``should_stop`` returning True closes the request and raises
    :class:`~bootstrap_app.errors.LLMCancelled`.
    """
    budget = Budget(settings.llm_budget)
    steps = plan(settings)
    model = settings_model(settings)
    digest = settings_digest(sample, signals, settings, steps.max_chars)
    if not digest.evidence:  # nothing a fact could cite: every answer would be dropped, so send nothing
        return LLMResult(proposals=[], dropped=[("*", "no items to cite as evidence; nothing was sent")],
                         digest=digest, mode="none", model=model)
    if steps.context and steps.max_chars < 2_000:
        raise LLMError(f"the model's context is {steps.context} tokens ({steps.context_from}); after "
                       f"{steps.max_tokens} for the answer there is no room for a digest",
                       hint="raise the server's context (llama.cpp: --ctx-size / n_ctx), or lower llm_max_tokens")
    own = client is None
    if client is None:
        client = make_client(settings)
    notes: list[str] = []
    context, modes = steps.context, steps.modes
    try:
        for attempt in (1, 2):
            def payload(mode: str, digest: Digest = digest) -> dict[str, Any]:
                return llm_request(digest, model=model, mode=mode, max_tokens=steps.max_tokens)

            try:
                reply = complete(client, payload, modes, settings=settings, budget=budget,
                                 progress=progress, should_stop=should_stop)
                break
            except LLMContextError as exc:
                chars = len(digest.text)
                message = _overflow(exc, steps, chars)
                smaller = _shrunk(exc, steps, chars)
                context = exc.context or context
                modes = modes[modes.index(exc.mode):] if exc.mode in modes else modes  # refused ones stay refused
                if attempt == 2 or smaller < 2_000:
                    raise LLMError(message, hint="lower llm_max_chars or raise the server's context "
                                                 "(llama.cpp: --ctx-size / n_ctx)") from exc
                notes.append(f"{message}; retried once with a {smaller}-character digest")
                log.info("LLM context overflow (%s); shrinking the digest to %d characters", message, smaller)
                digest = settings_digest(sample, signals, settings, smaller)
    finally:
        if own:
            client.close()
    if reply.mode != steps.modes[0]:
        notes.append(f"the server refused response format {', '.join(steps.modes[:steps.modes.index(reply.mode)])}; "
                     f"answered in {reply.mode} (remembered for next time)")
    remember(settings, Capabilities(mode=reply.mode, context=context, context_from=steps.context_from
                                    if context == steps.context else "context-length error"))
    if reply.finish_reason == "length":
        raise LLMError(f"the LLM reply was cut off at the answer limit ({steps.max_tokens} tokens, "
                       f"{reply.completion_tokens} received)",
                       hint="raise llm_max_tokens (the server's context permitting) or lower llm_max_chars")
    if not reply.content.strip():
        raise LLMError("the LLM answered with an empty message", hint="try again, or run with --llm off")
    try:
        facts, dropped = validate_reply(reply.content)
    except LLMError as exc:
        if reply.finish_reason:
            raise
        # no finish reason: the server broke the stream off (llama-cpp-python ends a streamed
        # answer with [DONE] when another request waits for the model), so say that, not "bad JSON"
        raise LLMError(f"the LLM server ended its answer early, without a finish reason, after "
                       f"{reply.completion_tokens} tokens ({exc.args[0]})",
                       hint="scan again when nothing else is asking the same server; " + exc.hint) from exc
    proposals, more = proposals_from_reply(facts, digest)
    for name, reason in (*dropped, *more):
        log.info("LLM fact %s dropped: %s", name, reason)
    return LLMResult(proposals=proposals, dropped=[*dropped, *more], digest=digest, mode=reply.mode, model=model,
                     returned=len(facts) + len(dropped), reply=reply, context=context,
                     context_from=steps.context_from, notes=notes)


def llm_proposals(sample: Sequence[Item], signals: dict[str, Any], *, settings: Settings, client: Any = None) -> list[Proposal]:
    """The contract entry point: proposals from the LLM, each flagged ``llm``, ready for the gate."""
    return llm_extract(sample, signals, settings=settings, client=client).proposals
