"""How each item kind shows in the LLM digest: the owner's data block and the third-party line.

Why a table keyed by ``Item.kind``: the digest treats every kind the same way (owner items give
their words, third-party items give metadata only); what differs per kind is which fields
that means. Keeping those per-kind choices in one :class:`KindView` each, looked up by kind,
means a new item kind is one entry here, not a branch in every function of the digest.

Safety rules (see :mod:`.digest`): a third-party line carries names, counts and channels,
never a subject or a body; every name goes through :func:`label` (cleaned, one line, capped).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from pathlib import PurePath
from typing import Any, Generic, TypeVar

from bootstrap_app.text import clean_text, is_forward, neutralise, strip_quoted
from bootstrap_app.types import AgentTurn, ChatMessage, Document, Event, Item, MemoryEntry, Message, Repo

__all__ = ["VIEWS", "KindView", "day", "label", "view_of"]

_README = re.compile(r"(?:^|/)(README|CONTRIBUTING)(\.[A-Za-z]+)?$", re.I)


def label(text: str, limit: int = 60) -> str:
    """A name or title safe for a metadata line: one line, no quotes, capped."""
    text = " ".join(clean_text(text).split()).replace('"', "'")
    return neutralise(text[:limit])


def day(value: datetime | None) -> str:
    return value.strftime("%Y-%m-%d %H:%M UTC") if value else "unknown"


ItemT = TypeVar("ItemT", bound=Item)


@dataclass(frozen=True)
class KindView(Generic[ItemT]):
    """One item kind as the digest shows it (``ItemT`` is that kind's item class)."""

    label: str
    """Kind label in an owner block's header (``sent-mail``, ``chat`` ...)."""
    owner: Callable[[ItemT, int], tuple[str, str]]
    """(header extras, text) of an owner-authored item, given the per-item cap; empty text: nothing."""
    third_party: Callable[[ItemT], str]
    """Metadata extras of a third-party line: names and counts only."""
    series: Callable[[ItemT], str] | None = None
    """Key of the recurring series an item belongs to (one fact per series), for kinds that repeat."""
    bulk: Callable[[ItemT], bool] = lambda item: False
    """Bulk items (newsletters, notifications) are left out of the third-party lines."""
    scope: Callable[[ItemT], tuple[str, str] | None] = lambda item: None
    """(name as shown, path) for items a proposal's ``scope`` may name (repositories)."""
    received: Callable[[ItemT], bool] = lambda item: False
    """Items that reached the owner from someone else (mail delivered from outside, failing
    authentication, in the inbox): never shown as the owner's words, whatever marked them."""


def _message_owner(item: Message, cap: int) -> tuple[str, str]:
    to = ", ".join(label(p.name or p.address, 40) for p in (*item.to, *item.cc)[:6])
    own = strip_quoted(item.body)
    subject = "(forwarded; the original subject is withheld)" if is_forward(item.subject) else item.subject
    return "", f"Subject: {subject}\nTo: {to}\n\n{own}" if own else ""


def _event_owner(item: Event, cap: int) -> tuple[str, str]:
    text = f"Title: {item.summary}\nWhen: {day(item.start)}"
    if item.rrule:
        text += f"\nRepeats: {item.rrule}"
    text += f"\nAttendees: {len(item.attendees)}"
    if item.description:
        text += f"\n\n{item.description}"
    return "", text


def _repo_owner(item: Repo, cap: int) -> tuple[str, str]:
    langs = ", ".join(f"{k} ({v})" for k, v in sorted(item.languages.items(), key=lambda kv: -kv[1])[:6])
    files = ", ".join(name for name in sorted(item.files) if not _README.search(name))[:400]
    text = (f"Repository: {item.name}\nDefault branch: {item.default_branch}\nLanguages: {langs}\n"
            f"Commits: {item.commit_count}\nConfig files: {files}")
    per_doc = max(200, cap // 2)
    for name in sorted(item.files):
        if _README.search(name):
            text += f"\n\n--- {name} ---\n{item.files[name][:per_doc]}"
    return f" repo={label(item.name, 60)}", text


def _people(item: Item) -> str:
    return f" people={len(item.people)}"


def _event_series(item: Event) -> str:
    return item.series_uid or f"{item.summary}\x1f{item.organizer.address if item.organizer else ''}"


def _organizer(item: Event) -> str:
    organizer = item.organizer.name or item.organizer.address if item.organizer else ""
    return f' organizer="{label(organizer)}" attendees={len(item.attendees)}'


def _sender(item: Message) -> str:
    return f' from="{label(item.sender.name or item.sender.address)}" recipients={len(item.to) + len(item.cc)}'


def _chat_author(item: ChatMessage) -> str:
    return f' from="{label(item.user.name or item.user.address)}" channel=#{label(item.channel, 40)}'


def _repo_scope(item: Repo) -> tuple[str, str] | None:
    return (label(item.name, 60), item.path or item.name) if item.name else None


def _turn_owner(item: AgentTurn, cap: int) -> tuple[str, str]:
    """The person's own turn, cited as ``session:line``; the project by its folder name only."""
    where = f" project={label(PurePath(item.project).name, 60)}" if item.project else ""
    return (f" harness={label(item.harness, 20)} at={label(item.session, 60)}:{item.line}{where}",
            item.text if item.own_words else "")


def _turn_meta(item: AgentTurn) -> str:
    return f" harness={label(item.harness, 20)} role={label(item.role, 12)} turns=1"


def _turn_scope(item: AgentTurn) -> tuple[str, str] | None:
    return (label(PurePath(item.project).name, 60), item.project) if item.project else None


# The registry of views, one per item kind; the digest hands each view only items of its kind.
VIEWS: dict[str, KindView[Any]] = {
    "message": KindView[Message]("sent-mail", _message_owner, _sender, bulk=lambda m: m.is_bulk,
                                 received=lambda m: bool(m.third_party_reason)),
    "chatmessage": KindView[ChatMessage](
        "chat", lambda c, cap: (f" channel=#{label(c.channel, 40)}", c.text), _chat_author),
    "document": KindView[Document](
        "document", lambda d, cap: (f" format={label(d.doc_format, 10)}", f"Title: {d.title}\n\n{d.text}"), _people),
    "event": KindView[Event]("event", _event_owner, _organizer, series=_event_series),
    "repo": KindView[Repo]("repo", _repo_owner, _people, scope=_repo_scope),
    "memoryentry": KindView[MemoryEntry](
        "memory", lambda e, cap: (f" harness={label(e.harness, 20)}", f"{e.name}: {e.description}\n\n{e.body}"),
        _people),
    # a turn is the person's words only as the reader found it (a person turn with no mark): the
    # agent's text, tool output, commands and pastes are someone else's, whatever marked them
    "agentturn": KindView[AgentTurn]("agent-turn", _turn_owner, _turn_meta, scope=_turn_scope,
                                     received=lambda t: not t.own_words),
}

_NONE: KindView[Item] = KindView("", lambda item, cap: ("", ""), lambda item: "")


def view_of(item: Item) -> KindView[Any]:
    """The view of ``item``'s kind (an unknown kind shows nothing)."""
    return VIEWS.get(item.kind, _NONE)
