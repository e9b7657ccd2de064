"""One LLM answer, streamed, inside a time budget, in the response format the server takes.

Why its own retry loop and not the ``openai`` client's: the client retries every 5xx the same
way, but llama-cpp-python refuses a ``json_schema`` response format with an HTTP **500** (its
request validation fails inside the handler), so a refused format must be recognised by what
the server *says*, whatever the status, and answered by asking in the next format
(:data:`~bootstrap_app.extract.llm_caps.FORMAT_ORDER`), not by resending the same request.
The loop also keeps the rules the person can count on: one total time budget for the pass
(``llm_budget``), a timeout retried at most once, 429/5xx retried at most ``llm_max_retries``
times honouring ``Retry-After``, and every request closed when it is abandoned (Ctrl-C, Cancel,
budget spent), so a local server stops generating for nobody.

Errors carry the server's own message as one whole line (:func:`server_message`): a Python
server's 500 body can be a traceback, and its last meaningful line is what the person needs.
"""

from __future__ import annotations

import json
import logging
import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from bootstrap_app.config import Settings, resolve_secret
from bootstrap_app.errors import LLMCancelled, LLMContextError, LLMError

__all__ = ["NO_KEY_HINT", "Budget", "LLMProgress", "Reply", "complete", "context_numbers", "format_refused", "full_message",
           "is_loopback", "make_client", "server_message"]

log = logging.getLogger(__name__)

NO_KEY_HINT = 'set OPENAI_API_KEY or llm_api_key = "env:NAME" in config.toml, or run with --llm off'
ProgressFn = Callable[["LLMProgress"], None]


@dataclass(frozen=True)
class LLMProgress:
    """Where the pass is: ``stage`` waiting / answering / retrying, answer ``tokens``, ``elapsed`` s."""

    stage: str
    tokens: int
    elapsed: float
    mode: str
    message: str = ""


@dataclass
class Budget:
    """The one time budget of the pass, shared by every request and retry."""

    seconds: float
    started: float = field(default_factory=time.monotonic)

    def elapsed(self) -> float:
        return time.monotonic() - self.started

    def remaining(self) -> float:
        return self.seconds - self.elapsed()


@dataclass(frozen=True)
class Reply:
    """The assistant's text and how it was obtained."""

    content: str
    mode: str
    finish_reason: str
    completion_tokens: int
    prompt_tokens: int = 0
    seconds: float = 0.0
    requests: int = 1
    refused_modes: tuple[str, ...] = ()


def is_loopback(url: str) -> bool:
    import ipaddress
    from urllib.parse import urlparse

    host = urlparse(url).hostname or ""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def make_client(settings: Settings) -> Any:
    """An ``openai.OpenAI`` client from settings, its own retries off (see the module docstring)."""
    try:
        import openai
    except ImportError as exc:  # a dependency, imported only when the opt-in LLM path runs
        raise LLMError("the LLM path needs the 'openai' package, which is missing from this install",
                       hint="reinstall memseed (`pip install --force-reinstall memseed`), or run with --llm off") \
            from exc
    base_url = settings.llm_base_url or None
    key = resolve_secret(settings.llm_api_key)
    if not key:
        if base_url and is_loopback(base_url):
            key = "local-server"  # local OpenAI-compatible servers (llama.cpp, Ollama) take any key
        else:
            raise LLMError("no API key for the LLM", hint=NO_KEY_HINT)
    return openai.OpenAI(base_url=base_url, api_key=key, timeout=settings.llm_timeout, max_retries=0)


_TRACE_LINE = re.compile(r'^(Traceback \(most recent call last\)|File "|\^+$|~+$|For further information)')
_TELLING = (re.compile(r"Input should be|response_format|json_schema|json_object|context|exceed", re.I),
            re.compile(r"\b\w*(Error|Exception):|\berror:", re.I))


