"""The texts of QTris's events (see games/engines/base.py): code -> English msgid."""
from __future__ import annotations

from games.engines.base import gettext_noop, message, ngettext_lazy

EVENT_TEXTS = {
    "white": gettext_noop("white"),
    "black": gettext_noop("black"),
    "basis_color": gettext_noop("colour"),
    "basis_left-right": gettext_noop("left-right"),
    "basis_up-down": gettext_noop("up-down"),
    "draw": ngettext_lazy("%(side)s draws %(count)s card", "%(side)s draws %(count)s cards"),
    "draw_deck_empty": ngettext_lazy("%(side)s draws %(count)s card (the deck is empty)",
                                     "%(side)s draws %(count)s cards (the deck is empty)"),
    "turn": gettext_noop("turn %(turn)s: %(side)s"),
    "no_noise": gettext_noop("%(side)s rolled 10 on the d10: no noise"),
    "noise": gettext_noop("%(side)s rolled %(d10)s on the d10: square %(square)s is measured without looking"),
    "eve_set_score": gettext_noop("set %(set)s: Alice and Bob made %(team)s qtris → +%(ab)s for them, "
                                  "+%(eve)s for Eve (total %(total)s)"),
    "score": gettext_noop("qtris: white %(white)s, black %(black)s"),
    "time_up": gettext_noop("Time is up: the board is measured as it stands and scored."),
    "time_up_colors": gettext_noop("Time is up before the colours were chosen: a coin gives "
                                   "%(side)s white."),
    "new_set": gettext_noop("set %(set)s begins on a new board"),
    "roll": gettext_noop("%(side)s rolled %(d10)s on the d10"),
    "tie": gettext_noop("tie for the highest roll: roll again"),
    "order": gettext_noop("%(side)s plays first"),
    "plays_white": gettext_noop("%(side)s plays white"),
    "plays_black": gettext_noop("%(side)s plays black"),
    "mulligan": ngettext_lazy("%(side)s discards %(count)s card", "%(side)s discards %(count)s cards"),
    "discard": gettext_noop("%(side)s discards %(card)s (no legal target)"),
    "play": gettext_noop("%(side)s plays %(card)s"),
    "play_on": gettext_noop("%(side)s plays %(card)s on square %(square)s"),
    "play_cx": gettext_noop("%(side)s plays %(card)s with control %(control)s and target %(target)s"),
    "certain": gettext_noop("certain, no roll"),
    "rolled_d100": gettext_noop("rolled %(d100)s on the d100"),
    "eve_measure": ngettext_lazy("Eve discards 2 cards and measures square %(squares)s in the %(basis)s "
                                 "basis: %(how)s → %(result)s",
                                 "Eve discards 2 cards and measures squares %(squares)s in the %(basis)s "
                                 "basis: %(how)s → %(result)s", "#squares"),
    "square": gettext_noop("square %(square)s"),
    "squares": gettext_noop("squares %(a)s and %(b)s"),
    "measure_certain": gettext_noop("%(where)s: certain, no roll → %(colours)s"),
    "measure_off_table": gettext_noop("%(where)s: an outcome too unlikely for the d100 table → %(colours)s"),
    "measure_roll": gettext_noop("%(where)s: rolled %(d100)s on the d100 → %(colours)s"),
    # teaching moments (moments.py)
    "moment_sequence": gettext_noop("Square %(square)s: %(cards)s acts as %(gate)s — it turned %(before)s "
                                    "into %(after)s"),
    "moment_sequence_back": gettext_noop("Square %(square)s: %(cards)s acts as %(gate)s — it is %(after)s "
                                         "again"),
    "moment_bell_pair": gettext_noop("CX on squares %(control)s and %(target)s made a Bell pair: "
                                     "%(how)s"),
    "moment_correlated": gettext_noop("their colours will come out the same"),
    "moment_anticorrelated": gettext_noop("their colours will come out opposite"),
    "moment_against_odds": gettext_noop("Against the odds: %(where)s came out %(colours)s, an outcome "
                                        "with a %(percent)s%% chance"),
}


