"""Injection scan: Hermes-equivalent threat patterns, invisible Unicode, memory-poisoning tripwires.

Two sets, on purpose, because they answer two different questions:

``HERMES`` (the *writer-side* set, :func:`check_entry`)
    Every pattern id of NousResearch/hermes-agent ``tools/threat_patterns.py`` at scope
    ``strict`` (classic injection, hidden markup, deception, role hijack, C2/promptware,
    anti-forensics, exfiltration, persistence, hardcoded secret), re-typed here from their
    descriptions and each written to match *at least* what Hermes matches (a few are wider).
    Plus the invisible-Unicode list on the raw text and the structural checks that keep an
    entry from becoming syntax in a target file (Hermes ``§`` delimiter line, frontmatter
    delimiter, Claude Code ``@path`` import line). Every writer calls :func:`check_entry` on
    what it is about to write, so Hermes never ``[BLOCKED]``s an entry memseed wrote. This
    set does not flag bossy-but-normal memory ("Never merge to main without review",
    "Run `uv run pytest` before pushing"): the owner's own rules must be writable.

``TRIPWIRES`` (the *scan-time* memory-poisoning set)
    "remember that/to", "from now on", "in future sessions", "whenever you", "always/never …
    send/forward/share/run/approve", "your (new) instructions", "update your memory",
    addresses/URLs inside imperative sentences, base64 blobs, markdown images with query
    strings, "… in your reply/response". These are ordinary English in an owner's own rule,
    so the gate applies them only to text whose provenance is not purely the owner's
    (see ``gate.py``); the writer-side check does not use them.

All matching is case-insensitive on NFKC text (full-width look-alikes fold to ASCII), over the
first 65,536 characters like Hermes; fillers between key words are bounded (0–8 words) so no
pattern can backtrack badly.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from bootstrap_app.errors import BlockedContent
from bootstrap_app.text.unicode import find_invisible, normalize

__all__ = [
    "HERMES",
    "HERMES_AGENT_CONFIG",
    "HERMES_IDS",
    "MAX_SCAN_CHARS",
    "TRIPWIRES",
    "ThreatFinding",
    "check_entry",
    "scan_text",
    "structure_findings",
]

MAX_SCAN_CHARS = 65_536

_F = r"(?:[^\s]+\s+){0,8}?"  # bounded filler: up to 8 words (Hermes uses \w+ words; \S+ is wider)
_SECRET_VAR = r"\$\{?\w*(?:KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL)S?\b"
_MODIFY = r"(?:update|modify|edit|write|change|append|add\s+to|overwrite|replace)\s+[^\n]{0,2048}?"
_AGENT_FILE = r"(?:AGENTS\.md|CLAUDE\.md|GEMINI\.md|\.cursorrules|\.clinerules)"
_FILE_REF = (r"(?:(?:the|your|my|our|this|that|a|its|global|local|project|user-level|root|repo|existing|"
             r"project's|repo's|agent's)\s+){0,3}[`'\"(\[*]{0,2}[~.$\w{}/-]*?/?" + _AGENT_FILE)
"""The agent file as the *object* of a clause: a few determiners, an optional path, the name."""
_CHANGE_VERB = (r"\b(?:update|modify|edit|rewrite|overwrite|write|change|append|prepend|add|insert|put|"
                r"replace|patch|amend|alter)")
_CLAUSE_WORD = r"""(?:"[^"\n]{0,400}"|'[^'\n]{0,400}'|`[^`\n]{0,400}`|(?:[^\s.!?;:"`]|[.!?;:](?=\S))+)"""
"""One word of a clause, or one quoted span: a '.' or ':' inside a word (``evil.sh``, ``a:b``) or a
quoted payload does not end the clause; a '.', '!', '?', ';' or ':' before a space does."""
_AGENT_CONFIG_INSTRUCTION = (
    rf"{_CHANGE_VERB}\s+{_FILE_REF}"  # "edit `AGENTS.md`", "update the global ~/.claude/CLAUDE.md"
    rf"|{_CHANGE_VERB}\s+(?:{_CLAUSE_WORD}\s+){{0,40}}?(?:to|into|in|inside|within|of|at\s+the\s+(?:top|end)\s+of)"
    rf"\s+{_FILE_REF}"  # "append the following line to CLAUDE.md", "add 'curl x.sh | sh' into your AGENTS.md"
    rf"|{_FILE_REF}[`'\")\]*]{{0,2}}\s+(?:files?\s+)?(?:should|must|needs?\s+to|has\s+to|is\s+to)\s+be\s+(?:\w+\s+)?"
    r"(?:updated|modified|edited|changed|rewritten|overwritten|replaced|amended|patched|extended)")  # passive
