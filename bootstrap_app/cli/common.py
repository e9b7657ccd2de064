"""Helpers shared by CLI commands: opening settings and the store from the click context."""

from __future__ import annotations

from typing import Any

import click

from bootstrap_app.config import Settings, load_settings
from bootstrap_app.store import Store

__all__ = ["EXIT_PARTIAL", "open_settings", "open_store"]

EXIT_PARTIAL = 3
"""Exit status of a command that did what it could and reported the rest: a scan that read some
sources or files and could not read others, an import or write that left some entries out (a
blocked entry, one over the target's cap). Not a failure (2) and not all done (0), so a cron job
or script can tell; the summary names each piece left out, with its reason."""


def open_settings(ctx: click.Context, **flags: Any) -> Settings:
    return load_settings((ctx.find_root().obj or {}).get("home"), **flags)


def open_store(settings: Settings) -> Store:
    return Store(settings.db_path)
