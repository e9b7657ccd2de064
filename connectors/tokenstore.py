"""Where login tokens live: the OS keyring, or a 0600 file whose permissions are checked on load.

Why both: a desktop has a keyring (macOS Keychain, Windows Credential Manager, Secret Service)
that encrypts at rest, and that is the default. A headless server or a container has none; there
a file only its owner can read is the honest fallback, and a file that *others* can read is
refused outright, because a refresh token read by someone else is a mailbox read by someone
else. ``MEMSEED_TOKEN_STORE=file`` (or ``keyring``) forces one; tests use ``file`` so nothing
touches the developer's real keyring.

Values are opaque strings (a JSON token, a serialized MSAL cache). Nothing here logs them.
"""

from __future__ import annotations

import contextlib
import os
import stat
from pathlib import Path
from types import ModuleType

from bootstrap_app.errors import AuthError

__all__ = ["ENV_STORE", "delete_secret", "load_secret", "save_secret", "token_path"]

ENV_STORE = "MEMSEED_TOKEN_STORE"
_SERVICE = "memseed"


def token_path(home: Path, name: str) -> Path:
    """The fallback file for secret ``name`` under the app dir."""
    return home / "tokens" / f"{name}.json"


def _keyring() -> ModuleType | None:
    """The keyring module when a real, encrypting backend is there; else None (use the file).

    keyring answers with its ``fail`` backend (priority 0) when the machine has none, and
    plaintext backends (keyrings.alt) rank below 1; neither is better than a 0600 file.
    """
    if os.environ.get(ENV_STORE, "").lower() == "file":
        return None
    import keyring  # here, not at the top: ~40 ms that every CLI start would pay for a login
    import keyring.errors  # the caller catches ring.errors.KeyringError

    backend = keyring.get_keyring()
    if getattr(backend, "priority", 0) < 1 or "plaintext" in type(backend).__module__.lower():
        return None
    return keyring


def _account(home: Path, name: str) -> str:
    """Keyring entries are per app dir, so two MEMSEED_HOMEs keep two logins."""
    return f"{name}@{home.resolve()}"


def save_secret(home: Path, name: str, value: str) -> str:
    """Store ``value``; returns where it went (``"keyring"`` or the file's path)."""
    ring = _keyring()
    if ring is not None:
        with contextlib.suppress(ring.errors.KeyringError):  # locked or broken: use the file
            ring.set_password(_SERVICE, _account(home, name), value)
            return "keyring"
    path = token_path(home, name)
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    tmp = path.with_name(f".{path.name}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        os.fchmod(fd, 0o600)
        os.write(fd, value.encode("utf-8"))
        os.fsync(fd)
    finally:
        os.close(fd)
    os.replace(tmp, path)
    return str(path)


def load_secret(home: Path, name: str) -> str | None:
    """The stored value, or None. A token file others can read raises :class:`AuthError`."""
    ring = _keyring()
    if ring is not None:
        with contextlib.suppress(ring.errors.KeyringError):
            value = ring.get_password(_SERVICE, _account(home, name))
            if value is not None:
                return str(value)
    path = token_path(home, name)
    try:
        st = path.stat()
    except FileNotFoundError:
        return None
    if os.name == "posix" and st.st_mode & (stat.S_IRWXG | stat.S_IRWXO):
        raise AuthError(f"{path}: token file is readable by other users (mode {stat.S_IMODE(st.st_mode):04o})",
                        hint=f"run `chmod 600 {path}`, or `memseed auth --logout` and sign in again")
    return path.read_text(encoding="utf-8")


def delete_secret(home: Path, name: str) -> bool:
    """Forget ``name`` everywhere it may be; True when something was removed."""
    removed = False
    ring = _keyring()
    if ring is not None:
        with contextlib.suppress(ring.errors.KeyringError):
            ring.delete_password(_SERVICE, _account(home, name))
            removed = True
    path = token_path(home, name)
    with contextlib.suppress(FileNotFoundError):
        path.unlink()
        removed = True
    return removed
