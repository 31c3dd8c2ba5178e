"""The progress pages' small plots as SVG, drawn like the statistics pages' (``simulator.plots``:
matplotlib on Agg, big fonts, no inline styles) and, like them, per request in the reader's
language (titles, axis labels, legend and the dates' format): never cached."""
from __future__ import annotations

from django.utils.formats import date_format
from django.utils.translation import gettext

from core.plots import BIG, LOCK, svg_of

INDIGO, AMBER = "#4f46e5", "#b45309"


def _day(value) -> str:
    return date_format(value, "SHORT_DATE_FORMAT")


def class_weeks(weeks: list[dict]) -> str:
    """Per week: the games played by the class's members (bars) and the points they won (hatched
    bars: colour is not the only difference)."""
    import matplotlib.pyplot as plt

    with LOCK, plt.rc_context(BIG):
        fig, ax = plt.subplots(figsize=(10, 5.5))
        xs = range(len(weeks))
        ax.bar([x - 0.2 for x in xs], [w["played"] for w in weeks], width=0.4, color=INDIGO,
               label=gettext("games played"))
        ax.bar([x + 0.2 for x in xs], [w["points"] for w in weeks], width=0.4, color=AMBER, hatch="//",
               edgecolor="#111827", label=gettext("points won"))
        ax.set_xticks(list(xs), [_day(w["week"]) for w in weeks])
        ax.set_xlabel(gettext("week of"))
        ax.set_title(gettext("Games and points per week"))
        ax.grid(axis="y", alpha=.3)
        ax.legend()
        return svg_of(fig)


def member_over_time(games: list[dict]) -> str:
    """One member: running points (solid line, dots) and running QTris luck (dashed line,
    squares) after each game, dated."""
    import matplotlib.pyplot as plt

    with LOCK, plt.rc_context(BIG):
        fig, ax = plt.subplots(figsize=(10, 5.5))
        xs = list(range(1, len(games) + 1))
        running, total = [], 0.0
        for g in games:
            total += g["points"]
            running.append(total)
        ax.plot(xs, running, marker="o", color=INDIGO, label=gettext("points (running total)"))
        if any(g["luck"] is not None for g in games):
            luck, total = [], 0.0
            for g in games:
                total += g["luck"] or 0.0
                luck.append(total)
            ax.plot(xs, luck, marker="s", linestyle="--", color=AMBER, label=gettext("QTris luck (running total)"))
            ax.axhline(0, color="#6b7280", linewidth=1)
        step = max(1, len(games) // 10)  # at most about ten dates along the axis
        ax.set_xticks(xs[::step], [_day(g["date"]) for g in games][::step], rotation=30, ha="right")
        ax.set_xlabel(gettext("game (date)"))
        ax.set_title(gettext("Points and luck over time"))
        ax.grid(alpha=.3)
        ax.legend()
        return svg_of(fig)
