"""Hermetic test environment: HOME and the app dir in a temp folder, network only to loopback.

Skips are policed by :mod:`tests.skipguard`: only the documented external things may be absent.
"""

from __future__ import annotations

import secrets
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.register_assert_rewrite("tests.skipguard")

from tests.skipguard import REALDATA  # noqa: E402

pytest_plugins = ["pytester", "tests.skipguard"]

_HARNESS_ENV = ("CLAUDE_CONFIG_DIR", "CODEX_HOME", "HERMES_HOME", "GEMINI_DIR", "MEMSEED_OWNER",
                "MEMSEED_LLM", "OPENAI_API_KEY", "OPENAI_BASE_URL", "XDG_DATA_HOME", "XDG_CONFIG_HOME")

_real_connect = socket.socket.connect
_real_connect_ex = socket.socket.connect_ex


def _is_loopback(address: object) -> bool:
    if isinstance(address, tuple) and address:
        host = str(address[0])
        return host.startswith("127.") or host in ("::1", "localhost", "0.0.0.0")
    return isinstance(address, (str, bytes))  # AF_UNIX sockets are local


def _guarded_connect(self: socket.socket, address: object) -> None:
    if not _is_loopback(address):
        raise ConnectionRefusedError(f"tests are offline: refused connection to {address!r}")
    _real_connect(self, address)  # type: ignore[arg-type]


def _guarded_connect_ex(self: socket.socket, address: object) -> int:
    if not _is_loopback(address):
        raise ConnectionRefusedError(f"tests are offline: refused connection to {address!r}")
    return _real_connect_ex(self, address)  # type: ignore[arg-type]


def _tree(root: Path) -> dict[str, tuple[int, int]]:
    """Every file and folder under ``root``: (size, mtime in ns) by relative path."""
    out: dict[str, tuple[int, int]] = {}
    for path in (root, *root.rglob("*")):
        st = path.lstat()
        out[str(path.relative_to(root))] = (st.st_size if path.is_file() else 0, st.st_mtime_ns)
    return out


@pytest.fixture(scope="session", autouse=True)
def realdata_untouched() -> Iterator[None]:
    """The shared corpora are read, never written: the suite runs as root in CI, where the folder's
    missing write bits protect nothing, and a test that wrote there once (an agent file scoped to a
    memory bank's folder) changed the data every later run and every other session reads."""
    if not REALDATA.is_dir():
        yield
        return
    before = _tree(REALDATA)
    yield
    after = _tree(REALDATA)
    changed = sorted(k for k in before.keys() | after.keys() if before.get(k) != after.get(k))
    assert changed == [], f"the test run changed {REALDATA}: {changed[:20]}"


@pytest.fixture(autouse=True)
def hermetic(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every test gets its own HOME and MEMSEED_HOME; harness env variables are cleared."""
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("MEMSEED_HOME", str(home / ".memseed"))
    monkeypatch.setenv("PYTHON_KEYRING_BACKEND", "keyring.backends.null.Keyring")
    for name in _HARNESS_ENV:
        monkeypatch.delenv(name, raising=False)
    # the wizard's launch token (`memseed app` sets it; AppTest sessions present it as ?token=)
    monkeypatch.setenv("MEMSEED_APP_TOKEN", secrets.token_urlsafe(16))
    monkeypatch.setattr(socket.socket, "connect", _guarded_connect)
    monkeypatch.setattr(socket.socket, "connect_ex", _guarded_connect_ex)
    return home


@pytest.fixture
def realdata() -> Path:
    """The shared real-data folder, or a clean skip when it is absent."""
    if not REALDATA.is_dir():
        pytest.skip(f"real data folder {REALDATA} is absent")
    return REALDATA


def realdata_file(*parts: str) -> Path:
    """A file inside the real-data folder: a skip when the whole folder is absent, a failure when
    the folder is there but the file is not (an incomplete data set or a wrong path is a bug)."""
    if not REALDATA.is_dir():
        pytest.skip(f"real data folder {REALDATA} is absent")
    path = REALDATA.joinpath(*parts)
    if not path.exists():
        pytest.fail(f"real data folder {REALDATA} is present but {path} is not")
    return path


def realdata_by_digest(prefix: str) -> Path:
    """The real-data file whose sha256 in the folder's ``MANIFEST.tsv`` starts with ``prefix``.

    Why by digest: some corpus files are named after the person whose mail they hold, and the
    repository never types a corpus person's name. A skip when the folder is absent, a failure
    when it is there but no (or more than one) file has that digest.
    """
    manifest = realdata_file("MANIFEST.tsv")
    rows = [line.split("\t") for line in manifest.read_text(encoding="utf-8").splitlines()[1:] if line.strip()]
    paths = sorted({row[0] for row in rows if len(row) > 2 and row[2].startswith(prefix)})
    if len(paths) != 1:
        pytest.fail(f"{manifest}: {len(paths)} files with sha256 {prefix}…, expected one")
    return realdata_file(*paths[0].split("/"))
