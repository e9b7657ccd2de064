"""Build scripts read through their grammars: Gradle (Kotlin and Groovy), CMake, Cake (C#), mix.exs (Elixir).

The same reason as :mod:`.syntax`: a build script is a program in its language, so a task is a
call the grammar recognises (``tasks.register("x")``, ``add_custom_target(x …)``, ``Task("X")``,
a key of the ``aliases`` keyword list), never a line that happens to contain those words — a
comment or a string mentioning them declares nothing.
"""

from __future__ import annotations

from dataclasses import dataclass

import tree_sitter

from .syntax import RakeTask, parse, text_of, walk

__all__ = ["CMakeCommand", "CakeScript", "cake_script", "cmake_commands", "gradle_tasks", "mix_aliases"]


# -- Gradle (Kotlin and Groovy build scripts) ------------------------------------------------------

_REGISTERS = frozenset({"register", "create", "registering", "creating", "task"})


def _string_value(node: tree_sitter.Node) -> str:
    """The text of a plain string literal (``"x"``, ``'x'``), ``""`` for anything else (templates too)."""
    raw = text_of(node)
    if node.type in ("string_literal", "character_literal", "string") and len(raw) >= 2 and raw[0] in "\"'" \
            and raw[-1] == raw[0] and "$" not in raw:
        return raw[1:-1]
    return ""


def _first_argument(node: tree_sitter.Node | None) -> tree_sitter.Node | None:
    while node is not None and node.type in ("value_arguments", "value_argument", "argument_list"):
        node = node.named_children[0] if node.named_children else None
    return node


def gradle_tasks(text: str, kotlin: bool) -> list[tuple[str, int]]:
    """(name, line) of every task a build script registers: ``tasks.register("x")``,
    ``tasks.register<Exec>("x")``, ``val x by tasks.registering``, ``task x { }``, ``task("x")``.
    A comment or a string that only mentions ``register`` declares nothing."""
    out: list[tuple[str, int]] = []
    for node in walk(parse("kotlin" if kotlin else "groovy", text)):
        line = node.start_point[0] + 1
        if kotlin and node.type == "property_declaration":
            delegate = next((c for c in node.named_children if c.type == "property_delegate"), None)
            var = next((c for c in node.named_children if c.type == "variable_declaration"), None)
            if delegate is not None and var is not None and _registering(text_of(delegate)):
                out.append((text_of(var.named_children[0]) if var.named_children else "", line))
        elif kotlin and node.type == "call_expression":
            callee = node.named_children[0] if node.named_children else None
            method = text_of(callee.named_children[-1]) if callee is not None and callee.type == "navigation_expression" \
                and callee.named_children else text_of(callee) if callee is not None and callee.type == "identifier" else ""
            args = next((c for c in node.named_children if c.type == "value_arguments"), None)
            if method in _REGISTERS and (arg := _first_argument(args)) is not None and (name := _string_value(arg)):
                out.append((name, line))
        elif not kotlin and node.type in ("juxt_function_call", "method_invocation"):
            names = [c for c in node.named_children if c.type == "identifier"]
            args = next((c for c in node.named_children if c.type == "argument_list"), None)
            if names and text_of(names[-1]) in _REGISTERS and (arg := _first_argument(args)) is not None:
                name = text_of(arg) if arg.type == "identifier" and text_of(names[-1]) == "task" else _string_value(arg)
                if name:
                    out.append((name, line))
    return [(n, ln) for n, ln in out if n]


def _registering(delegate: str) -> bool:
    """``by tasks.registering`` / ``by tasks.creating``: the property's name is the task's."""
    return "".join(delegate.split()).removeprefix("by").startswith(("tasks.registering", "tasks.creating"))


# -- CMake -----------------------------------------------------------------------------------------

@dataclass(frozen=True)
class CMakeCommand:
    """One CMake command invocation: its name (lower case: CMake's are case-insensitive), its
    plain arguments, and its line."""

    name: str
    args: tuple[str, ...]
    line: int


def cmake_commands(text: str) -> list[CMakeCommand]:
    """Every command a CMakeLists.txt invokes, those inside ``if()``/``foreach()`` bodies too;
    commented-out ones are comments in the tree and never appear."""
    out: list[CMakeCommand] = []
    for node in walk(parse("cmake", text)):
        if node.type == "normal_command" and node.named_children:
            args = next((c for c in node.named_children if c.type == "argument_list"), None)
            values = tuple(text_of(a).strip('"') for a in (args.named_children if args else []) if a.type == "argument")
            out.append(CMakeCommand(text_of(node.named_children[0]).lower(), values, node.start_point[0] + 1))
    return out


