"""Record real exchanges with a llama-cpp-python server into ``tests/llm/recorded/`` (``make e2e-llm``).

Each exchange is one memseed request sent through a recording loopback proxy to the real server;
the proxy keeps the server's answer byte for byte (status, content type, body: a JSON error or
the SSE stream). ``tests/llm/test_llm_recorded.py`` replays them to memseed's transport on the
real ``openai`` client in ``make test``, so the parsing of the real bytes is tested without the
server. The requests are built by memseed's own code from the demo persona (nobody real).

Exchanges: the ``json_schema`` refusal (HTTP 500), a context-length error (a digest too big for
the context), a cut-off answer (``max_tokens`` reached), the model's own answer to the demo
digest in plain JSON mode (``demo_answer``) and in the proposals' shape (``junk_answer``: with a
135M model, facts memseed drops), a good answer to a scripted prompt (copy this JSON), and
memseed's own demo request in ``json_object_schema`` mode (``demo_grammar``: the mode it now
takes on this server after the refusal, the bounded schema inside ``json_object``, sent as is).

The shape comes from the server's grammar: llama-cpp-python 0.3.36 refuses ``json_schema`` but
takes a ``schema`` inside ``{"type": "json_object"}`` and samples only tokens that keep the
answer valid against it (:func:`shape_schema`: memseed's wire schema with bounds, so a small
model cannot loop inside one string until ``max_tokens``). memseed itself sends plain
``json_object_schema`` after the refusal (its own bounded schema, sized to ``max_tokens``); the
older exchanges were recorded when it fell back to plain ``json_object``.

Run: ``python -m benchmarks.llm_record [--out tests/llm/recorded]``.
"""

from __future__ import annotations

import argparse
import http.client
import json
import tempfile
import threading
from dataclasses import replace
from datetime import UTC, datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

from .llm_server import ROOT, RealServer, start_server

__all__ = ["GOOD_FACT", "main", "record", "shape_schema"]

GOOD_FACT = {"type": "project", "name": "ledger-api-uses-uv", "description": "ledger-api uses uv, not pip",
             "body": "ledger-api uses uv, not pip.", "subject": "tool:uv", "key": "uv for ledger-api",
             "confidence": 0.8, "evidence_ids": ["E3"], "scope": "global"}
"""The fact the scripted prompt asks the model to copy; it is grounded in tests/llm's footprint (E3)."""
_EXAMPLE = {"type": "user", "name": "works-at-acme", "description": "the owner works at Acme",
            "body": "The owner works at Acme.", "subject": "org:acme", "key": "Acme", "confidence": 0.7,
            "evidence_ids": ["E1"], "scope": "global"}
"""One worked copy shown first: without it SmolLM2-135M rewrites the body (measured: it adds a sentence)."""


def shape_schema(max_items: int = 3, max_chars: int = 160) -> dict[str, Any]:
    """memseed's proposal schema (patterns, enums, lengths), bounded for a grammar.

    At most ``max_items`` facts, strings of at most ``max_chars`` (the schema's limits where
    smaller) and one to three evidence ids, so the grammar ends the answer well inside
    ``max_tokens``. The values stay the model's own: the grammar fixes the shape, the slug and
    ``E<n>`` patterns; number ranges are not in a grammar, nor is what the digest holds.
    """
    from bootstrap_app.extract import prompts

    schema = prompts.proposal_schema()
    for key in ("$schema", "title", "description"):
        schema.pop(key, None)
    facts = schema["properties"]["proposals"]
    facts.update(minItems=1, maxItems=max_items)
    for prop in facts["items"]["properties"].values():
        prop.pop("description", None)
        if prop.get("type") == "string" and "enum" not in prop:
            prop["maxLength"] = min(max_chars, prop.get("maxLength", max_chars))
    facts["items"]["properties"]["evidence_ids"].update(minItems=1, maxItems=3)
    return schema


