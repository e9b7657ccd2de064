"""Ecosystems known by their manifest alone: the docs' commands are proven, the manifest's floor is stated.

Each repository is built with ``git`` in the shape the second held-out set met (a Lua rock, a
Crystal shard, an Erlang rebar3 app, an R package, a Nim package, a Perl distribution, a Julia
package, a Bazel module): the contributor doc names the commands, the manifest the language floor.
Without a module for the ecosystem none of these commands could be proven, so none was proposed.
"""

from __future__ import annotations

from pathlib import Path

from .gitrepo import facts_of


def _cmds(f: object) -> dict[str, str]:
    return {k: v[0] for k, v in getattr(f, "commands", {}).items()}


def _all_commands(f: object) -> set[str]:
    also = getattr(f, "also", {})
    return set(_cmds(f).values()) | {c for alts in also.values() for c in alts}


def test_a_lua_rock(tmp_path: Path) -> None:
    rockspec = ('package = "rock"\nversion = "scm-1"\ndependencies = {\n  "lua >= 5.1",\n  "penlight >= 1.5",\n}\n'
                'build = { type = "builtin" }\n')
    guide = ("# Contributing\n\n## Testing\n\nBuild and run the tests:\n\n```\nluarocks remove rock --force\nluarocks make\n"
             "busted spec\n```\n\nRun `luacheck .` to lint your changes.\n")
    f = facts_of(tmp_path, {"rock-scm-1.rockspec": rockspec, ".luacheckrc": "std = 'max'\n", "CONTRIBUTING.md": guide,
                            "spec/rock_spec.lua": "describe('x', function() end)\n", "rock/init.lua": "return {}\n"})
    assert "Lua >= 5.1" in f.min_versions
    cmds = _cmds(f)
    assert cmds["test"] == "busted spec" and cmds["lint"] == "luacheck ." and cmds["build"] == "luarocks make"
    # `luarocks remove rock` names a rock, not the `rock/` folder: not proven, not proposed
    assert not any("remove" in c for c in _all_commands(f))


def test_a_crystal_shard_and_its_linter_built_by_shards_install(tmp_path: Path) -> None:
    shard = ('name: web\nversion: 1.0.0\ndevelopment_dependencies:\n  ameba:\n    github: crystal-ameba/ameba\n'
             'crystal: ">= 1.12.0"\n')
    guide = ("# Contributing\n\n## Install dependencies\n\n```bash\nshards install\n```\n\n## Running Tests\n\n"
             "```bash\ncrystal spec\n```\n\n## Code Style\n\nFormat your code:\n\n```bash\ncrystal tool format\n```\n\n"
             "## Lint\n\n```bash\nbin/ameba\n```\n")
    f = facts_of(tmp_path, {"shard.yml": shard, "CONTRIBUTING.md": guide, "src/web.cr": "module Web\nend\n"})
    assert "Crystal >= 1.12.0" in f.min_versions
    # `bin/ameba` exists once `shards install` has built the dependency: proposed behind that step
    assert _cmds(f)["lint"] == "shards install && bin/ameba" and _cmds(f)["test"] == "crystal spec"
    assert _cmds(f)["format"] == "crystal tool format"


def test_an_erlang_app_a_one_module_run_is_not_the_tests(tmp_path: Path) -> None:
    rebar = '{erl_opts, [debug_info]}.\n{minimum_otp_vsn, "26"}.\n{deps, []}.\n'
    guide = ("# Contributing\n\n### Running Tests\n\n```sh\n# All tests\nrebar3 eunit\n\n# Specific test module\n"
             "rebar3 eunit --module=app_conn_tests\n```\n\n### Running Dialyzer\n\n```sh\nrebar3 dialyzer\n```\n")
    f = facts_of(tmp_path, {"rebar.config": rebar, "CONTRIBUTING.md": guide, "src/app.erl": "-module(app).\n"})
    assert "Erlang/OTP 26" in f.min_versions
    assert _cmds(f)["test"] == "rebar3 eunit" and _cmds(f)["typecheck"] == "rebar3 dialyzer"
    assert not any("--module" in c for c in _all_commands(f))


def test_r_nim_perl_julia_and_bazel_manifests_state_their_floor(tmp_path: Path) -> None:
    r = facts_of(tmp_path / "r", {"DESCRIPTION": "Package: glue\nVersion: 1.0\nDepends:\n    R (>= 4.1)\n",
                                   "air.toml": "[format]\n", "R/glue.R": "glue <- function() NULL\n"})
    assert "R >= 4.1" in r.min_versions and "air" in r.configured
    nimble = ('version = "1.0"\nrequires "nim >= 1.6.16",\n         "stew"\n\ntask test, "Run all tests":\n'
              '  exec "nim c -r tests/testall"\n')
    nim = facts_of(tmp_path / "nim", {"proj.nimble": nimble, "README.md": "# proj\n\n## Contributing\n\n"
                                      "Make sure `nimble test` passes before you open a pull request.\n"})
    assert "Nim >= 1.6.16" in nim.min_versions and _cmds(nim)["test"] == "nimble test"
    ci = ("on: push\njobs:\n  t:\n    runs-on: ubuntu-latest\n    steps:\n      - name: Install dependencies\n"
          "        run: |\n          cpanm -n --installdeps .\n          cpanm -n Test::Pod Test::Pod::Coverage\n"
          "      - name: Run tests\n        run: prove -l t\n")
    perl = facts_of(tmp_path / "perl", {"Makefile.PL": "use 5.016;\nWriteMakefile(NAME => 'Proj');\n",
                                        ".github/workflows/ci.yml": ci, "t/basic.t": "use Test::More;\n",
                                        "lib/Proj.pm": "package Proj;\n1;\n"})
    assert "Perl 5.016" in perl.min_versions
    assert _cmds(perl)["test"] == "prove -l t" and not any("Test::Pod" in c for c in _all_commands(perl))
    # the package manager installs the distribution's own prerequisites, as npm install does a package's
    assert _cmds(perl)["setup"] == "cpanm --installdeps ."
    julia = facts_of(tmp_path / "jl", {"Project.toml": 'name = "CSV"\nuuid = "336ed68f-0bac-5ca0-87d4-7b16caf5d00b"\n'
                                                       '[compat]\njulia = "1.6"\n', "src/CSV.jl": "module CSV\nend\n"})
    assert "Julia 1.6" in julia.min_versions
    bazel = facts_of(tmp_path / "bz", {"MODULE.bazel": 'module(name = "lib")\n', ".bazelversion": "8.x\n",
                                       "BUILD": ""})
    assert "Bazel 8.x" in bazel.min_versions
