"""Execute the notebooks with nbclient, in the venv's own kernel, in a sandbox.

The notebooks set HOME / MEMSEED_HOME / CLAUDE_CONFIG_DIR ... to a temp folder in their first cell
and remove it when the kernel stops; the autouse hermetic fixture already points HOME at a temp
folder for the kernel process too. Each run gets a TMPDIR of its own, so "nothing left behind"
is checked by looking at it afterwards. Outputs are checked by MIME type and value: a table is a
``text/html`` output holding the columns the explore API gives, a chart an ``image/png``.
"""

from __future__ import annotations

import base64
import os
import sys
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

from tests.conftest import realdata_file

NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"
NAMES = ["01-your-footprint.ipynb", "02-harness-migration.ipynb", "03-pipeline-steps.ipynb"]


def _generated() -> dict[str, nbformat.NotebookNode]:
    sys.path.insert(0, str(NOTEBOOKS))
    try:
        import build_notebooks
    finally:
        sys.path.remove(str(NOTEBOOKS))
    return {name: build_notebooks.build(cells) for name, cells in build_notebooks.NOTEBOOKS.items()}


def test_every_notebook_is_generated() -> None:
    assert sorted(_generated()) == sorted(NAMES)
    assert sorted(p.name for p in NOTEBOOKS.glob("*.ipynb")) == sorted(NAMES)


@pytest.mark.parametrize("name", NAMES)
def test_notebook_is_committed_clean_and_current(name: str) -> None:
    nb = nbformat.read(NOTEBOOKS / name, as_version=4)
    nbformat.validate(nb)
    for cell in nb.cells:
        if cell.cell_type == "code":
            assert cell.outputs == [] and cell.execution_count is None, f"{name}: outputs must be cleared in git"
    expected = _generated()[name]
    assert [c.source for c in nb.cells] == [c.source for c in expected.cells], \
        f"{name} is stale: run `python notebooks/build_notebooks.py`"


def _execute(name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
             sources: str | None = None) -> tuple[nbformat.NotebookNode, Path]:
    """Run ``name`` with a fresh TMPDIR; returns the executed notebook and that TMPDIR."""
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    monkeypatch.setenv("TMPDIR", str(scratch))
    if sources is None:
        monkeypatch.delenv("MEMSEED_NOTEBOOK_SOURCES", raising=False)
    else:
        monkeypatch.setenv("MEMSEED_NOTEBOOK_SOURCES", sources)
    nb = nbformat.read(NOTEBOOKS / name, as_version=4)
    probe = nbformat.v4.new_code_cell("import sys, os\nprint(sys.executable)\nprint(os.environ['HOME'])")
    nb.cells.append(probe)
    workdir = tmp_path / "cwd"
    workdir.mkdir()
    client = NotebookClient(nb, timeout=300, kernel_name="python3", allow_errors=False,
                            resources={"metadata": {"path": str(workdir)}})
    client.execute()
    executable, home = nb.cells[-1].outputs[0]["text"].split("\n")[:2]
    assert Path(executable).resolve() == Path(sys.executable).resolve(), "kernel is not the venv's interpreter"
    assert Path(home).parent.name.startswith("memseed-notebook-"), "the notebook did not sandbox HOME"
    assert Path(home).parent.parent == scratch, "the sandbox is not in the temp dir"
    return nb, scratch


def _outputs(nb: nbformat.NotebookNode, mime: str) -> list[str]:
    return [out["data"][mime] for cell in nb.cells if cell.cell_type == "code"
            for out in cell.get("outputs", []) if mime in out.get("data", {})]


def _tables_with(nb: nbformat.NotebookNode, *columns: str) -> list[str]:
    return [html for html in _outputs(nb, "text/html")
            if "<table" in html and all(f"<th>{c}</th>" in html for c in columns)]


def _pngs(nb: nbformat.NotebookNode) -> list[bytes]:
    images = [base64.b64decode(data) for data in _outputs(nb, "image/png")]
    assert all(img.startswith(b"\x89PNG\r\n\x1a\n") for img in images)
    return images


@pytest.mark.slow
def test_footprint_notebook_on_the_demo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from bootstrap_app.demo import demo_owner_addresses

    nb, scratch = _execute("01-your-footprint.ipynb", tmp_path, monkeypatch)
    sources = _tables_with(nb, "source", "kind", "items", "skipped", "skip reasons")
    assert len(sources) == 1 and "slack" in sources[0] and "git" in sources[0]
    identity = _tables_with(nb, "address", "counts as you", "evidence")
    assert len(identity) == 1 and demo_owner_addresses()[0] in identity[0]
    assert len(_tables_with(nb, "name", "mail to you", "mail from you", "meetings")) == 1
    assert len(_tables_with(nb, "title", "days", "time", "cadence")) == 1
    repo = _tables_with(nb, "repository", "fact", "cites")
    assert len(repo) == 1 and "ledger-api" in repo[0] and "CONTRIBUTING.md:" in repo[0]
    funnel = _tables_with(nb, "stage", "count")
    assert len(funnel) == 1 and "approved" in funnel[0]
    assert len(_tables_with(nb, "part", "characters")) == 1
    assert len(_tables_with(nb, "file", "action", "bytes before", "bytes after")) == 1
    assert len(_pngs(nb)) == 4  # correspondents, week, activity, funnel
    assert list(scratch.iterdir()) == [], "the notebook left files in the temp dir"


@pytest.mark.slow
@pytest.mark.realdata
def test_footprint_notebook_on_a_real_corpus(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    mbox = realdata_file("email", "notmuch", "notmuch-list-2009-default-corpus.mbox")
    calendars = realdata_file("ics", "ical4j")
    nb, scratch = _execute("01-your-footprint.ipynb", tmp_path, monkeypatch,
                           sources=os.pathsep.join([str(mbox), str(calendars)]))
    sources = _tables_with(nb, "source", "kind", "items", "skipped")
    assert len(sources) == 1 and mbox.name in sources[0] and "ical4j" in sources[0]
    assert "demo" not in sources[0]
    assert len(_tables_with(nb, "address", "counts as you", "evidence")) == 1
    assert len(_pngs(nb)) == 4
    assert list(scratch.iterdir()) == []


@pytest.mark.slow
@pytest.mark.parametrize("name", ["02-harness-migration.ipynb", "03-pipeline-steps.ipynb"])
def test_other_notebooks_execute(name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    nb, scratch = _execute(name, tmp_path, monkeypatch)
    if name.startswith("02"):
        budget = _tables_with(nb, "file", "used now", "after", "limit")
        assert len(budget) == 1 and "USER.md" in budget[0] and "MEMORY.md" in budget[0]
        assert len(_pngs(nb)) == 1
    assert list(scratch.iterdir()) == []


@pytest.mark.slow
def test_html_report_embeds_tables_and_charts(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    sys.path.insert(0, str(NOTEBOOKS))
    try:
        import render_html
    finally:
        sys.path.remove(str(NOTEBOOKS))
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    monkeypatch.setenv("TMPDIR", str(scratch))
    page = render_html.render(NOTEBOOKS / "02-harness-migration.ipynb", tmp_path / "html")
    html = page.read_text(encoding="utf-8")
    assert "<table" in html and "used now" in html
    assert 'src="data:image/png;base64,' in html
    assert list(scratch.iterdir()) == []
