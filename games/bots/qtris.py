"""QTris bots. They decide from ``view`` (board + own hand) and the legal actions only.

* ``random``: uniform over the legal actions.
* ``strong``: for every legal play this turn, rebuilds the board from the view, plays it on a
  copy and scores the result exactly (all 512 outcomes): win probability minus loss
  probability plus a small expected-score tie-break (eve: the team's expected set points minus
  Eve's point, negated for Eve; Eve's measurement is valued as the average over its outcomes).
  Colour choice: the colour with the better current odds. Mulligan: discard the I cards.
"""
from __future__ import annotations

import random

from games.bots.common import RandomBot
from games.engines import Action
from games.engines.qtris import board_from_view, play_on_board, win_metric
from games.engines.qtris.board import component_index, make_component, measure_component, sort_board
from games.engines.qtris.tiles import tile_set


class StrongBot:
    label = "Strong (exact expectation)"

    def choose(self, view: dict, legal: list[Action], rng: random.Random) -> Action:
        first = legal[0]
        if "roll" in first:
            return first
        board = board_from_view(view)
        variant = view["variant"]
        side = view["side"]
        if "color" in first:
            white = win_metric(board, ["white", "black"], 0, variant)
            return {"color": "white" if white >= 0 else "black"}
        if "mulligan" in first:
            hand = view["hand"] or []
            want = [i for i, c in enumerate(hand) if c == "I"]
            return next((a for a in legal if a["mulligan"] == want), legal[0])
        colors = view["colors"]
        best, best_value = legal[0], float("-inf")
        seen: dict[str, float] = {}
        for action in legal:
            key = repr(action.get("card")), repr(action.get("squares")), repr(action.get("eve_measure"))
            if key in seen:
                value = seen[key]
            else:
                value = self._value(board, variant, colors, side, action)
                seen[key] = value
            if value > best_value + 1e-12:
                best, best_value = action, value
        return best

    @staticmethod
    def _value(board, variant: str, colors: list[str], side: int, action: Action) -> float:
        if "eve_measure" in action:
            spec = action["eve_measure"]
            i = component_index(board, spec["squares"][0])
            comp = board[i]
            total = 0.0
            for _bits, p, post in measure_component(comp, spec["squares"], spec["basis"],
                                                    tile_set(variant)):
                new = sort_board(board[:i] + board[i + 1:] + make_component(comp["squares"], post))
                total += float(p) * win_metric(new, colors, side, variant)
            return total - 1e-3  # measuring costs two cards
        if action.get("discard") or action.get("card") == "I":
            return win_metric(board, colors, side, variant) - 1e-6
        new = play_on_board(board, variant, action["card"], action["squares"])
        if new is None:
            return float("-inf")
        return win_metric(new, colors, side, variant)


BOTS = {"random": RandomBot(), "strong": StrongBot()}