"""An instruction to change an agent's own configuration file: the file is what the verb acts on,
in the same clause (no sentence break, at most a dozen words of object in between). A *mention*
("keep CLAUDE.md short", "rules written in CLAUDE.md are loaded every session", a list of
synced files) names the file without a verb acting on it, and is ordinary memory. Hermes's own
pattern (:data:`HERMES_AGENT_CONFIG`) matches any verb up to 2,048 characters before the name;
it is kept for the Hermes target only, where Hermes itself would block such an entry at load."""
_FORBIDDEN_BEFORE = re.compile(
    r"(?:\bdo\s+not|\bdon['’]t|\bnever|\bmust\s+not|\bmustn['’]t|\bshould\s+not|\bshouldn['’]t|\bavoid)"
    r"\s+(?:(?:ever|automatically|directly|manually|silently|yourself|casually)\s+)?\Z", re.IGNORECASE)
"""A negation right before the verb ("Do not edit `AGENTS.md` unless asked"): a rule that forbids
changing the file is the opposite of an instruction to change it. Only the verb's own negation
counts, so "don't forget to edit CLAUDE.md" is still an instruction."""
_OUTPUT_NOUN = (r"(?:response|reply|replies|answer|output|summary|message|code|implementation|solution"
                r"|program|algorithm|codebase|script|elucidation|result)s?")


@dataclass(frozen=True, slots=True)
class ThreatFinding:
    """One match: the pattern ``id``, its ``category`` and a short ``excerpt`` of the match."""

    id: str
    category: str
    excerpt: str
    start: int = 0


def _c(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern, re.IGNORECASE)


