"""Every module of bootstrap_app has a place in the import-linter layers (a new module must pick one)."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_every_top_level_module_is_in_a_layer() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["importlinter"]
    layers = next(c for c in config["contracts"] if c["type"] == "layers")["layers"]
    placed = {name.strip() for layer in layers for name in re.split(r"[|:]", layer)}
    package = ROOT / "bootstrap_app"
    modules = {f"bootstrap_app.{p.stem}" for p in package.glob("*.py") if p.stem != "__init__"}
    modules |= {f"bootstrap_app.{p.name}" for p in package.iterdir() if (p / "__init__.py").is_file()}
    missing = sorted(modules - placed)
    assert missing == [], f"add these to a layer in pyproject.toml [tool.importlinter]: {missing}"
    assert "connectors" in placed
