"""``memseed auth PROVIDER``: sign in to an account memseed reads (and ``--status``, ``--logout``).

Provider-generic on purpose: every login in :data:`connectors.registry.AUTH_PROVIDERS` is driven
the same way (``login``/``status``/``logout``); provider-specific flags are passed through as
keyword options and each provider takes the ones it knows.
"""

from __future__ import annotations

import json

import click

from bootstrap_app.errors import AuthError
from connectors.registry import AUTH_PROVIDERS

from .common import open_settings

__all__ = ["COMMANDS", "auth_cmd"]


@click.command("auth")
@click.argument("provider", required=False)
@click.option("--status", "show_status", is_flag=True, help="Show which accounts are signed in (no network).")
@click.option("--logout", is_flag=True, help="Forget the stored tokens of PROVIDER.")
@click.option("--client-id", metavar="ID", help="Microsoft: the client id of your Entra ID app registration "
                                                "(else $MEMSEED_MS_CLIENT_ID or ms_client_id in config.toml).")
@click.option("--authority", metavar="URL", help="Microsoft: https://login.microsoftonline.com/common (default), "
                                                 "/consumers or /organizations (else $MEMSEED_MS_AUTHORITY).")
@click.option("--json", "as_json", is_flag=True, help="With --status: print JSON.")
@click.pass_context
def auth_cmd(ctx: click.Context, provider: str | None, show_status: bool, logout: bool, client_id: str | None,
             authority: str | None, as_json: bool) -> None:
    """Sign in to an account (read-only) so `memseed scan microsoft:` can read it.

    \b
    Examples:
      memseed auth microsoft --client-id 00000000-0000-0000-0000-000000000000
      memseed auth --status
      memseed auth microsoft --logout
    """
    settings = open_settings(ctx)
    names = sorted(AUTH_PROVIDERS)
    if provider is not None and provider not in AUTH_PROVIDERS:
        raise AuthError(f"no login named {provider!r}", hint=f"choose one of: {', '.join(names)}")
    if show_status or (provider is None and not logout):
        rows = {name: AUTH_PROVIDERS[name].status(settings.home) for name in ([provider] if provider else names)}
        if as_json:
            click.echo(json.dumps({n: {"ok": a.ok, "account": a.account, "scopes": list(a.scopes),
                                       "detail": a.detail} for n, a in rows.items()}, indent=2))
            return
        for name, avail in rows.items():
            who = f"signed in as {avail.account} ({', '.join(avail.scopes)})" if avail.ok else avail.detail
            click.echo(f"{name:10} {who}")
        return
    if provider is None:
        raise AuthError("--logout needs a provider", hint=f"memseed auth {names[0]} --logout")
    login = AUTH_PROVIDERS[provider]
    if logout:
        done = login.logout(settings.home)
        click.echo(f"{provider}: " + ("signed out; stored tokens deleted" if done else "nothing was stored"))
        return
    options = {k: v for k, v in {"client_id": client_id, "authority": authority}.items() if v}
    account = login.login(settings.home, echo=lambda text: click.echo(text, err=True), **options)
    click.echo(f"{provider}: signed in as {account}. Next: memseed scan {provider}:")


COMMANDS = [auth_cmd]
