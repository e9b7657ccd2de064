"""Every rule about text in one place: secret redaction, invisible characters, NFKC, cleaning.

Why one package: connectors redact what they read, the safety checks judge what a proposal
says, the digest cleans what may leave the machine, and the writers refuse what must not reach
an agent. If two of them disagreed on what "a secret" or "an invisible character" is, text
would slip through the gap. This package sits at the bottom of the layers (next to types and
errors): it imports nothing else of memseed, so a connector may use it without pulling in
the pipeline.

- :mod:`.secrets`: :func:`redact_secrets` / :func:`find_secrets` (hand regexes + detect-secrets).
- :mod:`.unicode`: :func:`normalize` (NFKC), :func:`find_invisible`, :func:`sanitize_untrusted`,
  word windows for "the same words" checks.
- :mod:`.clean`: :func:`clean_text` for text that may leave the machine (the stricter rule:
  also surrogates, variation selectors, phone and card numbers), :func:`neutralise` for delimiters.
- :mod:`.mail`: the owner's own words of a mail, cut three ways for three uses
  (:func:`trim_quoted` in connectors, :func:`own_text` in analyzers, :func:`strip_quoted` for
  the LLM digest) and :func:`is_forward`.
- :mod:`.paths`: :func:`is_text` / :func:`printable` for file names that are not valid UTF-8.
"""

from __future__ import annotations

from .clean import card_spans, clean_text, neutralise
from .mail import is_forward, own_text, strip_quoted, trim_quoted
from .paths import is_text, printable
from .secrets import SECRET_PATTERNS, find_secrets, redact_secrets, secret_spans
from .unicode import (
    HERMES_INVISIBLE,
    find_invisible,
    normalize,
    sanitize_untrusted,
    shared_run,
    word_list,
    word_windows,
)

__all__ = [
    "HERMES_INVISIBLE",
    "SECRET_PATTERNS",
    "card_spans",
    "clean_text",
    "find_invisible",
    "find_secrets",
    "is_forward",
    "is_text",
    "neutralise",
    "normalize",
    "own_text",
    "printable",
    "redact_secrets",
    "sanitize_untrusted",
    "secret_spans",
    "shared_run",
    "strip_invisible",
    "strip_quoted",
    "trim_quoted",
    "word_list",
    "word_windows",
]
