"""Exact analysis of a board: all 512 final boards enumerated with their Born probabilities.

``analyse_board(board, colors)`` returns::

    {"p_white": [9 floats, square 1 first],
     "expected_qtris": {"white": x, "black": y},
     "p_win": {"white": p, "black": q, "tie": r},
     "expected_scores": [per side], "p_win_sides": [per side],   # when colors are known
     "eve": {...},                                                # eve variant only
     "kets": [{"squares": [..], "members": [{"tile", "weight", "p", "ket", "symbolic", "name"}]}],
     "tiles": [9 display names, square 1 first]}
"""
from __future__ import annotations

from functools import lru_cache
from typing import Any

import numpy as np

import quantum
from games.engines.base import message

from . import tiles as T
from .board import Board, component_index, joint_distribution, members_of, p_white
from .scoring import line_tables


def final_distribution(board: Board) -> list[dict[str, Any]]:
    """The exact distribution of final boards: one entry per outcome with p > 0,
    ``{"outcome": o, "bits": [9], "p": float, "white": qtris, "black": qtris}``
    (bit k-1 of ``o`` = square k black, the qiskit clbit convention)."""
    dist = joint_distribution(board)
    white, black = line_tables()
    out = []
    for raw in np.nonzero(dist > 1e-15)[0]:
        o = int(raw)
        out.append({"outcome": o, "bits": [(o >> k) & 1 for k in range(9)],
                    "p": float(dist[o]), "white": int(white[o]), "black": int(black[o])})
    return out


def _kets(board: Board) -> list[dict[str, Any]]:
    out = []
    for comp in board:
        members = []
        for tile, w in members_of(comp):
            ket, symbolic, name = _tile_texts(tuple(tile) if isinstance(tile, list) else tile)
            members.append({"tile": tile, "weight": str(w), "p": float(w),
                            "ket": ket, "symbolic": symbolic, "name": name})
        out.append({"squares": list(comp["squares"]), "members": members})
    return out


@lru_cache(maxsize=4096)
def _tile_texts(tile: str | tuple[str, ...]) -> tuple[str, str, str]:
    """A tile's decimal ket, symbolic ket and name (a tile is one of a fixed set of descriptors;
    a pair's as a tuple): written once, not at every analysis of every board it lies on."""
    desc = list(tile) if isinstance(tile, tuple) else tile
    return quantum.kets.numeric(T.state(desc)), T.symbolic_ket(desc), T.tile_name(desc)


def describe_square_message(board: Board, s: int) -> dict:
    """``describe_square`` as a translatable message (see texts.EXPLAIN_TEXTS)."""
    comp = board[component_index(board, s)]
    ms = members_of(comp)
    if len(ms) == 1:
        name = T.tile_name_message(ms[0][0])
    else:
        name = message("mixture_of", members=[message("member", name=T.tile_name_message(t), weight=str(w))
                                               for t, w in ms])
    if len(comp["squares"]) == 2:
        other = [x for x in comp["squares"] if x != s][0]
        name = message("with_square", name=name, other=other)
    return name


def describe_square(board: Board, s: int) -> str:
    """What lies on square ``s`` in words: a tile, a mixture, or one half of a pair."""
    comp = board[component_index(board, s)]
    ms = members_of(comp)
    if len(ms) == 1:
        name = T.tile_name(ms[0][0])
    else:
        name = "mixture of " + ", ".join(f"{T.tile_name(t)} ({w})" for t, w in ms)
    if len(comp["squares"]) == 2:
        other = [x for x in comp["squares"] if x != s][0]
        name += f" (with square {other})"
    return name


def _square_names(board: Board) -> list[str]:
    return [describe_square(board, s) for s in range(1, 10)]


def analyse_board(board: Board, colors: list[str] | None = None, variant: str = "basic"
                  ) -> dict[str, Any]:
    """Exact facts of a board (see module docstring). ``colors``: colour per side, if chosen."""
    dist = joint_distribution(board)
    white, black = line_tables()
    result: dict[str, Any] = {
        "p_white": p_white(board),
        "expected_qtris": {"white": float(dist @ white), "black": float(dist @ black)},
        "p_win": {"white": float(dist[white > black].sum()),
                  "black": float(dist[black > white].sum()),
                  "tie": float(dist[white == black].sum())},
        "kets": _kets(board),
        "tiles": _square_names(board),
    }
    if colors:
        if variant == "eve":
            team = white if colors[0] == "white" else black
            ab = np.maximum(team - 1, 0)
            result["eve"] = {"expected_alice_bob_points": float(dist @ ab),
                             "p_eve_point": float(dist[team < 2].sum()),
                             "expected_team_qtris": float(dist @ team)}
            result["expected_scores"] = [float(dist @ ab), float(dist[team < 2].sum()),
                                         float(dist @ ab)]
        else:
            table = {"white": white, "black": black}
            result["expected_scores"] = [float(dist @ table[c]) for c in colors]
            result["p_win_sides"] = [result["p_win"][c] for c in colors]
    return result


def win_metric(board: Board, colors: list[str], side: int, variant: str) -> float:
    """The quantity the strong bot maximises for ``side``: win probability (or, for eve,
    the team's expected set points), plus a small tie-break on expected score difference."""
    dist = joint_distribution(board)
    white, black = line_tables()
    if variant == "eve":
        team = white if colors[0] == "white" else black
        ab_points = float(dist @ np.maximum(team - 1, 0))
        eve_point = float(dist[team < 2].sum())
        diff = ab_points - eve_point
        return -diff if side == 1 else diff
    mine = white if colors[side] == "white" else black
    theirs = black if colors[side] == "white" else white
    return float(dist[mine > theirs].sum() - dist[mine < theirs].sum()) \
        + 0.05 * float(dist @ (mine - theirs))
