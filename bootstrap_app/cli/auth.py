"""``memseed auth``: sign in to an account (``memseed auth google``), see who is signed in, sign out.

Provider-generic on purpose: each login in :data:`connectors.registry.AUTH_PROVIDERS` becomes a
sub-command ``memseed auth NAME`` whose options (listed in :data:`PROVIDER_OPTIONS`) are handed
to ``provider.login(home, echo=..., **options)`` unchanged. Adding a provider is one entry there;
nothing here knows what a Google or Microsoft login involves.
"""

from __future__ import annotations

import inspect
from typing import Any

import click

from bootstrap_app.errors import AuthError
from bootstrap_app.report.sources import from_env, short_scope
from connectors.registry import AUTH_PROVIDERS

from .common import open_settings

__all__ = ["COMMANDS", "PROVIDER_OPTIONS", "auth_cmd"]

PROVIDER_OPTIONS: dict[str, list[click.Option]] = {
    "google": [
        click.Option(["--client-secrets", "client_secrets"], metavar="FILE",
                     type=click.Path(exists=True, dir_okay=False),
                     help="Your Desktop-app OAuth client JSON (from your Google Cloud project)."),
        click.Option(["--no-browser", "no_browser"], is_flag=True,
                     help="Print the sign-in URL (and the SSH port-forward command) instead of opening a browser."),
    ],
    "microsoft": [
        click.Option(["--client-id", "client_id"], metavar="ID",
                     help="Client id of your Entra ID app registration (else $MEMSEED_MS_CLIENT_ID or "
                          "ms_client_id in config.toml)."),
        click.Option(["--authority", "authority"], metavar="URL",
                     help="https://login.microsoftonline.com/common (default), /consumers or /organizations."),
    ],
}
"""Options of ``memseed auth NAME``, passed to that provider's ``login`` as keyword arguments."""


@click.group("auth", invoke_without_command=True)
@click.option("--status", "show_status", is_flag=True, help="Show which accounts are signed in, with their scopes.")
@click.option("--logout", "logout", metavar="[PROVIDER[:ACCOUNT]]", is_flag=False, flag_value="*", default=None,
              help="Forget the stored sign-in of PROVIDER (all providers when none is named; "
                   "google:ACCOUNT forgets one Google account).")
@click.pass_context
def auth_cmd(ctx: click.Context, show_status: bool, logout: str | None) -> None:
    """Connect an account (read-only), show the sign-ins, or sign out.

    \b
    Examples:
      memseed auth google --client-secrets ~/client_secret.json
      memseed auth google --no-browser          # over SSH: prints the URL and the port-forward
      memseed auth microsoft --client-id ID     # device code: open the URL on any device, type the code
      memseed auth --status
      memseed auth --logout google
    """
    if ctx.invoked_subcommand is not None:
        return
    home = open_settings(ctx).home
    if logout is not None:
        names = list(AUTH_PROVIDERS) if logout == "*" else [logout]
        for named in names:
            name, _, account = named.partition(":")
            provider = AUTH_PROVIDERS.get(name)
            if provider is None:
                raise AuthError(f"no login named {name!r}", hint=f"one of: {', '.join(AUTH_PROVIDERS)}")
            if account and "account" not in inspect.signature(provider.logout).parameters:
                raise AuthError(f"{name} signs out all its accounts at once",
                                hint=f"run `memseed auth --logout {name}`")
            gone = provider.logout(home, account=account) if account else provider.logout(home)  # type: ignore[call-arg]
            click.echo(f"{named}: {'signed out' if gone else 'was not signed in'}")
            state = provider.status(home)
            if from_env(state):  # the stored sign-in is gone, but memseed still reads the account
                click.echo(f"{name}: still signed in as {state.account or 'the account'} by the "
                           f"{state.detail.removeprefix('credentials from ')} file, which is still used; "
                           f"unset that variable to stop.")
        return
    if show_status or not ctx.invoked_subcommand:
        for name, provider in AUTH_PROVIDERS.items():
            every = getattr(provider, "statuses", None)  # a login with several accounts lists each
            for state in every(home) if every is not None else [provider.status(home)]:
                who = f"signed in as {state.account}" if state.ok and state.account else state.detail
                note = f" ({state.detail.removeprefix('signed in ').strip('()')})" \
                    if state.ok and state.detail.startswith("signed in (") else ""
                click.echo(f"{name:10} {who}{note}")
                if state.ok and state.scopes:
                    click.echo(f"{'':10} scopes: {', '.join(short_scope(s) for s in state.scopes)}")


def _provider_command(name: str) -> click.Command:
    def run(**options: Any) -> None:
        ctx = click.get_current_context()
        home = open_settings(ctx).home
        before = AUTH_PROVIDERS[name].status(home)
        if from_env(before):
            click.echo(f"warning: {before.detail.removeprefix('credentials from ')} is set and overrides the "
                       f"sign-in this command stores; unset it to use that one.", err=True)
        account = AUTH_PROVIDERS[name].login(home, echo=click.echo,
                                             **{k: v for k, v in options.items() if v not in (None, False)})
        click.echo(f"{name}: connected{f' as {account}' if account else ''}. "
                   f"Scan it with `memseed scan {name}:`.")

    return click.Command(name, callback=run, params=list(PROVIDER_OPTIONS.get(name, [])),
                         help=f"Sign in to a {name.capitalize()} account (read-only) and store the token.")


for _name in AUTH_PROVIDERS:
    auth_cmd.add_command(_provider_command(_name))

COMMANDS = [auth_cmd]
