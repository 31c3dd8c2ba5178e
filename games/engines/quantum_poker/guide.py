"""How to play QuantumPoker: the rules page (``guide.Guide``), in the words of
``docs/rules/quantum-poker.md``. The examples are the first move of a real deal: Player 2 (seat 1,
the dealer's left) takes a community card, seen from Player 2's seat."""
from __future__ import annotations

from ..base import Action, gettext_noop
from ..guide import Example, Guide, Section

# seed 1 deals the community cards X, CX, SWAP, Y, H (in that order); seed 3 has Z third


def _play(title: str, text: str, action: Action, seed: int = 1, variant: str = "classic") -> Example:
    return Example(title, text, action=action, seat=1, seed=seed, variant=variant, view_seat=1)


MINE = {"seat": 1, "qubit": 0}      # Player 2's first qubit card (a hidden 0)
THEIRS = {"seat": 0, "qubit": 0}    # Player 1's first

GUIDE = Guide(sections=(
    Section(gettext_noop("Goal"), paragraphs=(
        gettext_noop("As in poker, win chips. A hand is won by the highest count: the number of your "
                     "qubit cards that show 1 at the showdown, a card with a doubled bet counting 2. You "
                     "steer your cards' values, and who sees them, with the community Pauli cards."),
    )),
    Section(gettext_noop("A hand"), items=(
        gettext_noop("Each player puts one chip on each of their 4 qubit cards, dealt face down: each is "
                     "0 or 1 with equal chance, and only its owner knows it."),
        gettext_noop("5 community Pauli cards are turned face up."),
        gettext_noop("In turn, each player takes one community card nobody has taken and applies it to a "
                     "qubit card. Every community card is applied, even where it has no effect."),
        gettext_noop("Showdown: every card is revealed, superposed cards collapse by a coin flip. The "
                     "highest count takes back their chips and collects the chips on the other players' "
                     "cards that came out 1; the chips on 0-cards go back to their owners."),
    )),
    Section(gettext_noop("The cards"), sections=(
        Section("X", paragraphs=(gettext_noop("On one of your own cards: flips the value (0 ↔ 1)."),),
                examples=(_play(gettext_noop("X on your own card"),
                                gettext_noop("Player 2 applies X to their first card: the hidden 0 becomes "
                                             "a 1."), {"card": 0, "target": MINE}),)),
        Section("Y", paragraphs=(gettext_noop("On one of your own cards: flips the value like X and turns "
                                              "the card over: hidden → shown (+i), shown → hidden (−i)."),),
                examples=(_play(gettext_noop("Y on a hidden card"),
                                gettext_noop("Player 2 applies Y to their first card: the value flips to 1 "
                                             "and everyone sees it now."), {"card": 3, "target": MINE}),)),
        Section("Z", paragraphs=(gettext_noop("On one of your own cards: the value stays; the bet is doubled "
                                              "(one more chip into the pot), or halved back."),),
                examples=(_play(gettext_noop("Z doubles a bet"),
                                gettext_noop("Player 2 applies Z to their first card: its bet is doubled; "
                                             "if it shows 1 at the showdown it counts 2."),
                                {"card": 2, "target": MINE}, seed=3),)),
        Section("H", paragraphs=(gettext_noop("On one of your own cards: lays it down in superposition, "
                                              "nobody knows a value any more. H on a superposed card "
                                              "collapses it at once: a coin flip."),),
                examples=(_play(gettext_noop("H puts a card in superposition"),
                                gettext_noop("Player 2 applies H to their first card: it is now superposed, "
                                             "0 or 1 with chance ½ at the showdown."),
                                {"card": 4, "target": MINE}),)),
        Section("CX", paragraphs=(gettext_noop("On another player's card: an X on it. In this game CX is not "
                                               "a two-qubit CNOT."),),
                examples=(_play(gettext_noop("CX on an opponent's card"),
                                gettext_noop("Player 2 applies CX to Player 1's first card: its value flips, "
                                             "and only Player 1 knows what it is now."),
                                {"card": 1, "target": THEIRS}),)),
        Section("SWAP", paragraphs=(gettext_noop("One of your cards and one of another player's change places, "
                                                 "with their value, visibility, bet and superposition."),),
                examples=(_play(gettext_noop("SWAP with an opponent"),
                                gettext_noop("Player 2 swaps their first card with Player 1's first card: "
                                             "Player 2 gives away a hidden 0 and gets a card they have not "
                                             "seen."), {"card": 2, "own": 0, "target": THEIRS}),)),
    )),
    Section(gettext_noop("Variants"), items=(
        gettext_noop("Classic: the showdown comes after the last community card is applied."),
        gettext_noop("Declared: on your turn, instead of taking a card, you may declare measurement: your "
                     "cards are laid face up, everyone has one last turn, then the showdown."),
        gettext_noop("Physics mode (a table option): every qubit card is a real qubit; H is the real "
                     "Hadamard, so H → Z → H flips the value for sure."),
        gettext_noop("Time is up: the hand in progress goes to showdown as it stands; the most chips win."),
    ), examples=(
        _play(gettext_noop("Declaring measurement"),
              gettext_noop("Player 2 declares: their cards are shown to everyone, and each player has one "
                           "last turn, Player 2 last."), {"declare": True}, variant="declared"),
    )),
))