# -- Cake (build.cake, C# script) ------------------------------------------------------------------

@dataclass(frozen=True)
class CakeScript:
    """The tasks of a Cake build script (each a :class:`RakeTask`-shaped record: name, the tasks it
    ``IsDependentOn``, its ``Description``, its statement, its line) and the target run by default
    (``Argument("target", "Default")``)."""

    tasks: tuple[RakeTask, ...]
    default: str


def _csharp_string(node: tree_sitter.Node | None) -> str:
    if node is None or node.type != "argument" or not node.named_children:
        return ""
    lit = node.named_children[0]
    parts = [c for c in lit.named_children if c.type == "string_literal_content"]
    return text_of(parts[0]) if lit.type == "string_literal" and len(parts) == 1 else ""


def _csharp_call(node: tree_sitter.Node) -> tuple[str, list[tree_sitter.Node]]:
    """(called name, arguments) of an invocation: ``Task("x")`` -> ("Task", …), ``t.IsDependentOn("y")`` -> ("IsDependentOn", …)."""
    fn = node.child_by_field_name("function")
    args = node.child_by_field_name("arguments")
    name = text_of(fn.child_by_field_name("name") if fn is not None and fn.type == "member_access_expression" else fn)
    return name, [a for a in (args.named_children if args is not None else []) if a.type == "argument"]


def cake_script(text: str) -> CakeScript:
    """Cake's tasks from the C# grammar. Cake's own directives (``#addin``, ``#tool``, ``#load``) are
    resolved by Cake before the C# compiler sees the script, so they are blanked (lines kept) first."""
    source = "\n".join("" if ln.lstrip().startswith("#") else ln for ln in text.splitlines())
    tasks: list[RakeTask] = []
    default = ""
    for stmt in walk(parse("c_sharp", source)):
        if stmt.type != "expression_statement" and stmt.type != "local_declaration_statement":
            continue
        calls = [_csharp_call(n) for n in walk(stmt) if n.type == "invocation_expression"]
        for name, args in calls:
            if name == "Argument" and len(args) == 2 and _csharp_string(args[0]).lower() == "target":
                default = _csharp_string(args[1]) or default
        own = [(n, a) for n, a in calls if n == "Task" and len(a) == 1 and _csharp_string(a[0])]
        if stmt.type == "expression_statement" and own:
            deps = tuple(d for n, a in calls if n == "IsDependentOn" and a and (d := _csharp_string(a[0])))
            desc = next((_csharp_string(a[0]) for n, a in calls if n == "Description" and a), "")
            tasks.append(RakeTask(_csharp_string(own[-1][1][0]), deps, desc, text_of(stmt), stmt.start_point[0] + 1))
    return CakeScript(tuple(tasks), default)


# -- Elixir (mix.exs aliases) ----------------------------------------------------------------------

def mix_aliases(text: str) -> list[tuple[str, str, int]]:
    """(alias, its value's source, line) of every key of the keyword list ``def``/``defp aliases``
    returns in ``mix.exs``: ``setup: [...]`` and ``"test.ci": [...]`` alike, nested lists whole."""
    out: list[tuple[str, str, int]] = []
    for node in walk(parse("elixir", text)):
        if node.type != "call" or text_of(node.named_children[0] if node.named_children else None) not in ("def", "defp"):
            continue
        args = next((c for c in node.named_children if c.type == "arguments"), None)
        if args is None or not args.named_children or text_of(args.named_children[0]) != "aliases":
            continue
        body = next((c for c in node.named_children if c.type == "do_block"), None)
        lists = [c for c in (body.named_children if body is not None else []) if c.type == "list"]
        lists += [p.named_children[1] for k in args.named_children if k.type == "keywords" for p in k.named_children
                  if len(p.named_children) == 2 and text_of(p.named_children[0]).strip() == "do:"
                  and p.named_children[1].type == "list"]  # `defp aliases, do: [...]`
        for keywords in (k for lst in lists[-1:] for k in lst.named_children if k.type == "keywords"):
            for pair in (p for p in keywords.named_children if p.type == "pair" and len(p.named_children) == 2):
                key, value = pair.named_children
                name = text_of(key).strip().removesuffix(":") if key.type == "keyword" else \
                    "".join(text_of(c) for c in key.named_children if c.type == "quoted_content")
                out.append((name, text_of(value), pair.start_point[0] + 1))
    return out