class _Recorder:
    """A loopback proxy that forwards to the real server and keeps every answer."""

    def __init__(self, target: str) -> None:
        self.target = urlparse(target)
        self.exchanges: list[dict[str, Any]] = []
        handler = self._handler()
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/v1"

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        recorder = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: Any) -> None:
                pass

            def _forward(self, method: str) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length", "0") or 0))
                conn = http.client.HTTPConnection(recorder.target.hostname, recorder.target.port, timeout=900)
                conn.request(method, self.path, body=body or None,
                             headers={"Content-Type": self.headers.get("Content-Type", "application/json")})
                answer = conn.getresponse()
                try:
                    data = answer.read()
                except http.client.IncompleteRead as exc:  # a stream the server broke off (recorded as is)
                    data = exc.partial
                conn.close()
                if self.path.endswith("/chat/completions"):
                    recorder.exchanges.append({"request": json.loads(body or b"{}"), "status": answer.status,
                                               "content_type": answer.getheader("Content-Type", ""),
                                               "body": data.decode("utf-8", errors="replace")})
                self.send_response(answer.status)
                self.send_header("Content-Type", answer.getheader("Content-Type", "application/json"))
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def do_POST(self) -> None:
                self._forward("POST")

            def do_GET(self) -> None:
                self._forward("GET")

        return Handler


def _request_summary(request: dict[str, Any]) -> dict[str, Any]:
    """What was asked, without the whole digest (the fixture stays small and readable)."""
    response_format = request.get("response_format") or {}
    schema = response_format.get("schema") or {}
    facts = (schema.get("properties") or {}).get("proposals") or {}
    return {"response_format": response_format.get("type", "text"), "grammar_schema": "schema" in response_format,
            "schema_max_items": facts.get("maxItems"),
            "max_tokens": request.get("max_tokens"), "stream": request.get("stream"),
            "temperature": request.get("temperature"),
            "message_chars": sum(len(m.get("content", "")) for m in request.get("messages", []))}


def _demo_request(home: Path, base_url: str, model: str, **over: Any) -> dict[str, Any]:
    """The exact request a demo scan would send first (memseed's preview), with settings ``over``."""
    from bootstrap_app.config import load_settings
    from bootstrap_app.pipeline import scan_demo
    from bootstrap_app.store import Store

    settings = replace(load_settings(home, llm="openai", llm_base_url=base_url, llm_model=model), **over)
    captured: list[dict[str, Any]] = []
    with Store(settings.db_path) as store:
        scan_demo(settings, store=store, llm="openai", llm_preview=captured.append)
    return captured[0]


def _send(recorder: _Recorder, payload: dict[str, Any]) -> dict[str, Any]:
    """Post through the proxy with the real openai client, streamed as memseed does; keep the answer."""
    import openai

    client = openai.OpenAI(base_url=recorder.url, api_key="local-server", max_retries=0, timeout=900)
    try:
        answer = client.chat.completions.create(**payload)
        for _ in answer if payload.get("stream") else ():
            pass
    except openai.APIError:
        pass
    finally:
        client.close()
    return recorder.exchanges[-1]


