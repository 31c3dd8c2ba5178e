"""An Entanglion table for the platform tests: the rulebook's first game (sheet §15) as engine
options, and a seed under which its dice fall so that the opening plays short and the same way
every time (found by replaying the engine itself, not by faking a roll)."""
from __future__ import annotations

from games.engines import get_game

# sheet §15: both ships on ZERO, Mercurial first with X, H, H; Rubicon holds CNOT, SWAP, X.
FIRST_GAME = {
    "ships": {"mercurial": "ZERO", "rubicon": "ZERO"},
    "hands": [["X", "H", "H"], ["CNOT", "SWAP", "X"]],
    "first": 0,
    "components": {"PHI PLUS": "Quantum Gates"},
    "engine_stack": ["X", "H", "H", "X", "CNOT", "SWAP"],
}
# the opening: Mercurial H (ZERO → PLUS), Rubicon CNOT (both to PHI PLUS), Mercurial retrieves
OPENING = [(0, {"play": "H"}), (1, {"play": "CNOT"}), (0, {"retrieve": True})]


def calm_seed(options: dict = FIRST_GAME, actions=OPENING, start: int = 1) -> int:
    """The first seed from ``start`` under which ``actions`` play out undetected: the ships reach
    PHI PLUS with no detection and the retrieval succeeds (Quantum Gates on Mercurial)."""
    game = get_game("entanglion")
    for seed in range(start, start + 500):
        state = game.setup(players=2, variant="easy", seed=seed, options=options)
        try:
            for seat, action in actions:
                state, _ = game.apply(state, seat, action)
        except Exception:  # noqa: BLE001 - a seed under which the opening does not even apply
            continue
        view = game.view(state, None)
        if (view["ships"] == {"mercurial": "PHI PLUS", "rubicon": "PHI PLUS"}
                and view["detection"]["index"] == 0 and view["components"]["found"] == 1):
            return seed
    raise AssertionError("no calm seed for the opening")
