"""A linter config's enforced styles and the test suite's own dependencies, read from each format's structure.

Held-out check (issue 19): ``.rubocop.yml`` setting ``EnforcedStyle: single_quotes`` and a
``.cabal`` ``test-suite`` depending on hedgehog and doctest were facts a newcomer had to find by
opening the files; a comment naming a style, or a dependency the library also has, is not one."""

from __future__ import annotations

from bootstrap_app.extract.repo_text import repo_body
from bootstrap_app.signals.repo_declared import code_styles, suite_dependencies
from bootstrap_app.signals.repos import RepoFacts

_RUBOCOP = """\
# EnforcedStyle: double_quotes was the old default (a comment, not a setting)
Style/Documentation:
  Enabled: false

Style/StringLiterals:
  EnforcedStyle: single_quotes
Style/HashSyntax:
  Exclude:
    - Rakefile
  EnforcedStyle: hash_rockets
Layout/LineLength:
  Max: 100
"""

_CABAL = """\
cabal-version: 2.4
name:          toy
version:       0.1.0

library
  hs-source-dirs:   src
  build-depends:    base >= 4.11 && < 5
                  , containers

test-suite toy-test
  type:             exitcode-stdio-1.0
  build-depends:    base
                  , toy
                  , containers
                  , hedgehog >= 1.0 && < 1.6
  main-is:          Spec.hs

test-suite toy-doctest
  type:             exitcode-stdio-1.0
  build-depends:    toy, doctest >= 0.20
  main-is:          Doctest.hs
"""

_MIX = """\
defmodule Toy.MixProject do
  defp deps do
    [
      {:decimal, "~> 2.0", optional: true},
      {:credo, "~> 1.7", only: [:dev, :test], runtime: false},
      {:stream_data, "~> 1.0", only: :test},
      {:mox, "~> 1.0", only: :test, runtime: false}
    ]
  end
end
"""


def test_each_enforced_style_is_cited_at_its_own_line() -> None:
    assert code_styles({".rubocop.yml": _RUBOCOP}) == (
        "Style/StringLiterals: single_quotes (.rubocop.yml:6)", "Style/HashSyntax: hash_rockets (.rubocop.yml:10)")
    assert code_styles({".rubocop.yml": "Style/StringLiterals:\n  EnforcedStyle: 'x; rm -rf /'\n"}) == ()
    assert code_styles({}) == ()


def test_only_what_the_test_suite_alone_depends_on() -> None:
    assert suite_dependencies({"toy.cabal": _CABAL}) == ("hedgehog (toy.cabal:15)", "doctest (toy.cabal:20)")
    assert suite_dependencies({"mix.exs": _MIX}) == ("stream_data (mix.exs:6)", "mox (mix.exs:7)")
    assert suite_dependencies({"toy.cabal": _CABAL.split("test-suite")[0]}) == ()


def test_the_repository_memory_states_both() -> None:
    facts = RepoFacts(name="toy", path="/r/toy", styles=code_styles({".rubocop.yml": _RUBOCOP}),
                      suite_deps=suite_dependencies({"toy.cabal": _CABAL}))
    body = repo_body(facts, "")
    assert "single_quotes (.rubocop.yml:6)" in body and "hedgehog (toy.cabal:15)" in body
