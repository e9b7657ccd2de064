"""Signals -> proposals, deterministically, in Claude Code's memory style (DESIGN §3).

One concept, one proposal: one entry for who the owner is, one for timezone and hours, one
listing the closest collaborators, one for the manager, one per ritual, one per repository
for its commands and conventions (scoped to the repo), one per convention the owner follows,
one per key document and active channel. Bodies lead with the fact; feedback entries add
**Why:** and **How to apply:** lines. Third-party items contribute only names, addresses,
dates, titles and counts; a proposal with no evidence is dropped.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from datetime import datetime

from bootstrap_app.signals import (
    ChannelFacts,
    DocFacts,
    ProfileSignal,
    Ref,
    RepoFacts,
    Ritual,
    Signals,
    refs_to_evidence,
)
from bootstrap_app.signals.sessions import SessionSignal
from bootstrap_app.types import Evidence, MemoryType, Proposal, repo_subject, slugify

from .repo_text import guides_body, repo_body, repo_key, repo_summary, rules_body
from .sessions import session_proposals

__all__ = ["heuristic_proposals"]

_COLLABORATORS = 5
_RITUALS = 5
_CHANNELS = 5
_REPO_EVIDENCE = 8
"""Evidence records of a repository entry: the repository's own, then the file:line records."""


def _proposal(signals: Signals, refs: list[Ref] | tuple[Ref, ...], limit: int = 5, **fields: object) -> Proposal | None:
    evidence = refs_to_evidence(list(refs), signals.owner, limit=limit, cutoffs=signals.cutoffs)
    if not evidence:
        return None  # evidence or it did not happen
    firsts = [r.first for r in refs if r.first is not None]
    return Proposal(evidence=evidence, evidence_from=min(firsts) if firsts else None, **fields)  # type: ignore[arg-type]


def _first(name: str) -> str:
    return name.split()[0] if name else "The user"


def _profile(s: Signals) -> Proposal | None:
    p = s.profile
    if not p.name and not p.addresses:
        return None
    who = p.name or p.addresses[0]
    lead = who
    if p.title:
        article = "an" if p.title[:1].lower() in "aeiou" else "a"
        lead += f" is {article} {p.title}"
        if p.team:
            lead += f" on the {p.team} team" if "team" not in p.team.lower() else f" in {p.team}"
        if p.employer:
            lead += f" at {p.employer}"
        lead += "" if lead.endswith(".") else "."
    elif p.employer:
        lead += f" works at {p.employer}" + ("" if p.employer.endswith(".") else ".")
    else:
        lead = f"The user is {who}."
    lines = [lead]
    if p.addresses:
        lines.append("Addresses: " + ", ".join(p.addresses[:5]) + ".")
    if p.employer and p.employer_from == "email domain":
        lines.append("(Employer inferred from the email domain, not stated.)")
    if "contact block in mail" in (p.title_from, p.employer_from):
        lines.append("(Title/employer from contact blocks in other people's mail; no own signature states them.)")
    if p.title_from.startswith("directory") or p.employer_from.startswith("directory"):
        lines.append(f"(Title/employer from the signed-in account's {p.title_from or p.employer_from}.)")
    if p.title and p.title_from == "Slack profile":
        lines.append("(Title from their own Slack profile; no mail signature states one.)")
    if where := _where_from(p):
        lines.append(where)
    desc_bits = [b for b in (p.title, p.team, p.employer) if b]
    description = f"{who} — " + ", ".join(desc_bits) if desc_bits else f"Who the user is: {who}"
    confidence = 0.55 + (0.25 if p.signatures else 0.0) + (0.1 if p.name else 0.0)
    refs = [*p.refs, *p.activity_refs] or list(s.rhythms.calendar_refs) \
        or [r for c in s.contacts.ranked[:2] for r in c.refs[:1]]
    return _proposal(s, refs, type=MemoryType.USER, name="user-role",
                     description=description, body="\n".join(lines), subject="owner:profile",
                     key="|".join((p.name, p.title, p.team, p.employer)), confidence=confidence)


_FROM_WORDS = {"signature": "their own mail signature", "Slack profile": "their own Slack profile",
               "contact block in mail": "contact blocks in other people's mail",
               "email domain": "their e-mail domain (a guess, not stated)"}


