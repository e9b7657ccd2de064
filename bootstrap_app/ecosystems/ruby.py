"""Ruby: Bundler, Rake tasks, RSpec/Minitest, RuboCop/Standard, Appraisal, the gemspec's Ruby version."""

from __future__ import annotations

import re

from .base import Ecosystem, RepoView, Target
from .syntax import gemfile_gems, rake_tasks

__all__ = ["Ruby"]

_RUBY_VERSION = re.compile(r"""required_ruby_version\s*=?\s*\(?\s*["']([^"']{1,20})["']""")


class Ruby(Ecosystem):
    name = "ruby"
    label = "Ruby"
    languages = ("Ruby",)
    detect = ("Gemfile", "*.gemspec", "Rakefile")
    reads = ("Gemfile", "*.gemspec", "Rakefile", "Appraisals", ".rubocop.yml", ".standard.yml", ".ruby-version",
             "gemfiles/*.gemfile")
    package_manager = "bundler"
    describes = (("*.gemspec", "summary"), ("*.gemspec", "description"))
    programs = frozenset({"bundle", "rake", "rspec", "rubocop", "standardrb", "appraisal", "ruby", "gem"})
    builtins = {"bundle": frozenset({"install", "", "update"}), "gem": frozenset({"build"})}
    tools = {"rspec": "test", "minitest": "test", "rubocop": "lint", "standardrb": "lint", "standard": "lint",
             "appraisal": "test", "yard": "docs"}
    manifests = ("Gemfile", "*.gemspec", "gems.rb")

    def targets(self, view: RepoView) -> list[Target]:
        """The Rakefile's tasks from Ruby's syntax tree (:func:`syntax.rake_tasks`): ``task dist: %w[…]``
        is the task ``dist``; a task's body is its block plus the blocks of the tasks it depends on
        (``task default: [:spec]`` runs what ``spec`` runs)."""
        path, text = view.text("Rakefile")
        if not text:
            return []
        tasks = rake_tasks(text)
        bodies = {t.name: t.body for t in tasks}
        out: list[Target] = []
        for t in tasks:
            body = "\n".join([t.body, *(bodies.get(d, "") for d in t.deps if d != t.name)]).strip()
            cmd = "bundle exec rake" if t.name == "default" else f"bundle exec rake {t.name}"
            out.append(Target(t.name, cmd, body, f"{path}:{t.line}"))
        return out

    def needs(self, argv: list[str]) -> tuple[str, ...]:
        """``bundle install --frozen`` / ``--deployment`` refuse to run without ``Gemfile.lock``."""
        return ("Gemfile.lock",) if argv[:2] == ["bundle", "install"] and {"--frozen", "--deployment"} & set(argv) else ()

    def prove(self, argv: list[str], view: RepoView) -> str:
        words = argv[2:] if argv[:2] == ["bundle", "exec"] else argv
        if not words:
            return ""
        if words[0] == "rake" and view.has("Rakefile"):
            names = {t.name: t.where for t in self.targets(view)}
            task = words[1] if len(words) > 1 else "default"
            return names.get(task, "")
        if words[0] == "appraisal" and view.has("Appraisals"):
            rest = self.prove(words[2:], view) if len(words) > 2 and words[1] not in ("install", "update") else "x"
            return view.cite("Appraisals") if rest else ""
        if words[0] in ("rspec", "rubocop", "standardrb", "yard"):
            return self.declares("standard" if words[0] == "standardrb" else words[0], view) or (
                view.cite(".rubocop.yml") if words[0] == "rubocop" else "")
        return super().prove(argv, view)

    def versions(self, view: RepoView) -> tuple[str, ...]:
        for path in view.matching("*.gemspec"):
            if m := _RUBY_VERSION.search(view.files.get(path, "")):
                return (f"Ruby {m.group(1).strip()}",)
        if v := view.files.get(".ruby-version", "").strip():
            return (f"Ruby {v.splitlines()[0][:20]}",)
        return ()

    def configured(self, view: RepoView) -> tuple[str, ...]:
        out = [t for t, f in (("rubocop", ".rubocop.yml"), ("standard", ".standard.yml"), ("appraisal", "Appraisals"),
                              ("yard", ".yardopts")) if view.has(f)]
        out += [t for t in ("rspec", "rubocop", "standard", "yard") if t not in out and self.declares(t, view)]
        return tuple(out)

    def defaults(self, view: RepoView) -> dict[str, str]:
        out = {"setup": "bundle install"} if view.has("Gemfile") else {}
        names = {t.name for t in self.targets(view)}
        if "default" in names or "spec" in names or "test" in names:
            out["test"] = "bundle exec rake" if "default" in names else f"bundle exec rake {'spec' if 'spec' in names else 'test'}"
        if self.installed("rubocop", view):
            out["lint"] = "bundle exec rubocop"
        elif self.installed("standard", view):
            out["lint"] = "bundle exec standardrb"
        return out

    def installed(self, gem: str, view: RepoView) -> bool:
        """``bundle exec GEM`` works after the proposed ``bundle install``: the Gemfile declares the gem
        outside every ``optional: true`` group (or through the gemspec it loads), or a CI workflow runs
        it (CI installs the group it needs). A ``.rubocop.yml`` alone installs nothing."""
        path, text = view.text("Gemfile")
        if not path:
            return False
        gems = [g for g in gemfile_gems(text) if g.name == gem]
        if any(not g.optional for g in gems):
            return True
        if not gems and re.search(r"^\s*gemspec\b", text, re.M) and any(
                view.cite(p, rf"""dependency\s*\(?\s*["']{re.escape(gem)}["']""") for p in view.matching("*.gemspec")):
            return True
        program = "standardrb" if gem == "standard" else gem
        return any(re.search(rf"(?<![\w-]){re.escape(program)}(?![\w-])", t) for p, t in view.files.items()
                   if p.startswith(".github/workflows/") or p == ".gitlab-ci.yml")