def full_message(exc: Any) -> str:
    """Everything the server said about the failure (for recognising it, not for showing)."""
    body = getattr(exc, "body", None)
    text = ""
    if isinstance(body, dict):
        inner = body.get("error", body)
        if isinstance(inner, dict):
            text = str(inner.get("message") or inner.get("detail") or "")
        elif isinstance(inner, str):
            text = inner
        if not text and body.get("detail"):
            detail = body["detail"]
            text = json.dumps(detail, ensure_ascii=False) if not isinstance(detail, str) else detail
    elif isinstance(body, str):
        text = body
    return text or str(getattr(exc, "message", "") or exc)


def server_message(exc: Any) -> str:
    """The server's own message, as one whole line (a traceback's telling line, not its middle)."""
    lines = [line.strip() for line in full_message(exc).splitlines() if line.strip()]
    if len(lines) > 1:
        kept = [line for line in lines if not _TRACE_LINE.match(line)] or lines
        for pattern in _TELLING:
            telling = [line for line in kept if pattern.search(line)]
            if telling:
                lines = telling[:1]
                break
        else:
            lines = kept[-1:]
    line = lines[0] if lines else ""
    return line if len(line) <= 400 else line[:399] + "…"


def format_refused(message: str) -> bool:
    """Does the server's message say it does not take the response format that was asked for?"""
    return bool(re.search(r"response_format|json_schema|json_object|structured output|grammar", message, re.I))


_CONTEXT_HINTS = re.compile(r"context[ _](length|window|size)|maximum context|exceed_context|too many tokens|"
                            r"prompt is too long|context_length_exceeded", re.I)
_CTX_NUMBERS = (re.compile(r"context window of (\d+)", re.I), re.compile(r"maximum context length is (\d+)", re.I),
                re.compile(r"context length of (?:only )?(\d+)", re.I), re.compile(r"n_ctx\D{0,4}(\d+)", re.I))
_PROMPT_NUMBERS = (re.compile(r"\((\d+) in the messages", re.I), re.compile(r"resulted in (\d+) tokens", re.I),
                   re.compile(r"Requested tokens \((\d+)\)", re.I), re.compile(r"n_prompt_tokens\D{0,4}(\d+)", re.I),
                   re.compile(r"request \((\d+) tokens\)", re.I))
_TOTAL_NUMBERS = (re.compile(r"you requested (\d+) tokens", re.I),)


def context_numbers(message: str, body: Any = None, max_tokens: int = 0) -> tuple[int, int] | None:
    """(the model's context, prompt tokens sent) from a context-length error (0 where unsaid), or
    None when the message is not one. Each server words it differently (tests/llm/servers.py)."""
    inner = body.get("error", body) if isinstance(body, dict) else None
    if isinstance(inner, dict) and inner.get("type") == "exceed_context_size_error":  # llama.cpp server
        return int(inner.get("n_ctx") or 0), int(inner.get("n_prompt_tokens") or 0)
    code = str(inner.get("code", "")) if isinstance(inner, dict) else ""
    if code != "context_length_exceeded" and not _CONTEXT_HINTS.search(message):
        return None

    def first(patterns: Sequence[re.Pattern[str]]) -> int:
        return next((int(m.group(1)) for p in patterns if (m := p.search(message))), 0)

    prompt = first(_PROMPT_NUMBERS)
    if not prompt and (total := first(_TOTAL_NUMBERS)):
        prompt = max(0, total - max_tokens)
    return first(_CTX_NUMBERS), prompt


def _retry_after(exc: Any, attempt: int) -> float:
    headers = getattr(getattr(exc, "response", None), "headers", None) or {}
    try:
        if headers.get("retry-after-ms"):
            return float(headers["retry-after-ms"]) / 1000
        if headers.get("retry-after"):
            return float(headers["retry-after"])
    except ValueError:
        pass
    return min(8.0, 0.5 * 2 ** attempt)


class _EmptyStream(Exception):
    """A 200 stream that ended without a word or a finish reason (the server failed inside it)."""