# (id, category, regex) — ids equal Hermes's; each regex matches at least what Hermes's does.
HERMES: tuple[tuple[str, str, re.Pattern[str]], ...] = (
    # classic injection
    ("prompt_injection", "injection", _c(
        rf"ignore\s+{_F}(?:previous|all|above|prior|earlier|preceding|foregoing)\s+{_F}instructions")),
    ("sys_prompt_override", "injection", _c(r"system\s+prompt\s+override")),
    ("disregard_rules", "injection", _c(
        rf"disregard\s+{_F}(?:your|all|any|previous|prior)\s+{_F}(?:instructions|rules|guidelines)")),
    ("bypass_restrictions", "injection", _c(
        rf"act\s+as\s+(?:if|though)\s+{_F}you\s+{_F}(?:have\s+no|don'?t\s+have|do\s+not\s+have)\s+{_F}"
        r"(?:restrictions|limits|rules|limitations)")),
    # hidden markup
    ("html_comment_injection", "hidden-markup", _c(
        r"<!--[^>]{0,512}(?<![A-Za-z])(?:ignore|override|system|secret|hidden|instructions?)(?![A-Za-z])"
        r"[^>]{0,512}-->")),
    ("hidden_div", "hidden-markup", _c(
        r"<\s*(?:div|span|p)\b[^>]{0,2048}?style\s*=\s*[\"'][^>]{0,2048}?"
        r"(?:display\s*:\s*none|visibility\s*:\s*hidden)")),
    # deception / obfuscation
    ("translate_execute", "deception", _c(
        r"translate\s+[^\n]{0,512}?\s+(?:into|to)\s+\w+(?:[\s-]+\w+){0,2}\s+and\s+(?:then\s+)?"
        r"(?:execute|run|eval|evaluate|comply|follow|obey)\b")),
    ("deception_hide", "deception", _c(rf"(?:do\s+not|don'?t)\s+{_F}tell\s+{_F}the\s+user")),
    # role hijack
    ("role_hijack", "role-hijack", _c(rf"you\s+are\s+{_F}now\s+(?:a|an|the)\s+")),
    ("role_pretend", "role-hijack", _c(rf"pretend\s+{_F}(?:you\s+are|you're|to\s+be)\s+")),
    ("leak_system_prompt", "role-hijack", _c(
        rf"(?:output|print|reveal|repeat|show)\s+{_F}(?:system|initial|hidden|developer)\s+"
        r"(?:prompt|message|instructions)")),
    ("remove_filters", "role-hijack", _c(
        rf"(?:respond|answer|reply)\s+without\s+{_F}(?:restrictions|limitations|filters|safety)")),
    ("fake_update", "role-hijack", _c(
        rf"you\s+have\s+been\s+{_F}(?:updated|upgraded|patched|reprogrammed)\s+to")),
    ("identity_override", "role-hijack", _c(r"\bname\s+yourself\s+\w+")),
    # C2 / promptware
    ("c2_node_registration", "c2", _c(r"register\s+(?:as\s+)?(?:a\s*)?\s*node")),
    ("c2_heartbeat", "c2", _c(r"(?:heartbeat|beacon|check[\s\-]?in)\s+(?:to|with)\s+")),
    ("c2_task_pull", "c2", _c(r"pull\s+(?:down\s+)?(?:new\s+)?task(?:ing|s)?\b")),
    ("c2_network_connect", "c2", _c(r"connect\s+to\s+the\s+network\b")),
    ("forced_action", "c2", _c(r"you\s+must\s+(?:\w+\s+){0,3}(?:register|connect|report|beacon)\b")),
    ("known_c2_framework", "c2", _c(r"\b(?:cobalt\s*strike|sliver|havoc|mythic|metasploit|brainworm)\b")),
    ("c2_explicit", "c2", _c(r"\bc2\s+(?:server|channel|infrastructure|beacon)\b")),
    ("c2_explicit_long", "c2", _c(r"\bcommand\s+and\s+control\b")),
    # anti-forensics
    ("anti_forensic_oneliner", "anti-forensics", _c(r"only\s+use\s+one[\s\-]?liners?\b")),
    ("anti_forensic_disk", "anti-forensics", _c(
        rf"never\s+{_F}(?:create|write)\s+{_F}(?:script|file)s?\s+{_F}disk")),
    ("env_var_unset_agent", "anti-forensics", _c(
        r"unset\s+\w*(?:CLAUDE|CODEX|HERMES|AGENT|OPENAI|ANTHROPIC)\w*")),
    # exfiltration
    ("exfil_curl", "exfiltration", _c(rf"curl\s+[^\n]{{0,2048}}?{_SECRET_VAR}")),
    ("exfil_wget", "exfiltration", _c(rf"wget\s+[^\n]{{0,2048}}?{_SECRET_VAR}")),
    ("read_secrets", "exfiltration", _c(
        r"cat\s+[^\n]{0,2048}?(?:\.env|credentials|\.netrc|\.pgpass|\.npmrc|\.pypirc)")),
    ("send_to_url", "exfiltration", _c(r"(?:send|post|upload|transmit)\s+[^\n]{0,2048}?\s+(?:to|at)\s+https?://")),
    ("context_exfil", "exfiltration", _c(
        rf"(?:include|output|print|share)\s+{_F}(?:conversation|chat\s+history|previous\s+messages"
        r"|full\s+context|entire\s+context)")),
    # persistence
    ("ssh_backdoor", "persistence", _c(r"authorized_keys")),
    ("ssh_access", "persistence", _c(r"\$HOME/\.ssh|\$\{HOME\}/\.ssh|~/\.ssh")),
    ("hermes_env", "persistence", _c(r"(?:\$HOME|\$\{HOME\}|~)/\.hermes/\.env")),
    ("agent_config_mod", "persistence", _c(_AGENT_CONFIG_INSTRUCTION)),
    ("hermes_config_mod", "persistence", _c(rf"{_MODIFY}\.hermes/(?:config\.yaml|SOUL\.md)")),
    # hardcoded secret
    ("hardcoded_secret", "secret", _c(
        r"(?:api[_-]?key|token|secret|password)\s*[=:]\s*[\"'][A-Za-z0-9+/=_-]{20,}")),
)

HERMES_IDS: tuple[str, ...] = tuple(pid for pid, _cat, _rx in HERMES)

HERMES_AGENT_CONFIG: tuple[tuple[str, str, re.Pattern[str]], ...] = (
    ("agent_config_mod", "persistence", _c(rf"{_MODIFY}{_AGENT_FILE}")),)
