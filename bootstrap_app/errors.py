"""One exception tree for the whole of memseed.

Callers (the CLI, the app, notebooks) catch :class:`MemseedError` and show its message;
every message says what went wrong *and* what to do about it. Anything that is not a
``MemseedError`` is a bug.

::

    MemseedError
    ├── ConfigError              bad setting, unreadable config.toml, missing secret reference
    │   └── OwnerNotFound        a --owner that matches nobody in the sources (names the nearest)
    ├── StoreError               state.db unreadable, newer schema, unknown proposal id
    │   └── UnknownProposal      an id/fingerprint that matches nothing (or several things)
    ├── SourceError              a whole source could not be read
    │   ├── SourceNotFound       the path or URI does not exist
    │   ├── UnsupportedSource    nothing knows how to read it
    │   ├── QuotaExceeded        a provider's quota ran out (retry later; nothing half-written)
    │   └── SourceOffline        the provider could not be reached
    ├── NoSourceReadable         a scan where not one source could be read
    ├── SafetyError              content refused by the safety gate
    │   └── BlockedContent       an entry matched a threat / secret pattern
    ├── WriteError               a harness write refused or failed (nothing was changed)
    │   ├── TargetNotFound       the harness folder / project cannot be located
    │   ├── CapacityExceeded     approved entries do not fit a capped file
    │   ├── ConflictError        a file changed since memseed last wrote it
    │   └── UnsafePath           a symlink, or a name that would escape the folder
    ├── UndoError                a write cannot be undone (files changed since)
    ├── AuthError                an account could not be connected
    │   └── AuthRequired         not signed in, or consent revoked / expired
    └── LLMError                 the language model failed or answered off-schema
        ├── LLMContextError      the request did not fit the model's context
        └── LLMCancelled         the person stopped the LLM pass
"""

from __future__ import annotations

__all__ = [
    "AuthError",
    "AuthRequired",
    "BlockedContent",
    "CapacityExceeded",
    "ConfigError",
    "ConflictError",
    "LLMCancelled",
    "LLMContextError",
    "LLMError",
    "MemseedError",
    "NoSourceReadable",
    "OwnerNotFound",
    "QuotaExceeded",
    "SafetyError",
    "SourceError",
    "SourceNotFound",
    "SourceOffline",
    "StoreError",
    "TargetNotFound",
    "UndoError",
    "UnknownProposal",
    "UnsafePath",
    "UnsupportedSource",
    "WriteError",
]


class MemseedError(Exception):
    """Base of every error memseed raises on purpose. ``hint`` says what to do next."""

    def __init__(self, message: str, *, hint: str = "") -> None:
        super().__init__(message)
        self.hint = hint

    def __str__(self) -> str:
        base = super().__str__()
        return f"{base}\n  hint: {self.hint}" if self.hint else base


class ConfigError(MemseedError):
    pass


class OwnerNotFound(ConfigError):
    """A ``--owner`` value (address, Slack id, handle or name) matched nobody in the sources."""


class StoreError(MemseedError):
    pass


class UnknownProposal(StoreError):
    pass


class SourceError(MemseedError):
    pass


class SourceNotFound(SourceError):
    pass


class UnsupportedSource(SourceError):
    pass


class QuotaExceeded(SourceError):
    pass


class SourceOffline(SourceError):
    pass


class NoSourceReadable(MemseedError):
    pass


class SafetyError(MemseedError):
    pass


class BlockedContent(SafetyError):
    def __init__(self, message: str, *, reasons: tuple[str, ...] = (), hint: str = "") -> None:
        super().__init__(message, hint=hint)
        self.reasons = reasons


class WriteError(MemseedError):
    pass


class TargetNotFound(WriteError):
    pass


class CapacityExceeded(WriteError):
    def __init__(self, message: str, *, limit: int = 0, needed: int = 0, hint: str = "") -> None:
        super().__init__(message, hint=hint)
        self.limit = limit
        self.needed = needed


class ConflictError(WriteError):
    pass


class UnsafePath(WriteError):
    pass


class UndoError(MemseedError):
    pass


class AuthError(MemseedError):
    pass


class AuthRequired(AuthError):
    pass


class LLMError(MemseedError):
    pass


class LLMContextError(LLMError):
    """The request did not fit the model's context: ``context`` tokens, ``sent`` (0 when unknown)."""

    def __init__(self, message: str, *, context: int = 0, sent: int = 0, mode: str = "", hint: str = "") -> None:
        super().__init__(message, hint=hint)
        self.context = context
        self.sent = sent
        self.mode = mode
        """The response format the server took before it found the prompt too long."""


class LLMCancelled(LLMError):
    """The person stopped the LLM pass (Ctrl-C, the wizard's Cancel): the request was closed."""
