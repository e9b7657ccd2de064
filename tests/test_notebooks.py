"""Execute the exploration notebooks with nbclient, in the venv's own kernel, in a sandbox.

The notebooks set HOME / MEMSEED_HOME / CLAUDE_CONFIG_DIR ... to temp folders in their first cell;
the autouse hermetic fixture already points HOME at a temp folder for the kernel process too.
"""

from __future__ import annotations

import sys
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"
NAMES = ["01-explore-demo.ipynb", "02-harness-migration.ipynb"]


def _generated() -> dict[str, nbformat.NotebookNode]:
    sys.path.insert(0, str(NOTEBOOKS))
    try:
        import build_notebooks
    finally:
        sys.path.remove(str(NOTEBOOKS))
    return {name: build_notebooks.build(cells) for name, cells in build_notebooks.NOTEBOOKS.items()}


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


@pytest.mark.slow
@pytest.mark.parametrize("name", NAMES)
def test_notebook_executes(name: str, tmp_path: Path) -> None:
    nb = nbformat.read(NOTEBOOKS / name, as_version=4)
    probe = nbformat.v4.new_code_cell("import sys, os\nprint(sys.executable)\nprint(os.environ['HOME'])")
    nb.cells.append(probe)
    client = NotebookClient(nb, timeout=240, kernel_name="python3", allow_errors=False,
                            resources={"metadata": {"path": str(tmp_path)}})
    client.execute()
    executable, home = nb.cells[-1].outputs[0]["text"].split("\n")[:2]
    assert Path(executable).resolve() == Path(sys.executable).resolve(), "kernel is not the venv's interpreter"
    assert Path(home).parent.name.startswith("memseed-notebook-"), "the notebook did not sandbox HOME"
