"""Maya's Slack workspace as an official export folder (users.json, channels.json, day files).

Why this shape: Slack's export is one folder per channel holding one ``YYYY-MM-DD.json``
array per (UTC) day, with users joined through ``users.json``. The demo makes Maya active
in ``platform`` and ``ledger-dev`` (many messages, threads with ``thread_ts``/``replies``)
and quiet in ``random`` (exactly one message at any scale), and adds the things a reader
must survive: a ``channel_join`` subtype, a ``bot_message`` without a user, and a message
from a user id that ``users.json`` does not know.
"""

from __future__ import annotations

import json
import random
import uuid
from collections import defaultdict
from datetime import UTC, datetime, time, timedelta
from pathlib import Path
from typing import Any

from .cast import CAST, DEMO_ANCHOR, LOCAL_TZ, Member, rng_for, work_times
from .persona import PERSONA

__all__ = ["CHANNEL_IDS", "GHOST_USER", "TEAM_ID", "write_slack"]

TEAM_ID = "T01NORTHW"
GHOST_USER = "U09GHOST1"
CHANNEL_IDS = {"platform": "C01PLATFRM", "ledger-dev": "C01LEDGERD", "random": "C01RANDOM0"}
_BOT = {"id": "U03GHBOT1", "bot_id": "B03GITHUB", "name": "github"}

_MAYA_LINES = {
    "platform": [
        "Standup notes are in the doc; ledger-api p99 is back under 80 ms.",
        "Heads-up: I'm deploying deploy-console to staging via {deploy} in 10 minutes.",
        "RFC-012 is accepted, thanks everyone for the reviews. Dual-write starts this sprint.",
        "On-call handover: <@{priya}> has ledger-api this week.",
        "Reminder: sprint planning moved to the big room today.",
    ],
    "ledger-dev": [
        "PR #{pr} is up: orders postings by id in the fixture. `{test}` is green locally.",
        "Please run `{lint}` before pushing, CI is strict about it now.",
        "Backfill for the journal table is at {n}0%, no errors so far.",
        "I'd keep snapshots per account, see RFC-012 section 3.",
        "Merged #{pr}. Conventional Commits please, the changelog is generated from them.",
        "Looking at the reconciliation failure now.",
        "`uv sync` then `{test}`; the lock file changed in #{pr}.",
    ],
}
_OTHER_LINES = {
    "platform": ["Anyone else seeing slow CI runners?", "Deploy of billing done.", "Lunch at 12:30?",
                 "Postgres 16 upgrade window is Thursday night.", "Thanks, that fixed it!"],
    "ledger-dev": ["Can someone review #{pr}?", "Reconciliation job failed for {n} accounts, looking.",
                   "Is the feature flag for the read switch on in staging?", "LGTM, merging.",
                   "Flaky test again in test_postings?", "The migration is done on staging."],
    "random": ["Who took the last oat milk?", "Photos from the offsite are in the drive.",
               "Anyone up for climbing on Thursday?", "Happy Friday!", "The coffee machine is fixed."],
}


def _profile(who: Member) -> dict[str, Any]:
    first, _, last = who.name.partition(" ")
    return {"title": who.title, "phone": "", "real_name": who.name, "real_name_normalized": who.name,
            "display_name": who.github or who.first.lower(), "display_name_normalized": who.github or
            who.first.lower(), "email": who.email, "first_name": first, "last_name": last,
            "image_72": f"https://avatars.slack-edge.example/{who.slack_id}_72.png", "team": TEAM_ID}


def _users() -> list[dict[str, Any]]:
    users = [{"id": who.slack_id, "team_id": TEAM_ID, "name": who.email.split("@")[0], "deleted": False,
              "real_name": who.name, "tz": str(PERSONA["timezone"]), "tz_label": "Central European Time",
              "tz_offset": 3600, "profile": _profile(who), "is_admin": who.key == "daniel", "is_bot": False,
              "is_app_user": False} for who in CAST.values()]
    users.append({"id": _BOT["id"], "team_id": TEAM_ID, "name": _BOT["name"], "deleted": False, "real_name": "GitHub",
                  "profile": {"real_name": "GitHub", "bot_id": _BOT["bot_id"], "team": TEAM_ID},
                  "is_bot": True, "is_app_user": False})
    return users


def _channels() -> list[dict[str, Any]]:
    members = {"platform": list(CAST), "ledger-dev": ["maya", "priya", "tom", "daniel", "ines"],
               "random": list(CAST)}
    purposes = {"platform": "Platform Infrastructure team channel", "ledger-dev": "Development of ledger-api",
                "random": "Non-work banter"}
    created = int((DEMO_ANCHOR - timedelta(days=400)).timestamp())
    return [{"id": cid, "name": name, "created": created, "creator": CAST["daniel"].slack_id,
             "is_archived": False, "is_general": name == "random",
             "members": [CAST[k].slack_id for k in members[name]],
             "topic": {"value": "", "creator": "", "last_set": 0},
             "purpose": {"value": purposes[name], "creator": CAST["daniel"].slack_id, "last_set": created}}
            for name, cid in CHANNEL_IDS.items()]


