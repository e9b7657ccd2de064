"""Who wrote a document, from the file's own properties; and OpenDocument text.

Why: the owner's own documents are worth a memory ("Ana wrote the ledger spec"), somebody
else's in a shared folder are not. The file itself often says who wrote it: Word's core
properties (``dc:creator``, ``cp:lastModifiedBy``), a PDF's ``/Author``, an OpenDocument's
``meta.xml`` (``meta:initial-creator``, ``dc:creator``), HTML ``<meta name="author">`` and
Markdown front matter ``author:``. These become the Document's ``people``, which identity
matches against the owner. The last editor (``lastModifiedBy``, ODF ``dc:creator``) counts only
when no author is recorded: editing a colleague's document does not make it yours (the same
rule as for Drive files, whose ``people`` are their owners).

OpenDocument text (``.odt``) is a zip with ``content.xml``; it is read with the standard
library (``zipfile`` + ``xml.etree``), bounded in size, and an encrypted one (its manifest
has ``encryption-data``) is reported as password-protected.
"""

from __future__ import annotations

import re
import zipfile
from email.utils import parseaddr
from pathlib import Path
from xml.etree import ElementTree

from bootstrap_app.types import Person

__all__ = ["OLE_MAGIC", "OdtUnreadable", "front_matter_people", "html_people", "people_from_names", "read_odt"]

OLE_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
"""An encrypted Word/Excel file is an OLE container, not a zip: what a password does to .docx."""

_NS = {
    "office": "urn:oasis:names:tc:opendocument:xmlns:office:1.0",
    "text": "urn:oasis:names:tc:opendocument:xmlns:text:1.0",
    "dc": "http://purl.org/dc/elements/1.1/",
    "meta": "urn:oasis:names:tc:opendocument:xmlns:meta:1.0",
    "manifest": "urn:oasis:names:tc:opendocument:xmlns:manifest:1.0",
}
_MAX_XML = 32 * 1024 * 1024
_HTML_AUTHOR = re.compile(r"<meta\s+[^>]*name=[\"']?(?:author|dc\.creator)[\"']?[^>]*>", re.IGNORECASE)
_CONTENT = re.compile(r"content=[\"']([^\"']{1,200})[\"']", re.IGNORECASE)
_FRONT = re.compile(r"\A---\s*\n(.*?)\n---", re.DOTALL)
_FRONT_AUTHOR = re.compile(r"^(?:author|authors|creator):\s*(.+)$", re.IGNORECASE | re.MULTILINE)


class OdtUnreadable(Exception):
    """An .odt that cannot be read; the message is the skip reason."""


def people_from_names(*names: str | None) -> tuple[Person, ...]:
    """People from author fields (``Ana Ruiz``, ``Ana Ruiz <ana@x.org>``, ``ana@x.org``), deduplicated."""
    out: list[Person] = []
    for raw in names:
        for part in re.split(r"\s*[;\n]\s*", (raw or "").strip()):
            part = part.strip().strip("\"'[]")
            if not part or len(part) > 200:
                continue
            name, addr = parseaddr(part) if "@" in part else (part, "")
            person = Person(name=name if name != addr else "", address=addr if "@" in addr else "")
            if (person.name or person.address) and person not in out:
                out.append(person)
    return tuple(out)


def html_people(raw: str) -> tuple[Person, ...]:
    m = _HTML_AUTHOR.search(raw[:20000])
    content = _CONTENT.search(m.group(0)) if m else None
    return people_from_names(content.group(1)) if content else ()


def front_matter_people(text: str) -> tuple[Person, ...]:
    m = _FRONT.match(text)
    if not m:
        return ()
    names = [a.group(1).strip().strip("[]") for a in _FRONT_AUTHOR.finditer(m.group(1))]
    return people_from_names(*(n for name in names for n in name.split(",")))


def _xml(zf: zipfile.ZipFile, name: str) -> ElementTree.Element | None:
    try:
        info = zf.getinfo(name)
    except KeyError:
        return None
    if info.file_size > _MAX_XML:
        raise OdtUnreadable(f"{name} is {info.file_size >> 20} MB, over the {_MAX_XML >> 20} MB cap")
    with zf.open(info) as f:
        data = f.read(_MAX_XML + 1)
    return ElementTree.fromstring(data)


def _paragraphs(root: ElementTree.Element, cap: int) -> list[str]:
    out: list[str] = []
    size = 0
    tags = {f"{{{_NS['text']}}}p", f"{{{_NS['text']}}}h"}
    for el in root.iter():
        if el.tag in tags:
            line = "".join(el.itertext()).strip()
            if line:
                out.append(line)
                size += len(line) + 1
                if size > cap:
                    break
    return out


def read_odt(path: Path, cap: int) -> tuple[str, str, tuple[Person, ...]]:
    """(text, title, people) of an OpenDocument text file; raises OdtUnreadable."""
    try:
        with zipfile.ZipFile(path) as zf:
            manifest = _xml(zf, "META-INF/manifest.xml")
            if manifest is not None and manifest.find(".//manifest:encryption-data", _NS) is not None:
                raise OdtUnreadable("password-protected OpenDocument file; save a copy without a password "
                                    "to have it read")
            content = _xml(zf, "content.xml")
            meta = _xml(zf, "meta.xml")
    except OdtUnreadable:
        raise
    except (zipfile.BadZipFile, ElementTree.ParseError, KeyError, ValueError, EOFError, RuntimeError,
            NotImplementedError) as exc:
        raise OdtUnreadable(f"not a readable OpenDocument file ({type(exc).__name__}: {exc})") from exc
    if content is None:
        raise OdtUnreadable("not a readable OpenDocument file (no content.xml)")
    heading = next((("".join(h.itertext())).strip() for h in content.iter(f"{{{_NS['text']}}}h")), "")
    title = ""
    people: tuple[Person, ...] = ()
    if meta is not None:
        title = (meta.findtext(".//dc:title", "", _NS) or "").strip()
        people = (people_from_names(meta.findtext(".//meta:initial-creator", "", _NS))
                  or people_from_names(meta.findtext(".//dc:creator", "", _NS)))
    return "\n".join(_paragraphs(content, cap)), title or heading, people
