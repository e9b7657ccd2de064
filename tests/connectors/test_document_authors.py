"""Documents: who wrote them (from the file's own properties), OpenDocument text, and
password-protected or corrupt files skipped with a reason."""

from __future__ import annotations

import zipfile
from pathlib import Path

import docx

from bootstrap_app.config import load_settings
from bootstrap_app.pipeline import scan
from bootstrap_app.types import Document, Person
from connectors.base import ReadContext
from connectors.local.docmeta import OLE_MAGIC, people_from_names
from connectors.local.folder import DocumentFolderSource

from .test_folder import write_pdf

ODT_MIME = "application/vnd.oasis.opendocument.text"


def write_odt(path: Path, paragraphs: list[str], *, title: str = "", creator: str = "", initial: str = "",
              encrypted: bool = False) -> Path:
    """An OpenDocument text file as LibreOffice writes it (mimetype first, stored)."""
    text_ns = "urn:oasis:names:tc:opendocument:xmlns:text:1.0"
    body = "".join(f"<text:h text:outline-level=\"1\">{p}</text:h>" if i == 0 else f"<text:p>{p}</text:p>"
                   for i, p in enumerate(paragraphs))
    content = (f'<?xml version="1.0" encoding="UTF-8"?><office:document-content '
               f'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="{text_ns}">'
               f"<office:body><office:text>{body}</office:text></office:body></office:document-content>")
    meta = ('<?xml version="1.0" encoding="UTF-8"?><office:document-meta '
            'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
            'xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:meta="urn:oasis:names:tc:opendocument:xmlns:meta:1.0">'
            f"<office:meta><dc:title>{title}</dc:title><meta:initial-creator>{initial}</meta:initial-creator>"
            f"<dc:creator>{creator}</dc:creator></office:meta></office:document-meta>")
    enc = ('<manifest:encryption-data manifest:checksum-type="SHA1/1K" manifest:checksum="x">'
           '<manifest:algorithm manifest:algorithm-name="Blowfish CFB" manifest:initialisation-vector="x"/>'
           "</manifest:encryption-data>") if encrypted else ""
    manifest = ('<?xml version="1.0" encoding="UTF-8"?><manifest:manifest '
                'xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.2">'
                f'<manifest:file-entry manifest:full-path="/" manifest:media-type="{ODT_MIME}"/>'
                f'<manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml">{enc}'
                "</manifest:file-entry></manifest:manifest>")
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr(zipfile.ZipInfo("mimetype"), ODT_MIME)
        zf.writestr("content.xml", b"\x8f\x00garbage" if encrypted else content.encode(), zipfile.ZIP_DEFLATED)
        zf.writestr("meta.xml", meta, zipfile.ZIP_DEFLATED)
        zf.writestr("META-INF/manifest.xml", manifest, zipfile.ZIP_DEFLATED)
    return path


def _folder(root: Path) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    d = docx.Document()
    d.core_properties.title = "Ledger spec"
    d.core_properties.author = "Ana Ruiz"
    d.core_properties.last_modified_by = "Jon Reyes <jon@prairie.example>"
    d.add_paragraph("The ledger API has three endpoints.")
    d.save(str(root / "spec.docx"))
    e = docx.Document()
    e.core_properties.author = ""
    e.core_properties.last_modified_by = "Jon Reyes <jon@prairie.example>"
    e.add_paragraph("Edited notes.")
    e.save(str(root / "edited.docx"))
    write_pdf(root / "report.pdf", "Quarterly report", title="Q3 report")
    write_odt(root / "minutes.odt", ["Team minutes", "We agreed to ship on Friday."], title="Minutes",
              creator="Ana Ruiz", initial="Maya Okafor")
    (root / "page.html").write_text('<html><head><meta name="author" content="Priya Nair"><title>Wiki</title>'
                                    "</head><body><p>Runbook</p></body></html>")
    (root / "notes.md").write_text("---\ntitle: Notes\nauthor: Ana Ruiz <ana@prairie.example>\n---\n\nText\n")
    (root / "plain.txt").write_text("No author here.\n")
    return root


def _read(root: Path) -> tuple[dict[str, Document], dict[str, str]]:
    ctx = ReadContext()
    docs = {d.ref: d for d in DocumentFolderSource(root).read(ctx) if isinstance(d, Document)}
    return docs, {s.ref: s.reason for s in ctx.skips}


def test_authors_from_file_properties(tmp_path: Path) -> None:
    docs, skips = _read(_folder(tmp_path / "docs"))
    assert not skips
    # the author; the last editor does not make a colleague's document theirs
    assert docs["spec.docx"].people == (Person("Ana Ruiz"),)
    assert docs["minutes.odt"].people == (Person("Maya Okafor"),)
    assert docs["edited.docx"].people == (Person("Jon Reyes", "jon@prairie.example"),)  # no author: the editor
    assert docs["minutes.odt"].title == "Minutes" and "ship on Friday" in docs["minutes.odt"].text
    assert docs["page.html"].people == (Person("Priya Nair"),)
    assert docs["notes.md"].people == (Person("Ana Ruiz", "ana@prairie.example"),)
    assert docs["plain.txt"].people == ()


