"""Several Google accounts in one app dir: the shape of the stored sign-in record.

Why: a person often has a work Workspace account and a personal Gmail, and memseed should read
both into one memory. Each ``memseed auth google`` adds (or renews) one account; ``google:ACCOUNT``
(and ``gmail:ACCOUNT`` ...) reads that one, ``google:`` the *default* — the first account signed
in, so adding a second one never changes what an existing ``google:`` reseed reads.

The record stays one secret in the token store (keyring entry or 0600 file), so its protection
and the permission check on load are the store's, unchanged::

    {"default": "maya@example.com",
     "accounts": {"maya@example.com": {"account": ..., "credentials": {authorized_user JSON}}, ...}}

A record written before several accounts were possible (``{"account", "credentials"}``) reads
as one account, the default. Pure functions over dicts: no I/O, no network.
"""

from __future__ import annotations

from typing import Any

__all__ = ["Logins", "parse_logins"]


class Logins:
    """The signed-in Google accounts (address -> stored entry) and which one is the default."""

    def __init__(self, accounts: dict[str, dict[str, Any]] | None = None, default: str = "") -> None:
        self.accounts: dict[str, dict[str, Any]] = dict(accounts or {})
        self.default = default if default in self.accounts else next(iter(self.accounts), "")

    def __bool__(self) -> bool:
        return bool(self.accounts)

    def names(self) -> list[str]:
        """Addresses, the default first (what `memseed auth --status` lists)."""
        return sorted(self.accounts, key=lambda a: (a != self.default, a))

    def entry(self, account: str = "") -> dict[str, Any] | None:
        """The stored entry of ``account`` (case-insensitive), or of the default when none is named."""
        key = account.strip().lower() or self.default
        return self.accounts.get(key)

    def with_account(self, account: str, entry: dict[str, Any]) -> Logins:
        """A copy with ``account`` added or renewed; the default stays the first account."""
        key = account.strip().lower()
        return Logins({**self.accounts, key: entry}, self.default or key)

    def without(self, account: str) -> Logins:
        """A copy with ``account`` removed; the default passes to the next remaining account."""
        key = account.strip().lower()
        rest = {k: v for k, v in self.accounts.items() if k != key}
        return Logins(rest, self.default if self.default != key else "")

    def to_record(self) -> dict[str, Any]:
        return {"default": self.default, "accounts": self.accounts}


def parse_logins(record: dict[str, Any] | None) -> Logins:
    """The stored record (either shape, see the module docstring) as :class:`Logins`."""
    if not record:
        return Logins()
    if isinstance(record.get("accounts"), dict):
        accounts = {str(k).lower(): v for k, v in record["accounts"].items() if isinstance(v, dict)}
        return Logins(accounts, str(record.get("default") or "").lower())
    if "credentials" in record:  # one account, as stored before several were possible
        return Logins({str(record.get("account") or "").lower(): record})
    return Logins()
