"""Official Slack exports, as a folder or the downloaded ``.zip`` (read in place, never extracted).

Layout (https://slack.com/help/articles/220556107): ``users.json`` (``org_users.json`` on
Enterprise Grid), ``channels.json``/``groups.json``/``dms.json``/``mpims.json``, and one folder
per conversation holding ``YYYY-MM-DD.json`` day files (JSON arrays of messages). Day files are
read one at a time. Mentions (``<@U123>``) are resolved to names so the text reads as people
saw it. Each message carries its author's profile title and timezone (``users.json``
``profile.title`` / ``tz``): the owner's own Slack profile is a stated fact about them. A user id missing from ``users.json`` (deleted accounts, partial exports) becomes
``Person(address=uid)`` and is reported once with a count; a malformed day file is skipped
with its reason and the read goes on.
"""

from __future__ import annotations

import html
import json
import re
import stat
import zipfile
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path, PurePosixPath
from typing import Any

from bootstrap_app.errors import SourceError
from bootstrap_app.types import ChatMessage, Item, Person

from ..base import ReadContext, Source
from .walk import walk_files

__all__ = ["ExportTree", "SlackExportSource", "resolve_mentions"]

_USERS = ("users.json", "org_users.json")
_CONVERSATIONS = ("channels.json", "groups.json", "dms.json", "mpims.json")
_DAY = re.compile(r"^\d{4}-\d{2}-\d{2}\.json$")
_MENTION = re.compile(r"<([@#!])([^<>|]+)(?:\|([^<>]*))?>")
_LINK = re.compile(r"<((?:https?|mailto):[^<>|]+)(?:\|([^<>]*))?>")


class ExportTree:
    """Uniform read access to a Slack export folder or zip (members may sit under one top folder)."""

    def __init__(self, path: Path, max_bytes: int = 64 * 1024 * 1024) -> None:
        self.path = path
        self.max_bytes = max_bytes
        self.zip: zipfile.ZipFile | None = None
        if path.is_file():
            try:
                self.zip = zipfile.ZipFile(path)
            except (zipfile.BadZipFile, OSError) as exc:
                raise SourceError(f"{path}: not a readable zip file ({exc})",
                                  hint="download the Slack export again, or unzip it and give the folder") from exc
            names = [n for n in self.zip.namelist() if not n.endswith("/")]
        else:
            # an export is two levels deep (one top folder at most): a bounded walk, so a hostile
            # tree can neither recurse nor loop, and names that are not UTF-8 are left out
            names = [str(p.relative_to(path)).replace("\\", "/") for p in walk_files(
                path, lambda p, why: None, keep_file=lambda n: n.endswith(".json"), max_depth=3)]
        roots = sorted((n.rsplit("/", 1)[0] + "/" if "/" in n else "") for n in names
                       if PurePosixPath(n).name in _USERS + _CONVERSATIONS)
        self.prefix = min(roots, key=len) if roots else ""
        self.names = sorted(n[len(self.prefix):] for n in names if n.startswith(self.prefix))

    def read(self, name: str) -> bytes:
        """One member's bytes, refusing what would not fit in memory or is not a plain file
        (a zip bomb's member, a symlink stored in the zip): ``ValueError`` with the reason."""
        cap = f"over the {self.max_bytes / 2**20:.0f} MB per-file cap"
        if self.zip is not None:
            info = self.zip.getinfo(self.prefix + name)
            if stat.S_ISLNK(info.external_attr >> 16):
                raise ValueError("a symbolic link stored in the archive, not followed")
            if info.file_size > self.max_bytes:
                raise ValueError(f"{info.file_size / 2**20:.1f} MB is {cap}")
            with self.zip.open(info) as member:
                data: bytes = member.read(self.max_bytes + 1)  # a size that lies cannot make it bigger
        else:
            file = self.path / self.prefix / name
            if file.is_symlink():
                raise ValueError("a symbolic link, not followed")
            if file.stat().st_size > self.max_bytes:
                raise ValueError(f"{file.stat().st_size / 2**20:.1f} MB is {cap}")
            with open(file, "rb") as f:
                data = f.read(self.max_bytes + 1)
        if len(data) > self.max_bytes:
            raise ValueError(cap)
        return data

    def has(self, name: str) -> bool:
        return name in self.names

    def close(self) -> None:
        if self.zip is not None:
            self.zip.close()


