"""What the three Google sources share: the URI, the account check, the session, resume state.

Why a resume file beside the cursor: the scan stores a cursor only after a *complete* read
(nothing half-written), but a first read of a large mailbox takes many minutes under the
quota. So while a read runs, the source keeps a small checkpoint (page token, phase, history
baseline — ids only, never mail text) in ``<home>/cloud/<source>.resume.json`` (0600) after
each finished page; a read killed mid-way starts again from the last finished page. The file
is removed when the read completes.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any

from bootstrap_app.errors import AuthRequired

from ..base import AccountSource, Cursor, ReadContext
from .client import GoogleSession

__all__ = ["GoogleSource", "ResumeState"]


class ResumeState:
    """The in-flight checkpoint of one source's read (see the module docstring)."""

    def __init__(self, home: Path | None, source_id: str) -> None:
        digest = hashlib.sha256(source_id.encode()).hexdigest()[:16]
        self.path = home / "cloud" / f"{digest}.resume.json" if home is not None else None

    def load(self) -> dict[str, Any]:
        if self.path is None:
            return {}
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        return data if isinstance(data, dict) else {}

    def save(self, state: dict[str, Any]) -> None:
        if self.path is None:
            return
        self.path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        tmp = self.path.with_suffix(".tmp")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump(state, f)
        os.replace(tmp, self.path)

    def clear(self) -> None:
        if self.path is not None:
            self.path.unlink(missing_ok=True)


class GoogleSource(AccountSource, auth="google"):
    """Base of ``gmail:``, ``google-calendar:`` and ``google-drive:`` (``SCHEME:[ACCOUNT]``)."""

    def __init__(self, location: str | os.PathLike[str]) -> None:
        text = str(location)
        scheme, sep, rest = text.partition(":")
        if not sep or scheme not in self.uri_schemes:
            rest = text  # given just the account part
        super().__init__(f"{self.uri_schemes[0]}:{rest.strip().lower()}")

    def session(self, ctx: ReadContext) -> GoogleSession:
        return GoogleSession(ctx.credentials(self.auth), label=self.id.rstrip(":"), sleep=ctx.sleep)

    def check_account(self, actual: str) -> None:
        """A URI naming an account must match the signed-in one (never read someone else's)."""
        if self.account and actual and self.account != actual.lower():
            raise AuthRequired(f"{self.id}: signed in to Google as {actual}, not {self.account}",
                               hint=f"run `memseed auth google` and sign in as {self.account}")

    def cursor_for(self, ctx: ReadContext, account: str) -> Cursor:
        """The saved cursor if it was taken for ``account`` (the signed-in one, first checked
        against the URI's), else an empty one: a history id, sync token or changes token from
        another account's data is no cursor here, and reading from it would skip or mix data."""
        self.check_account(account)
        cur = ctx.cursor or {}
        return cur if cur.get("account") == account else {}

    def resume_state(self, ctx: ReadContext) -> ResumeState:
        return ResumeState(ctx.home, self.id)
