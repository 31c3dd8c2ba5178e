"""QTris — the quantum tic-tac-toe of tiles and operation cards (rules: docs/rules/qtris.md).

Modules: ``tiles`` (tile set, tile <-> state), ``weights`` (exact mixture weights),
``board`` (components, options, measurement), ``cards`` (decks, playing a card by simulation),
``scoring``, ``analysis``, ``circuit`` (qiskit only there), ``flow`` (the Game object; the
state / action / event formats are documented in its docstring).

Helpers for other code:

* ``score_of_outcome(bits_or_outcome)`` -> ``{"white": qtris, "black": qtris}``.
* ``final_distribution(state)`` -> ``[{"outcome", "bits", "p", "white", "black"}, ...]`` exact,
  over the 512 final boards (outcome bit k-1 = square k black = qiskit clbit k-1).
* ``outcome_of_bitstring(key)`` turns a qiskit counts key into that outcome integer.
* ``board_from_view(view)``, ``analysis_from_view(view)``, ``play_on_board(board, variant, card,
  squares)``: pure helpers for bots (the board is public information).
* ``qasm3(state)``: OpenQASM 3 of ``GAME.circuit(state)``.
"""
from __future__ import annotations

from typing import Any

from .analysis import analyse_board, win_metric
from .analysis import final_distribution as _final_distribution
from .board import Board
from .cards import CardError, play
from .flow import QTris
from .scoring import outcome_of_bitstring, score_of_outcome

GAME = QTris()


def final_distribution(state: dict) -> list[dict[str, Any]]:
    """Exact distribution of the final boards of ``state``'s current position."""
    return _final_distribution(state["board"])


def board_from_view(view: dict) -> Board:
    """The board (components) from a view — the board is public."""
    return view["board"]["components"]


def analysis_from_view(view: dict) -> dict:
    """``GAME.analysis`` computed from a view only."""
    return analyse_board(board_from_view(view), view.get("colors"), view["variant"])


def play_on_board(board: Board, variant: str, card: str, squares: list[int]) -> Board | None:
    """The board after playing ``card`` on ``squares``, or None if that play is not legal."""
    try:
        return play(board, variant, card, squares)[0]
    except CardError:
        return None


def qasm3(state: dict) -> str:
    from .circuit import to_qasm3

    return to_qasm3(GAME.circuit(state))


__all__ = ["GAME", "QTris", "analysis_from_view", "board_from_view", "final_distribution",
           "outcome_of_bitstring", "play_on_board", "qasm3", "score_of_outcome", "win_metric"]
