"""Task files read through their language's grammar (tree-sitter), not through patterns over their text.

Why a parser: a task file is source code in its own language, and a pattern that does not know
the language misreads it. Ruby's keyword syntax ``task dist: %w[clean build]`` names the task
``dist`` (a pattern read ``dist:``, a task nobody declared); a Makefile rule inside an
``ifeq … endif`` block, a recipe continued over several lines with ``\\``, a ``## help`` comment
after the prerequisites are all the grammar's business. The tree-sitter grammars are maintained
by their languages' communities and published as wheels, so each reader below walks a syntax tree
and only decides which nodes are tasks.

Each reader returns plain records (name, dependencies, description, body, line); the ecosystem
modules build commands from them in their fixed shapes. This module holds the parser plumbing and
the Ruby (Rakefile, Gemfile), Make and shell readers; :mod:`.buildscripts` the Gradle, CMake, Cake
and mix ones.
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import tree_sitter

__all__ = ["Gem", "MakeRule", "RakeTask", "gemfile_gems", "make_rules", "make_variables", "parse", "rake_tasks",
           "script_needs_an_argument", "shell_commands", "text_of", "walk"]


_GRAMMARS = frozenset({"ruby", "make", "bash", "cmake", "kotlin", "groovy", "c_sharp", "elixir"})
"""The grammar wheels the project depends on (pyproject.toml), each ``tree_sitter_<name>``."""


@functools.cache
def _parser(grammar: str) -> tree_sitter.Parser:
    if grammar not in _GRAMMARS:
        raise ValueError(f"no tree-sitter grammar {grammar!r} among the project's dependencies")
    module: Any = importlib.import_module(f"tree_sitter_{grammar}")
    return tree_sitter.Parser(tree_sitter.Language(module.language()))


def parse(grammar: str, text: str) -> tree_sitter.Node:
    """The syntax tree of ``text`` in ``grammar`` (the ``tree_sitter_<grammar>`` wheel: ``ruby``,
    ``make``, ``bash``, ``cmake``, ``kotlin``, ``groovy``, ``c_sharp``, ``elixir``). A syntax error
    leaves an ``ERROR`` node where it is; the rest of the tree is read as usual."""
    return _parser(grammar).parse(text.encode("utf-8", "replace")).root_node


def text_of(node: tree_sitter.Node | None) -> str:
    return node.text.decode("utf-8", "replace") if node is not None and node.text is not None else ""


def walk(node: tree_sitter.Node) -> Iterator[tree_sitter.Node]:
    yield node
    for child in node.named_children:
        yield from walk(child)


# -- Ruby: Rakefile --------------------------------------------------------------------------------

@dataclass(frozen=True)
class RakeTask:
    """One Rake task: its full name (``doc:api`` inside ``namespace :doc``), the tasks it depends on,
    the ``desc`` before it, its block's source, and the line it is declared on."""

    name: str
    deps: tuple[str, ...]
    desc: str
    body: str
    line: int


_RAKE_LIBRARY_TASKS = {"RSpec": "spec", "RuboCop": "rubocop", "StandardRB": "standard", "Standard": "standard",
                       "Rake": "test", "Minitest": "test", "YARD": "yard", "Bundler": "build"}
"""The task a library's ``…Task.new`` defines when it is given no name (``RSpec::Core::RakeTask.new``
defines ``spec``, ``Rake::TestTask.new`` defines ``test``)."""


def _ruby_name(node: tree_sitter.Node) -> str:
    """The task name a symbol, a string or a keyword key spells (``:spec``, ``"spec"``, ``spec:``)."""
    if node.type in ("simple_symbol", "hash_key_symbol"):
        return text_of(node).lstrip(":").removesuffix(":")
    if node.type in ("string", "delimited_symbol", "bare_string", "bare_symbol"):
        parts = [c for c in node.named_children if c.type == "string_content"]
        return text_of(parts[0]) if len(parts) == 1 and len(node.named_children) == 1 else ""
    return ""


def _ruby_names(node: tree_sitter.Node) -> tuple[str, ...]:
    """Every name a dependency list spells: one symbol or string, ``[:a, :b]``, ``%w[a b]``, ``%i[a b]``."""
    if node.type in ("array", "string_array", "symbol_array"):
        return tuple(n for c in node.named_children if (n := _ruby_name(c)))
    return (n,) if (n := _ruby_name(node)) else ()


