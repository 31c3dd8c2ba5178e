"""The texts of QTris's events (see games/engines/base.py): code -> English msgid."""
from __future__ import annotations

from games.engines.base import gettext_noop, message

EVENT_TEXTS = {
    "white": gettext_noop("white"),
    "black": gettext_noop("black"),
    "basis_color": gettext_noop("colour"),
    "basis_left-right": gettext_noop("left-right"),
    "basis_up-down": gettext_noop("up-down"),
    "draw": gettext_noop("%(side)s draws %(count)s card(s)"),
    "draw_deck_empty": gettext_noop("%(side)s draws %(count)s card(s) (the deck is empty)"),
    "turn": gettext_noop("turn %(turn)s: %(side)s"),
    "no_noise": gettext_noop("%(side)s rolled 10 on the d10: no noise"),
    "noise": gettext_noop("%(side)s rolled %(d10)s on the d10: square %(square)s is measured without looking"),
    "eve_set_score": gettext_noop("set %(set)s: Alice and Bob made %(team)s qtris → +%(ab)s for them, "
                                  "+%(eve)s for Eve (total %(total)s)"),
    "score": gettext_noop("qtris: white %(white)s, black %(black)s"),
    "new_set": gettext_noop("set %(set)s begins on a new board"),
    "roll": gettext_noop("%(side)s rolled %(d10)s on the d10"),
    "tie": gettext_noop("tie for the highest roll: roll again"),
    "order": gettext_noop("%(side)s plays first"),
    "plays_white": gettext_noop("%(side)s plays white"),
    "plays_black": gettext_noop("%(side)s plays black"),
    "mulligan": gettext_noop("%(side)s discards %(count)s card(s)"),
    "discard": gettext_noop("%(side)s discards %(card)s (no legal target)"),
    "play": gettext_noop("%(side)s plays %(card)s"),
    "play_on": gettext_noop("%(side)s plays %(card)s on square %(square)s"),
    "play_cx": gettext_noop("%(side)s plays %(card)s with control %(control)s and target %(target)s"),
    "certain": gettext_noop("certain, no roll"),
    "rolled_d100": gettext_noop("rolled %(d100)s on the d100"),
    "eve_measure": gettext_noop("Eve discards 2 cards and measures square(s) %(squares)s in the %(basis)s "
                                "basis: %(how)s → %(result)s"),
    "square": gettext_noop("square %(square)s"),
    "squares": gettext_noop("squares %(a)s and %(b)s"),
    "measure_certain": gettext_noop("%(where)s: certain, no roll → %(colours)s"),
    "measure_off_table": gettext_noop("%(where)s: an outcome too unlikely for the d100 table → %(colours)s"),
    "measure_roll": gettext_noop("%(where)s: rolled %(d100)s on the d100 → %(colours)s"),
}


def colour(name: str) -> dict:
    """"white" / "black" as a translatable event parameter."""
    return message(name)
