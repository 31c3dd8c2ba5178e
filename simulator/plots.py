"""Plots as SVG text, drawn with the field's own tools (qiskit.visualization, matplotlib on
the Agg backend), with fonts big enough for a projector. Every word of a plot (title, axis
labels, legend, tick labels) is in the reader's language, drawn at each request: no plot is
cached, so none can reach a reader of another language."""
from __future__ import annotations

from typing import Any

from django.utils.translation import gettext

from core.plots import BIG, LOCK, svg_of


def score_histogram(series: dict[str, dict[str, Any]], title: str, actual: str | None = None) -> str:
    """Grouped bars of score distributions (``score_table`` results), one colour per source:
    e.g. exact, Aer, noisy device. ``actual`` is the label of the score the game really got."""
    import matplotlib.pyplot as plt
    from qiskit.visualization import plot_histogram

    from simulator.scoring import score_words  # the labels in the reader's language

    labels = sorted({row["label"] for t in series.values() for row in t["table"]})
    data = [{score_words(row["label"]): row["fraction"] for row in t["table"]}
            | {score_words(lbl): 0.0 for lbl in labels if lbl not in {r["label"] for r in t["table"]}}
            for t in series.values()]
    actual = score_words(actual) if actual is not None else None
    with LOCK, plt.rc_context(BIG):
        fig = plot_histogram(data, legend=list(series), figsize=(12, 6), bar_labels=False,
                             title=title, sort="asc")
        ax = fig.axes[0]
        ax.set_ylabel(gettext("probability / fraction of shots"))
        if actual is not None:
            for tick in ax.get_xticklabels():
                if tick.get_text() == actual:
                    tick.set_color("#b91c1c")
                    tick.set_fontweight("bold")
        return svg_of(fig)


def expected_vs_actual(points: list[tuple[float, float, str]], title: str) -> str:
    """One dot per player and game: expected score (x) against actual score (y); the sides
    (``points``' third item: neutral keys, "white") are named in the reader's language."""
    import matplotlib.pyplot as plt

    from simulator.scoring import side_words

    with LOCK, plt.rc_context(BIG):
        fig, ax = plt.subplots(figsize=(8, 7))
        colours = {"white": "#9ca3af", "black": "#111827"}
        for side in sorted({p[2] for p in points}):
            xs = [p[0] for p in points if p[2] == side]
            ys = [p[1] for p in points if p[2] == side]
            ax.scatter(xs, ys, s=140, label=side_words(side), color=colours.get(side), edgecolors="#4f46e5",
                       alpha=.85)
        top = max([1.0] + [max(p[0], p[1]) for p in points]) + 0.5
        ax.plot([0, top], [0, top], linestyle="--", color="#4f46e5", label=gettext("actual = expected"))
        ax.set_xlim(-0.2, top)
        ax.set_ylim(-0.2, top)
        ax.set_xlabel(gettext("expected score (exact odds)"))
        ax.set_ylabel(gettext("actual score"))
        ax.set_title(title)
        ax.legend()
        ax.grid(alpha=.3)
        return svg_of(fig)


def bar_chart(values: dict[str, float], title: str, ylabel: str) -> str:
    import matplotlib.pyplot as plt

    with LOCK, plt.rc_context(BIG):
        fig, ax = plt.subplots(figsize=(10, 6))
        keys = list(values)
        ax.bar(keys, [values[k] for k in keys], color="#4f46e5")
        ax.set_title(title)
        ax.set_ylabel(ylabel)
        ax.grid(axis="y", alpha=.3)
        for i, k in enumerate(keys):
            ax.annotate(f"{values[k]:g}", (i, values[k]), ha="center", va="bottom")
        return svg_of(fig)


def circuit_drawing(circuit: Any) -> str:
    """qiskit's own circuit drawer (matplotlib output) as SVG."""
    import matplotlib.pyplot as plt

    with LOCK, plt.rc_context({"font.size": 14}):
        fig = circuit.draw(output="mpl", fold=40, idle_wires=False)
        return svg_of(fig)


def circuit_text(circuit: Any) -> str:
    return str(circuit.draw(output="text", fold=120, idle_wires=False))
