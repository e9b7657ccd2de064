"""The public API: everything in __all__ resolves, and the notebook-style flow runs on it alone."""

from __future__ import annotations

import bootstrap_app


def test_every_public_name_resolves() -> None:
    missing = [name for name in bootstrap_app.__all__ if not hasattr(bootstrap_app, name)]
    assert missing == []


def test_library_flow_scan_approve_plan(tmp_path) -> None:
    from bootstrap_app import Store, approve, build_demo, load_settings, plan_write, scan

    settings = load_settings(tmp_path / "app")
    root = build_demo(tmp_path / "demo")
    with Store(settings.db_path) as store:
        result = scan([str(root)], settings=settings, store=store)
        assert result.proposals, "the demo persona must yield proposals"
        chosen = [p for p in result.proposals if not p.sensitive][:3]
        approve(store, [p.id for p in chosen])
        plan = plan_write(store, "markdown", root=tmp_path / "memory")
        written_names = {c.path.name for c in plan.files}
        for p in chosen:
            assert f"{p.name}.md" in written_names


def test_any_module_can_be_imported_first() -> None:
    """Import order must not matter: each entry point works as the first import of a process."""
    import subprocess
    import sys

    for first in ("connectors.base", "connectors.local.mbox", "bootstrap_app.errors", "bootstrap_app.cli"):
        done = subprocess.run([sys.executable, "-c", f"import {first}"], capture_output=True, text=True,
                              check=False, timeout=120)
        assert done.returncode == 0, f"`import {first}` failed first:\n{done.stderr[-2000:]}"