def _whole(client: Any, payload: dict[str, Any], budget: Budget, timeout: float, mode: str) -> Reply:
    """Send ``payload`` unstreamed: a server that fails inside a stream says why in a plain answer."""
    started = time.monotonic()
    try:
        completion = client.with_options(timeout=max(0.05, min(timeout, budget.remaining()))) \
            .chat.completions.create(**{**payload, "stream": False})
    except KeyboardInterrupt as exc:
        raise LLMCancelled("the LLM pass was interrupted (Ctrl-C); the request was closed",
                           hint="the other proposals are kept; scan again to ask the model") from exc
    choice = completion.choices[0] if completion.choices else None
    usage = getattr(completion, "usage", None)
    return Reply(str(getattr(choice.message, "content", "") or "") if choice else "", mode,
                 str(choice.finish_reason or "") if choice else "",
                 int(getattr(usage, "completion_tokens", 0) or 0), int(getattr(usage, "prompt_tokens", 0) or 0),
                 time.monotonic() - started)


def _stream(client: Any, payload: dict[str, Any], budget: Budget, timeout: float, mode: str,
            progress: ProgressFn, should_stop: Callable[[], bool]) -> Reply:
    """Send ``payload`` streamed; stop and close on cancel or when the budget is spent."""
    started = time.monotonic()
    progress(LLMProgress("waiting", 0, budget.elapsed(), mode))
    parts: list[str] = []
    tokens = prompt_tokens = 0
    finish = ""
    stream = None
    try:
        stream = client.with_options(timeout=max(0.05, min(timeout, budget.remaining()))) \
            .chat.completions.create(**{**payload, "stream": True})
        for chunk in stream:
            if should_stop():
                raise LLMCancelled("the LLM pass was stopped; the request was closed",
                                   hint="the other proposals are kept; scan again to ask the model")
            if budget.remaining() <= 0:
                raise LLMError(f"the LLM pass used its whole time budget ({budget.seconds:.0f} s) after "
                               f"{tokens} answer tokens; the request was closed",
                               hint="raise llm_budget, lower llm_max_tokens, or use a faster model")
            usage = getattr(chunk, "usage", None)
            if usage is not None:
                prompt_tokens = int(getattr(usage, "prompt_tokens", 0) or 0)
            for choice in chunk.choices or ():
                delta = getattr(choice.delta, "content", None) if choice.delta is not None else None
                if delta:
                    parts.append(delta)
                    tokens += 1
                if choice.finish_reason:
                    finish = choice.finish_reason
            progress(LLMProgress("answering", tokens, budget.elapsed(), mode))
    except KeyboardInterrupt as exc:  # while the server reads the prompt, or mid-answer
        raise LLMCancelled("the LLM pass was interrupted (Ctrl-C); the request was closed",
                           hint="the other proposals are kept; scan again to ask the model") from exc
    finally:
        if stream is not None:
            stream.close()  # closes the HTTP response: the server sees the client go and stops generating
    if not parts and not finish:
        raise _EmptyStream
    return Reply("".join(parts), mode, finish, tokens, prompt_tokens, time.monotonic() - started)


# What each transport failure of the ``openai`` client means, and what to do about it
_TRANSPORT_ERRORS = (
    ("AuthenticationError", "the LLM server refused the API key ({status})", NO_KEY_HINT),
    ("RateLimitError", "the LLM server is rate limiting and retries ran out: {server}",
     "wait a minute and scan again, or run with --llm off"),
    ("NotFoundError", "the LLM server does not know model {model!r} or the endpoint: {server}",
     "set llm_model (and llm_base_url) in config.toml; `memseed llm check` shows what the server offers"),
    ("APITimeoutError", "the LLM server did not answer in time (llm_timeout {timeout:g} s)",
     "raise llm_timeout in config.toml, or run with --llm off"),
    ("APIConnectionError", "cannot reach the LLM server: {exc}",
     "check llm_base_url and the network, or run with --llm off"),
)


def _mapped(exc: Any, model: str, settings: Settings) -> LLMError:
    import openai

    server = server_message(exc)
    for name, message, hint in _TRANSPORT_ERRORS:
        if isinstance(exc, getattr(openai, name)):
            text = message.format(status=getattr(exc, "status_code", ""), model=model, exc=exc, server=server,
                                  timeout=settings.llm_timeout)
            return LLMError(text, hint=hint)
    status = getattr(exc, "status_code", None)
    where = f"answered {status}" if status else "failed mid-answer"
    return LLMError(f"the LLM server {where}: {server}",
                    hint="check llm_model and llm_base_url (`memseed llm check`), or run with --llm off")


