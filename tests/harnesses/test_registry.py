"""Adding a harness is one file plus one registry line: everything else picks it up from the registry.

In a fresh interpreter, the toy harness of docs/extending.md is appended to the registry (what
its one line in ``HARNESS_CLASSES`` does) before anything else is imported; then the CLI's
``write``/``doctor`` choices, the app's target labels, the doctor, the budget meter and a real
write through ``memseed write`` must all know it, with no other file touched.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = textwrap.dedent("""
    import json, sys
    sys.path.insert(0, sys.argv[1])
    from tests.harnesses.test_contract import doc_harness
    import bootstrap_app.harnesses as package
    import bootstrap_app.harnesses.registry as registry

    toy = doc_harness()
    registry.HARNESS_CLASSES = package.HARNESS_CLASSES = (*registry.HARNESS_CLASSES, toy)  # the one line
    registry.HARNESSES[toy.name] = toy

    from click.testing import CliRunner
    from bootstrap_app.review import decisions
    from bootstrap_app.review import model as review_model
    from bootstrap_app.cli import main
    from bootstrap_app.harnesses.doctor import run_doctor
    from bootstrap_app.store import Store
    from bootstrap_app.config import load_settings
    from bootstrap_app.ui.common import TARGETS
    from tests.harnesses.conftest import make_proposals

    runner = CliRunner()
    proposals = make_proposals()
    with Store(load_settings().db_path) as store:
        store.save_proposals(store.start_run("scan", []), proposals)
        decisions.approve(store, [p.id for p in proposals])
    write = runner.invoke(main, ["write", "--target", "toy"])
    home = toy.home()
    print(json.dumps({
        "write_help": "toy" in runner.invoke(main, ["write", "--help"]).output,
        "doctor_help": "toy" in runner.invoke(main, ["doctor", "--help"]).output,
        "label": TARGETS.get("toy"),
        "write_exit": write.exit_code,
        "written": (home / "NOTES.md").read_text().count("- "),
        "doctor_errors": [str(f) for f in run_doctor("toy") if f.severity == "error"],
        "meter": review_model.budget([], "toy"),
    }))
""")


def test_one_registry_line_is_enough(hermetic: Path) -> None:
    env = {**os.environ, "TOY_AGENT_HOME": str(hermetic / "toy"), "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", SCRIPT, str(ROOT)], capture_output=True, text=True, env=env,
                          timeout=120, check=False, cwd=hermetic)
    assert done.returncode == 0, done.stderr[-2000:]
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    assert seen == {"write_help": True, "doctor_help": True, "label": "Toy agent", "write_exit": 0, "written": 4,
                    "doctor_errors": [], "meter": []}
