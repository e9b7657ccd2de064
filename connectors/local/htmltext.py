"""HTML to plain text that leaves out everything a reader would not see.

Why not just ``soup.get_text()``: HTML mail and saved web pages are a favourite hiding place
for prompt injection — text in comments, ``<script>``/``<style>``, ``hidden`` elements, or
styled away with ``display:none``, ``visibility:hidden``, ``font-size:0`` or ``opacity:0``.
A human never sees that text, so memseed must not read it either. We drop those nodes before
extracting text, using BeautifulSoup with the stdlib ``html.parser`` (no lxml needed).
"""

from __future__ import annotations

import re
import warnings
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bs4 import Tag

__all__ = ["html_to_text", "is_hidden"]

_DROP_TAGS = ("script", "style", "head", "template", "noscript", "iframe", "object", "embed", "svg",
              "meta", "link", "title")
_BLOCK_TAGS = [
    "p", "div", "br", "li", "ul", "ol", "tr", "table", "h1", "h2", "h3", "h4", "h5", "h6",
    "blockquote", "pre", "section", "article", "header", "footer", "hr", "dd", "dt", "dl",
]
_ZERO = re.compile(r"^-?0*(?:\.0+)?(?:px|pt|em|rem|%|vh|vw)?$")


def _style_hides(style: str) -> bool:
    decls: dict[str, str] = {}
    for part in style.split(";"):
        name, sep, value = part.partition(":")
        if sep:
            decls[name.strip().lower()] = value.lower().replace("!important", "").strip()
    if decls.get("display") == "none" or decls.get("visibility") in ("hidden", "collapse"):
        return True
    if _ZERO.match(decls.get("font-size", "x")) or _ZERO.match(decls.get("opacity", "x")):
        return True
    clipped = decls.get("overflow") == "hidden"
    return clipped and any(_ZERO.match(decls.get(k, "x")) for k in ("height", "width", "max-height"))


_SPACES = re.compile(r"[ \t\u00a0]+")
_BLANKS = re.compile(r"\n{3,}")


def is_hidden(tag: Tag) -> bool:
    """True when ``tag`` is invisible to a reader (attribute or inline style)."""
    attrs = tag.attrs or {}
    if "hidden" in attrs:
        return True
    if str(attrs.get("aria-hidden", "")).lower() == "true" and tag.name in ("span", "div"):
        return True
    style = attrs.get("style")
    if isinstance(style, list):
        style = ";".join(style)
    if style and _style_hides(str(style)):
        return True
    return tag.name == "input" and str(attrs.get("type", "")).lower() == "hidden"


def html_to_text(html: str) -> str:
    """Visible text of ``html``, one block per line, whitespace collapsed.

    Never raises on malformed markup: ``html.parser`` is forgiving, and anything it cannot
    make sense of ends up as text rather than an exception.
    """
    if not html or not html.strip():
        return ""
    # bs4 is imported here, not at the top: with soupsieve it is ~80 ms that every CLI start
    # would pay, and only HTML bodies and pages need it.
    from bs4 import BeautifulSoup, Comment, Tag
    from bs4.element import Declaration, Doctype, ProcessingInstruction

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # MarkupResemblesLocatorWarning and friends
        soup = BeautifulSoup(html, "html.parser")
    for node in soup.find_all(string=lambda s: isinstance(s, (Comment, Declaration, Doctype,
                                                               ProcessingInstruction))):
        node.extract()
    for tag in soup.find_all(_DROP_TAGS):
        tag.decompose()
    for tag in soup.find_all(True):
        if not isinstance(tag, Tag) or tag.decomposed:
            continue
        if is_hidden(tag):
            tag.decompose()
    for tag in soup.find_all(_BLOCK_TAGS):
        tag.insert_before("\n")
        tag.insert_after("\n")
    text = soup.get_text()
    lines = [_SPACES.sub(" ", line).strip() for line in text.splitlines()]
    return _BLANKS.sub("\n\n", "\n".join(lines)).strip()
