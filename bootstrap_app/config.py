"""Where memseed keeps its state, and how settings are resolved: one typed :class:`Settings`.

Resolution order for every setting: explicit flag > environment variable > ``config.toml``
> built-in default. Secrets are never stored in ``config.toml`` itself, only *references*
to them (``env:OPENAI_API_KEY`` or ``keyring:memseed/openai``), resolved at the moment of use
so they never reach the state store or a log.
"""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

import platformdirs

from bootstrap_app.errors import ConfigError

__all__ = ["ENV_HOME", "LLM_RESPONSE_FORMATS", "OTHER_ENV_VARS", "SettingOrigin", "Settings", "app_home", "env_table",
           "load_settings", "resolve_secret", "settings_origins"]

ENV_HOME = "MEMSEED_HOME"


def _setting(default: Any, env: str, doc: str) -> Any:
    """A :class:`Settings` field: its default, the environment variable that sets it, what it means."""
    return field(default=default, metadata={"env": env, "doc": doc})


@dataclass(frozen=True)
class Settings:
    """Every setting memseed reads, typed, resolved and validated once by :func:`load_settings`.

    Each field's metadata names its environment variable (``env``, empty when there is none)
    and what it means (``doc``); docs/architecture.md's table is checked against them.
    """

    home: Path
    owner: tuple[str, ...] = _setting((), "MEMSEED_OWNER",
                                      "the owner's addresses, comma-separated (who the footprint belongs to)")
    llm: str = _setting("off", "MEMSEED_LLM", "`off` or `openai`: also ask a language model (opt-in)")
    llm_model: str = _setting("gpt-4o-mini", "MEMSEED_LLM_MODEL", "model name sent to the LLM endpoint")
    llm_base_url: str = _setting("", "MEMSEED_LLM_BASE_URL",
                                 "OpenAI-compatible endpoint (empty: OpenAI's; loopback needs no key)")
    llm_api_key: str = _setting("env:OPENAI_API_KEY", "MEMSEED_LLM_API_KEY",
                                "a reference to the key, `env:NAME` or `keyring:service/user`, never the key")
    llm_max_chars: int = _setting(24_000, "MEMSEED_LLM_MAX_CHARS", "hard cap on the digest sent to the LLM")
    llm_timeout: float = _setting(120.0, "MEMSEED_LLM_TIMEOUT", "seconds to wait for one LLM reply")
    llm_max_retries: int = _setting(3, "MEMSEED_LLM_MAX_RETRIES", "retries of a failed LLM call")
    llm_response_format: str = _setting("auto", "MEMSEED_LLM_RESPONSE_FORMAT",
                                        "`auto` (try json_schema, fall back and remember), `json_schema`, "
                                        "`json_object_schema` (JSON mode with the schema as a grammar: "
                                        "llama.cpp), `json_object` or `text`: how the LLM is asked for JSON")
    llm_context: int = _setting(0, "MEMSEED_LLM_CONTEXT",
                                "the model's context in tokens (0: ask the server; the digest is sized to fit)")
    llm_max_tokens: int = _setting(2048, "MEMSEED_LLM_MAX_TOKENS", "tokens the LLM may answer with (always sent)")
    llm_budget: float = _setting(600.0, "MEMSEED_LLM_BUDGET",
                                 "seconds the whole LLM pass may take, retries included")
    max_text_chars: int = _setting(20_000, "MEMSEED_MAX_TEXT_CHARS", "characters of text kept per item")
    max_file_bytes: int = _setting(20 * 1024 * 1024, "MEMSEED_MAX_FILE_BYTES",
                                   "larger files are skipped (and reported)")
    jobs: int = _setting(0, "MEMSEED_JOBS",
                         "worker processes that parse a large mailbox (0: every core this process may use)")
    default_target: str = _setting("claude-code", "MEMSEED_TARGET", "harness the app's Write page starts with")
    sources: tuple[str, ...] = _setting((), "", "locations `memseed reseed` scans besides the remembered ones (config.toml only)")
    notify_cmd: str = _setting("", "MEMSEED_NOTIFY_CMD",
                               "a command `memseed reseed` runs (no shell) when it finds new proposals; "
                               "`MEMSEED_WAITING` / `MEMSEED_NEW` hold the counts")
    ms_client_id: str = _setting("", "MEMSEED_MS_CLIENT_ID",
                                 "client id of your Entra ID app registration, for `memseed auth microsoft`")
    ms_authority: str = _setting("https://login.microsoftonline.com/common", "MEMSEED_MS_AUTHORITY",
                                 "Microsoft sign-in authority: `.../common`, `.../consumers` or `.../organizations`")

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
        return tuple(a.strip().lower() for a in self.owner if a.strip())


