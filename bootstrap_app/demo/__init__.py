"""The bundled demo persona: a generated, deterministic digital footprint of Maya Okafor.

Why generated and not committed: the demo is the first thing a newcomer sees
(``memseed scan --demo``, ``make app``), so it must look like a real person's footprint —
a Takeout mbox and calendar, documents in three formats, a Slack export and two git
repositories — while containing nobody real and no binary fixtures. Everything is derived
from :data:`~bootstrap_app.demo.persona.PERSONA` with seeded random streams and the fixed
clock :data:`DEMO_ANCHOR`, so two builds are identical and tests can assert that a scan
recovers exactly PERSONA's facts.

Layout under the returned root::

    takeout/Takeout/Mail/All mail Including Spam and Trash.mbox
    takeout/Takeout/Calendar/maya.okafor@northwind-labs.example.ics
    documents/      runbooks/*.md, rfcs/*.docx, design/*.pdf, notes.md, vendor-onboarding.md, meeting-notes/
    slack/northwind-export/   users.json, channels.json, <channel>/YYYY-MM-DD.json
    repos/ledger-api, repos/deploy-console   (git repositories)
    .memseed-demo   marker: generator version, scale, counts (makes rebuilds a no-op)

``scale`` multiplies the volume (mail, events, chat, commits, meeting notes) and keeps
the facts, so 1x/10x/100x scans can be compared.
"""

from __future__ import annotations

import json
import os
import shutil
import time
from pathlib import Path
from typing import Any

from filelock import FileLock

from ..errors import ConfigError, WriteError
from .calendar import write_calendar
from .cast import DEMO_ANCHOR
from .docs import write_documents
from .mail import MBOX_NAME, write_mbox
from .persona import PERSONA
from .repos import write_repos
from .slack import write_slack

__all__ = [
    "DEMO_ANCHOR",
    "GENERATOR_VERSION",
    "MARKER",
    "PERSONA",
    "build_demo",
    "demo_locations",
    "demo_owner_addresses",
    "read_marker",
]

GENERATOR_VERSION = 6
"""Bump when the generated data changes, so existing demo folders are rebuilt."""

MARKER = ".memseed-demo"
_ENTRIES = ("takeout", "documents", "slack", "repos", MARKER)


def demo_owner_addresses() -> tuple[str, ...]:
    """Maya's addresses (work first). Her Slack id is tied to the work address in users.json."""
    return (str(PERSONA["work_email"]), str(PERSONA["personal_email"]))


def demo_locations(root: Path) -> dict[str, Path]:
    """Where each source kind lives inside a built demo (for callers that scan them one by one)."""
    takeout = root / "takeout" / "Takeout"
    return {
        "takeout": root / "takeout",
        "mbox": takeout / "Mail" / MBOX_NAME,
        "calendar": takeout / "Calendar" / f"{PERSONA['work_email']}.ics",
        "documents": root / "documents",
        "slack": root / "slack" / "northwind-export",
        "ledger-api": root / "repos" / "ledger-api",
        "deploy-console": root / "repos" / "deploy-console",
    }


def read_marker(root: Path) -> dict[str, Any] | None:
    """The marker of a built demo, or None when ``root`` holds no complete demo."""
    try:
        data = json.loads((root / MARKER).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def _is_complete(root: Path, scale: int) -> bool:
    marker = read_marker(root)
    if not marker or marker.get("generator_version") != GENERATOR_VERSION or marker.get("scale") != scale:
        return False
    return all(path.exists() for path in demo_locations(root).values())


def _generate(root: Path, scale: int) -> dict[str, Any]:
    where = demo_locations(root)
    timings: dict[str, float] = {}
    counts: dict[str, int] = {}

    def timed(name: str, fn: Any, *args: Any) -> Any:
        start = time.perf_counter()
        result = fn(*args)
        timings[name] = round(time.perf_counter() - start, 3)
        return result

    counts["messages"] = timed("mail", write_mbox, where["mbox"], scale)
    timed("calendar", write_calendar, where["calendar"].parent, scale)
    counts["documents"] = len(timed("documents", write_documents, where["documents"], scale))
    counts["chat_messages"] = timed("slack", write_slack, where["slack"], scale)
    timed("repos", write_repos, root / "repos", scale)
    return {"generator_version": GENERATOR_VERSION, "scale": scale, "anchor": DEMO_ANCHOR.isoformat(),
            "counts": counts, "seconds": timings}


def build_demo(dest: Path, scale: int = 1) -> Path:
    """Write the demo footprint into ``dest`` (idempotent) and return ``dest``.

    If ``dest`` already holds a complete demo of this scale and generator version, nothing
    is rewritten. Otherwise the demo is generated into a temporary sibling folder and moved
    into place, so an interrupted build never leaves a half-written demo behind. A ``dest``
    holding anything other than a demo is refused rather than overwritten.
    """
    if not isinstance(scale, int) or isinstance(scale, bool) or scale < 1:
        raise ConfigError(f"demo scale must be a whole number >= 1, not {scale!r}",
                          hint="use scale=1 for the normal demo, 10 or 100 for benchmarks")
    dest = Path(dest).expanduser().absolute()
    dest.parent.mkdir(parents=True, exist_ok=True)
    with FileLock(str(dest.parent / f".{dest.name}.lock")):
        if _is_complete(dest, scale):
            return dest
        if dest.exists() or dest.is_symlink():
            foreign = (sorted(p.name for p in dest.iterdir() if p.name not in _ENTRIES)
                       if dest.is_dir() and not dest.is_symlink() else [dest.name])
            if foreign:
                raise WriteError(f"{dest} exists and is not a memseed demo folder (holds {', '.join(foreign[:5])})",
                                 hint="pass an empty or new folder for the demo")
        tmp = dest.parent / f".{dest.name}.building-{os.getpid()}"
        if tmp.exists():
            shutil.rmtree(tmp)
        tmp.mkdir()
        try:
            marker = _generate(tmp, scale)
            (tmp / MARKER).write_text(json.dumps(marker, indent=2) + "\n", encoding="utf-8")
            if dest.exists():
                shutil.rmtree(dest)
            tmp.rename(dest)
        finally:
            if tmp.exists():
                shutil.rmtree(tmp, ignore_errors=True)
    return dest
