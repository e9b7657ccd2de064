"""Execute the notebooks and render each to a static HTML page: a report for people who will not
open Jupyter (``make notebooks-html``).

Why execute here: the notebooks are committed with cleared outputs, so the report must run them
first, and the page shows their results without the code. They run as in Jupyter — the venv's own kernel, the notebook's sandbox, the sources named
by ``MEMSEED_NOTEBOOK_SOURCES`` (the demo by default) — and the charts land in the page as PNG
images, so the HTML needs no JavaScript and no network to show them.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

import nbformat
from nbclient import NotebookClient
from nbconvert import HTMLExporter

HERE = Path(__file__).resolve().parent


def render(notebook: Path, out_dir: Path, timeout: int = 600) -> Path:
    """Run ``notebook`` in a scratch working folder and write ``out_dir/<name>.html``."""
    nb = nbformat.read(notebook, as_version=4)
    with tempfile.TemporaryDirectory(prefix="memseed-report-") as cwd:
        NotebookClient(nb, timeout=timeout, kernel_name="python3", resources={"metadata": {"path": cwd}}).execute()
    body, _resources = HTMLExporter(embed_images=True, exclude_input=True).from_notebook_node(nb)
    out_dir.mkdir(parents=True, exist_ok=True)
    target = out_dir / f"{notebook.stem}.html"
    target.write_text(body, encoding="utf-8")
    return target


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", nargs="?", default=str(HERE / "html"), help="folder for the HTML pages")
    parser.add_argument("notebooks", nargs="*", help="notebooks to render (default: every one in notebooks/)")
    args = parser.parse_args(argv)
    chosen = [Path(n) for n in args.notebooks] or sorted(HERE.glob("*.ipynb"))
    for notebook in chosen:
        print("rendered", render(notebook, Path(args.out)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