def _where_from(p: ProfileSignal) -> str:
    """``Where from: title — their own mail signature; employer — their e-mail domain (a guess,
    not stated).``: the card says where each part of the role comes from (issue 30)."""
    parts = [(what, _FROM_WORDS.get(src, src)) for what, value, src in
             (("title", p.title, p.title_from), ("employer", p.employer, p.employer_from)) if value and src]
    if p.team:
        parts.append(("team", _FROM_WORDS["signature"]))
    return ("Where from: " + "; ".join(f"{what} — {src}" for what, src in parts) + ".") if parts else ""


def _hours(s: Signals) -> Proposal | None:
    p = s.profile
    if not p.timezone:
        return None  # hours in an unknown zone would be guesswork
    first = _first(p.name)
    lines = []
    if p.timezone.startswith("UTC") and p.timezone != "UTC":
        lines.append(f"{first}'s clock is usually at {p.timezone} (from the {p.timezone_from}; "
                     "an offset, not a named zone, so summer time is not known).")
    else:
        lines.append(f"{first} works in the {p.timezone} timezone (from the {p.timezone_from}).")
    if p.hours:
        lines.append(f"Usual working hours: {p.hours[0]}–{p.hours[1]} {p.timezone}, {p.hours_days} "
                     f"({p.hours_evidence}).")
    lines.append("**How to apply:** give times in this timezone"
                 + ("; do not expect answers outside these hours." if p.hours else "."))
    window = f"{p.hours[0]}-{p.hours[1]}" if p.hours else ""
    desc = f"Timezone {p.timezone}" + (f", works {p.hours[0]}–{p.hours[1]} local" if p.hours else "")
    conf = {"calendar": 0.8, "calendar, matching the Slack profile": 0.85, "Slack profile": 0.6,
            "Slack profile, matching the Date headers of sent mail": 0.75}.get(p.timezone_from, 0.5)
    if p.hours and p.hours_samples >= 50:
        conf += 0.05
    groups = _zone_refs(s)
    if not any(groups):
        return None  # a zone "from" a source that shows none of the owner's items is no fact
    if p.hours:
        groups.append(list(p.activity_refs))
    evidence: list[Evidence] = []
    for refs, limit in zip(groups, (2, 2, 2, 3), strict=False):  # each kind its own newest past items
        evidence += [e for e in refs_to_evidence(refs, s.owner, limit=5, cutoffs=s.cutoffs)
                     if (e.source, e.ref) not in {(x.source, x.ref) for x in evidence}][:limit]
    firsts = [r.first for refs in groups for r in refs if r.first is not None]
    return Proposal(type=MemoryType.USER, name="timezone-and-working-hours", description=desc,
                    body="\n".join(lines), subject="owner:hours", key=f"{p.timezone} {window}",
                    confidence=min(conf, 0.9), evidence=tuple(evidence),
                    evidence_from=min(firsts) if firsts else None)


def _zone_refs(s: Signals) -> list[list[Ref]]:
    """The items the zone was read from, one group per kind its "where from" names: the owner's
    Slack profile, the calendar events the owner set it on, the sent mails whose Date headers
    fit it (issue 30: derivation is the evidence). An empty group: the source shows none."""
    p = s.profile
    said = p.timezone_from
    groups: list[list[Ref]] = []
    if "Slack profile" in said:
        groups.append([r for r in p.refs if r.note.startswith("Slack profile")][:1])
    if "calendar" in said:
        groups.append(list(s.rhythms.calendar_refs))
    if "sent mail" in said:
        groups.append([r for r in p.activity_refs if r.note.startswith("mail sent")])
    return groups


