"""Where memseed keeps its state, and how settings are resolved.

Resolution order for every setting: explicit flag > environment variable > ``config.toml``
> built-in default. Secrets are never stored in ``config.toml`` itself, only *references*
to them (``env:OPENAI_API_KEY`` or ``keyring:memseed/openai``), resolved at the moment of use
so they never reach the state store or a log.
"""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import platformdirs

from .errors import ConfigError

__all__ = ["DEFAULTS", "Settings", "app_home", "load_settings", "resolve_secret"]

ENV_HOME = "MEMSEED_HOME"

DEFAULTS: dict[str, Any] = {
    "owner": [],
    "llm": "off",
    "llm_model": "gpt-4o-mini",
    "llm_base_url": "",
    "llm_api_key": "env:OPENAI_API_KEY",
    "max_text_chars": 20_000,
    "max_file_bytes": 20 * 1024 * 1024,
    "default_target": "claude-code",
    "sources": [],
}

_ENV_NAMES = {
    "owner": "MEMSEED_OWNER",
    "llm": "MEMSEED_LLM",
    "llm_model": "MEMSEED_LLM_MODEL",
    "llm_base_url": "MEMSEED_LLM_BASE_URL",
    "llm_api_key": "MEMSEED_LLM_API_KEY",
    "max_text_chars": "MEMSEED_MAX_TEXT_CHARS",
    "max_file_bytes": "MEMSEED_MAX_FILE_BYTES",
    "default_target": "MEMSEED_TARGET",
}


def app_home(override: str | os.PathLike[str] | None = None) -> Path:
    """The app dir: ``override`` > ``$MEMSEED_HOME`` > the platform's user data dir."""
    raw = override or os.environ.get(ENV_HOME) or platformdirs.user_data_dir("memseed", appauthor=False)
    home = Path(raw).expanduser()
    home.mkdir(parents=True, exist_ok=True, mode=0o700)
    return home


@dataclass(frozen=True)
class Settings:
    home: Path
    values: dict[str, Any] = field(default_factory=dict)

    def __getitem__(self, key: str) -> Any:
        return self.values[key]

    def get(self, key: str, default: Any = None) -> Any:
        return self.values.get(key, default)

    @property
    def db_path(self) -> Path:
        return self.home / "state.db"

    @property
    def backups(self) -> Path:
        path = self.home / "backups"
        path.mkdir(parents=True, exist_ok=True, mode=0o700)
        return path

    @property
    def owners(self) -> tuple[str, ...]:
        return tuple(a.strip().lower() for a in self.values.get("owner", []) if a.strip())


def _coerce(key: str, raw: Any) -> Any:
    default = DEFAULTS.get(key)
    if isinstance(default, list):
        if isinstance(raw, str):
            return [part for part in (p.strip() for p in raw.split(",")) if part]
        return list(raw)
    if isinstance(default, int) and not isinstance(default, bool):
        try:
            return int(raw)
        except (TypeError, ValueError) as exc:
            raise ConfigError(f"setting {key!r} must be a whole number, got {raw!r}",
                              hint=f"write it as digits where it is set (${_ENV_NAMES.get(key, key)} or "
                                   f"config.toml); the default is {default}") from exc
    return raw


def load_settings(home: str | os.PathLike[str] | None = None, **flags: Any) -> Settings:
    """Resolve settings (flag > env > config.toml > default). ``None`` flags are ignored."""
    root = app_home(home)
    file_values: dict[str, Any] = {}
    config_file = root / "config.toml"
    if config_file.exists():
        try:
            file_values = tomllib.loads(config_file.read_text(encoding="utf-8"))
        except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
            raise ConfigError(
                f"{config_file} is not valid TOML: {exc}",
                hint="fix the file or move it aside; memseed will use its defaults",
            ) from exc
    values: dict[str, Any] = {}
    for key, default in DEFAULTS.items():
        value: Any = default
        if key in file_values:
            value = _coerce(key, file_values[key])
        env_name = _ENV_NAMES.get(key)
        if env_name and os.environ.get(env_name):
            value = _coerce(key, os.environ[env_name])
        flag = flags.get(key)
        if flag is not None and flag != () and flag != []:
            value = _coerce(key, flag)
        values[key] = value
    for key, value in file_values.items():
        values.setdefault(key, value)
    return Settings(home=root, values=values)


def resolve_secret(reference: str) -> str | None:
    """Turn ``env:NAME`` / ``keyring:service/user`` into the secret, or ``None`` if unset.

    A plain value (no scheme) is refused: secrets do not belong in config files.
    """
    if not reference:
        return None
    scheme, _, rest = reference.partition(":")
    if scheme == "env":
        return os.environ.get(rest) or None
    if scheme == "keyring":
        try:
            import keyring
        except ImportError as exc:
            raise ConfigError("keyring references need the 'keyring' package",
                              hint="pip install keyring, or use env:VARIABLE") from exc
        service, _, user = rest.partition("/")
        try:
            return keyring.get_password(service, user or "default")
        except Exception as exc:  # backend errors vary by platform
            raise ConfigError(f"the OS keyring could not be read: {exc}",
                              hint="use an env:VARIABLE reference instead") from exc
    raise ConfigError(
        f"secret reference {reference[:8]}… has no env: or keyring: scheme",
        hint="write llm_api_key = \"env:OPENAI_API_KEY\" in config.toml, not the key itself",
    )
