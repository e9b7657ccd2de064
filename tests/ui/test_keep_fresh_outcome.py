"""The Review page's "keep memory fresh" lines say how the last re-seed ended, not only that it ran.

A timer runs reseed unattended; when it could not read a remembered source, the wizard is where
the person looks next (issue 29). The runs are stored as `memseed reseed` stores them.
"""

from __future__ import annotations

from .conftest import app_at


def _captions(at) -> str:  # type: ignore[no-untyped-def]
    return " ".join(c.value for c in at.caption)


def test_a_partial_reseed_shows_its_outcome_and_a_complete_one_does_not_warn(seeded) -> None:  # type: ignore[no-untyped-def]
    store = seeded(3)
    run = store.start_run("reseed", ["/gone/mail", "/here/cal"])
    store.finish_run(run, "finished", {"new_items": 0, "unreadable": ["/gone/mail"], "status": "partial"})
    shown = _captions(app_at("review"))
    assert "Outcome: partial: 1 source(s) could not be read (/gone/mail)" in shown
    assert "last run: " in shown and "(partial: 1 source(s) could not be read (/gone/mail))" in shown

    run = store.start_run("reseed", ["/here/cal"])
    store.finish_run(run, "finished", {"new_items": 0, "unreadable": [], "status": "complete"})
    shown = _captions(app_at("review"))
    assert "Outcome:" not in shown and "(complete)" in shown
    store.close()
