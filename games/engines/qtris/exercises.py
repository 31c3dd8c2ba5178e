"""Exercise mode's ready-made QTris positions (``QTris.exercise_examples``)."""
from __future__ import annotations

from typing import Any

from ..base import gettext_noop

# Ready-made exercises from the QTris rulebook (docs/rules/qtris.md, "Worked examples"), in the
# engine's options format.
EXERCISE_EXAMPLES: tuple[dict[str, Any], ...] = (
    {
        "key": "3.4.4",
        "name": gettext_noop("Exercise 3.4.4 — Mixing with kittens is better"),
        "description": gettext_noop("Square 5 holds the mixture {white, kitten right}: P(white) = 3/4. White holds "
                       "U and X. Can White do better than 3/4 on square 5? (U then X gives the mixture "
                       "{U·black, U·kitten right}: P(white) ≈ 0.84.)"),
        "variant": "advanced",
        "options": {
            "board": ["B", "W", "B", "W", ["W", "R"], "B", "W", "B", "L"],
            "hands": [["U", "X", "I", "H"], ["Z", "I", "I", "Y"]],
            "deck": ["I", "Z", "H", "X", "I", "Z", "H", "X", "I", "Y", "I", "Z",
                     "H", "X", "I", "Z", "H", "X", "I", "Y", "I", "Z", "H", "X"],
            "first_seat": 0, "colors": ["white", "black"], "skip_mulligan": True,
        },
    },
    {
        "key": "2.3.1",
        "name": gettext_noop("Exercise 2.3.1 — Card play mechanics (two H and one Z)"),
        "description": gettext_noop("Turn the black circle on square 5 white without an X card: play H (black → "
                       "kitten left), Z (→ kitten right), then H again (→ white)."),
        "variant": "basic",
        "options": {
            "board": ["B", "W", "W", "B", "B", "W", "B", "W", "B"],
            "hands": [["H", "Z", "H", "I"], ["I", "I", "X", "I"]],
            "deck": ["I"] * 24,
            "first_seat": 0, "colors": ["white", "black"], "skip_mulligan": True,
        },
    },
    {
        "key": "2.3.2",
        "name": gettext_noop("Exercise 2.3.2 — Some CX applications"),
        "description": gettext_noop("Kittens and circles next to each other: which control makes a pair, which "
                       "does nothing? Squares 8–9 hold an anti-correlated pair: CX separates it."),
        "variant": "basic",
        "options": {
            "board": ["R", "W", "B", "R", "B", "R", "W", None, None],
            "pairs": [{"squares": [8, 9], "state": "psi-"}],
            "hands": [["CX", "CX", "H", "I"], ["CX", "X", "Z", "I"]],
            "first_seat": 0, "colors": ["black", "white"], "skip_mulligan": True,
        },
    },
)
