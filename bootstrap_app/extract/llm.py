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

Transport: the official ``openai`` client (any OpenAI-compatible server via ``llm_base_url``),
with its own bounded retries on 429/5xx honouring ``Retry-After``; servers that reject
``json_schema`` response formats get one retry in ``json_object`` mode.
"""

from __future__ import annotations

import ipaddress
import json
import logging
import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlparse

from bootstrap_app.config import Settings, resolve_secret
from bootstrap_app.errors import LLMError
from bootstrap_app.safety.dangerous import find_dangerous
from bootstrap_app.safety.injection import scan_text
from bootstrap_app.text.clean import clean_text
from bootstrap_app.text.unicode import shared_run, word_list
from bootstrap_app.types import Evidence, Item, MemoryType, Proposal, legacy_repo_subject

from . import prompts
from .digest import Digest, llm_request, settings_digest, settings_model

__all__ = ["LLMResult", "ground_evidence", "key_texts", "llm_extract", "llm_proposals", "make_client",
           "proposals_from_reply", "validate_reply"]

log = logging.getLogger(__name__)

NO_KEY_HINT = 'set OPENAI_API_KEY or llm_api_key = "env:NAME" in config.toml, or run with --llm off'
MAX_LLM_CONFIDENCE = 0.9
"""Model confidence is uncalibrated; it never outranks a fact the heuristics can count."""


@dataclass
class LLMResult:
    """Everything one LLM extraction produced, for the pipeline, notebooks and the app."""

    proposals: list[Proposal]
    dropped: list[tuple[str, str]] = field(default_factory=list)
    """(fact name or index, reason) for every fact the validation refused."""
    digest: Digest | None = None
    mode: str = "json_schema"
    model: str = ""


def _is_loopback(url: str) -> bool:
    host = urlparse(url).hostname or ""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def make_client(settings: Settings) -> Any:
    """An ``openai.OpenAI`` client from settings (key resolved from its ``env:``/``keyring:`` reference)."""
    try:
        import openai
    except ImportError as exc:  # a dependency, imported only when the opt-in LLM path runs
        raise LLMError("the LLM path needs the 'openai' package, which is missing from this install",
                       hint="reinstall memseed (`pip install --force-reinstall memseed`), or run with --llm off") \
            from exc
    base_url = settings.llm_base_url or None
    key = resolve_secret(settings.llm_api_key)
    if not key:
        if base_url and _is_loopback(base_url):
            key = "local-server"  # local OpenAI-compatible servers (llama.cpp, Ollama) take any key
        else:
            raise LLMError("no API key for the LLM", hint=NO_KEY_HINT)
    return openai.OpenAI(base_url=base_url, api_key=key,
                         timeout=settings.llm_timeout, max_retries=settings.llm_max_retries)


def _format_rejected(exc: Exception) -> bool:
    text = str(getattr(exc, "message", "") or exc).lower()
    return any(word in text for word in ("response_format", "json_schema", "structured", "schema"))


# What each transport failure of the ``openai`` client means, and what to do about it: (its
# exception class name, message, hint); ``{status}``, ``{model}`` and ``{exc}`` are filled in.
# First match wins, so a subclass (APITimeoutError) stands before its base (APIConnectionError).
# Any other status error (a 400 for the response format ...) is the caller's to judge.
_TRANSPORT_ERRORS = (
    ("AuthenticationError", "the LLM server refused the API key ({status})", NO_KEY_HINT),
    ("RateLimitError", "the LLM server is rate limiting and retries ran out",
     "wait a minute and scan again, or run with --llm off"),
    ("NotFoundError", "the LLM server does not know model {model!r} or the endpoint",
     "set llm_model (and llm_base_url) in config.toml"),
    ("APITimeoutError", "the LLM server did not answer in time",
     "raise llm_timeout in config.toml, or run with --llm off"),
    ("APIConnectionError", "cannot reach the LLM server: {exc}",
     "check llm_base_url and the network, or run with --llm off"),
)


def _call(client: Any, payload: dict[str, Any]) -> str:
    """Send ``payload``; map every transport failure to an LLMError with a hint."""
    import openai

    try:
        completion = client.chat.completions.create(**payload)
    except openai.APIError as exc:
        for name, message, hint in _TRANSPORT_ERRORS:
            if isinstance(exc, getattr(openai, name)):
                text = message.format(status=getattr(exc, "status_code", ""), model=payload.get("model"), exc=exc)
                raise LLMError(text, hint=hint) from exc
        raise  # the caller decides about status errors (format fallback); wrapped in _complete
    if not completion.choices:
        raise LLMError("the LLM answered with no choices", hint="try again, or run with --llm off")
    choice = completion.choices[0]
    refusal = getattr(choice.message, "refusal", None)
    if refusal:
        raise LLMError(f"the LLM refused: {refusal[:200]}", hint="run with --llm off")
    if choice.finish_reason == "length":
        raise LLMError("the LLM reply was cut off (token limit)",
                       hint="lower llm_max_chars or use a model with a larger output limit")
    content = choice.message.content
    if not content:
        raise LLMError("the LLM answered with an empty message", hint="try again, or run with --llm off")
    return str(content)


def _status_error(exc: Any) -> LLMError:
    return LLMError(f"the LLM server answered {exc.status_code}: {str(exc)[:300]}",
                    hint="check llm_model and llm_base_url, or run with --llm off")


def _complete(client: Any, digest: Digest, model: str) -> tuple[str, str]:
    import openai

    payload = llm_request(digest, model=model, mode="json_schema")
    try:
        return _call(client, payload), "json_schema"
    except openai.APIStatusError as exc:
        if exc.status_code not in (400, 422) or not _format_rejected(exc):
            raise _status_error(exc) from exc
        log.info("server rejected json_schema response_format; retrying in json_object mode")
    payload = llm_request(digest, model=model, mode="json_object")
    try:
        return _call(client, payload), "json_object"
    except openai.APIStatusError as exc:
        raise _status_error(exc) from exc


def _validator() -> Any:
    import jsonschema

    return jsonschema.Draft202012Validator(prompts.proposal_schema())


def validate_reply(text: str) -> tuple[list[dict[str, Any]], list[tuple[str, str]]]:
    """Parse and validate a reply: (valid facts, dropped (name, reason)). Bad top level -> LLMError."""
    body = text.strip()
    if body.startswith("```"):  # json_object-mode servers sometimes fence the JSON
        body = body.strip("`").removeprefix("json").strip()
    try:
        data = json.loads(body)
    except json.JSONDecodeError as exc:
        raise LLMError(f"the LLM reply is not JSON ({exc.msg} at char {exc.pos})",
                       hint="try again or another llm_model; the reply was discarded") from exc
    if not isinstance(data, dict) or set(data) != {"proposals"} or not isinstance(data["proposals"], list):
        raise LLMError("the LLM reply does not match the proposal schema (want {\"proposals\": [...]})",
                       hint="try again or another llm_model; the reply was discarded")
    schema = prompts.proposal_schema()
    if len(data["proposals"]) > schema["properties"]["proposals"]["maxItems"]:
        raise LLMError("the LLM reply holds more proposals than the schema allows",
                       hint="try again or another llm_model; the reply was discarded")
    item_validator = _validator().evolve(schema=schema["properties"]["proposals"]["items"])
    good: list[dict[str, Any]] = []
    dropped: list[tuple[str, str]] = []
    for index, fact in enumerate(data["proposals"]):
        errors = sorted(item_validator.iter_errors(fact), key=lambda e: list(e.path))
        if errors:
            name = str(fact.get("name", f"#{index}")) if isinstance(fact, dict) else f"#{index}"
            where = "/".join(str(p) for p in errors[0].path) or "fact"
            dropped.append((name, f"off-schema at {where}: {errors[0].message[:160]}"))
            continue
        good.append(fact)
    return good, dropped


def _ungrounded_instruction(values: dict[str, str], ids: Sequence[str], digest: Digest) -> str | None:
    """The first poisoning/exfiltration phrase in a fact that its cited owner blocks do not contain.

    Why here and not only in the gate: the gate applies its scan-time tripwires only when some
    evidence is third-party (facts citing third-party items go on to the gate, which quarantines
    them), and trusts instruction-like text resting on owner-authored evidence, because the
    owner's own rules are legitimate. For a model's output that trust is misplaced: citing an
    owner block proves nothing about the sentence the model wrote (signals carry third-party
    names and titles, and models confabulate). So when every cited block is the owner's, a
    phrase that trips the tripwires must appear word for word in those blocks, or the fact is
    dropped.
    """
    text = "\n".join(values[k] for k in ("name", "description", "body", "key"))
    owner_text = [digest.texts.get(i, "") for i in ids if digest.evidence[i].authored_by_owner]
    for finding in scan_text(text, tripwires=True, structure=False):
        if finding.category == "invisible":
            continue  # already stripped by clean_text
        size = len(word_list(finding.excerpt))
        if size == 0 or not owner_text or shared_run(finding.excerpt, owner_text, size) is None:
            return finding.excerpt
    return None


_CODE_SPAN = re.compile(r"`([^`\n]{2,200})`")
_URL = re.compile(r"\b(?:https?|ftp)://[^\s`'\"<>)]+", re.I)
_ADDRESS = re.compile(r"\b[\w.+-]+@[\w-]+(?:\.[\w-]+)+\b")


def _norm(text: str) -> str:
    return " ".join(unicodedata.normalize("NFKC", text).lower().split())


def key_texts(text: str) -> list[str]:
    """What an instruction stands or falls on: its code spans, URLs and e-mail addresses."""
    keys = [m.group(1) for m in _CODE_SPAN.finditer(text)]
    keys += [m.group(0).rstrip(".,;:") for m in _URL.finditer(text)]
    keys += [m.group(0) for m in _ADDRESS.finditer(text)]
    return list(dict.fromkeys(k for k in (_norm(k) for k in keys) if k))


def _is_instruction(fact_type: str, values: dict[str, str]) -> bool:
    text = "\n".join(values[k] for k in ("description", "body"))
    return fact_type == "feedback" or bool(find_dangerous(text))


def ground_evidence(fact_type: str, values: dict[str, str], ids: Sequence[str],
                    digest: Digest) -> tuple[list[str], str]:
    """(the cited ids an instruction may rest on, why none may); other facts keep every id.

    An instruction may cite only owner-authored blocks (authorship proven by identity, never by a
    From header), and only those holding its key text word for word: a model that cites the
    owner's mail for a command the mail never mentions is not grounded, however trusted the mail.
    """
    if not _is_instruction(fact_type, values):
        return list(ids), ""
    owned = [i for i in ids if digest.evidence[i].authored_by_owner]
    if not owned:
        return [], "an instruction citing no owner-authored evidence"
    keys = key_texts("\n".join(values[k] for k in ("description", "body", "key")))
    if not keys:
        return owned, ""
    grounded = [i for i in owned if all(k in _norm(digest.texts.get(i, "")) for k in keys)]
    if not grounded:
        return [], f"no cited owner block contains {keys[0]!r}"
    return grounded, ""


def proposals_from_reply(facts: Sequence[dict[str, Any]], digest: Digest) -> tuple[list[Proposal], list[tuple[str, str]]]:
    """Turn validated facts into Proposals; facts citing unknown evidence ids are dropped."""
    proposals: list[Proposal] = []
    dropped: list[tuple[str, str]] = []
    for fact in facts:
        ids = list(dict.fromkeys(fact["evidence_ids"]))
        unknown = [i for i in ids if i not in digest.evidence]
        if unknown:
            dropped.append((fact["name"], f"cites evidence the digest does not hold: {', '.join(unknown)}"))
            continue
        evidence: tuple[Evidence, ...] = tuple(digest.evidence[i] for i in ids)
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
        evidence = tuple(digest.evidence[i] for i in ids)
        ungrounded = all(e.authored_by_owner for e in evidence) and _ungrounded_instruction(values, ids, digest)
        if ungrounded:
            dropped.append((fact["name"], f"reads as an instruction ({ungrounded!r}) that the cited owner "
                                          "text does not contain"))
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


def llm_extract(sample: Sequence[Item], signals: dict[str, Any], *, settings: Settings, client: Any = None) -> LLMResult:
    """Digest -> request -> strict validation -> grounded Proposals, with the reasons for every drop."""
    digest = settings_digest(sample, signals, settings)
    model = settings_model(settings)
    if not digest.evidence:  # nothing a fact could cite: every answer would be dropped, so send nothing
        return LLMResult(proposals=[], dropped=[("*", "no items to cite as evidence; nothing was sent")],
                         digest=digest, mode="none", model=model)
    own = client is None
    if client is None:
        client = make_client(settings)
    try:
        reply, mode = _complete(client, digest, model)
    finally:
        if own:
            client.close()
    facts, dropped = validate_reply(reply)
    proposals, more = proposals_from_reply(facts, digest)
    for name, reason in (*dropped, *more):
        log.info("LLM fact %s dropped: %s", name, reason)
    return LLMResult(proposals=proposals, dropped=[*dropped, *more], digest=digest, mode=mode, model=model)


def llm_proposals(sample: Sequence[Item], signals: dict[str, Any], *, settings: Settings, client: Any = None) -> list[Proposal]:
    """The contract entry point: proposals from the LLM, each flagged ``llm``, ready for the gate."""
    return llm_extract(sample, signals, settings=settings, client=client).proposals
