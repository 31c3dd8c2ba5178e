"""Accessibility rules that the static files themselves must keep (no browser needed):
every stylesheet that animates turns its animations off for readers who ask for less motion."""
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


def test_the_stylesheets_are_found():
    assert {"app.css", "qtris.css", "quantum-poker.css"} <= {p.name for p in CSS}