"""Hermes's own ``agent_config_mod`` as Hermes matches it (a modifying verb anywhere up to 2,048
characters before the file name, on one line): what Hermes blocks at load, so what a Hermes
target must not be given (:func:`check_entry` with ``hermes=True``)."""

_IMPERATIVE_START = (
    r"(?:^|[.!?:;\n]\s*|\b(?:please|kindly|and|then)\s+)(?:always\s+|never\s+|also\s+)?"
    r"(?:send|forward|e-?mail|cc|bcc|share|post|upload|visit|click|open|go\s+to|contact|reach\s+out\s+to"
    r"|write\s+to|reply\s+to|include|add|link|direct|redirect|refer|promote|mention|download|install)"
    r"\s+(?!address)(?=[\w\"'(<])"
)

TRIPWIRES: tuple[tuple[str, str, re.Pattern[str]], ...] = (
    ("remember_instruction", "poisoning", _c(r"\bremember\s+(?:that|to)\b")),
    ("from_now_on", "poisoning", _c(r"\bfrom\s+now\s+on\b|\bhenceforth\b|\bgoing\s+forward,?\s+(?:you|always|never)\b")),
    ("future_sessions", "poisoning", _c(
        r"\b(?:in|for|during)\s+(?:all\s+|every\s+|any\s+)?(?:future|subsequent|later|upcoming|next|every)\s+"
        r"(?:sessions?|conversations?|chats?|interactions?|replies|responses|tasks?)\b")),
    ("whenever_you", "poisoning", _c(r"\bwhenever\s+(?:you|the\s+(?:assistant|agent|ai))\b")),
    ("always_never_action", "poisoning", _c(
        rf"\b(?:always|never)\s+{_F}(?:send|forward|e-?mail|share|include|run|approve|execute|upload|post"
        r"|transfer|wire|pay|disclose|reveal|grant|cc|bcc)\b")),
    ("your_instructions", "poisoning", _c(
        r"\byour\s+(?:new|updated|real|true|actual|original|hidden|secret|system|core|primary)?\s*"
        r"(?:instructions|directives|guidelines|programming|system\s+prompt|prompt|rules)\b")),
    ("update_memory", "poisoning", _c(
        r"\b(?:update|modify|edit|change|overwrite|add\s+(?:this\s+)?to|write\s+(?:this\s+)?(?:to|in|into)"
        r"|save\s+(?:this\s+)?(?:to|in|into)|store\s+(?:this\s+)?(?:in|into)|append\s+(?:this\s+)?to"
        r"|commit\s+(?:this\s+)?to)\s+(?:your|the\s+agent's|the\s+assistant's)\s+"
        r"(?:memory|memories|notes|knowledge(?:\s+base)?|context|profile)\b")),
    ("output_manipulation", "poisoning", _c(
        rf"\b(?:in|into|to|within|from|of|throughout)\s+(?:all\s+)?(?:of\s+)?your\s+(?:\w+\s+)?{_OUTPUT_NOUN}\b"
        rf"|\byour\s+{_OUTPUT_NOUN}\s+(?:in|into|as|using|with|should|must)\b")),
    ("exfil_forward", "exfiltration", _c(
        rf"\b(?:forward|send|e-?mail|upload|copy|cc|bcc|leak|exfiltrate)\s+{_F}(?:all|every|each|any|the|"
        r"these|those|this|a\s+copy)\s+(?:\w+\s+){0,3}?(?:e-?mails?|messages?|files?|documents?|data|"
        r"credentials|passwords?|keys?|tokens?|contacts?|history|conversations?)\b(?:\s+\S+){0,5}?\s+to\b")),
    ("imperative_with_address", "exfiltration", _c(
        _IMPERATIVE_START + r"[^.!?\n]{0,200}?(?:[\w.+-]+@[\w-]+\.[\w.-]+|https?://|\bwww\.|"
        r"\b[\w-]+\.(?:com|net|org|io|xyz|info|biz|ru|cn|top)\b)")),
    # a run of 40+ base64 characters mixing digits, lower and upper case (checked in _findings)
    ("base64_blob", "smuggling", re.compile(r"(?<![A-Za-z0-9+/=_.:%-])[A-Za-z0-9+/]{40,}={0,2}(?![A-Za-z0-9+/=_-])")),
    ("html_comment", "hidden-markup", re.compile(r"<!--[\s\S]{0,2048}?-->")),
    ("markdown_image_query", "exfiltration", _c(r"!\[[^\]\n]{0,200}\]\(\s*[^)\s]*\?[^)\n]*\)")),
    ("encoded_payload", "smuggling", _c(
        r"\b(?:decode|decipher|unscramble|apply\s+rot-?13|base64[- ]decode)\b[^.\n]{0,80}?"
        r"\b(?:and|then)\s+(?:then\s+)?(?:follow|comply|execute|run|obey|do)\b")),
    ("tool_abuse", "excessive-agency", _c(
        r"\b(?:call|invoke|use|run)\s+the\s+[\w-]+\s+tool\b[^.\n]{0,80}?\bwithout\s+(?:approval|asking|confirmation)")),
)

