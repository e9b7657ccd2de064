"""Secret storage for account tokens (interim copy of the lead's contract; main's version wins on merge).

Why: a refresh token is a long-lived key to a person's mailbox. It goes to the OS keyring
when a real backend exists, else to a 0600 file under ``home/tokens`` whose permissions are
checked on every load (a group/other-readable token file is refused, not silently used).
``MEMSEED_TOKEN_STORE=file`` forces the file (tests, headless machines).
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
    if isinstance(backend, (fail.Keyring, null.Keyring)) or "plaintext" in type(backend).__name__.lower():
        return None
    return keyring


def _path(home: Path, name: str) -> Path:
    return Path(home) / "tokens" / f"{name}.json"


def save_secret(home: Path, name: str, value: str) -> str:
    ring = _keyring()
    if ring is not None:
        ring.set_password(_SERVICE, name, value)
        return "keyring"
    path = _path(home, name)
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    tmp = path.with_suffix(".tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(value)
    os.chmod(tmp, 0o600)
    os.replace(tmp, path)
    return str(path)


def load_secret(home: Path, name: str) -> str | None:
    ring = _keyring()
    if ring is not None:
        value = ring.get_password(_SERVICE, name)
        if value is not None:
            return str(value)
    path = _path(home, name)
    try:
        st = path.stat()
    except FileNotFoundError:
        return None
    if st.st_mode & (stat.S_IRWXG | stat.S_IRWXO):
        raise AuthError(f"token file {path} is readable by other users (mode {stat.S_IMODE(st.st_mode):o})",
                        hint=f"run `chmod 600 {path}`, or delete it and sign in again")
    return path.read_text(encoding="utf-8")


def delete_secret(home: Path, name: str) -> bool:
    ring = _keyring()
    done = False
    if ring is not None:
        try:
            ring.delete_password(_SERVICE, name)
            done = True
        except Exception:  # keyring raises PasswordDeleteError when absent
            pass
    path = _path(home, name)
    if path.exists():
        path.unlink()
        done = True
    return done