class _Channel:
    """Messages of one channel; ``ts`` values stay unique and ordered like Slack's."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.messages: list[dict[str, Any]] = []
        self._seq = 0

    def post(self, when: datetime, text: str, user: Member | None, **extra: Any) -> dict[str, Any]:
        self._seq += 1
        msg: dict[str, Any] = {"type": "message", "text": text, "ts": f"{int(when.timestamp())}.{self._seq:06d}"}
        if user is not None:
            msg.update({"user": user.slack_id, "team": TEAM_ID, "user_team": TEAM_ID,
                        "client_msg_id": str(uuid.UUID(int=self.rng.getrandbits(128), version=4)),
                        "user_profile": {"real_name": user.name, "display_name": user.github or user.first.lower(),
                                         "first_name": user.first, "team": TEAM_ID}})
        msg.update(extra)
        self.messages.append(msg)
        return msg

    def reply(self, root: dict[str, Any], when: datetime, text: str, user: Member) -> None:
        msg = self.post(when, text, user, thread_ts=root["ts"], parent_user_id=root.get("user", ""))
        root["thread_ts"] = root["ts"]
        root.setdefault("replies", []).append({"user": user.slack_id, "ts": msg["ts"]})
        root["reply_count"] = len(root["replies"])
        root["reply_users"] = sorted({r["user"] for r in root["replies"]})
        root["reply_users_count"] = len(root["reply_users"])
        root["latest_reply"] = msg["ts"]


def _text(rng: random.Random, lines: list[str]) -> str:
    repo_ledger, repo_console = PERSONA["repos"]
    return rng.choice(lines).format(pr=rng.randint(100, 480), n=rng.randint(1, 9), test=repo_ledger["test"],
                                    lint=repo_ledger["lint"], deploy=repo_console["deploy"],
                                    priya=CAST["priya"].slack_id)


def _fill_channel(ch: _Channel, name: str, scale: int) -> None:
    rng = ch.rng
    others = [CAST[k] for k in ("priya", "tom", "daniel", "ines", "lena", "sam")]
    per_scale = {"platform": 60, "ledger-dev": 90, "random": 30}[name]
    maya_share = {"platform": 0.35, "ledger-dev": 0.45, "random": 0.0}[name]
    times = work_times(rng, per_scale * scale)
    for when in times:
        if rng.random() < maya_share:
            ch.post(when, _text(rng, _MAYA_LINES[name]), CAST["maya"])
        else:
            ch.post(when + timedelta(minutes=rng.randint(-50, 50)), _text(rng, _OTHER_LINES[name]), rng.choice(others))
    if name == "ledger-dev":
        # threads close within half an hour, so Maya's replies stay inside her working hours
        roots = [m for m in ch.messages if "user" in m
                 and datetime.fromtimestamp(float(m["ts"]), UTC).astimezone(LOCAL_TZ).time() < time(16, 50)]
        for root in rng.sample(roots, 12 * scale):
            when = datetime.fromtimestamp(float(root["ts"]), UTC)
            for k in range(rng.randint(1, 4)):
                who = CAST["maya"] if (k % 2 == 0) != (root["user"] == CAST["maya"].slack_id) else rng.choice(others[:3])
                lines = _MAYA_LINES[name] if who.key == "maya" else _OTHER_LINES[name]
                ch.reply(root, min(when + timedelta(minutes=7 * (k + 1)), DEMO_ANCHOR), _text(rng, lines), who)
        join_when = times[0] - timedelta(hours=1)
        ch.post(join_when, f"<@{CAST['ines'].slack_id}> has joined the channel", CAST["ines"], subtype="channel_join")
        for _ in range(5 * scale):
            ch.post(work_times(rng, 1)[0], "CI passed on main for northwind-labs/ledger-api", None,
                    subtype="bot_message", bot_id=_BOT["bot_id"], username="GitHub")
    if name == "random":
        ch.post(times[len(times) // 2] + timedelta(minutes=3), "Congrats on the launch, everyone!", CAST["maya"])
    if name == "platform":
        ghost = ch.post(times[len(times) // 3], "Can someone add me to the ledger-api repo?", None)
        ghost.update({"user": GHOST_USER, "team": TEAM_ID})


def _dump(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False, indent=4)


def write_slack(dest: Path, scale: int = 1) -> int:
    """Write the export folder ``dest`` and return the number of messages written."""
    rng = rng_for("slack", scale)
    dest.mkdir(parents=True, exist_ok=True)
    (dest / "users.json").write_text(_dump(_users()), encoding="utf-8")
    (dest / "channels.json").write_text(_dump(_channels()), encoding="utf-8")
    (dest / "integration_logs.json").write_text(_dump([{
        "service_id": _BOT["bot_id"], "service_type": "GitHub", "user_id": CAST["maya"].slack_id,
        "user_name": "maya.okafor", "date": str(int((DEMO_ANCHOR - timedelta(days=300)).timestamp())),
        "change_type": "added", "channel": "ledger-dev"}]), encoding="utf-8")
    total = 0
    for name in CHANNEL_IDS:
        ch = _Channel(rng)
        _fill_channel(ch, name, scale)
        by_day: dict[str, list[dict[str, Any]]] = defaultdict(list)
        for msg in sorted(ch.messages, key=lambda m: float(m["ts"])):
            day = datetime.fromtimestamp(float(msg["ts"]), UTC).date().isoformat()
            by_day[day].append(msg)
        folder = dest / name
        folder.mkdir(exist_ok=True)
        for day, msgs in by_day.items():
            (folder / f"{day}.json").write_text(_dump(msgs), encoding="utf-8")
        total += len(ch.messages)
    return total
