"""How to play QTris: the rules page (``guide.Guide``), in the words of ``docs/rules/qtris.md``.
Every card's example is a board given as an exercise (white circle, black circle, kittens) and
the card played by Alice, who plays White."""
from __future__ import annotations

from ..base import Action, gettext_noop
from ..guide import Example, Guide, Section

# squares 1-9: ○ ● ◐ ◑ / ○ ● ◐ ◑ / ○
BOARD = ["W", "B", "R", "L", "W", "B", "R", "L", "W"]


def _card(title: str, text: str, card: str, squares: list[int] | None = None,
          variant: str = "basic") -> Example:
    """Alice (White, to play) plays ``card`` on ``squares`` of ``BOARD``."""
    action: Action = {"card": card} if squares is None else {"card": card, "squares": squares}
    return Example(title, text, action=action, seat=0, variant=variant, view_seat=0, options={
        "board": BOARD, "hands": [[card, "H", "Z", "I"], ["I", "I", "I", "I"]],
        "first_seat": 0, "colors": ["white", "black"], "skip_mulligan": True})


GUIDE = Guide(sections=(
    Section(gettext_noop("Goal"), paragraphs=(
        gettext_noop("Each side plays a colour, white or black. At the end the board is measured and "
                     "every square becomes white or black; each qtris (three of your colour in a line) "
                     "scores a point. The side with more points wins; a tie is possible."),
    )),
    Section(gettext_noop("Board and tiles"), paragraphs=(
        gettext_noop("A 3×3 grid, squares 1–9 row by row. Each square is one qubit; the tile on it "
                     "shows its state."),
    ), items=(
        gettext_noop("White circle ○: |0⟩, always white. Black circle ●: |1⟩, always black."),
        gettext_noop("Kitten turned right ◐: |+⟩, and kitten turned left ◑: |−⟩: white or black "
                     "with chance ½ each."),
        gettext_noop("An entangled pair (yellow triangles) covers two squares: same orientation, the "
                     "two squares come out the same colour; opposite orientation, opposite colours."),
    )),
    Section(gettext_noop("A turn"), items=(
        gettext_noop("Each side gets 4 cards. Each side rolls a d10: the highest plays first and "
                     "chooses White or Black."),
        gettext_noop("Mulligan: each side may once discard any number of cards and draw as many."),
        gettext_noop("Then 5 turns each, in turn: draw 2 cards, then play 2 cards, each on a target "
                     "you choose."),
        gettext_noop("A card may be played only where the result is again a tile of the game; a card "
                     "with no such target may be discarded instead. I is always playable."),
    )),
    Section(gettext_noop("The cards"), paragraphs=(
        gettext_noop("Each card is a quantum gate played on one square (CX on two)."),
    ), sections=(
        Section("I", paragraphs=(gettext_noop("Nothing happens: a way to pass."),), examples=(
            _card(gettext_noop("I: a pass"), gettext_noop("Alice plays I: the board stays as it was, "
                                                           "and the card leaves her hand."), "I"),
        )),
        Section("X", paragraphs=(
            gettext_noop("X swaps white and black circles and leaves the kittens as they are."),
        ), examples=(
            _card(gettext_noop("X on a white circle"),
                  gettext_noop("X on square 5: the white circle becomes a black circle."), "X", [5]),
        )),
        Section("Z", paragraphs=(
            gettext_noop("Z swaps the two kittens and leaves the circles as they are."),
        ), examples=(
            _card(gettext_noop("Z on a kitten"),
                  gettext_noop("Z on square 3: the kitten turned right becomes the kitten turned left "
                               "(|+⟩ → |−⟩). Its chance of white is still ½."), "Z", [3]),
        )),
        Section("Y", paragraphs=(
            gettext_noop("Y does both: it swaps the circles and swaps the kittens."),
        ), examples=(
            _card(gettext_noop("Y on a kitten"),
                  gettext_noop("Y on square 3: the kitten turned right becomes the kitten turned left."),
                  "Y", [3]),
        )),
        Section("H", paragraphs=(
            gettext_noop("H swaps the white circle with the kitten turned right and the black circle "
                         "with the kitten turned left. H → Z → H acts as X."),
        ), examples=(
            _card(gettext_noop("H on a white circle"),
                  gettext_noop("H on square 1: the white circle becomes the kitten turned right, white "
                               "or black with chance ½."), "H", [1]),
        )),
        Section("CX", paragraphs=(
            gettext_noop("CX acts on two squares, a control and a target. Control white: nothing. Control "
                         "black: X on the target. Control a kitten, target a circle: an entangled pair."),
        ), examples=(
            _card(gettext_noop("CX makes an entangled pair"),
                  gettext_noop("CX with the kitten turned right on square 3 as control and the white circle "
                               "on square 5 as target: the two squares become one correlated pair, "
                               "(|00⟩+|11⟩)/√2."), "CX", [3, 5]),
        )),
        Section("U", paragraphs=(
            gettext_noop("Advanced rules: U adds a pink decoration to a tile, played again it removes it. "
                         "A decorated white circle is white with chance ¼."),
        ), examples=(
            _card(gettext_noop("U on a white circle"),
                  gettext_noop("U on square 1: the white circle gets the U decoration: white with chance ¼, "
                               "black with chance ¾."), "U", [1], variant="advanced"),
        )),
        Section("S", paragraphs=(
            gettext_noop("S expansion: S turns the kittens round, right → up → left → down → right."),
        ), examples=(
            _card(gettext_noop("S on a kitten"),
                  gettext_noop("S on square 3: the kitten turned right becomes the kitten turned up, "
                               "(|0⟩+i|1⟩)/√2. Its chance of white is still ½."), "S", [3],
                  variant="s-expansion"),
        )),
    )),
    Section(gettext_noop("Measurement and score"), paragraphs=(
        gettext_noop("After the last turn every square is measured, squares 1 to 9, with the exact "
                     "chances; a pair is measured as a whole. Each of the 8 lines all white scores 1 for "
                     "White, all black 1 for Black."),
    )),
    Section(gettext_noop("Variants"), items=(
        gettext_noop("Basic: white and black circles, kittens and pairs; no U card."),
        gettext_noop("Advanced: U cards in the deck; the board may start with pairs and decorated tiles."),
        gettext_noop("Noise: after each turn a d10 is rolled; on 1–9 that square is measured without "
                     "looking and becomes a mixture of its outcomes."),
        gettext_noop("S expansion: S cards, and the kittens turned up and down."),
        gettext_noop("Eve listens in: three sides, Alice and Bob together against Eve, who may once per "
                     "set discard 2 cards and measure a square in the basis she picks."),
        gettext_noop("Time is up: the board is measured as it stands and scored as at the normal end."),
    )),
))
