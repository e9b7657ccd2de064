"""The ``memseed`` command line: a thin shell over the library.

Each command lives in its own module and only parses arguments, calls library functions
and prints. Errors derived from :class:`~bootstrap_app.errors.MemseedError` become a
one-paragraph message and exit status 2; anything else is a bug and shows a traceback.
"""

from __future__ import annotations

import importlib
import sys

import click

from bootstrap_app.errors import MemseedError

__all__ = ["main"]

# module name -> the click commands it defines (kept in step with the README)
_COMMAND_MODULES = (
    "scan",
    "sources",
    "review",
    "write",
    "importcmd",
    "verify",
    "hook",
    "schedulecmd",
    "doctor",
    "reseed",
    "app",
    "auth",
    "llm",
    "statuscmd",
)


class _Group(click.Group):
    def invoke(self, ctx: click.Context) -> object:
        try:
            return super().invoke(ctx)
        except MemseedError as exc:
            click.echo(f"memseed: {exc}", err=True)
            sys.exit(2)


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--home", envvar="MEMSEED_HOME", type=click.Path(file_okay=False),
              help="App dir for config.toml and state.db (default: $MEMSEED_HOME or the user data dir).")
@click.version_option(package_name="memseed")
@click.pass_context
def main(ctx: click.Context, home: str | None) -> None:
    """memseed: give your coding agent a memory of you on day one.

    \b
    Typical first run:
      memseed scan ~/Takeout ~/code/my-repo      # propose memories (JSON Lines)
      memseed review                             # approve / edit / reject each
      memseed write --target claude-code --project ~/code/my-repo --dry-run
      memseed write --target claude-code --project ~/code/my-repo
      memseed undo                               # put every file back as it was
    """
    ctx.ensure_object(dict)
    ctx.obj["home"] = home


for _name in _COMMAND_MODULES:
    for _command in importlib.import_module(f"bootstrap_app.cli.{_name}").COMMANDS:
        main.add_command(_command)
