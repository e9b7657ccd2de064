"""Third-party sources and harnesses from package entry points, in a fresh interpreter.

A tiny installed distribution (a ``dist-info`` folder with ``entry_points.txt`` and a module) is
put on ``PYTHONPATH``; a new Python process imports the registries and reports what they hold.
A fresh process because the harness list is fixed when its registry is imported, as it is in
every real run; a broken plugin is skipped with its reason and never stops the import.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

_PLUGIN = '''
from bootstrap_app.harnesses.fake import FakeHarness
from connectors.fake import FakeSource


class NotesHarness(FakeHarness, name="notes-plugin", label="Notes (plugin)"):
    pass


class NotesSource(FakeSource, kind="notes-plugin"):
    pass
'''
_PROBE = '''
import json
from bootstrap_app.harnesses.registry import HARNESSES, PLUGIN_PROBLEMS
from connectors import registry
print(json.dumps({"harnesses": list(HARNESSES), "harness_problems": list(PLUGIN_PROBLEMS),
                  "sources": [c.kind for c in registry.registered()], "source_problems": list(registry.plugins()[1])}))
'''


def _dist(site: Path, name: str, module: str, entry_points: str) -> None:
    (site / f"{name}.py").write_text(module, encoding="utf-8")
    info = site / f"{name}-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 1.0\n", encoding="utf-8")
    (info / "entry_points.txt").write_text(entry_points, encoding="utf-8")


def _probe(site: Path) -> dict[str, list[str]]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(site), str(Path(__file__).resolve().parents[2])])}
    out = subprocess.run([sys.executable, "-c", _PROBE], capture_output=True, text=True, env=env, check=True, timeout=120)
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_installed_plugins_join_the_source_and_harness_registries(tmp_path: Path) -> None:
    site = tmp_path / "site"
    site.mkdir()
    before = _probe(site)
    assert "notes-plugin" not in before["harnesses"] and "notes-plugin" not in before["sources"]
    _dist(site, "notesplug", _PLUGIN, "[memseed.harnesses]\nnotes = notesplug:NotesHarness\n"
                                      "[memseed.sources]\nnotes = notesplug:NotesSource\n")
    _dist(site, "badplug", "import not_a_module_anywhere\n", "[memseed.harnesses]\nbad = badplug:X\n"
                                                             "[memseed.sources]\nbad = badplug:Y\n")
    after = _probe(site)
    assert after["harnesses"] == [*before["harnesses"], "notes-plugin"]
    assert "notes-plugin" in after["sources"] and set(before["sources"]) < set(after["sources"])
    assert any(p.startswith("memseed.harnesses:bad: failed to load") for p in after["harness_problems"])
    assert any(p.startswith("memseed.sources:bad: failed to load") for p in after["source_problems"])
