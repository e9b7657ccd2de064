"""The wording of a repository's project entry: one line per fact, commands with their tools.

Kept apart from :mod:`.heuristic` because it is the longest template and the one the
newcomer tests read: every line is a fixed phrase around values the signals already vetted
(commands in fixed shapes, tool names from memseed's vocabulary, paths, versions, counts).
"""

from __future__ import annotations

from bootstrap_app.signals import RepoFacts
from bootstrap_app.signals.repo_tools import KIND_ORDER

__all__ = ["guides_body", "repo_body", "repo_key", "repo_summary", "rules_body"]

_LABEL = {"setup": "Setup", "test": "Test", "lint": "Lint", "format": "Format", "typecheck": "Type check", "build": "Build",
          "docs": "Docs", "release": "Release", "deploy": "Deploy"}


def _command_line(f: RepoFacts, kind: str) -> str:
    cmd, where = f.commands[kind]
    behind = f.runs.get(kind, "")
    tools = [t for t in f.tools.get(kind, ()) if t not in cmd and t not in behind]
    line = f"- {_LABEL[kind]}: `{cmd}`"
    if behind or tools:
        line += " → " + ", ".join(([f"`{behind}`"] if behind else []) + tools)
    line += " (runs in CI)" if where == "CI" else f" ({where})"
    if kind in f.ci_commands:
        line += f"; CI runs `{f.ci_commands[kind]}`"
    if f.also.get(kind):
        line += "; also " + ", ".join(f"`{c}`" for c in f.also[kind])
    return line


def repo_body(f: RepoFacts, first_name: str) -> str:
    lines = [f"{f.name}" + (f" — {f.purpose.rstrip('.')}" if f.purpose else "") + "."]
    if f.declared[0]:
        lines.append(f"- Described in {f.declared[1].split(':')[0]} as: {f.declared[0].rstrip('.')}")
    if f.languages or f.package_manager:
        lines.append(f"- Stack: {', '.join(f.languages) or 'unknown'}"
                     + (f"; package manager: {f.package_manager}" if f.package_manager else ""))
    if f.min_versions:
        lines.append("- Minimum versions: " + ", ".join(f.min_versions))
    if f.settings:
        lines.append("- Build settings: " + ", ".join(f.settings))
    if f.styles:
        lines.append("- Code style its linter config enforces: " + ", ".join(f.styles))
    if f.suite_deps:
        lines.append("- Test-suite dependencies (what the tests are written with): " + ", ".join(f.suite_deps))
    lines += [_command_line(f, kind) for kind in KIND_ORDER if kind in f.commands and kind not in ("release", "deploy")]
    lines += [f"- {_LABEL[kind]} ({package}): `{cmd}` ({where})" for kind, package, cmd, where in f.package_commands]
    if f.build_steps:
        lines.append("- Build from source, in order: " + ", ".join(f"`{c}`" for c in f.build_steps)
                     + f" ({f.build_steps_where})")
    if f.release:
        lines.append("- Release/deploy: " + ", ".join(f"`{r}`" for r in f.release))
    shown = {t for ts in f.tools.values() for t in ts}
    extra = [t for t in f.configured if t not in shown]
    if extra:
        lines.append("- Configured tools: " + ", ".join(extra[:8]))
    if f.packages:
        globs = [p for p in f.packages if "*" in p or p not in f.members]
        lines.append("- Workspace packages: " + ", ".join(f"`{p}`" for p in [*globs[:3], *f.members[:8]]))
    if f.env_templates:
        lines.append("- Local environment: copy " + ", ".join(f"`{t}`" for t in f.env_templates)
                     + " (without its last suffix) before running the project")
    if f.commit_convention:
        lines.append(f"- Commit messages: Conventional Commits ({f.commit_convention})")
    if f.changelog:
        lines.append(f"- Changelog: `{f.changelog}`")
    if f.signoff:
        lines.append(f"- Contributions need: {f.signoff}")
    if f.guides:
        lines.append("- Contributor guides: " + ", ".join(f"`{g}`" for g in f.guides[:6]))
    if f.default_branch:
        lines.append(f"- Default branch: `{f.default_branch}`" + (f"; CI: {f.ci}" if f.ci else ""))
    elif f.ci:
        lines.append(f"- CI: {f.ci}")
    if f.codeowners:
        lines.append(f"- CODEOWNERS: {', '.join(f.codeowners[:5])}")
    if f.commits:
        role = ("primary maintainer" if f.owner_share >= 0.5 else "regular contributor" if f.owner_share >= 0.1
                else "occasional contributor" if f.owner_commits else "not a committer")
        lines.append(f"- {first_name}: {f.owner_commits} of {f.commits} commits ({role})"
                     + ("; listed in CODEOWNERS" if f.owner_in_codeowners else ""))
    lines.append(f"**How to apply:** run these from the repository root ({f.path}) before proposing changes.")
    return "\n".join(lines)


def repo_key(f: RepoFacts) -> str:
    """The facts whose change makes this a new question (commands, their tools, branch, manager)."""
    cmds = " ".join(f"{k}={f.commands[k][0]}[{','.join(f.tools.get(k, ()))}]" for k in KIND_ORDER if k in f.commands)
    return f"{cmds} branch={f.default_branch} pm={f.package_manager}"


def repo_summary(f: RepoFacts) -> str:
    test = f"test `{f.commands['test'][0]}`" if "test" in f.commands else ""
    return ", ".join(x for x in (f.package_manager, test, f"branch {f.default_branch}" if f.default_branch else "") if x)


def rules_body(f: RepoFacts) -> str:
    """The maintainers' requirements, quoted with file:line, grouped by what they are about."""
    lines = [f"What the maintainers of {f.name} require of contributors, in their own words:"]
    for topic in dict.fromkeys(r.topic for r in f.rules):
        # the file:line before the quote: our citation never reads as the object of the quoted verb
        # ("… any change … (AGENTS.md:43)" looks to the injection scan like an edit of an agent file)
        lines += [f"- On {topic} ({r.where}): \"{r.text}\"" for r in f.rules if r.topic == topic]
    lines.append("**Why:** quoted from the project's contributor guide; they hold for every contributor.")
    lines.append(f"**How to apply:** follow them when preparing commits and pull requests in {f.path}.")
    return "\n".join(lines)


def guides_body(f: RepoFacts) -> str:
    """Which contributor doc covers what (its headings), so the agent knows where to read more."""
    lines = [f"Contributor docs of {f.name} and what each covers:"]
    lines += [f"- `{path}`: " + "; ".join(heads) for path, heads in f.guide_topics]
    lines.append(f"**How to apply:** read the matching doc in {f.path} before changing how the project is built, "
                 "tested or released.")
    return "\n".join(lines)