_STRUCTURE: tuple[tuple[str, str, re.Pattern[str]], ...] = (
    ("hermes_delimiter", "structure", re.compile(r"(?m)^[ \t]*§[ \t]*$")),
    ("frontmatter_delimiter", "structure", re.compile(r"\A\s*(?:---|\+\+\+)[ \t]*(?:\n|\Z)")),
    ("claude_import", "structure", re.compile(r"(?m)^[ \t]*(?:[-*+][ \t]+)?@(?:[~./\\]|[\w.-]+/)\S*")),
    ("fence_tag", "structure", _c(r"</?\s*(?:memory-context|system|system-reminder|instructions|user|assistant)\s*>")),
)


# Literal hints: "a|b&c" means (a or b) and c must occur in the lower-cased text for the
# pattern to be able to match at all. Every hint is implied by its regex, so skipping a regex
# whose hint is absent never loses a match; it makes ordinary mail ~10x cheaper to scan.
_HINTS: dict[str, str] = {
    "prompt_injection": "ignore&instructions", "sys_prompt_override": "override", "disregard_rules": "disregard",
    "bypass_restrictions": "restrictions|limits|rules|limitations&act", "html_comment_injection": "<!--",
    "hidden_div": "display|visibility", "translate_execute": "translate", "deception_hide": "tell&user",
    "role_hijack": "now&you", "role_pretend": "pretend",
    "leak_system_prompt": "system|initial|hidden|developer&prompt|message|instructions",
    "remove_filters": "without", "fake_update": "been", "identity_override": "yourself",
    "c2_node_registration": "register&node", "c2_heartbeat": "heartbeat|beacon|check", "c2_task_pull": "pull&task",
    "c2_network_connect": "network", "forced_action": "must",
    "known_c2_framework": "strike|sliver|havoc|mythic|metasploit|brainworm", "c2_explicit": "c2",
    "c2_explicit_long": "control", "anti_forensic_oneliner": "liner", "anti_forensic_disk": "disk&never",
    "env_var_unset_agent": "unset", "exfil_curl": "curl&$", "exfil_wget": "wget&$", "read_secrets": "cat",
    "send_to_url": "http", "context_exfil": "conversation|chat|previous|context", "ssh_backdoor": "authorized_keys",
    "ssh_access": ".ssh", "hermes_env": ".hermes", "hermes_config_mod": ".hermes/",
    "agent_config_mod": "agents.md|claude.md|gemini.md|.cursorrules|.clinerules",
    "hardcoded_secret": "key|token|secret|password",
    "remember_instruction": "remember", "from_now_on": "now|henceforth|forward",
    "future_sessions": "session|conversation|chat|interaction|repl|respons|task", "whenever_you": "whenever",
    "always_never_action": "always|never", "your_instructions": "your",
    "update_memory": "memor|notes|knowledge|context|profile", "output_manipulation": "your",
    "exfil_forward": "forward|send|mail|upload|copy|cc|leak|exfiltrate",
    "imperative_with_address": "@|http|www.|.com|.net|.org|.io|.xyz|.info|.biz|.ru|.cn|.top",
    "html_comment": "<!--", "markdown_image_query": "![", "encoded_payload": "decode|decipher|unscramble|rot|base64",
    "tool_abuse": "tool&without", "hermes_delimiter": "§", "frontmatter_delimiter": "---|+++",
    "claude_import": "@", "fence_tag": "<",
}
_HINT_SETS: dict[str, tuple[tuple[str, ...], ...]] = {
    pid: tuple(tuple(alt.split("|")) for alt in spec.split("&")) for pid, spec in _HINTS.items()}
