"""Zig's build steps and zon manifest; Haskell's formatter chosen by its own config file."""

from __future__ import annotations

from bootstrap_app.ecosystems.base import RepoView
from bootstrap_app.ecosystems.functional import Haskell
from bootstrap_app.ecosystems.registry import detected
from bootstrap_app.ecosystems.zig import Zig

_BUILD = '''const std = @import("std");

pub fn build(b: *std.Build) void {
    const exe_tests = b.addTest(.{ .root_source_file = b.path("src/main.zig") });
    const test_step = b.step("test", "Run unit tests");
    test_step.dependOn(&b.addRunArtifact(exe_tests).step);
    const docs = b.step("docs", "Emit docs");
    _ = docs;
}
'''
_ZON = '.{\n    .name = .demo,\n    .version = "0.1.0",\n    .minimum_zig_version = "0.14.0",\n}\n'


def test_a_zig_build_script_declares_its_steps_and_the_zon_its_toolchain_floor() -> None:
    view = RepoView.of({"build.zig": _BUILD, "build.zig.zon": _ZON})
    zig = Zig()
    assert [e.name for e in detected(view) if e.name == "zig"] == ["zig"]
    steps = {t.name: t for t in zig.targets(view)}
    assert steps["test"].command == "zig build test" and steps["test"].where == "build.zig:5"
    assert steps["docs"].body == "Emit docs"
    assert zig.versions(view) == ("Zig >= 0.14.0",)
    assert zig.defaults(view) == {"build": "zig build", "test": "zig build test"}
    assert zig.prove(["zig", "build", "test"], view) == "build.zig:5"
    assert zig.prove(["zig", "build", "bench"], view) == ""  # no such step
    assert zig.prove(["zig", "fmt", "--check", "."], view) == "build.zig:1"


def test_a_zig_script_without_a_test_step_gets_no_test_command() -> None:
    view = RepoView.of({"build.zig": 'pub fn build(b: *std.Build) void { _ = b; }\n'})
    assert "test" not in Zig().defaults(view)
    assert Zig().versions(view) == ()


def test_a_stylish_haskell_config_makes_it_the_formatter() -> None:
    cabal = "cabal-version: 3.0\nname: demo\nversion: 0.1\n"
    bare = RepoView.of({"demo.cabal": cabal})
    styled = RepoView.of({"demo.cabal": cabal, ".stylish-haskell.yaml": "steps:\n  - imports: {}\n",
                          ".hlint.yaml": "- ignore: {name: x}\n"})
    h = Haskell()
    assert "format" not in h.defaults(bare) and h.configured(bare) == ()
    assert h.defaults(styled)["format"] == "stylish-haskell --inplace --recursive ."
    assert h.configured(styled) == ("hlint", "stylish-haskell")
    assert h.prove(["stylish-haskell", "--inplace", "--recursive", "."], styled) == ".stylish-haskell.yaml:1"
    assert h.prove(["stylish-haskell", "-i", "x.hs"], bare) == ""
