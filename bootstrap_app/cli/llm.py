"""``memseed llm check``: what the configured LLM endpoint supports, found with one tiny request.

A thin shell over :func:`bootstrap_app.extract.llm_check.check_endpoint`: it prints the context
size (and where it came from), the response formats tried and which one the server took, and
remembers the answer for the next scan. Exit status 1 when the endpoint cannot be used.
"""

from __future__ import annotations

import json
import sys

import click

from bootstrap_app.extract.llm_check import check_endpoint

from .common import open_settings

__all__ = ["COMMANDS", "llm_group"]


@click.group("llm")
def llm_group() -> None:
    """The language-model endpoint of the opt-in `--llm openai` pass."""


@llm_group.command("check")
@click.option("--json", "as_json", is_flag=True, help="Print the findings as one JSON object.")
@click.pass_context
def check_cmd(ctx: click.Context, as_json: bool) -> None:
    """Send one tiny request (no personal data) and report what the endpoint supports.

    Response formats are tried in order until one is taken: json_schema, json_object_schema
    (JSON mode with the schema attached, a grammar on llama.cpp servers; not for OpenAI's own
    API), json_object, text. The one taken is remembered for scans (llm_response_format forces one).

    \b
    Examples:
      memseed llm check
      MEMSEED_LLM_BASE_URL=http://127.0.0.1:8080/v1 MEMSEED_LLM_MODEL=smollm2 memseed llm check
    """
    settings = open_settings(ctx)
    result = check_endpoint(settings)
    if as_json:
        click.echo(json.dumps(result.to_json()))
    else:
        click.echo("\n".join(result.lines()))
    if not result.usable:
        sys.exit(1)


COMMANDS = [llm_group]
