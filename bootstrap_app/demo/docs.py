"""Maya's documents folder: a runbook, an RFC (.docx), a design doc (.pdf), notes, a vendor doc.

Why each format: a document reader has to pull text and authorship out of Markdown (an
``Owner:`` line or frontmatter), Word (core properties) and PDF (the Info dictionary), and
has to tell Maya's own documents from one a vendor wrote. The PDF is written by hand —
one content stream per page using the standard Type1 font Helvetica, no embedded fonts —
because no PDF library is a dependency and a committed binary fixture is not allowed;
pypdf extracts its text (the tests check that).

Files get fixed modification times and the .docx zip gets fixed entry dates, so two
builds produce identical bytes.
"""

from __future__ import annotations

import os
import zipfile
from datetime import UTC, datetime, timedelta
from pathlib import Path

from .cast import DEMO_ANCHOR, rng_for, workdays
from .docs_text import DESIGN_PDF_LINES, NOTES_MD, RFC_SECTIONS, RUNBOOK_MD, VENDOR_MD, meeting_note
from .persona import PERSONA

__all__ = ["write_documents", "write_pdf"]

_FIXED_ZIP_TIME = (2026, 9, 1, 9, 0, 0)


def _pdf_escape(text: str) -> bytes:
    raw = text.encode("cp1252", "replace")
    return raw.replace(b"\\", b"\\\\").replace(b"(", b"\\(").replace(b")", b"\\)")


def write_pdf(path: Path, lines: list[str], *, title: str, author: str, created: datetime,
              lines_per_page: int = 46) -> Path:
    """Write a minimal valid PDF 1.4 whose pages show ``lines`` in Helvetica 11 pt.

    Objects: 1 catalog, 2 page tree, 3 font, 4 info, then a page and its content stream per
    page. The cross-reference table holds exact byte offsets, so strict readers accept it.
    """
    pages = [lines[i:i + lines_per_page] for i in range(0, max(len(lines), 1), lines_per_page)]
    stamp = created.astimezone(UTC).strftime("D:%Y%m%d%H%M%SZ").encode()
    objects: list[bytes] = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"",  # page tree, filled in below once page ids are known
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
        b"<< /Title (" + _pdf_escape(title) + b") /Author (" + _pdf_escape(author) + b") /Creator "
        b"(memseed demo) /Producer (memseed demo) /CreationDate (" + stamp + b") /ModDate (" + stamp + b") >>",
    ]
    kids = []
    for page_lines in pages:
        ops = [b"BT", b"/F1 11 Tf", b"14 TL", b"72 740 Td"]
        for line in page_lines:
            ops.append(b"(" + _pdf_escape(line) + b") Tj T*")
        ops.append(b"ET")
        stream = b"\n".join(ops)
        page_id, content_id = len(objects) + 1, len(objects) + 2
        kids.append(page_id)
        objects.append(b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R "
                       b">> >> /Contents " + str(content_id).encode() + b" 0 R >>")
        objects.append(b"<< /Length " + str(len(stream)).encode() + b" >>\nstream\n" + stream + b"\nendstream")
    objects[1] = (b"<< /Type /Pages /Kids [" + b" ".join(f"{k} 0 R".encode() for k in kids) + b"] /Count "
                  + str(len(kids)).encode() + b" >>")
    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += f"{number} 0 obj\n".encode() + body + b"\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    out += b"".join(f"{off:010d} 00000 n \n".encode() for off in offsets)
    out += (f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R /Info 4 0 R >>\nstartxref\n{xref}\n%%EOF\n"
            .encode())
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(bytes(out))
    return path


def _normalise_zip(path: Path) -> None:
    """Rewrite a zip with fixed entry dates (python-docx stamps entries with 'now')."""
    with zipfile.ZipFile(path) as src:
        entries = [(info.filename, src.read(info)) for info in src.infolist()]
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as dst:
        for name, data in entries:
            dst.writestr(zipfile.ZipInfo(name, date_time=_FIXED_ZIP_TIME), data,
                         compress_type=zipfile.ZIP_DEFLATED)


def _write_docx(path: Path, *, title: str, author: str, created: datetime) -> None:
    import docx  # here, not at the top: ~40 ms that every CLI start would pay for one demo file

    document = docx.Document()
    props = document.core_properties
    props.author = author
    props.last_modified_by = author
    props.title = title
    props.subject = "Ledger architecture"
    props.created = created.replace(tzinfo=None)
    props.modified = (created + timedelta(days=9)).replace(tzinfo=None)
    props.revision = 7
    document.add_heading(title, level=0)
    document.add_paragraph(f"Author: {author}    Status: Accepted    Reviewers: Priya Raman, Tom Becker")
    for heading, paragraphs in RFC_SECTIONS:
        document.add_heading(heading, level=1)
        for text in paragraphs:
            document.add_paragraph(text)
    table = document.add_table(rows=1, cols=3)
    for cell, text in zip(table.rows[0].cells, ("Option", "Write cost", "Replay cost"), strict=True):
        cell.text = text
    for row in (("Snapshot per account", "low", "low"), ("Global snapshot", "high", "medium"),
                ("No snapshots", "none", "high")):
        cells = table.add_row().cells
        for cell, text in zip(cells, row, strict=True):
            cell.text = text
    path.parent.mkdir(parents=True, exist_ok=True)
    document.save(str(path))
    _normalise_zip(path)


def _write_text(path: Path, text: str, when: datetime) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8", newline="\n")
    os.utime(path, (when.timestamp(), when.timestamp()))


def write_documents(dest: Path, scale: int = 1) -> list[Path]:
    """Write the documents folder under ``dest`` and return the files written."""
    rng = rng_for("documents", scale)
    titles = {d["kind"]: d for d in PERSONA["documents"]}
    author = str(PERSONA["name"])
    written: list[Path] = []
    runbook = dest / titles["runbook"]["file"]
    _write_text(runbook, RUNBOOK_MD, DEMO_ANCHOR - timedelta(days=17))
    rfc = dest / titles["rfc"]["file"]
    _write_docx(rfc, title=titles["rfc"]["title"], author=author, created=DEMO_ANCHOR - timedelta(days=60))
    os.utime(rfc, ((DEMO_ANCHOR - timedelta(days=51)).timestamp(),) * 2)
    pdf = dest / titles["design"]["file"]
    write_pdf(pdf, DESIGN_PDF_LINES, title=titles["design"]["title"], author=author,
              created=DEMO_ANCHOR - timedelta(days=40))
    os.utime(pdf, ((DEMO_ANCHOR - timedelta(days=40)).timestamp(),) * 2)
    notes = dest / "notes.md"
    _write_text(notes, NOTES_MD, DEMO_ANCHOR - timedelta(days=2))
    vendor = dest / "vendor-onboarding.md"
    _write_text(vendor, VENDOR_MD, DEMO_ANCHOR - timedelta(days=25))
    written += [runbook, rfc, pdf, notes, vendor]
    mondays = [d for d in workdays() if d.weekday() == 0]
    for i in range(4 * scale):
        day = mondays[(i * 3) % len(mondays)]
        note = dest / "meeting-notes" / f"{day.isoformat()}-platform-sync-{i + 1:03d}.md"
        when = datetime(day.year, day.month, day.day, 15, rng.randrange(60), tzinfo=UTC)
        _write_text(note, meeting_note(rng, day), when)
        written.append(note)
    return written