def _retryable(exc: Any) -> bool:
    status = getattr(exc, "status_code", 0) or 0
    return status in (408, 409, 429) or status >= 500


def complete(client: Any, payload_for: Callable[[str], dict[str, Any]], modes: Sequence[str], *,
             settings: Settings, budget: Budget, progress: ProgressFn | None = None,
             should_stop: Callable[[], bool] | None = None) -> Reply:
    """Ask in ``modes[0]``; a refused format moves to the next; bounded retries; one budget."""
    import openai

    report: ProgressFn = progress or (lambda _p: None)
    stop = should_stop or (lambda: False)
    model = str(payload_for(modes[0]).get("model", ""))
    index = retries = timeouts = requests = 0
    refused: list[str] = []
    streamed = True
    while True:
        mode = modes[index]
        if stop():
            raise LLMCancelled("the LLM pass was stopped before it was sent", hint="scan again to ask the model")
        requests += 1
        try:
            reply = _stream(client, payload_for(mode), budget, settings.llm_timeout, mode, report, stop) \
                if streamed else _whole(client, payload_for(mode), budget, settings.llm_timeout, mode)
            return Reply(reply.content, mode, reply.finish_reason, reply.completion_tokens, reply.prompt_tokens,
                         budget.elapsed(), requests, tuple(refused))
        except _EmptyStream:
            if not streamed:
                raise LLMError("the LLM server answered with an empty stream",
                               hint="look at the server's log; try again, or run with --llm off") from None
            # llama-cpp-python 0.3.x raises a context overflow inside the stream and sends a 200
            # with no event at all; the same request unstreamed gets its 400 with the numbers
            log.info("the LLM server ended its stream without a word; asking once unstreamed")
            streamed = False
        except openai.APITimeoutError as exc:
            if budget.remaining() <= 0.1:  # the budget, not llm_timeout, bounded this request's wait
                raise LLMError(f"the LLM pass used its whole time budget ({budget.seconds:.0f} s) before the "
                               "server answered; the request was closed",
                               hint="raise llm_budget, lower llm_max_chars, or use a faster model") from exc
            if timeouts >= 1 or settings.llm_max_retries == 0 or budget.remaining() < 1:
                raise _mapped(exc, model, settings) from exc
            timeouts += 1
            report(LLMProgress("retrying", 0, budget.elapsed(), mode, "timed out; retrying once"))
        except openai.APIConnectionError as exc:
            if retries >= settings.llm_max_retries or budget.remaining() < 1:
                raise _mapped(exc, model, settings) from exc
            retries += 1
            time.sleep(min(_retry_after(exc, retries), max(0.0, budget.remaining() - 1)))
        except openai.APIError as exc:  # a status error, or an error event in the stream
            message, said = server_message(exc), full_message(exc)
            max_tokens = int(payload_for(mode).get("max_tokens") or 0)
            if format_refused(said) and not context_numbers(said):
                if index + 1 == len(modes):  # refused, and nothing left to ask in: resending cannot help
                    raise _mapped(exc, model, settings) from exc
                log.info("the LLM server refused response format %s (%s); asking in %s", mode, message,
                         modes[index + 1])
                refused.append(mode)
                index += 1
                continue
            numbers = context_numbers(said, getattr(exc, "body", None), max_tokens)
            if numbers is not None:
                raise LLMContextError(f"the request did not fit the model's context: {message}",
                                      context=numbers[0], sent=numbers[1], mode=mode,
                                      hint="lower llm_max_chars or raise the server's context") from exc
            if not _retryable(exc) or retries >= settings.llm_max_retries or budget.remaining() < 1:
                raise _mapped(exc, model, settings) from exc
            retries += 1
            wait = _retry_after(exc, retries)
            report(LLMProgress("retrying", 0, budget.elapsed(), mode, f"server busy; retrying in {wait:.1f} s"))
            time.sleep(min(wait, max(0.0, budget.remaining() - 1)))
