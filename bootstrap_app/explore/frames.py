"""The tables a notebook shows, as pandas DataFrames: one function per question a person asks.

Why DataFrames: a notebook renders them as sortable tables, they chart in one line, and tests
can assert on their values. Every function takes plain memseed objects (a :class:`Footprint`,
a scan result, a plan) and returns a new frame; none reads or writes anything else.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Iterable
from datetime import UTC, datetime, timedelta, timezone
from pathlib import PurePath
from typing import Any

from bootstrap_app.errors import ConfigError
from bootstrap_app.harnesses.plan import Plan
from bootstrap_app.identity.owner import OwnerIdentity
from bootstrap_app.items import Event, Item, Message
from bootstrap_app.proposals import Proposal
from bootstrap_app.signals.rhythms import zone

from .footprint import Footprint

try:
    import pandas as pd
except ImportError as exc:  # pragma: no cover - the notebooks extra is part of dev
    raise ConfigError("exploring in notebooks needs pandas and matplotlib",
                      hint="install the notebooks extra: .venv/bin/pip install -e '.[notebooks]' (or `make notebooks`)"
                      ) from exc

__all__ = ["WEEKDAYS", "activity_frame", "budget_frame", "correspondents_frame", "funnel_frame", "identity_frame",
           "llm_request_frame", "repo_facts_frame", "rituals_frame", "source_label", "sources_frame", "week_frame",
           "write_plan_frame"]

WEEKDAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")


def source_label(source: str, limit: int = 60) -> str:
    """A source as a table cell: its path without the ``kind:`` prefix (the kind has its own
    column), home as ``~``, and when still longer than ``limit`` the leading folders elided.

    Why from the left: pandas cuts a long cell at its end, which drops the one part a person
    recognises (the file name) on any machine whose folders are nested a little deeper."""
    kind, sep, rest = source.partition(":")
    path = rest if sep and "/" not in kind and "\\" not in kind and len(kind) > 1 else source
    home = str(PurePath(os.path.expanduser("~")))
    if home not in ("", "/") and (path == home or path.startswith(home + "/")):
        path = "~" + path[len(home):]
    if len(path) <= limit:
        return path
    parts = PurePath(path).parts
    kept = parts[-1]
    for part in reversed(parts[:-1]):
        if len(part) + len(kept) + 3 > limit:
            break
        kept = f"{part}/{kept}"
    return f"…/{kept}"


def sources_frame(footprint: Footprint) -> pd.DataFrame:
    """Each source: what it gave (items by kind) and what it left out (skips and their reasons)."""
    rows = []
    for report in footprint.result.reports:
        data = report.to_json()
        rows.append({
            "source": source_label(data["source"]), "kind": data["kind"], "items": data["items"],
            "item kinds": ", ".join(f"{n} {k}" for k, n in sorted(data["item_kinds"].items())),
            "skipped": data["skipped"],
            "skip reasons": "; ".join(why if why[:1].isdigit() else f"{n} × {why}"
                                      for why, n in data["skip_reasons"].items()),
            "left out": data["left_out"], "error": data["error"] or "", "yours?": data["ownership"] or "yours",
        })
    return pd.DataFrame(rows, columns=["source", "kind", "items", "item kinds", "skipped", "skip reasons",
                                       "left out", "error", "yours?"])


def identity_frame(owner: OwnerIdentity) -> pd.DataFrame:
    """Who memseed thinks you are: each address with the evidence for it, and the lookalikes it
    only suggests (they count once you confirm them)."""
    rows = [{"address": address, "counts as you": True, "evidence": owner.reasons.get(address, "")}
            for address in (list(owner.ordered) or sorted(owner.addresses))]
    rows += [{"address": address, "counts as you": False, "evidence": f"suggested: {why}"}
             for address, why in sorted(owner.suggested.items())]
    rows += [{"address": f"slack:{uid}", "counts as you": True, "evidence": "your Slack profile"}
             for uid in sorted(owner.slack_ids)]
    return pd.DataFrame(rows, columns=["address", "counts as you", "evidence"])


def correspondents_frame(footprint: Footprint, top: int = 20) -> pd.DataFrame:
    """The people you deal with most, ranked: mail both ways, chat, meetings, their stated title."""
    rows = [{"name": c["name"], "address": "" if c["key"].startswith("name:") else c["key"],
             "mail to you": c["to_owner"], "mail from you": c["from_owner"], "chat": c["chat"],
             "meetings": c["meetings"], "title": c.get("title", ""), "score": round(c["score"], 2)}
            for c in footprint.signal_data["contacts"][:top]]
    return pd.DataFrame(rows, columns=["name", "address", "mail to you", "mail from you", "chat", "meetings",
                                       "title", "score"])


def _owner_in(event: Event, addresses: set[str]) -> bool:
    people = [event.organizer, *event.attendees] if event.organizer else list(event.attendees)
    return any(p is not None and p.address.lower() in addresses for p in people)


def _local(item: Item) -> datetime | None:
    """The item's time on the clock it was written on (a mail's Date zone, an event's own zone)."""
    if isinstance(item, Event):
        if item.start is None or item.all_day:
            return None
        own = zone(item.tzid)  # the calendar's own zone: DTSTART may have been read as UTC
        return item.start.astimezone(own) if own and item.start.tzinfo else item.start
    stamp = item.timestamp
    if stamp is None:
        return None
    offset = getattr(item, "utc_offset_minutes", None)
    if offset is not None:
        return stamp.astimezone(timezone(timedelta(minutes=offset)))
    return stamp if stamp.tzinfo else stamp.replace(tzinfo=UTC)


