"""Explore a footprint in a notebook: tables (pandas DataFrames) and charts (matplotlib figures).

Why a library and not notebook code: the notebooks stay short (one call a cell) and the very
functions they call are tested like the rest of memseed. Everything here reads only — the
person's sources are opened read-only, nothing is sent anywhere — and builds on the same
pipeline the CLI and the wizard run (:func:`bootstrap_app.pipeline.scan`).

pandas and matplotlib come with the ``notebooks`` extra (``pip install -e '.[notebooks]'``,
``make notebooks``); importing this package without them raises a clear :class:`ConfigError`.
"""

from __future__ import annotations

from .charts import activity_chart, budget_chart, correspondents_chart, funnel_chart, week_heatmap
from .footprint import Footprint, notebook_sources, read_footprint
from .frames import (
    activity_frame,
    budget_frame,
    correspondents_frame,
    funnel_frame,
    identity_frame,
    llm_request_frame,
    repo_facts_frame,
    rituals_frame,
    source_label,
    sources_frame,
    week_frame,
    write_plan_frame,
)

__all__ = [
    "Footprint",
    "activity_chart",
    "activity_frame",
    "budget_chart",
    "budget_frame",
    "correspondents_chart",
    "correspondents_frame",
    "funnel_chart",
    "funnel_frame",
    "identity_frame",
    "llm_request_frame",
    "notebook_sources",
    "read_footprint",
    "repo_facts_frame",
    "rituals_frame",
    "source_label",
    "sources_frame",
    "week_frame",
    "week_heatmap",
    "write_plan_frame",
]
