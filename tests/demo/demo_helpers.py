"""Helpers shared by the demo tests: read an mbox with the stdlib, run git hermetically."""

from __future__ import annotations

import email.policy
import mailbox
import subprocess
from email.message import EmailMessage
from pathlib import Path

from bootstrap_app.demo.repos import git_env

__all__ = ["git", "read_mbox"]


def read_mbox(path: Path) -> list[EmailMessage]:
    """All messages of an mbox, parsed by the stdlib with the modern email policy."""
    box = mailbox.mbox(str(path), factory=lambda f: email.message_from_binary_file(f, policy=email.policy.default),
                       create=False)
    try:
        return list(box)
    finally:
        box.close()


def git(repo: Path, *args: str) -> str:
    """Run git in ``repo`` (hermetic config) and return its stdout."""
    return subprocess.run(["git", *args], cwd=repo, env=git_env(), check=True, capture_output=True,
                          text=True).stdout
