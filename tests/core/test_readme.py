"""The command table (docs/usage.md) matches the CLI both ways; the README names every command and
explains the repo from inside it, as a newcomer's page that sends the rest into docs/."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import click

from bootstrap_app.cli import main

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")
USAGE = (ROOT / "docs" / "usage.md").read_text(encoding="utf-8")


def _section(title: str, text: str = README) -> str:
    return text.split(f"\n## {title}\n", 1)[1].split("\n## ", 1)[0]


def _commands(group: click.Group, prefix: str = "memseed") -> Iterator[tuple[str, click.Command]]:
    for name, command in sorted(group.commands.items()):
        yield f"{prefix} {name}", command  # a group has options of its own (`memseed auth --status`)
        if isinstance(command, click.Group):
            yield from _commands(command, f"{prefix} {name}")


def _options(command: click.Command) -> list[tuple[str, ...]]:
    """Each visible option's spellings (``("-q", "--quiet")``, ``("--headless", "--open-browser")``)."""
    return [(*p.opts, *p.secondary_opts) for p in command.params if isinstance(p, click.Option) and not p.hidden]


def _long_options(command: click.Command) -> set[str]:
    return {o for names in _options(command) for o in names if o.startswith("--")} | {"--help"}


def _mentions(text: str, option: str) -> bool:
    return re.search(rf"(?<![\w-]){re.escape(option)}(?![\w-])", text) is not None


COMMANDS = dict(_commands(main))
ROWS = [line for line in _section("Command line", USAGE).splitlines() if line.startswith("| `memseed")]


def _rows_of(name: str) -> list[str]:
    return [row for row in ROWS if re.search(rf"`{re.escape(name)}(?:[ `]|$)", row)]


def test_every_command_and_option_is_in_the_table() -> None:
    missing = []
    for name, command in COMMANDS.items():
        rows = _rows_of(name)
        if not rows:
            missing.append(name)
            continue
        text = " ".join(rows)
        missing += [f"{name} {'/'.join(names)}" for names in _options(command)
                    if not any(_mentions(text, o) for o in names)]
    assert missing == [], f"docs/usage.md command table lacks: {missing}"


def test_the_table_names_nothing_the_cli_does_not_have() -> None:
    unknown = []
    for row in ROWS:
        first_cell = row.split(" | ")[0]
        for usage in re.findall(r"`(memseed [^`]*)`", first_cell):
            words = usage.split()
            name = next((n for n in sorted(COMMANDS, key=len, reverse=True)
                         if usage == n or usage.startswith(n + " ")), None)
            if name is None:
                unknown.append(" ".join(words[:2]))
                continue
            unknown += [f"{name} {opt}" for opt in re.findall(r"--[a-z][a-z-]*", usage)
                        if opt not in _long_options(COMMANDS[name])]
    assert unknown == [], f"docs/usage.md command table names what the CLI lacks: {unknown}"


def test_the_readme_names_every_top_level_command() -> None:
    table = _section("Commands")
    named = set(re.findall(r"`memseed ([a-z-]+)`", table))
    assert named == set(main.commands), f"README Commands table: {sorted(set(main.commands) ^ named)}"
    assert "(docs/usage.md)" in table


def test_the_readme_is_a_newcomers_page() -> None:
    """What it is, the two commands, a picture, how it works in a few lines, where to read more —
    in that order, short; the rest lives in docs/ and every page it links exists."""
    titles = re.findall(r"^## (.+)$", README, flags=re.M)
    assert titles[:5] == ["The two commands", "What it looks like", "How it works", "Commands", "Read more"]
    assert len(README.splitlines()) <= 120
    assert "make app" in _section("The two commands") and "make test" in _section("The two commands")
    assert re.search(r"!\[[^]]*\]\(docs/screenshots/\w+\.png\)", _section("What it looks like"))
    for link in re.findall(r"\]\(((?:docs|tests)/[^)#]+)", README):
        assert (ROOT / link).is_file(), f"README links a missing page: {link}"
    for page in ("how-it-works", "trust", "usage", "placement", "architecture", "extending", "development"):
        assert f"(docs/{page}.md)" in _section("Read more"), f"Read more lacks docs/{page}.md"


def test_docs_link_only_pages_that_exist() -> None:
    for doc in sorted((ROOT / "docs").glob("*.md")):
        text = doc.read_text(encoding="utf-8")
        for link in re.findall(r"\]\(([^)#:]+)(?:#[^)]*)?\)", text):
            assert (doc.parent / link).resolve().exists(), f"{doc.name} links a missing {link}"


def test_development_section_points_into_the_repository() -> None:
    development = _section("Development")
    for doc in ("docs/architecture.md", "docs/extending.md"):
        assert f"({doc})" in development, f"the Development section should link {doc}"
        assert (ROOT / doc).is_file()
    links = re.findall(r"\]\(([^)]+)\)", README)
    outside = [link for link in links if re.match(r"[a-z]+:", link) or link.startswith(("/", ".."))]
    assert outside == [], f"README links outside the repository: {outside}"
    assert "shared folder" not in README
    # nor names a folder beside the clone in prose: the real-data corpora are listed inside the repo
    assert not re.search(r"(?<![\w.])\.\./", README), "README sends readers outside the repository"
    assert "(tests/REALDATA.md)" in README and (ROOT / "tests" / "REALDATA.md").is_file()
