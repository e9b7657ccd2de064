"""Secret storage for account tokens (stand-in for the lead's module until it lands on main).

The OS keyring when a real backend is there; otherwise a 0600 file under ``home/tokens``
whose permissions are checked on every load. ``MEMSEED_TOKEN_STORE=file`` forces the file.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from bootstrap_app.errors import AuthError

__all__ = ["delete_secret", "load_secret", "save_secret"]

_SERVICE = "memseed"


def _keyring():  # type: ignore[no-untyped-def]
    if os.environ.get("MEMSEED_TOKEN_STORE", "").lower() == "file":
        return None
    try:
        import keyring
        from keyring.backends import fail, null
    except ImportError:
        return None
    backend = keyring.get_keyring()
    name = type(backend).__module__ + "." + type(backend).__name__
    if isinstance(backend, (fail.Keyring, null.Keyring)) or "plaintext" in name.lower():
        return None
    return keyring


def _file(home: Path, name: str) -> Path:
    return home / "tokens" / f"{name}.json"


def save_secret(home: Path, name: str, value: str) -> str:
    kr = _keyring()
    if kr is not None:
        kr.set_password(_SERVICE, name, value)
        return "keyring"
    path = _file(home, name)
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    tmp = path.with_suffix(".tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(value)
    os.replace(tmp, path)
    return str(path)


def load_secret(home: Path, name: str) -> str | None:
    kr = _keyring()
    if kr is not None:
        value = kr.get_password(_SERVICE, name)
        if value is not None:
            return str(value)
    path = _file(home, name)
    try:
        mode = path.stat().st_mode
    except FileNotFoundError:
        return None
    if mode & (stat.S_IRWXG | stat.S_IRWXO):
        raise AuthError(f"{path}: token file is readable by other users",
                        hint=f"run `chmod 600 {path}` (or sign in again)")
    return path.read_text(encoding="utf-8")


def delete_secret(home: Path, name: str) -> bool:
    gone = False
    kr = _keyring()
    if kr is not None:
        try:
            kr.delete_password(_SERVICE, name)
            gone = True
        except Exception:  # keyring.errors.PasswordDeleteError: nothing stored
            pass
    path = _file(home, name)
    if path.exists():
        path.unlink()
        gone = True
    return gone
