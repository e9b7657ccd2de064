"""Local exports: mbox, eml/maildir, ics, document folders, git repos, Slack and Takeout exports.

Importing this package registers nothing: :mod:`connectors.registry` lists every source.
Detection order comes from each class's ``priority`` (lower first): Takeout and Slack exports
(10, 15) and git repos (20) before single files and mail folders (30-35), and plain document
folders last (90), so a footprint folder is walked rather than swallowed as documents.
"""

from __future__ import annotations

from . import eml, emlx, folder, git_repo, ics, mbox, outlook_msg, pst, slack_export, takeout
from .htmltext import html_to_text
from .mbox import iter_mbox

__all__ = ["eml", "emlx", "folder", "git_repo", "html_to_text", "ics", "iter_mbox", "mbox", "outlook_msg", "pst", "slack_export", "takeout"]