def _call_parts(node: tree_sitter.Node) -> tuple[str, str, list[tuple[str, tree_sitter.Node]], tree_sitter.Node | None]:
    """(receiver, method, arguments, block) of a Ruby call, the arguments as (kind, node)."""
    receiver = text_of(node.child_by_field_name("receiver"))
    method = text_of(node.child_by_field_name("method"))
    args = node.child_by_field_name("arguments")
    block = node.child_by_field_name("block")
    return receiver, method, [(a.type, a) for a in (args.named_children if args else [])], block


def _rake_declared(args: list[tuple[str, tree_sitter.Node]]) -> tuple[str, tuple[str, ...]]:
    """(name, deps) of ``task`` arguments: ``:x``, ``"x"``, ``x: deps``, ``:x => deps``, ``:x, [:arg] => deps``."""
    name = ""
    deps: tuple[str, ...] = ()
    for kind, arg in args:
        if kind == "pair":
            key, value = arg.child_by_field_name("key"), arg.child_by_field_name("value")
            if key is None or value is None:
                continue
            if not name:
                name = _ruby_name(key)
            deps = _ruby_names(value)
        elif not name:
            name = _ruby_name(arg)
            if not name:
                return "", ()
    return name, deps


def rake_tasks(text: str) -> list[RakeTask]:
    """Every task a Rakefile declares, namespaces joined with ``:``, in file order."""
    out: list[RakeTask] = []

    def visit(node: tree_sitter.Node, prefix: str) -> None:
        desc = ""
        for child in node.named_children:
            if child.type != "call":
                visit(child, prefix)
                continue
            receiver, method, args, block = _call_parts(child)
            line = child.start_point[0] + 1
            if not receiver and method == "desc" and args:
                desc = " ".join(text_of(args[0][1]).strip("\"'").split())[:200]
                continue
            if not receiver and method in ("task", "multitask") and args:
                name, deps = _rake_declared(args)
                if name:
                    out.append(RakeTask(prefix + name, deps, desc, text_of(block), line))
            elif not receiver and method == "namespace" and args and block is not None:
                inner = _ruby_name(args[0][1])
                if inner:
                    visit(block, f"{prefix}{inner}:")
            elif method == "new" and receiver.split("::")[-1].endswith("Task") and receiver.split("::")[0] in _RAKE_LIBRARY_TASKS:
                name = next((n for kind, a in args if kind != "pair" and (n := _ruby_name(a))), "")
                name = name or _RAKE_LIBRARY_TASKS[receiver.split("::")[0]]
                out.append(RakeTask(prefix + name, (), desc, text_of(child), line))
            else:
                visit(child, prefix)
            desc = ""

    visit(parse("ruby", text), "")
    return out


@dataclass(frozen=True)
class Gem:
    """A ``gem`` a Gemfile declares: its name, its groups, whether a group it sits in is
    ``optional: true`` (``bundle install`` leaves it out unless asked), and its line."""

    name: str
    groups: tuple[str, ...]
    optional: bool
    line: int


def _option(args: list[tuple[str, tree_sitter.Node]], key: str) -> tree_sitter.Node | None:
    for kind, arg in args:
        k = arg.child_by_field_name("key") if kind == "pair" else None
        if k is not None and _ruby_name(k) == key:
            return arg.child_by_field_name("value")
    return None


def gemfile_gems(text: str) -> list[Gem]:
    """Every ``gem`` of a Gemfile with the groups around it (``group :lint, optional: true do … end``)
    and its own ``group:`` option."""
    out: list[Gem] = []

    def visit(node: tree_sitter.Node, groups: tuple[str, ...], optional: bool) -> None:
        for child in node.named_children:
            if child.type != "call":
                visit(child, groups, optional)
                continue
            receiver, method, args, block = _call_parts(child)
            if not receiver and method == "gem" and args and (name := _ruby_name(args[0][1])):
                own = _option(args, "group") or _option(args, "groups")
                out.append(Gem(name, groups + (_ruby_names(own) if own is not None else ()), optional,
                               child.start_point[0] + 1))
            elif not receiver and method == "group" and block is not None:
                flag = _option(args, "optional")
                names = tuple(n for kind, a in args if kind != "pair" for n in _ruby_names(a))
                visit(block, groups + names, optional or (flag is not None and flag.type == "true"))
            else:
                visit(child, groups, optional)

    visit(parse("ruby", text), (), False)
    return out


