"""The owner's title and employer as their account's own directory entry states them.

A signed-in account source (Microsoft Graph ``/me``) can say what the organisation's directory
holds for the owner: job title, company, department. The identity platform, not a header or a
signature anyone can write, ties that entry to the owner, so it outranks what *other* people's
contact blocks say and the guess from the mail domain. It still ranks after the owner's own
signature: a directory entry is often stale (set at hiring, never updated), while a signature
is what the owner currently writes under their mail.

The source hands the facts over at the end of its read (see ``pipeline._account_directory``);
this module only keeps them and fills the gaps the signature left.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from .base import Ref

__all__ = ["AccountDirectory"]

_MAX_LEN = 120  # a directory field is one line; anything longer is not a title or a company


def _clean(value: object) -> str:
    text = " ".join(str(value or "").split())
    return text if 0 < len(text) <= _MAX_LEN else ""


@dataclass
class AccountDirectory:
    """The first account directory entry handed over in a scan (title, employer, department)."""

    title: str = ""
    employer: str = ""
    department: str = ""
    label: str = ""
    """Where the facts come from, as the profile states it (``directory (Microsoft 365)``)."""
    refs: list[Ref] = field(default_factory=list)

    def add(self, facts: Mapping[str, str], label: str, source: str) -> None:
        """Keep ``facts`` (keys ``title``, ``employer``, ``department``) unless an entry is held."""
        title, employer = _clean(facts.get("title")), _clean(facts.get("employer"))
        if self.label or not (title or employer):
            return
        self.title, self.employer, self.department = title, employer, _clean(facts.get("department"))
        self.label = label
        note = "directory entry: " + ", ".join(v for v in (title, self.department, employer) if v)
        self.refs = [Ref(source, "directory entry of the signed-in account", None, "", note, owner=True)]

    def fill(self, title: str, title_from: str, employer: str,
             employer_from: str) -> tuple[str, str, str, str, list[Ref]]:
        """(title, title_from, employer, employer_from, refs used): the entry fills what is empty."""
        used = False
        if not title and self.title:
            title, title_from, used = self.title, self.label, True
        if not employer and self.employer:
            employer, employer_from, used = self.employer, self.label, True
        return title, title_from, employer, employer_from, (list(self.refs) if used else [])