_FIELDS = {f.name: f for f in fields(Settings) if f.name != "home"}
_LLM_MODES = ("off", "openai")
LLM_RESPONSE_FORMATS = ("auto", "json_schema", "json_object_schema", "json_object", "text")

OTHER_ENV_VARS: dict[str, str] = {
    ENV_HOME: "the app dir holding config.toml, state.db and backups (default: the platform's user data dir)",
    "MEMSEED_TOKEN_STORE": "`file` or `keyring`: where sign-in tokens are kept (default: keyring when usable)",
    "MEMSEED_APP_DEMO": "set by `memseed app --demo` for the Streamlit process: serve the demo persona",
    "MEMSEED_APP_TOKEN": "the wizard's launch token (default: a new random one per `memseed app`); "
                         "a page must present it as `?token=` (or, after that, the browser pass derived from it)",
    "MEMSEED_DEMO_ROOT": "set by `memseed app --demo`: where the demo footprint was built",
    "MEMSEED_DEMO_PROJECT": "set by `memseed app --demo`: the throwaway project folder memory is written to",
    "MEMSEED_GRAPH_API_ROOT": "Microsoft Graph base URL (default `https://graph.microsoft.com/v1.0/`; a national "
                              "cloud or a test stand-in)",
    "MEMSEED_GOOGLE_CREDENTIALS": "an `authorized_user` JSON (client_id, client_secret, refresh_token, token_uri) "
                                  "used as-is instead of the stored Google sign-in; no browser",
    "MEMSEED_GOOGLE_API_ROOT": "replaces `https://gmail.googleapis.com/` and `https://www.googleapis.com/` "
                               "(a loopback stand-in in tests and the demo)",
    "MEMSEED_GOOGLE_CLIENT_SECRETS": "your Desktop-app OAuth client JSON for `memseed auth google` "
                                     "(same as `--client-secrets`)",
    "MEMSEED_NOTEBOOK_SOURCES": "what the notebooks explore: `path[:path…]` (read only), `remembered` (the sources "
                                "your app dir remembers), unset: the demo persona",
}
"""Environment variables that are not a :class:`Settings` field (documented in the same table)."""


def env_table() -> str:
    """The Markdown table of every environment variable memseed reads as a setting."""
    rows = ["| variable | config.toml key | default | meaning |", "| --- | --- | --- | --- |"]
    rows += [f"| `{name}` | (none) | | {doc} |" for name, doc in OTHER_ENV_VARS.items()]
    for f in _FIELDS.values():
        default = ",".join(f.default) if isinstance(f.default, tuple) else str(f.default)
        env = f"`{f.metadata['env']}`" if f.metadata["env"] else "(none)"
        rows.append(f"| {env} | `{f.name}` | {f'`{default}`' if default else ''} | {f.metadata['doc']} |")
    return "\n".join(rows) + "\n"


def app_home(override: str | os.PathLike[str] | None = None) -> Path:
    """The app dir: ``override`` > ``$MEMSEED_HOME`` > the platform's user data dir."""
    raw = override or os.environ.get(ENV_HOME) or platformdirs.user_data_dir("memseed", appauthor=False)
    home = Path(raw).expanduser()
    home.mkdir(parents=True, exist_ok=True, mode=0o700)
    return home


def _coerce(key: str, raw: Any, where: str) -> Any:
    """``raw`` as the type of setting ``key``; a value of the wrong shape is a ConfigError saying where."""
    default = _FIELDS[key].default
    if isinstance(default, tuple):
        if isinstance(raw, str):
            return tuple(part for part in (p.strip() for p in raw.split(",")) if part)
        if isinstance(raw, list | tuple):
            return tuple(str(v) for v in raw)
    elif isinstance(default, bool):
        if isinstance(raw, bool):
            return raw
    elif isinstance(default, int | float):
        try:
            value = type(default)(raw)
        except (TypeError, ValueError):
            kind = "a whole number" if isinstance(default, int) else "a number"
            raise ConfigError(f"setting {key!r} must be {kind}, got {raw!r} (from {where})",
                              hint=f"write it as digits where it is set ({where}); the default is {default}") from None
        if value < 0:
            raise ConfigError(f"setting {key!r} must not be negative, got {raw!r} (from {where})",
                              hint=f"fix it where it is set ({where}); the default is {default}")
        return value
    elif isinstance(raw, str):
        return raw
    raise ConfigError(f"setting {key!r} has the wrong type: {raw!r} (from {where})",
                      hint=f"fix it where it is set ({where}); the default is {default!r}")


