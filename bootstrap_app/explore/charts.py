"""The charts a notebook shows, as matplotlib figures built from :mod:`.frames`' tables.

Why matplotlib: it renders in Jupyter and in a static HTML export alike (a PNG in the page,
no JavaScript), and its figures are plain objects: built with :class:`matplotlib.figure.Figure`
(never pyplot's global state), so a test can build one and inspect it headless.
"""

from __future__ import annotations

from bootstrap_app.errors import ConfigError

from .frames import WEEKDAYS

try:
    import pandas as pd
    from matplotlib.figure import Figure
except ImportError as exc:  # pragma: no cover - the notebooks extra is part of dev
    raise ConfigError("exploring in notebooks needs pandas and matplotlib",
                      hint="install the notebooks extra: .venv/bin/pip install -e '.[notebooks]' (or `make notebooks`)"
                      ) from exc

__all__ = ["activity_chart", "budget_chart", "correspondents_chart", "funnel_chart", "week_heatmap"]


def correspondents_chart(frame: pd.DataFrame, top: int = 12) -> Figure:
    """Horizontal bars: mail to you, mail from you and meetings per person, most important on top."""
    head = frame.head(top).iloc[::-1]
    fig = Figure(figsize=(8, max(2.5, 0.4 * len(head) + 1)))
    ax = fig.subplots()
    labels = [name or address for name, address in zip(head["name"], head["address"], strict=True)]
    left = [0] * len(head)
    for column in ("mail to you", "mail from you", "meetings"):
        values = list(head[column])
        ax.barh(labels, values, left=left, label=column)
        left = [a + b for a, b in zip(left, values, strict=True)]
    ax.set_xlabel("count")
    ax.set_title("Correspondents")
    ax.legend(loc="lower right")
    fig.tight_layout()
    return fig


def week_heatmap(frame: pd.DataFrame) -> Figure:
    """Weekday × hour heat-maps, one per kind of activity (meetings, sent mail)."""
    kinds = list(dict.fromkeys(frame["what"])) or ["meeting", "sent mail"]
    fig = Figure(figsize=(9, 2.6 * len(kinds)))
    axes = fig.subplots(len(kinds), 1, squeeze=False)[:, 0]
    for ax, kind in zip(axes, kinds, strict=True):
        grid = [[0] * 24 for _ in WEEKDAYS]
        for day, hour, count in frame.loc[frame["what"] == kind, ["weekday", "hour", "count"]].itertuples(index=False):
            grid[WEEKDAYS.index(day)][int(hour)] += int(count)
        image = ax.imshow(grid, aspect="auto", cmap="Blues")
        ax.set_yticks(range(len(WEEKDAYS)), WEEKDAYS)
        ax.set_xticks(range(0, 24, 2), [f"{h:02d}" for h in range(0, 24, 2)])
        ax.set_title(f"{kind} by weekday and hour")
        fig.colorbar(image, ax=ax)
    fig.tight_layout()
    return fig


def activity_chart(frame: pd.DataFrame) -> Figure:
    """Items per period, one line per item kind."""
    fig = Figure(figsize=(9, 3.5))
    ax = fig.subplots()
    for kind, part in frame.groupby("kind"):
        ax.plot(part["period"], part["items"], marker="o", label=str(kind))
    ax.set_ylabel("items")
    ax.set_title("Activity over time")
    if len(frame):
        ax.legend()
    fig.autofmt_xdate()
    fig.tight_layout()
    return fig


def funnel_chart(frame: pd.DataFrame) -> Figure:
    """The funnel from items to approval, as bars on a log scale (items dwarf the rest)."""
    fig = Figure(figsize=(8, 3.5))
    ax = fig.subplots()
    stages = list(frame["stage"])[::-1]
    counts = list(frame["count"])[::-1]
    ax.barh(stages, counts, color="tab:green")
    if max(counts, default=0) > 0:
        ax.set_xscale("symlog")
    for y, value in enumerate(counts):
        ax.text(value, y, f" {value}", va="center")
    ax.set_title("From items to approved memories")
    fig.tight_layout()
    return fig


def budget_chart(frame: pd.DataFrame) -> Figure:
    """Each capped file's characters after the write against its limit (Hermes's budget)."""
    fig = Figure(figsize=(7, 1.2 + 0.7 * len(frame)))
    ax = fig.subplots()
    files = list(frame["file"])
    ax.barh(files, list(frame["limit"]), color="lightgrey", label="limit")
    ax.barh(files, list(frame["used now"]), color="tab:blue", label="used now")
    after = [max(0, a - u) for a, u in zip(frame["after"], frame["used now"], strict=True)]
    ax.barh(files, after, left=list(frame["used now"]), color="tab:orange", label="added by this write")
    ax.set_xlabel("characters")
    ax.set_title("Budget per file")
    ax.legend(loc="lower right")
    fig.tight_layout()
    return fig
