"""``memseed app``: start the onboarding wizard (Streamlit) on this machine only.

Why a subprocess and command-line flags: Streamlit reads ``.streamlit/config.toml`` from the
current directory, and we must not depend on (or write) a file in the person's cwd. Every
setting that matters — bind to 127.0.0.1, no usage statistics, headless, no file watcher —
is passed as a ``--section.option`` flag, and Streamlit runs with its cwd in the app home.

``--demo`` makes a *throwaway* home: a temp folder holding the app home (MEMSEED_HOME), a fake
HOME and the harness homes (CLAUDE_CONFIG_DIR, CODEX_HOME, HERMES_HOME) inside it, with the
bundled persona's footprint already added as a source. A newcomer can scan, approve, write to
Claude Code and undo without touching their real files; the folder is deleted on exit unless
``--keep`` is given. Its path is printed first (``memseed demo home: PATH``) so scripts and
tests can look at the files it writes.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
import webbrowser
from pathlib import Path
from types import FrameType

import click

from bootstrap_app.cli.common import open_settings
from bootstrap_app.demo import build_demo, demo_owner_addresses
from bootstrap_app.store import Store
from bootstrap_app.ui import APP_FILE, DEMO_ENV, DEMO_PROJECT_ENV, DEMO_ROOT_ENV, TOKEN_ENV, new_token

__all__ = ["COMMANDS", "demo_environment", "streamlit_command"]


def streamlit_command(port: int) -> list[str]:
    """The exact ``streamlit run`` command line, with every setting given as a flag.

    Always headless: Streamlit would open its address without the launch token, so ``memseed
    app`` opens the browser itself, on the tokened link."""
    return [
        sys.executable, "-m", "streamlit", "run", str(APP_FILE),
        "--server.address", "127.0.0.1",
        "--server.port", str(port),
        "--server.headless", "true",
        "--browser.gatherUsageStats", "false",
        "--browser.serverAddress", "127.0.0.1",
        "--server.fileWatcherType", "none",
        "--server.runOnSave", "false",
        "--server.maxUploadSize", "2048",
        "--global.developmentMode", "false",
        "--client.toolbarMode", "minimal",
        "--client.showErrorDetails", "true",
        "--theme.primaryColor", "#0f766e",
    ]


def demo_environment(root: Path) -> dict[str, str]:
    """Build the demo footprint under ``root`` and return the environment the app runs with."""
    home = root / "home"
    app_home = root / "memseed"
    for folder in (home, app_home):
        folder.mkdir(parents=True, exist_ok=True, mode=0o700)
    footprint = build_demo(root / "footprint")
    owners = list(demo_owner_addresses())
    with Store(app_home / "state.db") as store:
        store.remember_source(str(footprint.resolve()))
    project = footprint / "repos" / "ledger-api"
    env = {
        "HOME": str(home),
        "MEMSEED_HOME": str(app_home),
        "CLAUDE_CONFIG_DIR": str(home / ".claude"),
        "CODEX_HOME": str(home / ".codex"),
        "HERMES_HOME": str(home / ".hermes"),
        DEMO_ENV: "1",
        DEMO_ROOT_ENV: str(root),
        DEMO_PROJECT_ENV: str(project if project.is_dir() else footprint),
    }
    if owners:
        env["MEMSEED_OWNER"] = ",".join(owners)
    return env


def _default_headless() -> bool:
    """No browser to open on a server, in CI, or when stdout is not a terminal."""
    if not sys.stdout.isatty():
        return True
    if sys.platform.startswith("linux"):
        return not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))
    return False


def _open_when_up(proc: subprocess.Popen[bytes], port: int, url: str, timeout: float = 60) -> None:
    """Open the tokened address in a browser tab once the app answers (as Jupyter does)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and proc.poll() is None:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/_stcore/health", timeout=2):
                webbrowser.open(url)
                return
        except OSError:
            time.sleep(0.3)


@click.command("app")
@click.option("--demo", is_flag=True, help="Run on the bundled demo persona in a throwaway home.")
@click.option("--port", type=click.IntRange(1, 65535), default=8501, show_default=True,
              help="Port on 127.0.0.1.")
@click.option("--headless/--open-browser", default=None,
              help="Do not / do open a browser tab (default: open one when a display is available).")
@click.option("--keep", is_flag=True, help="With --demo: keep the throwaway home after the app stops.")
@click.option("--print-command", is_flag=True, hidden=True, help="Print the Streamlit command and exit.")
@click.pass_context
def app(ctx: click.Context, demo: bool, port: int, headless: bool | None, keep: bool,
        print_command: bool) -> None:
    """Open the onboarding wizard: sources, scan, review, write, undo.

    Each launch makes a random token; the browser opens on the printed link, which carries it
    (?token=...). A page opened without the token shows nothing and can change nothing, so other
    accounts on this machine cannot use the wizard. The browser that opened the link stays admitted
    for this launch (reloads, bookmarks, new tabs) by a pass kept in its storage for this address;
    a pass from an earlier launch is refused. Set MEMSEED_APP_TOKEN to choose the token (a pass
    then holds as long as that token does).

    \b
    Examples:
      memseed app --demo          # try it on the bundled persona; your files are untouched
      memseed app --port 8600     # your own sources, state in the app home
    """
    # Streamlit never opens the browser itself: it would open the address without the token
    command = streamlit_command(port)
    if print_command:
        click.echo(" ".join(command))
        return
    open_browser = not (_default_headless() if headless is None else headless)
    env = dict(os.environ)
    token = env.get(TOKEN_ENV) or new_token()
    env[TOKEN_ENV] = token
    root: Path | None = None
    if demo:
        root = Path(tempfile.mkdtemp(prefix="memseed-demo-"))
        click.echo(f"memseed demo home: {root}")
        click.echo("building the demo persona's footprint…", err=True)
        env.update(demo_environment(root))
        cwd = root
    else:
        settings = open_settings(ctx)
        env["MEMSEED_HOME"] = str(settings.home)
        env.pop(DEMO_ENV, None)
        cwd = settings.home
    url = f"http://127.0.0.1:{port}/?token={token}"
    click.echo(f"memseed app: {url}  (Ctrl+C to stop; the page needs this link's token)")
    sys.stdout.flush()
    proc = subprocess.Popen(command, env=env, cwd=str(cwd))
    if open_browser:
        threading.Thread(target=_open_when_up, args=(proc, port, url), daemon=True).start()

    def _forward(signum: int, _frame: FrameType | None) -> None:
        proc.send_signal(signum)

    previous = signal.signal(signal.SIGTERM, _forward)
    try:
        while True:
            try:
                code = proc.wait()
                break
            except KeyboardInterrupt:
                proc.send_signal(signal.SIGINT)
    finally:
        signal.signal(signal.SIGTERM, previous)
        if proc.poll() is None:
            proc.terminate()
            proc.wait(timeout=10)
        if root is not None and not keep:
            shutil.rmtree(root, ignore_errors=True)
            click.echo(f"removed the demo home {root}", err=True)
        elif root is not None:
            click.echo(f"kept the demo home {root}", err=True)
    if code not in (0, -signal.SIGTERM, -signal.SIGINT):
        sys.exit(code)


COMMANDS = [app]