def _looks_like_export(names: list[str]) -> bool:
    """``users.json`` and a conversation list, or (a partial export without ``users.json``) a
    conversation list and one channel folder of day files: read, and the missing users reported."""
    base = {PurePosixPath(n).name for n in names if n.count("/") <= 1}
    days = any(n.count("/") == 1 and _DAY.match(n.split("/")[1]) for n in names)
    return bool(base & set(_CONVERSATIONS)) and (bool(base & set(_USERS)) or days)


def _has_day_folder(path: Path, limit: int = 64) -> bool:
    """A channel folder holding a ``YYYY-MM-DD.json`` day file (the first ``limit`` folders looked at)."""
    try:
        folders = (p for p in path.iterdir() if p.is_dir())
        for _, folder in zip(range(limit), folders, strict=False):
            if any(_DAY.match(f.name) for _, f in zip(range(limit), folder.iterdir(), strict=False)):
                return True
    except OSError:
        return False
    return False


def resolve_mentions(text: str, users: dict[str, Person], channels: dict[str, str]) -> str:
    """Slack's ``<@U1>``, ``<#C1|name>``, ``<!here>`` and ``<url|label>`` markup as plain text."""
    def mention(m: re.Match[str]) -> str:
        kind, ident, label = m.group(1), m.group(2), m.group(3)
        if kind == "@":
            person = users.get(ident)
            return "@" + (label or (person.name if person and person.name else ident))
        if kind == "#":
            return "#" + (label or channels.get(ident, ident))
        return "@" + (label or ident.split("^")[0])

    text = _LINK.sub(lambda m: m.group(2) or m.group(1), text)
    return html.unescape(_MENTION.sub(mention, text))


def _profile_facts(raw: dict[str, Any]) -> tuple[str, str]:
    """(title, IANA tz) a users.json entry states; the same strings go on each of their messages."""
    profile = raw.get("profile") or {}
    title = " ".join(str(profile.get("title") or "").split())[:200]
    tz = str(raw.get("tz") or "").strip()
    return title, tz if "/" in tz or tz == "UTC" else ""


def _person(raw: dict[str, Any]) -> Person:
    profile = raw.get("profile") or {}
    name = (raw.get("real_name") or profile.get("real_name") or profile.get("display_name")
            or raw.get("name") or "")
    return Person(name=str(name), address=str(profile.get("email") or raw.get("id") or ""))


