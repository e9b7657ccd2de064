"""Demo documents: text and authorship are extractable with python-docx, pypdf and frontmatter."""

from __future__ import annotations

from pathlib import Path

import docx
import frontmatter
import pypdf

from bootstrap_app.demo import DEMO_ANCHOR, PERSONA
from bootstrap_app.demo.docs import write_pdf


def _doc(where: dict[str, Path], kind: str) -> tuple[Path, dict]:
    entry = next(d for d in PERSONA["documents"] if d["kind"] == kind)
    return where["documents"] / entry["file"], entry


def test_rfc_docx_has_author_title_and_text(where: dict[str, Path]) -> None:
    path, entry = _doc(where, "rfc")
    document = docx.Document(str(path))
    assert document.core_properties.author == PERSONA["name"]
    assert document.core_properties.title == entry["title"]
    text = "\n".join(p.text for p in document.paragraphs)
    assert "event" in text.lower() and "snapshot" in text.lower()
    assert document.tables and document.tables[0].rows[0].cells[0].text == "Option"


def test_design_pdf_is_valid_and_text_extractable(where: dict[str, Path]) -> None:
    path, entry = _doc(where, "design")
    reader = pypdf.PdfReader(str(path), strict=True)
    assert reader.metadata is not None
    assert reader.metadata.author == PERSONA["name"] and reader.metadata.title == entry["title"]
    text = "\n".join(page.extract_text() for page in reader.pages)
    console = PERSONA["repos"][1]
    assert console["purpose"] in text and console["deploy"] in text and console["test"] in text


def test_write_pdf_escapes_and_paginates(tmp_path: Path) -> None:
    lines = [f"line {i} (with parens) and a \\ backslash" for i in range(25)]
    path = write_pdf(tmp_path / "x.pdf", lines, title="T (1)", author="A", created=DEMO_ANCHOR, lines_per_page=10)
    reader = pypdf.PdfReader(str(path), strict=True)
    assert len(reader.pages) == 3
    text = "\n".join(page.extract_text() for page in reader.pages)
    assert "line 24 (with parens) and a \\ backslash" in text and "line 0 " in text
    assert reader.metadata is not None and reader.metadata.title == "T (1)"


def test_markdown_documents_and_their_authors(where: dict[str, Path]) -> None:
    runbook, _ = _doc(where, "runbook")
    text = runbook.read_text(encoding="utf-8")
    assert f"Owner: {PERSONA['name']}" in text
    assert PERSONA["repos"][0]["test"] in text
    vendor = frontmatter.load(str(where["documents"] / "vendor-onboarding.md"))
    assert vendor["author"] and PERSONA["name"] not in str(vendor["author"])
    assert (where["documents"] / "notes.md").read_text(encoding="utf-8").startswith("# Notes")
    notes = sorted((where["documents"] / "meeting-notes").glob("*.md"))
    assert len(notes) >= 3 and all("Notes: Maya Okafor" in n.read_text(encoding="utf-8") for n in notes)


def test_file_times_are_fixed_and_in_the_past(where: dict[str, Path]) -> None:
    for path in where["documents"].rglob("*"):
        if path.is_file():
            assert path.stat().st_mtime <= DEMO_ANCHOR.timestamp(), path