def _collaborators(s: Signals) -> Proposal | None:
    people = [c for c in s.contacts.ranked if c.name or c.address][:_COLLABORATORS]
    if len(people) < 2:
        return None
    manager_key = s.manager.key if s.manager else ""
    basis = [label for label, used in (("two-way mail", any(c.to_owner and c.from_owner for c in people)),
                                       ("shared chat threads", any(c.chat for c in people)),
                                       ("shared meetings", any(c.meetings for c in people))) if used]
    lines = [f"{_first(s.profile.name)}'s closest collaborators (by {', '.join(basis) or 'contact'}):"]
    for c in people:
        extra = " (manager)" if c.key == manager_key else ""
        if title := s.titles.get(c.key, ""):
            extra += f", {title}"
        lines.append(f"- {c.label}{extra} — {c.evidence}")
    names = ", ".join(c.name or c.address for c in people[:3])
    refs = [r for c in people for r in c.refs[:1]]
    conf = min(0.85, 0.5 + 0.05 * sum(1 for c in people if c.to_owner and c.from_owner))
    return _proposal(s, refs, type=MemoryType.USER, name="closest-collaborators",
                     description=f"Works most closely with {names}", body="\n".join(lines),
                     subject="owner:collaborators", key=" ".join(sorted(c.key for c in people)),
                     confidence=conf)


def _manager(s: Signals) -> Proposal | None:
    m = s.manager
    if m is None:
        return None
    address = "" if m.key.startswith("name:") else m.key
    label = f"{m.name} <{address}>" if m.name and address else (m.name or address)
    body = f"{_first(s.profile.name)}'s manager is {label}.\nEvidence: " + "; ".join(m.reasons) + "."
    return _proposal(s, m.refs, type=MemoryType.USER, name="manager", description=f"Manager: {m.name or address}",
                     body=body, subject="owner:manager", key=address or m.key,
                     confidence=min(0.9, 0.45 + 0.07 * m.score))


def _ritual(s: Signals, r: Ritual) -> Proposal | None:
    zone = s.profile.timezone or "UTC"
    others = [name or key for key, name in r.attendees if not key.startswith("name:") or name][:6]
    length = f", {r.minutes} min" if r.minutes else ""
    with_ = f" with {', '.join(others)}" if others else ""
    title = r.title if r.informative else f"Recurring meeting{with_ or ''}"
    body = f"{title}: {r.when} ({zone}){length}{with_ if r.informative else ''}."
    if r.planned:
        body += f"\nPlanned: in the calendar from {r.first.date().isoformat()} on." if r.first \
            else "\nPlanned in the calendar (no occurrence yet)."
    else:
        body += f"\nIn the calendar since {r.first.date().isoformat()} ({r.occurrences} occurrences so far)." \
            if r.first else f"\n{r.occurrences} occurrences in the calendar."
    return _proposal(s, r.refs, type=MemoryType.USER, name=f"ritual-{slugify(title, 40)}",
                     description=f"{title} — {r.when}, {zone}{length}", body=body,
                     subject=f"ritual:{slugify(r.title)}:{r.series_uid[:16] if not r.informative else ''}",
                     key=f"{r.when} {r.minutes}",
                     confidence=min(0.85, 0.5 + 0.02 * r.occurrences) if r.informative else 0.4)


def _cited(f: RepoFacts, topic: str) -> list[Ref]:
    """The repository's own record, then the file:line records of the proposal about ``topic``."""
    return [*f.refs, *f.cites.get(topic, ())]


def _repo_rule(s: Signals, f: RepoFacts, ids: tuple[str, str, str], description: str, rule: str, *,
               why: str, how: str, confidence: float = 0.7) -> Proposal | None:
    """One feedback entry for a convention of repository ``f``, in the feedback shape (the rule,
    **Why:**, **How to apply:**) and scoped to the repo's folder. ``ids`` is (name suffix,
    subject topic, key): the entry is ``<repo>-<suffix>``, its subject ``repo:<checkout path>:<topic>``
    (:func:`~bootstrap_app.types.repo_subject`)."""
    suffix, topic, key = ids
    return _proposal(s, _cited(f, topic), _REPO_EVIDENCE, type=MemoryType.FEEDBACK, name=f"{f.name}-{suffix}", description=description,
                     body=f"{rule}\n**Why:** {why}\n**How to apply:** {how}", subject=repo_subject(f.path, f.name, topic),
                     key=key, scope=f.path or "global", confidence=confidence)