def week_frame(footprint: Footprint) -> pd.DataFrame:
    """Your week by weekday and hour: meetings you organised or attended, mail you sent (each on
    its own clock). Someone else's calendar and published feeds do not count as your meetings."""
    addresses = {a.lower() for a in footprint.owner.addresses}
    counts: Counter[tuple[str, str, int]] = Counter()
    for item in footprint.items:
        if isinstance(item, Event):
            if item.published or not (item.authored_by_owner or _owner_in(item, addresses)):
                continue
            what = "meeting"
        elif isinstance(item, Message) and item.authored_by_owner:
            what = "sent mail"
        else:
            continue
        when = _local(item)
        if when is not None:
            counts[(what, WEEKDAYS[when.weekday()], when.hour)] += 1
    rows = [{"what": what, "weekday": day, "hour": hour, "count": n} for (what, day, hour), n in sorted(counts.items())]
    return pd.DataFrame(rows, columns=["what", "weekday", "hour", "count"])


def rituals_frame(footprint: Footprint) -> pd.DataFrame:
    """The recurring meetings memseed found (the rituals it may propose)."""
    rows = [{"title": r["title"], "kind": r["kind"], "days": ", ".join(r["days"]), "time": r["time"],
             "minutes": r["minutes"], "cadence": r["cadence"], "occurrences": r["occurrences"],
             "people": len(r["attendees"]), "organizer": r["organizer"]}
            for r in footprint.signal_data["rituals"]]
    return pd.DataFrame(rows, columns=["title", "kind", "days", "time", "minutes", "cadence", "occurrences",
                                       "people", "organizer"])


def activity_frame(footprint: Footprint, freq: str = "M") -> pd.DataFrame:
    """Items per month (``freq``: ``M`` month, ``W`` week) and item kind: the footprint over time."""
    rows = [{"when": item.timestamp.astimezone(UTC).replace(tzinfo=None), "kind": item.kind}
            for item in footprint.items if item.timestamp is not None]
    if not rows:
        return pd.DataFrame(columns=["period", "kind", "items"])
    frame = pd.DataFrame(rows)
    frame["period"] = frame["when"].dt.to_period(freq).dt.to_timestamp()
    out = frame.groupby(["period", "kind"]).size().reset_index(name="items")
    return out.sort_values(["period", "kind"]).reset_index(drop=True)


