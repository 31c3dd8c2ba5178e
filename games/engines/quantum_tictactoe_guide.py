"""How to play quantum tic-tac-toe: the rules page (``guide.Guide``), in the words of
``docs/rules/quantum-tictactoe.md``."""
from __future__ import annotations

from .base import gettext_noop
from .guide import Example, Guide, Section

GUIDE = Guide(sections=(
    Section(gettext_noop("Goal"), paragraphs=(
        gettext_noop("Get three of your own classical marks in a row (a row, a column or a diagonal), "
                     "and get it earlier than your opponent."),
        gettext_noop("Two players: X moves first, then O. Moves are numbered 1, 2, 3… across the "
                     "whole game; a game has at most 9 moves. Squares are numbered 1–9 row by row."),
    )),
    Section(gettext_noop("A turn"), paragraphs=(
        gettext_noop("Put the two spooky marks of your move (for example X3) into two different "
                     "squares that are not classical. The two squares are now entangled by that move: "
                     "the mark will end up in exactly one of them."),
    ), items=(
        gettext_noop("A spooky mark is a mark in superposition over two squares."),
        gettext_noop("A classical square is fixed for the rest of the game and takes no more marks."),
    ), examples=(
        Example(gettext_noop("A spooky mark"),
                gettext_noop("X puts move 1 on squares 1 and 5: X1 is in both squares until a "
                             "measurement decides."),
                action={"squares": [1, 5]}, seat=0),
    )),
    Section(gettext_noop("Cycles and collapse (the measurement)"), paragraphs=(
        gettext_noop("A move that closes a cycle of entangled squares must be measured before anything "
                     "else happens. Two moves on the same two squares are a cycle too."),
        gettext_noop("The player who did not close the cycle decides: they choose which of its two "
                     "squares the closing move's mark goes to. That square becomes classical, every "
                     "other mark in it is forced into its other square, and so on: every move of the "
                     "cycle, and every chain hanging off it, is resolved."),
    ), examples=(
        Example(gettext_noop("A cycle with a chain hanging off it"),
                gettext_noop("X1 on 1–4, O2 on 1–5, X3 on 4–8, O4 on 8–1: O4 closes the cycle 1–4–8, "
                             "so X chooses. O4 goes to 8: X3 is forced to 4, X1 to 1, and O2, the "
                             "chain, to 5."),
                moves=((0, {"squares": [1, 4]}), (1, {"squares": [1, 5]}),
                       (0, {"squares": [4, 8]}), (1, {"squares": [1, 8]})),
                action={"collapse": 8}, seat=0),
    )),
    Section(gettext_noop("Lines and the score"), items=(
        gettext_noop("Lines are looked for after every collapse. The game ends as soon as there is a line."),
        gettext_noop("A line's time is the highest move number among its three marks. Every line of the "
                     "earliest time scores 1 for its owner, every later line scores ½."),
        gettext_noop("Move 9: when eight squares are classical and nobody has a line, X puts both marks "
                     "of move 9 into the one open square, which becomes classical at once."),
        gettext_noop("A full board with no line is a draw. The higher score wins."),
    ), examples=(
        Example(gettext_noop("A collapse that makes a line"),
                gettext_noop("X5 closes a cycle and O chooses square 9 for it: X5 goes to 9, X1 to 5, "
                             "X3 to 1. X has the line 1–5–9 and wins 1–0."),
                moves=((0, {"squares": [3, 5]}), (1, {"squares": [3, 4]}), (0, {"squares": [1, 3]}),
                       (1, {"squares": [4, 9]}), (0, {"squares": [3, 9]})),
                action={"collapse": 9}, seat=1),
    )),
    Section(gettext_noop("Variants"), paragraphs=(
        gettext_noop("One variant, the basic game. Everything in it is public."),
        gettext_noop("Time is up: a cycle waiting to collapse collapses by chance, then the board is "
                     "scored as it stands; marks that are still spooky score nothing."),
    )),
))