@dataclass(frozen=True)
class SettingOrigin:
    """One setting as it is in force, and where it came from (what ``memseed config`` shows)."""

    key: str
    value: Any
    origin: str
    """``flag``, ``env``, ``config.toml`` or ``default``."""
    where: str
    """The flag, ``$VARIABLE`` or file that set it; empty for a default."""
    env: str
    """The environment variable that would set it (empty: none)."""
    doc: str

    def to_json(self) -> dict[str, Any]:
        value = list(self.value) if isinstance(self.value, tuple) else self.value
        return {"key": self.key, "value": value, "origin": self.origin, "where": self.where,
                "env": self.env, "doc": self.doc}


def _read_config_file(config_file: Path) -> dict[str, Any]:
    if not config_file.exists():
        return {}
    try:
        values = tomllib.loads(config_file.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise ConfigError(
            f"{config_file} is not valid TOML: {exc}",
            hint="fix the file or move it aside; memseed will use its defaults",
        ) from exc
    unknown = sorted(set(values) - set(_FIELDS))
    if unknown:
        raise ConfigError(f"{config_file} has unknown settings: {', '.join(unknown)}",
                          hint=f"known settings: {', '.join(_FIELDS)} (see docs/architecture.md)")
    return values


def _resolve(root: Path, flags: dict[str, Any]) -> dict[str, SettingOrigin]:
    """Every setting's value and origin: flag > env > config.toml > default, each value checked.

    Why one function: :func:`load_settings` and :func:`settings_origins` must never disagree on
    what is in force, so both read it from here."""
    config_file = root / "config.toml"
    file_values = _read_config_file(config_file)
    unknown = sorted(set(flags) - set(_FIELDS))
    if unknown:
        raise TypeError(f"load_settings() got unknown settings: {', '.join(unknown)}")
    resolved: dict[str, SettingOrigin] = {}
    for key, spec in _FIELDS.items():
        env_name, doc = spec.metadata["env"], spec.metadata["doc"]
        flag = flags.get(key)
        if flag is not None and flag != () and flag != []:
            where = f"the --{key.replace('_', '-')} flag"
            resolved[key] = SettingOrigin(key, _coerce(key, flag, where), "flag", where, env_name, doc)
        elif env_name and os.environ.get(env_name):
            where = f"${env_name}"
            resolved[key] = SettingOrigin(key, _coerce(key, os.environ[env_name], where), "env", where, env_name, doc)
        elif key in file_values:
            where = str(config_file)
            resolved[key] = SettingOrigin(key, _coerce(key, file_values[key], where), "config.toml", where,
                                          env_name, doc)
        else:
            resolved[key] = SettingOrigin(key, spec.default, "default", "", env_name, doc)
    llm = resolved["llm"].value
    if llm not in _LLM_MODES:
        raise ConfigError(f"setting 'llm' must be one of {', '.join(_LLM_MODES)}, got {llm!r}",
                          hint="set llm = \"off\" or llm = \"openai\" (or $MEMSEED_LLM)")
    response_format = resolved["llm_response_format"].value
    if response_format not in LLM_RESPONSE_FORMATS:
        raise ConfigError(f"setting 'llm_response_format' must be one of {', '.join(LLM_RESPONSE_FORMATS)}, "
                          f"got {response_format!r}",
                          hint="leave it at \"auto\" unless the server needs one mode forced")
    return resolved


def load_settings(home: str | os.PathLike[str] | None = None, **flags: Any) -> Settings:
    """Resolve settings once: flag > env > config.toml > default. ``None`` flags are ignored.

    Every value is checked against the field's type here, so a bad one fails at start with the
    place it came from, not deep inside a scan.
    """
    root = app_home(home)
    resolved = _resolve(root, flags)
    return Settings(home=root, **{k: o.value for k, o in resolved.items() if o.origin != "default"})


def settings_origins(home: str | os.PathLike[str] | None = None, **flags: Any) -> list[SettingOrigin]:
    """Every setting in force and where it comes from, in :class:`Settings` order; the app dir
    first (``home``: the ``--home`` flag, ``$MEMSEED_HOME`` or the platform default)."""
    root = app_home(home)
    if home:
        where, origin = "the --home flag", "flag"
    elif os.environ.get(ENV_HOME):
        where, origin = f"${ENV_HOME}", "env"
    else:
        where, origin = "", "default"
    first = SettingOrigin("home", str(root), origin, where, ENV_HOME, OTHER_ENV_VARS[ENV_HOME])
    return [first, *_resolve(root, flags).values()]


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