def colour(name: str) -> dict:
    """"white" / "black" as a translatable event parameter."""
    return message(name)


# The explanation of a card play ("the board that teaches", preview.explain_play): sentences
# as messages, rendered in the reader's language by games.event_text.localize_explain.
EXPLAIN_TEXTS = {
    "card_I": gettext_noop("The I card does nothing: it is a way to pass."),
    # X swaps a tile's white and black halves: a kitten turned right stays, one turned left only
    # gets a sign −1, a kitten up becomes a kitten down (so "X leaves a kitten as it is" only
    # where there are no kittens up or down)
    "card_X": gettext_noop("X is the “change colour” card: white becomes black and black becomes white. "
                           "A kitten (half-black circle) stays as it is: X swaps its white and black "
                           "halves, which leaves a kitten turned right unchanged and only multiplies a "
                           "kitten turned left by −1, a sign no measurement can see."),
    "card_X_s": gettext_noop("X is the “change colour” card: white becomes black and black becomes white. "
                             "It swaps a kitten's white and black halves: a kitten turned right or left "
                             "stays as it is (at most its sign changes, which no measurement can see), "
                             "and a kitten up becomes a kitten down, and back."),
    "card_Y": gettext_noop("Y changes both the colour and the orientation: white ↔ black, and a kitten turns "
                           "from right to left (or back)."),
    "card_Y_s": gettext_noop("Y changes both the colour and the orientation: white ↔ black, and a kitten "
                             "turns from right to left (or back); a kitten up or down stays as it is."),
    "card_Z": gettext_noop("Z is the “change orientation” card: a kitten turned right turns left and back — "
                           "the sign between its white and black halves flips, and the H card can turn that "
                           "sign into a colour. White and black circles do not change."),
    "card_Z_s": gettext_noop("Z is the “change orientation” card: a kitten turned right turns left and back, "
                             "a kitten up turns down and back — the sign between its white and black halves "
                             "changes, and the H card can turn the right/left sign into a colour. White and "
                             "black circles do not change."),
    "card_H": gettext_noop("H swaps colour and orientation: white ↔ kitten turned right, black ↔ kitten turned "
                           "left. From a kitten, H gives a sure colour: a superposition can be turned into "
                           "certainty, a bag of mixed tiles cannot."),
    "card_H_s": gettext_noop("H swaps colour and orientation: white ↔ kitten turned right, black ↔ kitten "
                             "turned left, and a kitten up ↔ a kitten down. From a kitten turned right or "
                             "left, H gives a sure colour: a superposition can be turned into certainty, a "
                             "bag of mixed tiles cannot."),
    "card_S": gettext_noop("S gives a kitten a quarter turn: right → up → left → down → right. "
                           "White and black do not change."),
    "card_U": gettext_noop("U puts a pink U decoration under the tile (or takes it away: U twice is nothing). "
                           "A decorated tile is a lopsided superposition: U·white is white 25%% of the time, "
                           "U·black 75%%, U·kitten-right 93%%, U·kitten-left 7%%."),
    "card_CX": gettext_noop("CX (controlled-X) acts on two squares, a control and a target: it plays X on the "
                            "target when the control is black, and nothing when the control is white."),
    # what the CX did, case by case (after card_CX; for a mixture, each case met by one of its tiles)
    "cx_mixture": gettext_noop("The squares hold a mixture: CX acts on each of its tiles on its own."),
    "cx_white": gettext_noop("The control is white: nothing happens."),
    "cx_black": gettext_noop("The control is black: the target gets an X."),
    "cx_entangle_same": gettext_noop("The control is a kitten, white and black at once, and the target has a "
                                     "sure colour: the two squares become an entangled pair (yellow "
                                     "triangles), whose colours will come out the same when measured."),
    "cx_entangle_opposite": gettext_noop("The control is a kitten, white and black at once, and the target has "
                                         "a sure colour: the two squares become an entangled pair (yellow "
                                         "triangles), whose colours will come out opposite when measured."),
    "cx_target_right": gettext_noop("The target is a kitten turned right, which X leaves exactly as it is: "
                                    "nothing happens to either square, and nothing is entangled."),
    "cx_kickback": gettext_noop("The target is a kitten turned left, which X only multiplies by −1; with a "
                                "kitten as control that sign lands on the control (phase kick-back): the "
                                "control kitten turns the other way (right ↔ left, up ↔ down), the target "
                                "stays as it is, and nothing is entangled."),
    "cx_separate": gettext_noop("CX on the two squares of a pair undoes the entanglement: the pair becomes "
                                "two single tiles."),
    "frame": gettext_noop("The square is U-decorated, so the card acts on the tile under the pink "
                          "decoration: the physical operation is U·%(gate)s·U and the decoration stays."),
    "frame_some": gettext_noop("Some tiles of the mixture on the square are U-decorated: on those the card "
                               "acts on the tile under the pink decoration (the physical operation "
                               "U·%(gate)s·U), on the others it is %(gate)s itself."),
    "pair_h_add": gettext_noop("H on a square of a pair adds the red H decoration to the pair: now all four "
                               "colour outcomes are equally likely."),
    "pair_h_remove": gettext_noop("H on a square of an H-decorated pair takes the red decoration away: the "
                                  "pair's colours are correlated (or anti-correlated) again."),
    "eve_color": gettext_noop("Eve looked in the colour basis: each square she measured now holds the "
                              "colour she saw, white or black for sure; a superposition of white and black "
                              "there is gone."),
    "eve_left-right": gettext_noop("Eve looked in the left-right basis: each square she measured now holds "
                                   "the kitten she saw, turned right or left. That kitten is still white and "
                                   "black at once: its colour is left to chance at the final measurement (an "
                                   "H would make it sure)."),
    "eve_up-down": gettext_noop("Eve looked in the up-down basis: each square she measured now holds the "
                                "kitten she saw, up or down. That kitten is still white and black at once: "
                                "its colour is left to chance at the final measurement."),
    "stays": gettext_noop("Square %(square)s: the %(tile)s stays as it is."),
    "becomes": gettext_noop("Square %(square)s: the %(before)s becomes the %(after)s."),
    "becomes_same": gettext_noop("Square %(square)s: the %(before)s becomes the %(after)s — other "
                                 "tiles for the same state: no measurement can tell them apart."),
    "chance_white": gettext_noop("Chance that square %(square)s comes out white: %(before)s%% → %(after)s%%."),
    "control_target": gettext_noop("Control: square %(control)s, target: square %(target)s."),
    "no_target": gettext_noop("The %(card)s card has no legal target: discarding it leaves the board as it is."),
    "tile_W": gettext_noop("white circle"),
    "tile_B": gettext_noop("black circle"),
    "tile_R": gettext_noop("kitten turned right"),
    "tile_L": gettext_noop("kitten turned left"),
    "tile_UP": gettext_noop("kitten up"),
    "tile_DOWN": gettext_noop("kitten down"),
    "tile_phi+": gettext_noop("correlated pair (+)"),
    "tile_phi-": gettext_noop("correlated pair (−)"),
    "tile_psi+": gettext_noop("anti-correlated pair (+)"),
    "tile_psi-": gettext_noop("anti-correlated pair (−)"),
    "u_decorated": gettext_noop("U-decorated %(name)s"),
    "h_decorated": gettext_noop("H-decorated %(name)s"),
    "u_first": gettext_noop("%(name)s, U-decorated on its first square"),
    "u_second": gettext_noop("%(name)s, U-decorated on its second square"),
    "tiles_and": gettext_noop("%(a)s and %(b)s"),
    "mixture_of": gettext_noop("mixture of %(members)s"),
    "member": gettext_noop("%(name)s (%(weight)s)"),
    "with_square": gettext_noop("%(name)s (with square %(other)s)"),
}
EVENT_TEXTS.update(EXPLAIN_TEXTS)
