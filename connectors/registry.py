"""The one list of sources memseed reads, and detection of a path or URI against it.

Why an explicit list: a source that registered itself by being imported could vanish without a
sound (a failed import, a module nobody imported), and nobody reading the code could tell which
sources exist. Here they are all named, in one tuple; adding a source is one module plus one
line below. Detection order is each class's ``priority`` (lower first): Takeout and Slack
exports and harness memory folders before git repositories, single files and mail folders, and
plain document folders (the catch-all) last, so a footprint folder is walked rather than
swallowed as documents.

Logins live here too (:data:`AUTH_PROVIDERS`): a source declares ``auth = "google"`` and the
provider of that name answers whether it is signed in and hands out credentials; the source
itself never touches token storage.

Tests and notebooks may add sources of their own for a while with :func:`extended`, which is
as explicit as the list itself and undone when the block ends. The shipped test source
(:class:`connectors.fake.FakeSource`) is *not* in the list: people reading ``memseed sources``
or the app's Sources page must only see what reads their data; its tests add it this way.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from functools import cache
from pathlib import Path
from typing import Any, Protocol

from bootstrap_app.errors import AuthRequired, SourceNotFound, UnsupportedSource
from bootstrap_app.plugins import load_plugins

from .agent_rules import ClineMemoryBank, CursorRules
from .base import Availability, Source
from .google import auth as google_auth
from .google.account import GoogleAccountSource
from .google.calendar import GoogleCalendarSource
from .google.drive import GoogleDriveSource
from .google.gmail import GmailSource
from .harness_memory import ClaudeCodeMemory, CodexMemory, GeminiMemory, HermesMemory
from .local.eml import EmlSource
from .local.emlx import EmlxSource
from .local.folder import DocumentFolderSource
from .local.git_repo import GitRepoSource
from .local.ics import IcsSource
from .local.mbox import MboxSource
from .local.outlook_msg import OutlookMsgSource
from .local.pst import PstSource
from .local.slack_export import SlackExportSource
from .local.takeout import TakeoutSource
from .microsoft import MicrosoftSource, OneDriveSource, OutlookCalendarSource, OutlookMailSource
from .microsoft import auth as microsoft_auth
from .sessions.sources import (
    ChatGPTExport,
    ClaudeAiExport,
    ClaudeCodeSessions,
    CodexSessions,
    GeminiSessions,
    sessions_home_sources,
)

__all__ = [
    "AUTH_PROVIDERS",
    "SOURCES",
    "AuthProvider",
    "availability",
    "by_shape",
    "claimed_by_other",
    "credentials",
    "detect",
    "extended",
    "from_parts",
    "plugins",
    "registered",
    "source_for_scheme",
    "uri_forms",
]

SOURCES: tuple[type[Source], ...] = (
    TakeoutSource,
    SlackExportSource,
    ClaudeCodeMemory,
    CodexMemory,
    HermesMemory,
    GeminiMemory,
    ClaudeCodeSessions,
    CodexSessions,
    GeminiSessions,
    ChatGPTExport,
    ClaudeAiExport,
    ClineMemoryBank,
    CursorRules,
    GitRepoSource,
    IcsSource,
    MboxSource,
    EmlSource,
    EmlxSource,
    OutlookMsgSource,
    PstSource,
    DocumentFolderSource,
    MicrosoftSource,
    OutlookMailSource,
    OutlookCalendarSource,
    OneDriveSource,
    GoogleAccountSource,
    GmailSource,
    GoogleCalendarSource,
    GoogleDriveSource,
)
"""Every source memseed reads. Order here is for people; detection follows ``priority``."""


class AuthProvider(Protocol):
    """A login (Google, Microsoft): what ``memseed auth NAME`` drives and sources draw on."""

    name: str
    scopes: tuple[str, ...]

    def login(self, home: Path, *, echo: Callable[[str], None], **options: Any) -> str: ...

    def status(self, home: Path) -> Availability: ...

    def logout(self, home: Path) -> bool: ...

    def credentials(self, home: Path, account: str = "") -> Any: ...
    """``account`` is passed only when a URI names one (a login keeping several, like Google's)."""


AUTH_PROVIDERS: dict[str, AuthProvider] = {"google": google_auth, "microsoft": microsoft_auth}  # type: ignore[dict-item]
"""Login providers by name (the ``auth`` a source declares)."""

_extra: list[type[Source]] = []


@contextmanager
def extended(*sources: type[Source]) -> Iterator[None]:
    """Make ``sources`` detectable inside the block (test-only and notebook sources)."""
    added = [s for s in sources if s not in _extra and s not in SOURCES]
    _extra.extend(added)
    try:
        yield
    finally:
        for s in added:
            _extra.remove(s)


@cache
def plugins() -> tuple[tuple[type[Source], ...], tuple[str, ...]]:
    """(sources installed packages declare in the ``memseed.sources`` entry point group, why others were skipped)."""
    found, problems = load_plugins("memseed.sources", Source)
    kinds = {cls.kind for cls in SOURCES}
    return tuple(cls for cls in found if cls.kind not in kinds), problems


def registered() -> list[type[Source]]:
    """Every source class (built-in, installed plugins, added for a while), in detection order."""
    return sorted((*SOURCES, *plugins()[0], *_extra), key=lambda cls: cls.priority)


def source_for_scheme(scheme: str) -> type[Source] | None:
    """The source class answering ``scheme:`` URIs (canonical names and aliases)."""
    for cls in registered():
        if scheme in cls.uri_schemes:
            return cls
    return None


def from_parts(parts: Sequence[tuple[str, str]]) -> list[Source] | None:
    """The path sources a location resolved to at its last scan (``(source id, kind)`` as the
    store keeps them), rebuilt without looking at the disk; None when one of them is not a path
    source rebuilt to the same id (an account, a plugin gone): then the location is detected again.

    Why: re-analysis (the wizard's Identity page) replays the item cache; detecting each location
    again sniffed the head of every file in it, which is what it promised not to do."""
    out: list[Source] = []
    for source_id, kind in parts:
        cls = next((c for c in by_shape() if c.kind == kind), None)
        prefix = f"{kind}:"
        if cls is None or not source_id.startswith(prefix):
            return None
        source = cls(source_id[len(prefix):])
        if source.id != source_id or not os.path.exists(source.location):  # moved, or a name shown escaped
            return None
        out.append(source)
    return out or None


def by_shape() -> list[type[Source]]:
    """The sources detected from a path (those that define ``sniff``), in detection order."""
    return [cls for cls in registered() if cls.sniff.__func__ is not Source.sniff.__func__]  # type: ignore[attr-defined]


def uri_forms() -> list[tuple[str, type[Source]]]:
    """(form as written in help, source class) for every URI a source answers."""
    return [(cls.uri_form or f"{cls.uri_schemes[0]}:", cls) for cls in registered() if cls.uri_schemes]


def availability(cls: type[Source], home: Path | None = None) -> Availability:
    """Whether ``cls`` can be read now: its login provider answers for sources that need one."""
    if cls.auth:
        provider = AUTH_PROVIDERS.get(cls.auth)
        if provider is None:
            return Availability(False, f"no {cls.auth} login is built into this version")
        if home is None:
            return Availability(False, f"needs a {cls.auth} login (`memseed auth {cls.auth}`)")
        return provider.status(home)
    return cls.availability(home)


def credentials(provider: str, home: Path | None) -> Any:
    """Credentials of login ``provider`` (what :attr:`ReadContext.credentials` hands to sources);
    ``"google:ACCOUNT"`` asks for one of several signed-in accounts of that login."""
    name, _, account = provider.partition(":")
    found = AUTH_PROVIDERS.get(name)
    if found is None or home is None:
        raise AuthRequired(f"{name}: not signed in", hint=f"run `memseed auth {name}` first")
    return found.credentials(home, account=account) if account else found.credentials(home)


def _sniffs(cls: type[Source], path: Path) -> bool:
    try:
        return cls.sniff(path)
    except (OSError, ValueError):  # an unreadable or oddly named path is nobody's shape
        return False


def claimed_by_other(path: Path, exclude: type[Source] | None = None) -> bool:
    """True when some source other than the catch-all (and ``exclude``) recognises ``path``."""
    return any(_sniffs(cls, path) for cls in registered() if not cls.catch_all and cls is not exclude)


def _catch_all_fits(catch_all: type[Source], path: Path) -> bool:
    """A folder goes to the catch-all only when none of its parts (or their parts) is another
    source: an mbox, a calendar or a git repo beside the documents makes it a footprint folder."""
    if not path.is_dir():
        return True
    try:
        children = [c for c in sorted(path.iterdir()) if not c.name.startswith(".")]
    except OSError:
        return False
    for child in children:
        if child.is_file() and _sniffs(catch_all, child):
            continue  # a document of its own
        if claimed_by_other(child):
            return False
        if child.is_dir() and not child.is_symlink():
            try:
                grandchildren = [g for g in child.iterdir() if not g.name.startswith(".") or g.name == ".git"]
            except OSError:
                continue
            if any(g.name == ".git" or (g.is_file() and not _sniffs(catch_all, g) and claimed_by_other(g))
                   for g in grandchildren):
                return False
    return True


def _detect_uri(text: str) -> list[Source] | None:
    scheme, sep, _ = text.partition(":")
    if not sep or len(scheme) < 2 or os.path.exists(text):  # "C:\\..." is a Windows path
        return None
    cls = source_for_scheme(scheme)
    if cls is None:
        return None
    found = cls.from_uri(text)
    harness = getattr(cls, "harness", None)  # an agent's memory URI reads its sessions too, when it keeps any
    return [*found, *sessions_home_sources(harness.name, text.partition(":")[2])] if harness is not None else found


_DETECT_DEPTH = 24
"""How many folder levels :func:`detect` walks into a footprint folder looking for sources
(bounded: a tree thousands of levels deep must not end in ``RecursionError``)."""


def detect(location: str | os.PathLike[str], _depth: int = 0, *,
           leftovers: list[tuple[Path, str, bool]] | None = None) -> list[Source]:
    """Resolve a path or URI into the sources it holds.

    A URI gives the source(s) of its scheme; a file or folder with a recognised shape gives one
    source; a folder that holds several (a home-made "footprint" folder) is walked and gives one
    source per recognised part.
    """
    text = str(location)
    by_uri = _detect_uri(text)
    if by_uri is not None:
        return by_uri
    path = Path(text).expanduser()
    if not path.exists():
        scheme, sep, _ = text.partition(":")
        if sep and len(scheme) >= 2 and "/" not in scheme:
            raise SourceNotFound(f"{text} is neither a path nor a source kind memseed knows",
                                 hint="run `memseed sources` for the URI forms memseed reads")
        raise SourceNotFound(f"{text}: no such file or folder",
                             hint="check the path, or run `memseed sources` for the URI forms")
    for cls in registered():
        if _sniffs(cls, path) and (not cls.catch_all or _catch_all_fits(cls, path)):
            return cls.expand(path)
    if path.is_dir():
        return _walk(path, text, _depth, leftovers)
    raise _unsupported(text)


def _walk(path: Path, text: str, depth: int = 0,
          leftovers: list[tuple[Path, str, bool]] | None = None) -> list[Source]:
    """The sources in a folder holding several; ``leftovers`` (when given) gets each child no
    source reads, as (path, reason, failed): a file of no kind memseed reads, a folder too deep
    (not failures), or one that cannot be listed (a failure), so the scan can account for them."""
    found: list[Source] = []
    lost: list[tuple[Path, str, bool]] = []
    try:
        children = sorted(path.iterdir())
    except OSError as exc:
        raise SourceNotFound(f"{text}: cannot list folder ({exc.strerror})",
                             hint="check the folder's permissions") from exc
    for child in children:
        if child.name.startswith(".") or child.is_symlink():
            continue
        if depth >= _DETECT_DEPTH and child.is_dir():
            lost.append((child, f"more than {_DETECT_DEPTH + 1} folders below what was given, not entered", False))
            continue
        try:
            found.extend(detect(child, depth + 1, leftovers=lost))
        except UnsupportedSource:  # an odd child never hides the rest
            suffix = child.suffix.lower() or "no extension"
            lost.append((child, "a folder holding nothing memseed reads" if child.is_dir()
                         else f"not a kind of file memseed reads ({suffix})", False))
        except SourceNotFound as exc:  # an unlistable or vanished child never hides the rest
            lost.append((child, str(exc).splitlines()[0], True))
    if not found:
        raise _unsupported(text)
    if leftovers is not None:
        leftovers.extend(lost)
    return found


def _unsupported(text: str) -> UnsupportedSource:
    """The one answer for a path no source recognises (a file, or a folder holding none)."""
    return UnsupportedSource(f"{text}: not a source memseed can read",
                             hint="give a .mbox, .eml folder, maildir, .ics, Takeout folder/zip, git repo, "
                                  "Slack export, harness memory folder, agent sessions, chat export, or a folder of documents")