def _repo(s: Signals, f: RepoFacts) -> list[Proposal | None]:
    """The project entry, then one feedback entry per convention (commits, PRs, sign-off)."""
    out: list[Proposal | None] = []
    # a command CI runs, whose tools are known, or that a contributor doc states and the
    # repository's files prove ("CONTRIBUTING.md:12; Makefile:3") is verified
    unverified = any(where not in ("CI",) and k not in f.ci_commands and k not in f.tools and "; " not in where
                     for k, (_c, where) in f.commands.items())
    if f.commands or f.package_manager or f.default_branch:
        summary = repo_summary(f)
        out.append(_proposal(s, _cited(f, "commands"), _REPO_EVIDENCE, type=MemoryType.PROJECT, name=f"{f.name}-commands",
                             description=f"{f.name}: {summary}" if summary else f"How to build and test {f.name}",
                             body=repo_body(f, _first(s.profile.name)), subject=repo_subject(f.path, f.name, "commands"),
                             key=repo_key(f), scope=f.path or "global",
                             confidence=0.75 if not unverified else 0.65,
                             flags=("unverified-path",) if unverified else ()))
    if f.rules:  # the maintainers' own words, vetted in signals/repo_rules.py and gated again like any proposal
        out.append(_proposal(s, _cited(f, "contributor-rules"), _REPO_EVIDENCE, type=MemoryType.PROJECT,
                             name=f"{f.name}-contributor-rules",
                             description=f"{f.name}: what its contributor guide requires", body=rules_body(f),
                             subject=repo_subject(f.path, f.name, "contributor-rules"),
                             key=" | ".join(r.where for r in f.rules), scope=f.path or "global", confidence=0.7))
    if f.guide_topics:
        out.append(_proposal(s, _cited(f, "contributor-docs"), _REPO_EVIDENCE, type=MemoryType.REFERENCE,
                             name=f"{f.name}-contributor-docs",
                             description=f"{f.name}: its contributor docs and what each covers", body=guides_body(f),
                             subject=repo_subject(f.path, f.name, "contributor-docs"),
                             key=" | ".join(p for p, _ in f.guide_topics), scope=f.path or "global", confidence=0.65))
    if f.commit_convention:
        by = f"; {_first(s.profile.name)} wrote {f.owner_commits} of {f.commits} commits." if f.commits else "."
        out.append(_repo_rule(
            s, f, ("conventional-commits", "commit-convention", "conventional-commits"),
            f"Use Conventional Commits in {f.name}",
            f"Write commit subjects in {f.name} as Conventional Commits (`feat: …`, `fix(scope): …`).",
            why=f"the repository says so ({f.commit_convention}){by}",
            how="use the same prefix style for every commit you propose in this repo.",
            confidence=0.55 + 0.3 * max(f.conventional_share, 0.8)))
    if f.commit_template[0]:
        path, where = f.commit_template
        out.append(_repo_rule(
            s, f, ("commit-template", "commit-template", path),
            f"{f.name}: commit messages start from its template `{path}`",
            f"In {f.name}, write commit messages from the template `{path}` (set up once with "
            f"`git config commit.template {path}`).",
            why=f"the contributor guide sets it up ({where}).",
            how="run that `git config` once in the checkout, then fill the template in for every commit."))
    if f.pr_rule and f.default_branch:
        out.append(_repo_rule(
            s, f, ("pull-requests-only", "branch-policy", f.default_branch),
            f"{f.name}: never push to {f.default_branch}, open a PR",
            f"In {f.name}, changes go through pull requests against `{f.default_branch}`; do not push to it directly.",
            why="the repository's contributor guide says so.", how="work on a branch and open a pull request."))
    if f.signoff:
        what = ("sign off every commit (`git commit -s`, Developer Certificate of Origin)" if f.signoff == "DCO"
                else "sign the Contributor License Agreement before a pull request can be merged")
        out.append(_repo_rule(s, f, (f.signoff.lower(), "signoff", f.signoff),
                              f"{f.name}: {f.signoff} required for contributions", f"Contributors to {f.name} must {what}.",
                              why="the repository's contributor guide or configuration requires it.",
                              how="do this for every commit or pull request you prepare in this repo."))
    return out


def _rules(s: Signals) -> Proposal | None:
    if not s.rules:
        return None
    first = _first(s.profile.name)
    lines = [f"How {first} wants changes made, in {first}'s own words:"]
    lines += [f"- \"{r.text}\"" for r in s.rules[:5]]
    lines.append(f"**Why:** {first} wrote these in their own mail or chat (see evidence).")
    lines.append(f"**How to apply:** follow them when preparing commits and pull requests for {first}.")
    return _proposal(s, [r.ref for r in s.rules[:5]], type=MemoryType.FEEDBACK, name="working-rules",
                     description=f"{first}'s stated rules for commits, reviews and merges", body="\n".join(lines),
                     subject="owner:rules", key=" | ".join(sorted(r.text.lower() for r in s.rules[:5])),
                     confidence=0.7)