def repo_facts_frame(proposals: Iterable[Proposal]) -> pd.DataFrame:
    """A repository's facts with the ``file:line`` each one cites (the repository itself, cited as
    a whole for facts drawn from its structure, is the ``repository`` column)."""
    rows = []
    for p in proposals:
        cites = [e for e in p.evidence if e.source.startswith("git:") or e.structural]
        if not cites:
            continue
        repo = p.scope if p.scope and p.scope != "global" else cites[0].source.removeprefix("git:")
        lines = [e.ref for e in cites if e.ref != repo and not e.ref.startswith("/")]
        rows.append({"repository": PurePath(repo).name, "fact": p.name, "type": str(p.type),
                     "description": p.description,
                     "cites": ", ".join(dict.fromkeys(lines)) or "(its files and history as a whole)"})
    return pd.DataFrame(rows, columns=["repository", "fact", "type", "description", "cites"])


def funnel_frame(footprint: Footprint) -> pd.DataFrame:
    """From items to approval: items read, signals found, proposals made, passed the safety gate,
    new after dedup against existing memory, approved so far."""
    result = footprint.result
    data = footprint.signal_data
    signals = sum(len(data.get(k) or ()) for k in ("contacts", "rituals", "repos", "documents", "channels_active",
                                                    "rules"))
    approved = sum(1 for row in footprint.store.proposals()
                   if row.decision is not None and row.decision.status.value in ("approved", "edited"))
    stages: list[tuple[str, Any]] = [
        ("items read", result.items),
        ("signals", signals),
        ("proposals", len(result.proposals) + len(result.quarantined) + result.duplicates),
        ("passed the gate", len(result.proposals) + result.duplicates),
        ("new (not already in memory)", len(result.proposals)),
        ("approved", approved),
    ]
    return pd.DataFrame([{"stage": s, "count": int(n)} for s, n in stages], columns=["stage", "count"])


def llm_request_frame(payload: dict[str, Any], stats: dict[str, int] | None = None) -> pd.DataFrame:
    """What the LLM pass would send (nothing is sent): each message's role and size, and the
    digest's blocks (owner-authored blocks, third-party metadata lines, what was left out)."""
    rows = [{"part": f"message {i}: {m.get('role', '?')}", "characters": len(str(m.get("content", "")))}
            for i, m in enumerate(payload.get("messages", []))]
    rows += [{"part": f"digest: {key}", "characters": int(value)} for key, value in (stats or {}).items()]
    return pd.DataFrame(rows, columns=["part", "characters"])


def budget_frame(budget: Iterable[dict[str, Any]]) -> pd.DataFrame:
    """A capped harness's files (Hermes): characters used now and after the write, the cap, and how
    many entries fit (``budget_report`` rows, or a plan's ``budget``)."""
    rows = [{"file": str(row["file"]).rsplit("/", 1)[-1], "used now": row["used"], "after": row["after"],
             "limit": row["limit"], "entries": len(row.get("entries", ())), "fit": len(row.get("fits", ())),
             "over by": row.get("overflow", max(0, row["after"] - row["limit"]))}
            for row in budget if "limit" in row and "used" in row]  # a repository file's size row has no budget
    return pd.DataFrame(rows, columns=["file", "used now", "after", "limit", "entries", "fit", "over by"])


def write_plan_frame(plan: Plan) -> pd.DataFrame:
    """A write's files: created, changed or removed, with their size before and after."""
    rows = []
    for change in plan.files:
        action = "create" if change.before is None else "remove" if change.after is None else "change"
        rows.append({"file": str(change.path), "action": action, "bytes before": len(change.before or b""),
                     "bytes after": len(change.after or b"")})
    return pd.DataFrame(rows, columns=["file", "action", "bytes before", "bytes after"])