class SlackExportSource(Source, kind="slack", priority=15, description="Slack export (folder or .zip)",
                        cursor_doc="newest message timestamp read (older messages are passed over)"):
    """A Slack workspace export (folder or .zip)."""

    @classmethod
    def sniff(cls, path: Path) -> bool:
        if path.is_dir():
            return (any((path / n).is_file() for n in _CONVERSATIONS)
                    and (any((path / n).is_file() for n in _USERS) or _has_day_folder(path)))
        if path.is_file() and path.suffix.lower() == ".zip":
            try:
                with zipfile.ZipFile(path) as zf:
                    return _looks_like_export(zf.namelist())
            except (zipfile.BadZipFile, OSError):
                return False
        return False

    def _json(self, tree: ExportTree, name: str, ctx: ReadContext) -> list[Any]:
        if not tree.has(name):
            return []
        try:
            data = json.loads(tree.read(name))
        except (ValueError, OSError, KeyError) as exc:
            ctx.find()  # the ledger: a listing file that fails is one unit lost
            ctx.skip(self.id, name, f"{self.location}: {name} unreadable ({exc})")
            return []
        return data if isinstance(data, list) else []

    def read(self, ctx: ReadContext) -> Iterator[Item]:
        path = self.local_path("Slack export")
        tree = ExportTree(path, max(ctx.max_file_bytes, 64 * 1024 * 1024))
        try:
            yield from self._read(tree, path, ctx)
        finally:
            tree.close()

    def _read(self, tree: ExportTree, path: Path, ctx: ReadContext) -> Iterator[ChatMessage]:
        workspace = path.stem if path.is_file() else path.name
        users: dict[str, Person] = {}
        facts: dict[str, tuple[str, str, str]] = {}
        for name in _USERS:
            for raw in self._json(tree, name, ctx):
                if isinstance(raw, dict) and raw.get("id"):
                    users[str(raw["id"])] = _person(raw)
                    title, tz = _profile_facts(raw)
                    facts[str(raw["id"])] = (ctx.clean(title, 200) if title else "", tz, str(raw.get("name") or ""))
        folders: dict[str, str] = {}
        channel_names: dict[str, str] = {}
        for name in _CONVERSATIONS:
            for conv in self._json(tree, name, ctx):
                if not isinstance(conv, dict):
                    continue
                cid, cname = str(conv.get("id", "")), str(conv.get("name") or "")
                if name == "dms.json" or not cname:
                    members = [users[m].name or m if m in users else m for m in conv.get("members") or []]
                    cname = "dm:" + ",".join(members)
                    folders[cid] = cname
                else:
                    folders[cname] = cname
                channel_names[cid] = cname
        days = [n for n in tree.names if n.count("/") == 1 and _DAY.match(n.split("/")[1])]
        if not users and not days:
            raise SourceError(f"{path}: no users.json and no conversation day files",
                              hint="give the folder (or zip) Slack's export produced")
        since_day = ctx.since.strftime("%Y-%m-%d") if ctx.since else ""
        after = float((ctx.cursor or {}).get("ts", 0) or 0)
        after_day = datetime.fromtimestamp(after, UTC).strftime("%Y-%m-%d") if after else ""
        missing: dict[str, int] = {}
        count, newest, stopped = 0, after, False
        for day in days:
            if ctx.should_stop():
                stopped = True
                break
            folder, fname = day.split("/")
            if fname[:10] < max(since_day, after_day):
                ctx.find()  # the ledger counts rows of the day files read, and a day file not read as one
                ctx.pass_over("day files before --since or the last read")
                continue
            try:
                messages = json.loads(tree.read(day))
                if not isinstance(messages, list):
                    raise ValueError("not a JSON array of messages")
            except (ValueError, OSError, KeyError) as exc:
                ctx.find()
                ctx.skip(self.id, day, f"{path}: day file {day} malformed ({exc})")
                continue
            channel = folders.get(folder, folder)
            ctx.find(len(messages))
            for raw in messages:
                item = self._message(raw, workspace, channel, users, channel_names, missing, ctx, facts)
                if item is None or item.timestamp is None:
                    if item is None and not (isinstance(raw, dict) and raw.get("ts")):
                        ctx.pass_over("rows that are not messages (no ts)")
                    continue
                ts = item.timestamp.timestamp()
                if (ctx.since and item.timestamp < ctx.since) or ts <= after:
                    ctx.pass_over("older than --since or the last read")
                    continue
                newest = max(newest, ts)
                count += 1
                if count % 500 == 0:
                    ctx.progress(self.id, count)
                yield item
        if missing:
            ids = ", ".join(sorted(missing)[:10])
            ctx.skip(self.id, "users.json", f"{path}: {len(missing)} user id(s) not in users.json "
                                            f"({sum(missing.values())} messages kept with the bare id): {ids}",
                     note=True)
        ctx.progress(self.id, count)
        if not stopped:
            ctx.new_cursor = {"ts": newest}

    def _message(self, raw: Any, workspace: str, channel: str, users: dict[str, Person],
                 channel_names: dict[str, str], missing: dict[str, int], ctx: ReadContext,
                 facts: dict[str, tuple[str, str, str]]) -> ChatMessage | None:
        if not isinstance(raw, dict) or not raw.get("ts"):
            return None
        try:
            when = datetime.fromtimestamp(float(raw["ts"]), UTC)
        except (TypeError, ValueError, OverflowError):
            ctx.skip(self.id, f"{channel}/{raw.get('ts')}", f"{self.location}: message with a bad ts")
            return None
        uid = str(raw.get("user") or "")
        handle = facts.get(uid, ("", "", ""))[2] or str((raw.get("user_profile") or {}).get("name") or "")
        if uid and uid in users:
            user = users[uid]
        elif uid:
            profile = raw.get("user_profile") or {}
            user = Person(name=str(profile.get("real_name") or profile.get("display_name") or ""), address=uid)
            missing[uid] = missing.get(uid, 0) + 1
        else:
            bot = raw.get("bot_profile") or {}
            user = Person(name=str(raw.get("username") or bot.get("name") or "bot"),
                          address=str(raw.get("bot_id") or ""))
        title, tz, _ = facts.get(uid, ("", "", ""))
        text = resolve_mentions(str(raw.get("text") or ""), users, channel_names)
        return ChatMessage(
            source=self.id,
            ref=f"{channel}/{raw['ts']}",
            timestamp=when,
            # the raw Slack id rides along when the person is keyed by email, and so does the
            # handle, so an owner given as a Slack id or handle (`--owner U123ABC`, `--owner ada`)
            # is recognised
            people=tuple(dict.fromkeys(p for p in (user, Person(user.name, uid), Person(user.name, handle))
                                       if p.address)),
            workspace=workspace,
            channel=channel,
            user=user,
            text=ctx.clean(text),
            thread_ts=str(raw.get("thread_ts") or ""),
            subtype=str(raw.get("subtype") or ""),
            user_title=title,
            user_tz=tz,
        )
