"""Typed settings: validated once at load, with the place a bad value came from; env vars documented."""

from __future__ import annotations

import re
from dataclasses import fields
from pathlib import Path

import pytest

from bootstrap_app.config import OTHER_ENV_VARS, Settings, env_table, load_settings
from bootstrap_app.errors import ConfigError

ROOT = Path(__file__).resolve().parents[2]


def test_values_are_typed_and_precedence_holds(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    home = tmp_path / "app"
    home.mkdir()
    (home / "config.toml").write_text('owner = ["Me@Example.org"]\nllm_timeout = 30\nsources = ["/a", "/b"]\n',
                                      encoding="utf-8")
    settings = load_settings(home)
    assert settings.owners == ("me@example.org",)
    assert settings.llm_timeout == 30.0 and isinstance(settings.llm_timeout, float)
    assert settings.sources == ("/a", "/b")
    monkeypatch.setenv("MEMSEED_OWNER", "a@x.org, b@x.org")
    assert load_settings(home).owners == ("a@x.org", "b@x.org")
    assert load_settings(home, owner=["c@x.org"]).owners == ("c@x.org",)


@pytest.mark.parametrize(("text", "match"), [
    ('max_text_chars = "lots"\n', r"'max_text_chars' must be a whole number.*config\.toml"),
    ("max_file_bytes = -1\n", "must not be negative"),
    ('llm = "yes"\n', "must be one of off, openai"),
    ('max_txt_chars = 5\n', "unknown settings: max_txt_chars"),
    ("llm_model = 5\n", "wrong type"),
])
def test_a_bad_config_file_fails_at_load_saying_where(tmp_path: Path, text: str, match: str) -> None:
    (tmp_path / "config.toml").write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError, match=match) as info:
        load_settings(tmp_path)
    assert info.value.hint


def test_a_bad_env_value_names_the_variable(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMSEED_LLM_MAX_RETRIES", "three")
    with pytest.raises(ConfigError, match=r"\$MEMSEED_LLM_MAX_RETRIES"):
        load_settings(tmp_path)


def test_every_setting_env_var_is_in_the_architecture_table() -> None:
    """docs/architecture.md carries the table :func:`env_table` generates from the model, verbatim."""
    doc = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    assert env_table() in doc, "regenerate the table: python -c 'from bootstrap_app.config import env_table; " \
                               "print(env_table())'"
    for f in fields(Settings):
        if f.name != "home":
            assert f.metadata["doc"], f"setting {f.name} has no description"


def test_every_env_var_the_code_reads_is_documented() -> None:
    """A MEMSEED_* name anywhere in the library is either a setting or listed in OTHER_ENV_VARS."""
    documented = set(OTHER_ENV_VARS) | {f.metadata.get("env") for f in fields(Settings) if f.name != "home"}
    doc = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    used: set[str] = set()
    for path in (*ROOT.joinpath("bootstrap_app").rglob("*.py"), *ROOT.joinpath("connectors").rglob("*.py")):
        used |= set(re.findall(r"\bMEMSEED_[A-Z_]+\b", path.read_text(encoding="utf-8")))
    missing = sorted(name for name in used if name not in documented and f"`{name}`" not in doc)
    assert missing == [], f"environment variables read but not documented: {missing}"