def record(server: RealServer, out: Path, only: set[str] | None = None) -> list[str]:
    """Record every exchange (or those in ``only``) against ``server`` into ``out``; the names written."""
    recorder = _Recorder(server.base_url)
    recorder.thread.start()
    home = Path(tempfile.mkdtemp(prefix="memseed-record-"))
    written: list[str] = []
    try:
        fitted_with = {"llm_context": server.n_ctx}
        fitted = _demo_request(home / "a", recorder.url, server.model, **fitted_with)

        def answer_limit(limit: int) -> dict[str, int]:
            """Settings under which memseed itself sends the fitted digest with ``max_tokens=limit``:
            the context less the difference, so the room left for the digest is the same."""
            return {"llm_context": server.n_ctx - int(fitted["max_tokens"]) + limit, "llm_max_tokens": limit}

        short, long = answer_limit(48), answer_limit(1024)
        big_with = {"llm_context": 64_000, "llm_max_chars": 60_000}
        big = _demo_request(home / "b", recorder.url, server.model, **big_with)
        json_mode = {"type": "json_object"}
        copy, example = json.dumps({"proposals": [GOOD_FACT]}), json.dumps({"proposals": [_EXAMPLE]})
        # greedy (temperature 0), so the copy is the model's most likely one and re-recording gives it again
        scripted = {"model": server.model, "stream": True, "max_tokens": 400, "temperature": 0, "seed": 22,
                    "response_format": {"type": "json_object", "schema": shape_schema(max_items=1)},
                    "messages": [{"role": "system", "content": "You copy JSON exactly. Output only the JSON."},
                                 {"role": "user", "content": f"Copy this JSON exactly:\n{example}"},
                                 {"role": "assistant", "content": example},
                                 {"role": "user", "content": f"Copy this JSON exactly:\n{copy}"}]}
        # name -> (the request, the memseed settings that build it; replay tests rebuild it from those)
        grammar_with = {**fitted_with, "llm_response_format": "json_object_schema"}
        plan: dict[str, tuple[dict[str, Any], dict[str, Any]]] = {
            "json_schema_refusal": ({**fitted, "response_format": {"type": "json_schema", "json_schema": {
                "name": "memseed_proposals", "strict": True, "schema": {"type": "object"}}}}, fitted_with),
            "context_length_streamed": ({**big, "response_format": json_mode}, big_with),
            "context_length": ({**big, "response_format": json_mode, "stream": False}, big_with),
            "cut_off": ({**_demo_request(home / "c", recorder.url, server.model, **short),
                         "response_format": json_mode}, short),
            "demo_answer": ({**_demo_request(home / "d", recorder.url, server.model, **long),
                             "response_format": json_mode}, long),
            "junk_answer": ({**_demo_request(home / "e", recorder.url, server.model, **long),
                             "response_format": {**json_mode, "schema": shape_schema()}}, long),
            "scripted_good": (scripted, {}),
            # memseed's own request, unchanged: the demo digest with its bounded schema in json_object
            "demo_grammar": (_demo_request(home / "f", recorder.url, server.model, **grammar_with), grammar_with),
        }
        out.mkdir(parents=True, exist_ok=True)
        for name, (payload, built_with) in plan.items():
            if only and name not in only:
                continue
            started = datetime.now(UTC)
            before = len(recorder.exchanges)
            exchange = _send(recorder, payload)
            seconds = (datetime.now(UTC) - started).total_seconds()
            if server.process.poll() is not None or len(recorder.exchanges) == before:
                # e.g. a llama.cpp built for CPU features the machine does not let it use (SIGILL)
                print(f"{name}: the server died (exit {server.process.poll()}); nothing recorded from here on")
                break
            fixture = {"name": name, "server": f"llama-cpp-python {server.version}", "model": server.model,
                       "n_ctx": server.n_ctx, "recorded": started.date().isoformat(), "seconds": round(seconds, 1),
                       "settings": built_with, "request": _request_summary(exchange["request"]), "status": exchange["status"],
                       "content_type": exchange["content_type"], "body": exchange["body"]}
            (out / f"{name}.json").write_text(json.dumps(fixture, indent=1, ensure_ascii=False) + "\n",
                                              encoding="utf-8")
            print(f"{name}: HTTP {exchange['status']} in {seconds:.1f} s, {len(exchange['body'])} bytes")
            written.append(name)
    finally:
        recorder.server.shutdown()
        recorder.server.server_close()
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "tests" / "llm" / "recorded")
    parser.add_argument("--n-ctx", type=int, default=8192)
    parser.add_argument("--only", action="append", help="record only this exchange (repeatable)")
    args = parser.parse_args(argv)
    with start_server(n_ctx=args.n_ctx) as server:
        print(f"llama-cpp-python {server.version}, model {server.model}, n_ctx {server.n_ctx}")
        record(server, args.out, set(args.only or ()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
