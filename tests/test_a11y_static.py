"""Accessibility rules that the static files themselves must keep (no browser needed):
every stylesheet that animates turns its animations off for readers who ask for less motion, and
no animation that starts by itself runs for more than five seconds (WCAG 2.2.2: a pulse that
never stops would need a pause button; it also keeps a phone drawing sixty frames a second)."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

CSS = sorted((Path(__file__).resolve().parent.parent / "static" / "css").glob("*.css"))
MOVES = re.compile(r"\b(animation|transition)\s*:")
REDUCE = re.compile(r"@media\s*\(\s*prefers-reduced-motion\s*:\s*reduce\s*\)\s*\{(?P<body>[^{}]*\{[^{}]*\})")


@pytest.mark.parametrize("path", CSS, ids=[p.name for p in CSS])
def test_every_animated_stylesheet_honours_prefers_reduced_motion(path):
    text = path.read_text()
    if not MOVES.search(text):
        return
    block = REDUCE.search(text)
    assert block, f"{path.name} animates but has no @media (prefers-reduced-motion: reduce) block"
    body = block.group("body")
    assert re.search(r"animation\s*:\s*none\s*!important", body), body
    assert re.search(r"transition\s*:\s*none\s*!important", body), body


ANIMATION = re.compile(r"animation\s*:\s*(?P<value>[^;}]+)")
SECONDS = re.compile(r"(?<![\w-])(?P<n>\d*\.?\d+)(?P<unit>m?s)\b")


def animation_lengths(value: str) -> tuple[float, float]:
    """(seconds of one iteration, iterations) of an ``animation`` shorthand; inf for ``infinite``."""
    times = [float(m["n"]) / (1000 if m["unit"] == "ms" else 1) for m in SECONDS.finditer(value)]
    duration = times[0] if times else 0.0
    counts = [float(w) for w in value.split() if re.fullmatch(r"\d*\.?\d+", w)]
    iterations = float("inf") if "infinite" in value.split() else (counts[0] if counts else 1.0)
    return duration, iterations


@pytest.mark.parametrize("path", CSS, ids=[p.name for p in CSS])
def test_no_animation_runs_longer_than_five_seconds(path):
    for m in ANIMATION.finditer(path.read_text()):
        if m["value"].strip().startswith("none"):
            continue
        duration, iterations = animation_lengths(m["value"])
        assert duration * iterations <= 5, f"{path.name}: animation: {m['value'].strip()} runs {duration * iterations} s"


def test_the_five_second_rule_reads_the_shorthand():
    assert animation_lengths("qp-pulse 1.1s infinite alternate") == (1.1, float("inf"))
    assert animation_lengths("qp-pulse 1.1s 4 alternate") == (1.1, 4.0)
    assert animation_lengths("appear 500ms ease-out both") == (0.5, 1.0)


def test_the_stylesheets_are_found():
    assert {"app.css", "qtris.css", "quantum-poker.css"} <= {p.name for p in CSS}
