"""How to play Entanglion: the rules page (``guide.Guide``), in the words of
``docs/rules/entanglion.md``. Every example is a position given as an exercise (where the ships
are, the hands) and one action of Mercurial or Rubicon."""
from __future__ import annotations

from ..base import Action, gettext_noop
from ..guide import Example, Guide, Section

HANDS = [["X", "H", "SWAP"], ["CNOT", "H", "X"]]


def _move(title: str, text: str, mercurial: str, rubicon: str, action: Action, seat: int = 0,
          hands: list[list[str]] = HANDS, **options) -> Example:
    """``seat`` (0 Mercurial, 1 Rubicon) acts first, the ships on ``mercurial`` and ``rubicon``."""
    return Example(title, text, action=action, seat=seat, seed=1, view_seat=seat, options={
        "ships": {"mercurial": mercurial, "rubicon": rubicon}, "hands": hands, "first": seat, **options})


INSIDE = [["CNOT", "H", "SWAP"], ["CNOT", "H", "X"]]

GUIDE = Guide(sections=(
    Section(gettext_noop("Goal"), paragraphs=(
        gettext_noop("A co-operative game for two: you win or lose together. Fly two spaceships, two "
                     "qubits, through a galaxy of quantum states and recover the 8 quantum components "
                     "before the enemy's detection rate reaches the top of its track."),
        gettext_noop("Player 1 flies Mercurial (blue), Player 2 Rubicon (red). Hands are open: both "
                     "partners see every card."),
    )),
    Section(gettext_noop("Planets"), items=(
        gettext_noop("Centarious (purple): ZERO |0⟩ and ONE |1⟩."),
        gettext_noop("Superious (green): PLUS |+⟩ and MINUS |−⟩."),
        gettext_noop("Entanglion (yellow): eight entangled two-qubit states, the four Bell states and the "
                     "four OMEGA planets, each holding a component at the start. Inside Entanglion both "
                     "ships always share one planet."),
    )),
    Section(gettext_noop("A turn"), paragraphs=(
        gettext_noop("Take exactly one action; passing is not allowed."),
    ), items=(
        gettext_noop("Navigate: play an engine card for your own ship, move along the board's path for "
                     "that card, and draw back up to 3 cards."),
        gettext_noop("Exchange: discard one engine card and draw one."),
        gettext_noop("Retrieve: take the component of the Entanglion planet you orbit, if the ground "
                     "defense does not see you."),
        gettext_noop("Event: play a quantum event card you kept."),
        gettext_noop("Each card played fills one of 6 engine-control slots; when the 6th fills, a "
                     "quantum event happens at the end of the turn."),
        gettext_noop("Defenses: arriving at a new Entanglion planet, or retrieving, rolls the d8; it must "
                     "be greater than the detection rate. Detected on arrival: both ships go back to "
                     "Centarious, the detection rate goes up and a quantum event happens. A failed "
                     "retrieval: the detection rate goes up and the ships stay."),
    )),
    Section(gettext_noop("The engine cards"), paragraphs=(
        gettext_noop("A card played where the board has no path for your ship is legal and does nothing."),
    ), sections=(
        Section("X", paragraphs=(gettext_noop("Moves your ship between ZERO and ONE; on PLUS or MINUS it "
                                              "does nothing."),),
                examples=(_move(gettext_noop("X from ZERO"), gettext_noop("Mercurial plays X: ZERO → ONE."),
                                "ZERO", "ZERO", {"play": "X"}),)),
        Section("H", paragraphs=(gettext_noop("Moves your ship between ZERO and PLUS, or between ONE and "
                                              "MINUS; inside Entanglion it moves both ships to another "
                                              "entangled planet."),),
                examples=(_move(gettext_noop("H from ZERO"),
                                gettext_noop("Mercurial plays H: ZERO → PLUS, a superposition."),
                                "ZERO", "ONE", {"play": "H"}),)),
        Section("CNOT", paragraphs=(gettext_noop("Your ship in Centarious and the other in Superious: both "
                                                 "ships enter Entanglion. On a Bell planet it takes them out "
                                                 "again: yours to Centarious, the other to Superious."),),
                examples=(
                    _move(gettext_noop("CNOT enters Entanglion"),
                          gettext_noop("Rubicon on ZERO plays CNOT while Mercurial is on PLUS: both ships "
                                       "go to PHI PLUS, (|00⟩+|11⟩)/√2, and the orbital defense rolls."),
                          "PLUS", "ZERO", {"play": "CNOT"}, seat=1),
                    _move(gettext_noop("CNOT leaves Entanglion"),
                          gettext_noop("Both ships on PHI PLUS, Mercurial plays CNOT: Mercurial goes to "
                                       "ZERO, Rubicon to PLUS."),
                          "PHI PLUS", "PHI PLUS", {"play": "CNOT"}, hands=INSIDE),
                )),
        Section("SWAP", paragraphs=(gettext_noop("Outside Entanglion the ships exchange places; inside, it "
                                                 "moves them between OMEGA ZERO and OMEGA THREE."),),
                examples=(_move(gettext_noop("SWAP outside Entanglion"),
                                gettext_noop("Mercurial on ZERO plays SWAP with Rubicon on MINUS: Mercurial "
                                             "goes to MINUS, Rubicon to ZERO."),
                                "ZERO", "MINUS", {"play": "SWAP"}),)),
        Section("PROBE", paragraphs=(gettext_noop("Never held: when it is drawn the player rolls the d8; "
                                                  "below 4, detection +1. Then another card is drawn."),),
                examples=(_move(gettext_noop("PROBE drawn"),
                                gettext_noop("Mercurial plays H and draws PROBE: the d8 roll decides whether "
                                             "the detection rate goes up, then Mercurial draws again."),
                                "ZERO", "ONE", {"play": "H"}, engine_stack=["PROBE", "X"]),)),
    )),
    Section(gettext_noop("Components"), paragraphs=(
        gettext_noop("A component works for the ship that holds it: some help (a better die roll, a "
                     "choice where to land), two hinder. Victory counts the components of both ships."),
    ), examples=(
        _move(gettext_noop("Retrieving a component"),
              gettext_noop("The ships orbit PHI PLUS. Mercurial retrieves: the d8 beats the detection "
                           "rate, so the component goes onto Mercurial's ship."),
              "PHI PLUS", "PHI PLUS", {"retrieve": True}, hands=INSIDE),
    )),
    Section(gettext_noop("Variants"), items=(
        gettext_noop("Easy: the detection rate starts on 1."),
        gettext_noop("Hard: the detection rate starts on 3."),
        gettext_noop("Won at once when the two ships hold all 8 components; lost at once when the "
                     "detection rate reaches the top of its track."),
        gettext_noop("Time is up: the mission ends where it stands, not won."),
    )),
))
