"""The LLM pass on the demo persona against a real local server (llama-cpp-python, SmolLM2-135M).

What a person running a small local model gets, measured in one run:

1. **The demo scan with ``--llm``**: prompt tokens (counted by the server's own tokenizer,
   ``POST /extras/tokenize``), answer tokens (streamed chunks), wall time of the pass, the
   response format the server took, and facts returned / kept / dropped by reason.
2. **A second scan**: the format was remembered, so no request is refused (requests counted).
3. **Nothing to say**: a footprint with no words of the owner's; nothing is sent, and the pass
   ends in seconds.

Skipped (exit 0, with a note) when the server venv is missing: ``make llm-server-deps`` builds it
(about 30 minutes at one build job on 2 cores). Run: ``python -m benchmarks.bench_llm_server [--max-tokens N]``
(``--max-tokens``: the ``llm_max_tokens`` setting, memseed's default unless given; a small model
in plain JSON mode tends to write until it, so it bounds the run).
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

from .llm_server import server_python, start_server

__all__ = ["main"]


def _prompt_tokens(base_url: str, request: dict[str, Any]) -> int:
    """The server's own count of the messages' tokens (llama-cpp-python's /extras/tokenize)."""
    text = "\n".join(m.get("content", "") for m in request.get("messages", []))
    root = base_url.removesuffix("/v1")
    req = urllib.request.Request(f"{root}/extras/tokenize", data=json.dumps({"input": text}).encode(),
                                 headers={"Content-Type": "application/json"}, method="POST")
    try:
        with urllib.request.urlopen(req, timeout=60) as response:
            return len(json.loads(response.read())["tokens"])
    except (OSError, ValueError, KeyError):
        return 0


def _scan(settings: Any, root: Path | None = None) -> tuple[Any, float]:
    from bootstrap_app.pipeline import scan, scan_demo
    from bootstrap_app.store import Store

    started = time.perf_counter()
    with Store(settings.db_path) as store:
        if root is None:
            result = scan_demo(settings, store=store, llm="openai")
        else:
            result = scan([str(root)], settings=settings, store=store, llm="openai")
    return result, time.perf_counter() - started


def _preview(settings: Any) -> dict[str, Any]:
    """The demo request memseed would send now (nothing is sent)."""
    from bootstrap_app.pipeline import scan_demo
    from bootstrap_app.store import Store

    preview: list[dict[str, Any]] = []
    with Store(settings.db_path) as store:
        scan_demo(settings, store=store, llm="openai", llm_preview=preview.append)
    return preview[0] if preview else {}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--max-tokens", type=int, default=0, help="llm_max_tokens (default: memseed's)")
    parser.add_argument("--n-ctx", type=int, default=8192, help="the server's context (n_ctx)")
    args = parser.parse_args(argv)
    if server_python() is None:
        print("skipped: no llama-cpp-python server venv (make llm-server-deps builds it; "
              "or set MEMSEED_LLM_SERVER_PYTHON)")
        return 0
    from bootstrap_app.config import load_settings
    from bootstrap_app.report.scan import llm_line

    with start_server(n_ctx=args.n_ctx) as server, \
            tempfile.TemporaryDirectory(prefix="memseed-bench-llm-") as tmp:
        print(f"server: llama-cpp-python {server.version}, model {server.model}, n_ctx {server.n_ctx}")
        over = {"llm_max_tokens": args.max_tokens} if args.max_tokens else {}
        settings = load_settings(Path(tmp) / "home", llm="openai", llm_base_url=server.base_url,
                                 llm_model=server.model, **over)
        print(f"settings: llm_max_tokens {settings.llm_max_tokens}, llm_budget {settings.llm_budget:.0f} s, "
              f"llm_response_format {settings.llm_response_format}")
        for label in ("first demo scan", "second demo scan (format remembered)"):
            result, seconds = _scan(settings)
            llm = result.llm or {}
            # after the scan: the preview then follows the plan that scan remembered (context, format),
            # so it is the request that was sent; a server that died counts nothing
            prompt = _prompt_tokens(server.base_url, _preview(settings)) if server.process.poll() is None else 0
            if not llm:  # the pass failed: no numbers of its own, its message says what happened
                print(f"{label}: {seconds:.1f} s wall; prompt {prompt} tokens (server tokenizer)")
            else:
                print(f"{label}: {seconds:.1f} s wall; prompt {prompt} tokens (server tokenizer), "
                      f"{llm.get('answer_tokens', 0)} answer tokens; pass {llm.get('seconds', 0)} s, "
                      f"{llm.get('requests', 0)} requests, format {llm.get('mode', '-')}, context "
                      f"{llm.get('context', 0)} ({llm.get('context_from') or 'not reported'}), "
                      f"digest {llm.get('digest_chars', 0)} chars")
            print(f"  {llm_line(llm) if llm else 'LLM error: ' + str(result.llm_error)}")
            for note in llm.get("notes", []):
                print(f"  note: {note}")
        quiet = Path(tmp) / "nothing"
        quiet.mkdir()
        (quiet / "notes.md").write_text("# Shared notes\n\nA page nobody here wrote.\n", encoding="utf-8")
        result, seconds = _scan(settings, quiet)
        sent = "nothing sent" if result.llm is None and result.llm_error is None else f"llm={result.llm}"
        print(f"nothing to say: {seconds:.2f} s wall ({sent})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