def _document(s: Signals, d: DocFacts) -> Proposal | None:
    first = _first(s.profile.name)
    label = {"rfc": "RFC", "adr": "architecture decision record", "design": "design document",
             "postmortem": "post-mortem", "runbook": "runbook"}.get(d.kind, d.kind)
    verb = "wrote" if d.authored else "keeps"
    when = f" (last modified {d.modified.date().isoformat()})" if d.modified else ""
    body = f"{first} {verb} the {label} \"{d.title}\" at `{d.path}`{when}."
    slug = slugify(d.title, 48)
    name = slug if slug.startswith(d.kind) else f"{d.kind}-{slug}"
    return _proposal(s, d.refs, type=MemoryType.REFERENCE, name=name,
                     description=f"{label[0].upper()}{label[1:]} \"{d.title}\" at {d.path}"[:150], body=body,
                     subject=f"doc:{d.path}", key=d.path, confidence=0.75 if d.authored else 0.6)


def _channel(s: Signals, c: ChannelFacts) -> Proposal | None:
    where = f" in the {c.workspace} Slack" if c.workspace else ""
    body = (f"#{c.channel}{where} is a channel {_first(s.profile.name)} is active in: "
            f"{c.owner} of its {c.total} messages ({round(100 * c.share)}%), {c.people} people.")
    return _proposal(s, c.refs, type=MemoryType.REFERENCE, name=f"slack-channel-{c.channel}",
                     description=f"#{c.channel}{where}: an active channel ({c.owner} messages)", body=body,
                     subject=f"channel:{c.channel}", key="active",
                     confidence=min(0.8, 0.5 + c.share))


def _rituals(signals: Signals, notes: list[str] | None) -> list[Proposal | None]:
    """One proposal per ritual, at most :data:`_RITUALS` (the cap says what it left out), each
    with its own name: two rituals with one title are told apart by their days and time."""
    # a series titled "test" or "Busy" says nothing unless we know who it is with
    candidates = [r for r in signals.rhythms.rituals if r.informative or r.attendees]
    kept, dropped = candidates[:_RITUALS], candidates[_RITUALS:]
    if dropped and notes is not None:
        notes.append(f"{len(dropped)} more recurring meetings not proposed (at most {_RITUALS}, most frequent "
                     f"first): " + "; ".join(f"{r.title} ({r.when})" for r in dropped[:10])
                     + (" …" if len(dropped) > 10 else ""))
    out = [_ritual(signals, r) for r in kept]
    names = Counter(p.name for p in out if p is not None)
    used: set[str] = set()
    for i, (p, r) in enumerate(zip(out, kept, strict=True)):
        if p is not None and names[p.name] > 1:
            name = slugify(f"{p.name} {r.when}", 60)
            while name in used:
                name = f"{name}-{len(used)}"
            used.add(name)
            out[i] = replace(p, name=name)
    return out


def heuristic_proposals(signals: Signals, *, now: datetime | None = None,
                        notes: list[str] | None = None) -> list[Proposal]:
    """Every proposal the signals support, each with its evidence (none without); what a cap
    left out is said in ``notes`` (the scan summary's)."""
    found: list[Proposal | None] = [_profile(signals), _hours(signals), _manager(signals),
                                    _collaborators(signals)]
    found += _rituals(signals, notes)
    for facts in signals.repos:
        found += _repo(signals, facts)
    found.append(_rules(signals))
    found += [_document(signals, d) for d in signals.documents]
    found += [_channel(signals, c) for c in signals.chat.active[:_CHANNELS]]
    sessions = signals.extra.get("sessions")
    found += session_proposals(sessions if isinstance(sessions, SessionSignal) else None)
    out: list[Proposal] = []
    seen: set[str] = set()
    for p in found:
        if p is None or p.fingerprint in seen:
            continue
        seen.add(p.fingerprint)
        if now is not None:
            p = replace(p, derived_at=now)
        out.append(p)
    return out
