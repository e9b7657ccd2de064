"""`memseed app`: the Streamlit command line and the throwaway demo environment."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from bootstrap_app.cli import main
from bootstrap_app.cli.app import demo_environment, streamlit_command
from bootstrap_app.store import Store
from bootstrap_app.ui import APP_FILE


def _flag(cmd: list[str], name: str) -> str:
    return cmd[cmd.index(name) + 1]


def test_streamlit_is_local_only_and_sends_no_statistics() -> None:
    cmd = streamlit_command(8600)
    assert cmd[1:5] == ["-m", "streamlit", "run", str(APP_FILE)]
    assert _flag(cmd, "--server.address") == "127.0.0.1"
    assert _flag(cmd, "--server.port") == "8600"
    assert _flag(cmd, "--browser.gatherUsageStats") == "false"
    assert _flag(cmd, "--server.headless") == "true"  # memseed opens the browser, on the tokened link


def test_cli_prints_the_command() -> None:
    result = CliRunner().invoke(main, ["app", "--port", "8765", "--headless", "--print-command"])
    assert result.exit_code == 0, result.output
    assert "--server.address 127.0.0.1" in result.output and "--server.port 8765" in result.output
    assert CliRunner().invoke(main, ["app", "--port", "0"]).exit_code != 0


def test_demo_environment_is_contained_in_the_throwaway_root(tmp_path: Path) -> None:
    env = demo_environment(tmp_path)
    for name in ("HOME", "MEMSEED_HOME", "CLAUDE_CONFIG_DIR", "CODEX_HOME", "HERMES_HOME",
                 "MEMSEED_DEMO_ROOT", "MEMSEED_DEMO_PROJECT"):
        assert Path(env[name]).is_relative_to(tmp_path), name
    assert env["MEMSEED_APP_DEMO"] == "1"
    assert (Path(env["MEMSEED_DEMO_PROJECT"]) / ".git").exists()
    with Store(Path(env["MEMSEED_HOME"]) / "state.db") as store:
        [source] = store.sources()
    assert Path(source["location"]).is_relative_to(tmp_path.resolve())
    assert "maya.okafor@northwind-labs.example" in env["MEMSEED_OWNER"]
