"""A loopback OpenAI-compatible chat endpoint for the safety tests that switch the LLM path on.

Why one helper: the secret-leak and injection-corpus tests both need a real HTTP server the
``openai`` client talks to, recording every request byte (what would have left the machine)
and answering with proposals of the test's choosing. Only the answer differs between them.
"""

from __future__ import annotations

import contextlib
import json
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from tests.llm.conftest import sse_chunks

__all__ = ["ChatServer", "serve_chat"]

Answer = Callable[[str], list[dict[str, Any]]]
"""The prompt (every message's content, newline-joined) -> the proposals to answer with."""


@dataclass
class ChatServer:
    url: str
    """Base URL for ``llm_base_url`` (``http://127.0.0.1:PORT/v1``)."""
    requests: list[bytes] = field(default_factory=list)
    """Every request body received, in order."""


@contextlib.contextmanager
def serve_chat(answer: Answer) -> Iterator[ChatServer]:
    """Serve chat completions on 127.0.0.1 (a free port) until the block ends."""
    requests: list[bytes] = []

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *_args: Any) -> None:
            pass

        def do_POST(self) -> None:
            raw = self.rfile.read(int(self.headers.get("Content-Length", "0")))
            requests.append(raw)
            request = json.loads(raw)
            prompt = "\n".join(str(m.get("content", "")) for m in request.get("messages", []))
            content = json.dumps({"proposals": answer(prompt)})
            body = json.dumps({"id": "x", "object": "chat.completion", "created": 0, "model": "fake",
                               "choices": [{"index": 0, "finish_reason": "stop",
                                            "message": {"role": "assistant", "content": content}}],
                               "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}}).encode()
            if request.get("stream"):  # as every OpenAI-compatible server does when asked to stream
                body = b"".join(sse_chunks(body, piece=200))
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream" if request.get("stream") else "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield ChatServer(f"http://127.0.0.1:{server.server_address[1]}/v1", requests)
    finally:
        server.shutdown()
        server.server_close()