# -- Make ------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class MakeRule:
    """One Makefile rule: its explicit targets, prerequisites, the ``## help`` comment on its line,
    its recipe (continuation lines joined, variables unexpanded), and its line."""

    targets: tuple[str, ...]
    prereqs: tuple[str, ...]
    desc: str
    recipe: str
    line: int


def make_rules(text: str) -> list[MakeRule]:
    """Every rule of a Makefile, including those inside conditionals; pattern rules (``%.o``) left out."""
    out: list[MakeRule] = []
    for node in walk(parse("make", text)):
        if node.type != "rule":
            continue
        targets = next((c for c in node.named_children if c.type == "targets"), None)
        names = tuple(text_of(w) for w in (targets.named_children if targets else []) if w.type == "word")
        names = tuple(n for n in names if "%" not in n)
        if not names:
            continue
        prereqs = next((c for c in node.named_children if c.type == "prerequisites"), None)
        deps = tuple(text_of(w) for w in (prereqs.named_children if prereqs else []) if w.type == "word")
        comment = next((c for c in node.named_children if c.type == "comment"), None)
        recipe = next((c for c in node.named_children if c.type == "recipe"), None)
        lines = [" ".join(text_of(r).replace("\\\n", " ").split()) for r in _recipe_lines(recipe)]
        out.append(MakeRule(names, deps, text_of(comment).lstrip("#").strip()[:200], "\n".join(lines),
                            node.start_point[0] + 1))
    return out


def _recipe_lines(node: tree_sitter.Node | None) -> Iterator[tree_sitter.Node]:
    """The recipe's lines, those under an ``ifeq``/``ifdef`` inside it too, but not a nested rule's."""
    for child in node.named_children if node is not None else []:
        if child.type == "recipe_line":
            yield child
        elif child.type != "rule":
            yield from _recipe_lines(child)


def make_variables(text: str) -> dict[str, str]:
    """``NAME = value`` / ``:=`` / ``?=`` assignments (the first one wins, as a newcomer's defaults)."""
    out: dict[str, str] = {}
    for node in walk(parse("make", text)):
        if node.type == "variable_assignment":
            name = text_of(node.child_by_field_name("name") or (node.named_children[0] if node.named_children else None))
            value = next((c for c in node.named_children if c.type == "text"), None)
            if name and name not in out:
                out[name] = " ".join(text_of(value).replace("\\\n", " ").split())
    return out


# -- shell -----------------------------------------------------------------------------------------

def shell_commands(text: str) -> list[tuple[str, int]]:
    """(command line, line number) of every simple command a shell script or a doc's code block runs,
    in order — ``a && b`` is two commands; compound statements are entered, heredocs and strings are not."""
    out: list[tuple[str, int]] = []
    for node in walk(parse("bash", text)):
        if node.type == "command":
            out.append((" ".join(text_of(node).replace("\\\n", " ").split()), node.start_point[0] + 1))
    return out


def _nounset(node: tree_sitter.Node) -> bool:
    """``set -u`` / ``set -euo pipefail`` / ``set -o nounset``: an unset variable stops the script."""
    words = [text_of(c) for c in node.named_children if c.type == "word"]
    return text_of(node.child_by_field_name("name")) == "set" and any(
        (w.startswith("-") and not w.startswith("--") and "u" in w[1:]) or (w == "nounset" and "-o" in words) for w in words)


def script_needs_an_argument(text: str) -> bool:
    """A shell script under ``set -u`` whose own body (not a function's) reads ``$1`` with no
    default (``$1``, ``${1}``; ``${1:-x}`` has one): run bare it stops at once."""
    root = parse("bash", text)
    strict = False
    reads_first = False

    def visit(node: tree_sitter.Node) -> None:
        nonlocal strict, reads_first
        for child in node.named_children:
            if child.type == "function_definition":
                continue  # a function's $1 is its own argument
            if child.type == "command" and _nounset(child):
                strict = True
            if child.type in ("simple_expansion", "expansion") and [c.type for c in child.named_children] == ["variable_name"] \
                    and text_of(child.named_children[0]) == "1":
                reads_first = True
            visit(child)

    visit(root)
    return strict and reads_first