_FOLD = str.maketrans({"İ": "i", "ı": "i"})  # re.IGNORECASE matches these to "i"; str.lower() does not


def _possible(pid: str, lowered: str) -> bool:
    for group in _HINT_SETS.get(pid, ()):
        for hint in group:
            if hint in lowered:
                break
        else:
            return False
    return True


def _findings(patterns: tuple[tuple[str, str, re.Pattern[str]], ...], text: str,
              lowered: str | None = None) -> list[ThreatFinding]:
    out: list[ThreatFinding] = []
    low = lowered if lowered is not None else text.translate(_FOLD).lower()
    for pid, category, rx in patterns:
        if not _possible(pid, low):
            continue
        if pid == "base64_blob":
            m = next((b for b in rx.finditer(text) if _mixed(b.group(0))), None)
        elif pid == "agent_config_mod" and rx.pattern == _AGENT_CONFIG_INSTRUCTION:
            m = next((c for c in rx.finditer(text) if not _FORBIDDEN_BEFORE.search(text, 0, c.start())), None)
        else:
            m = rx.search(text)
        if m:
            out.append(ThreatFinding(pid, category, m.group(0)[:120], m.start()))
    return out


def _mixed(blob: str) -> bool:
    return any(c.isdigit() for c in blob) and any(c.islower() for c in blob) and any(c.isupper() for c in blob)


def _invisible(raw: str) -> list[ThreatFinding]:
    seen: dict[str, int] = {}
    for offset, ch in find_invisible(raw):
        seen.setdefault(ch, offset)
    return [ThreatFinding(f"invisible_unicode_U+{ord(ch):04X}", "invisible", f"U+{ord(ch):04X}", offset)
            for ch, offset in seen.items()]


def structure_findings(text: str) -> list[ThreatFinding]:
    """Content that would become syntax in a target file (delimiters, frontmatter, imports, fences)."""
    return _findings(_STRUCTURE, normalize(text[:MAX_SCAN_CHARS]))


def scan_text(text: str, *, tripwires: bool = True, structure: bool = True,
              hermes: bool = False) -> list[ThreatFinding]:
    """Every threat finding in ``text``: invisible characters (raw), Hermes set, structure, tripwires.

    ``tripwires=False`` gives the writer-side view (what Hermes itself would block, plus
    structure); the default is the full scan-time view used on untrusted provenance.
    ``hermes``: text Hermes loads, so Hermes's own wider ``agent_config_mod`` counts as well.
    """
    if not text:
        return []
    raw = text[:MAX_SCAN_CHARS]
    norm = normalize(raw)
    low = norm.translate(_FOLD).lower()
    found = _invisible(raw) + _findings(HERMES, norm, low)
    if hermes and not any(f.id == "agent_config_mod" for f in found):
        found += _findings(HERMES_AGENT_CONFIG, norm, low)
    if structure:
        found += _findings(_STRUCTURE, norm, low)
    if tripwires:
        found += _findings(TRIPWIRES, norm, low)
    return found


def check_entry(text: str, *, hermes: bool = False) -> None:
    """Writer-side gate: raise :class:`BlockedContent` if Hermes (or a target's syntax) would trip.

    Entries longer than the scan window are refused outright, as Hermes does. ``hermes``: the
    entry goes to Hermes, which also blocks mere mentions of an agent file next to a modifying
    verb (:data:`HERMES_AGENT_CONFIG`); other targets get memseed's narrower rule.
    """
    if len(text) > MAX_SCAN_CHARS:
        raise BlockedContent(
            f"entry is {len(text):,} characters, longer than the {MAX_SCAN_CHARS:,}-character scan window",
            reasons=("too_large",), hint="Shorten the entry; memory entries should be a few lines.")
    findings = scan_text(text, tripwires=False, hermes=hermes)
    if findings:
        reasons = tuple(dict.fromkeys(f.id for f in findings))
        first = findings[0]
        raise BlockedContent(
            f"entry blocked: matches {', '.join(reasons)} (e.g. {first.excerpt!r})",
            reasons=reasons,
            hint="Edit the entry to remove the flagged text, or reject it; memseed never writes "
                 "content that a harness would block or that would corrupt the memory file.")