def test_pdf_author(tmp_path: Path) -> None:
    root = tmp_path / "docs"
    root.mkdir()
    write_pdf(root / "r.pdf", "Report text", title="Report")
    data = (root / "r.pdf").read_bytes()
    (root / "r.pdf").write_bytes(data.replace(b"<< /Title (Report) >>", b"<< /Title (Report) /Author (Li Wu) >>"))
    docs, skips = _read(root)
    assert docs["r.pdf"].people == (Person("Li Wu"),), skips


def test_owner_authored_documents_are_the_owners(tmp_path: Path) -> None:
    """The file's author is ownership evidence: Ana's design doc is hers ("wrote"), Priya's
    runbook in the same folder is somebody else's and is not proposed."""
    top = tmp_path / "footprint"
    sent = top / "Sent"
    sent.mkdir(parents=True)
    for n in range(3):
        (sent / f"{n}.eml").write_bytes(
            f"From: Ana Ruiz <ana@prairie.example>\r\nTo: jon@prairie.example\r\nSubject: Update {n}\r\n"
            f"Date: Mon, 0{n + 2} Mar 2026 09:00:00 +0100\r\nMessage-ID: <u{n}@prairie.example>\r\n\r\nHi\r\n".encode())
    docs = top / "docs"
    docs.mkdir()
    d = docx.Document()
    d.core_properties.title = "Ledger design"
    d.core_properties.author = "Ana Ruiz"
    d.add_paragraph("The ledger is append-only.")
    d.save(str(docs / "ledger-design.docx"))
    write_odt(docs / "payments-runbook.odt", ["Payments runbook", "Restart the worker."], creator="Priya Nair")
    result = scan([str(top)], settings=load_settings(tmp_path / "home"))
    bodies = [p.body for p in result.proposals if p.type.value == "reference"]
    assert any('wrote the design document "Ledger design"' in b for b in bodies), bodies
    assert not any("payments-runbook" in b for b in bodies), bodies


def test_protected_and_corrupt_files_are_skipped_with_reasons(tmp_path: Path) -> None:
    root = tmp_path / "docs"
    root.mkdir()
    (root / "locked.docx").write_bytes(OLE_MAGIC + b"\0" * 1024)  # what Word's "Encrypt with password" writes
    (root / "broken.docx").write_bytes(b"PK\x03\x04 not really a zip")
    write_odt(root / "locked.odt", ["Secret"], encrypted=True)
    (root / "broken.odt").write_bytes(b"PK\x03\x04 nope")
    (root / "broken.pdf").write_bytes(b"%PDF-1.4\n garbage")
    (root / "ok.txt").write_text("fine\n")
    docs, skips = _read(root)
    assert list(docs) == ["ok.txt"]
    assert "password-protected Word" in skips["locked.docx"]
    assert "password-protected OpenDocument" in skips["locked.odt"]
    assert "not a readable Word file" in skips["broken.docx"]
    assert "not a readable OpenDocument" in skips["broken.odt"]
    assert "PDF" in skips["broken.pdf"]


def test_people_from_names() -> None:
    assert people_from_names("Ana Ruiz; li@x.org", None, "") == (Person("Ana Ruiz"), Person("", "li@x.org"))
    assert people_from_names("Ana Ruiz", "Ana Ruiz") == (Person("Ana Ruiz"),)


def test_word_zip_bomb_is_refused_before_loading(tmp_path: Path) -> None:
    root = tmp_path / "docs"
    root.mkdir()
    src = root / "real.docx"
    d = docx.Document()
    d.add_paragraph("fine")
    d.save(str(src))
    bomb = root / "bomb.docx"
    with zipfile.ZipFile(src) as zin, zipfile.ZipFile(bomb, "w", zipfile.ZIP_DEFLATED) as zout:
        for info in zin.infolist():
            zout.writestr(info, zin.read(info))
        with zout.open("word/padding.xml", "w", force_zip64=True) as out:
            for _ in range(80):
                out.write(b" " * (1 << 20))
    assert bomb.stat().st_size < 2 * 1024 * 1024
    docs, skips = _read(root)
    assert list(docs) == ["real.docx"]
    assert "zip bomb" in skips["bomb.docx"]


def test_generator_named_as_author_is_not_a_person(tmp_path: Path) -> None:
    """python-docx's template says ``creator: python-docx`` and ``description: generated by
    python-docx``: software naming itself, which must not make the file somebody else's."""
    root = tmp_path / "docs"
    root.mkdir()
    d = docx.Document()
    d.add_paragraph("Mine, written with a script.")
    d.save(str(root / "script.docx"))
    docs, _ = _read(root)
    assert docs["script.docx"].people == ()
