"""QuantumPoker's texts: the event msgids and the translatable parameters (players, qubits, coins)."""
from __future__ import annotations

from ..base import (
    gettext_noop,
    message,
)

# --------------------------------------------------------------------------- small helpers

def _player(seat: int) -> dict:
    """"Player 1" as a translatable event parameter."""
    return message("player", number=seat + 1)


def _qubit_of(actor: int, owner: int, qubit: int) -> dict:
    """"their qubit 2" / "Player 3's qubit 2" as a translatable event parameter."""
    if actor == owner:
        return message("their_qubit", qubit=qubit + 1)
    return message("players_qubit", player=_player(owner), qubit=qubit + 1)


def _coin(heads: bool, value: int) -> dict:
    return message("coin_outcome", side=message("heads" if heads else "tails"), value=value)


# The texts of the events (see games/engines/base.py): code -> English msgid.
EVENT_TEXTS = {
    "player": gettext_noop("Player %(number)s"),
    "their_qubit": gettext_noop("their qubit %(qubit)s"),
    "players_qubit": gettext_noop("%(player)s's qubit %(qubit)s"),
    "heads": gettext_noop("heads"),
    "tails": gettext_noop("tails"),
    "coin_outcome": gettext_noop("%(side)s → %(value)s"),
    "declare": gettext_noop("%(player)s declares measurement and lays their cards face up (superposed "
                            "ones stay superposed): everyone, %(player)s included, gets one last "
                            "turn, starting at %(first)s; then showdown."),
    "hand_start": gettext_noop("Hand %(hand)s: %(dealer)s deals 4 qubit cards face down to each player."),
    "sit_out": gettext_noop("%(player)s has fewer than %(ante)s chips and sits out."),
    "ante": gettext_noop("%(player)s puts one chip on each qubit card (%(ante)s chips)."),
    "community": gettext_noop("Community Pauli cards revealed: %(cards)s."),
    "turn": gettext_noop("%(player)s to play."),
    "last_turn": gettext_noop("%(player)s: last turn."),
    "swap": gettext_noop("%(player)s applied SWAP: their qubit %(own)s and %(target)s change places "
                         "(value, visibility, bet and superposition go with the cards)."),
    "play": gettext_noop("%(player)s applied %(gate)s to %(target)s: %(effect)s"),
    "cx_is_x": gettext_noop("CX in this game is an X on another player's card, not a two-qubit "
                            "CNOT: %(effect)s"),
    "x_superposed_physics": gettext_noop("X on a superposed qubit does nothing (X|+⟩ = |+⟩, "
                                         "X|−⟩ = −|−⟩: at most a global sign)."),
    "x_flip_physics": gettext_noop("the value flips (X|0⟩ = |1⟩, X|1⟩ = |0⟩)."),
    "x_superposed": gettext_noop("X on a superposed qubit does nothing."),
    "x_flip": gettext_noop("the value flips."),
    "now_shown": gettext_noop("now shown"),
    "now_hidden": gettext_noop("now hidden"),
    "mnemonic_show": gettext_noop("(the simplified game's mnemonic calls this +i, show)"),
    "mnemonic_hide": gettext_noop("(the simplified game's mnemonic calls this −i, hide)"),
    "y_superposed_physics": gettext_noop("it is %(vis)s %(mnemonic)s; the real Y turns |+⟩ into "
                                         "−i|−⟩ and |−⟩ into i|+⟩: the phase "
                                         "between |0⟩ and |1⟩ flips."),
    "y_flip_physics": gettext_noop("the value flips, Y|0⟩ = i|1⟩ and Y|1⟩ = −i|0⟩ "
                                   "(a phase ±i on the amplitude), and it is %(vis)s %(mnemonic)s."),
    "now_shown_i": gettext_noop("now shown (+i)"),
    "now_hidden_i": gettext_noop("now hidden (−i)"),
    "y_superposed": gettext_noop("on a superposed qubit only the visibility toggles: %(vis)s."),
    "y_flip": gettext_noop("the value flips and it is %(vis)s."),
    "z_note_superposed": gettext_noop(" The real Z turns |+⟩ into |−⟩ and |−⟩ "
                                      "into |+⟩: that phase decides what a later H gives."),
    "z_note_basis": gettext_noop(" The real Z leaves |0⟩ and |1⟩ as they are "
                                 "(Z|1⟩ = −|1⟩, only a sign)."),
    "z_halve": gettext_noop("the bet is halved; the bet travels with the card, so the chip goes back "
                            "to its current owner, %(owner)s's stack.%(note)s"),
    "z_double": gettext_noop("the bet is doubled (one more chip into the pot).%(note)s"),
    "z_no_chip": gettext_noop("no chip left in %(owner)s's stack to double the bet, so the bet "
                              "stays normal.%(note)s"),
    "hh_identity": gettext_noop("H·H = I: a second H with nothing between restores the value"),
    "hh_flips": gettext_noop("%(law)s: %(what)s between two H flips the value"),
    "a_gate": gettext_noop("a %(gate)s"),
    # a sequence of cards in the order played, with arrows: H → Z → X → H
    "hh_flips_many": gettext_noop("H → %(gates)s → H flips the value: between the two H, "
                                  "%(gates)s swaps |+⟩ and |−⟩ an odd number of times (a Z or "
                                  "a Y swaps them, an X does not)"),
    "hh_cancel": gettext_noop("H → %(gates)s → H leaves the value as it was before the first H: "
                              "between the two H, %(gates)s swaps |+⟩ and |−⟩ an even number of "
                              "times (a Z or a Y swaps them, an X does not)"),
    "face_down_paren": gettext_noop(" (face down)"),
    "h_flip_physics": gettext_noop("%(why)s; it has a definite value again%(face)s, the opposite of "
                                   "the value before the first H."),
    "h_restore_physics": gettext_noop("%(why)s; it has a definite value again%(face)s, the same as "
                                      "the value before the first H."),
    "h_superpose_physics": gettext_noop("it is now in superposition (laid down on the table): "
                                        "H|0⟩ = |+⟩, H|1⟩ = |−⟩; the value is "
                                        "not lost, it is in the phase."),
    "h_superpose_face_up": gettext_noop("it is now in superposition (laid down face up); its value is gone."),
    "h_superpose_face_down": gettext_noop("it is now in superposition (laid down face down); its value "
                                          "is gone."),
    "h_coin_shown": gettext_noop("H on a superposed qubit collapses it: coin flip %(outcome)s."),
    "h_coin_hidden": gettext_noop("H on a superposed qubit collapses it: a coin is flipped out of sight "
                                  "and the card stays face down."),
    "coin": gettext_noop("Coin flip: %(outcome)s."),
    "your_coin": gettext_noop("Your coin flip: %(outcome)s."),
    "showdown": gettext_noop("Showdown: every qubit card is revealed."),
    "measure": gettext_noop("Measuring %(target)s (P(1) = %(p1).2f): %(value)s."),
    "moment_against_odds": gettext_noop("Against the odds at the showdown: all %(n)s superposed cards of "
                                        "%(player)s came out %(value)s, a %(percent)s%% chance."),
    "showdown_coin": gettext_noop("Coin flip for %(player)s's superposed qubit %(qubit)s: %(outcome)s."),
    "score": gettext_noop("%(player)s shows %(values)s and scores %(score)s."),
    "one_point": gettext_noop("%(n)s point"),
    "points": gettext_noop("%(n)s points"),
    "wins_pot": gettext_noop("%(names)s wins the pot of %(pot)s chips with %(points)s."),
    "split_pot": gettext_noop("%(names)s tie on %(points)s and split the pot of %(pot)s chips (%(parts)s)."),
    "wins_ones": gettext_noop("%(names)s wins with %(points)s: takes back their own %(back)s chips and "
                              "collects the %(collected)s chips on the other players' qubits that "
                              "measured 1%(rest)s."),
    "share_ones": gettext_noop("%(names)s tie on %(points)s: each takes back their own chips and they "
                               "share the %(collected)s chips on the other players' qubits that "
                               "measured 1 (%(parts)s in all)%(rest)s."),
    "zeros_back": gettext_noop("; the chips on the others' 0-qubits (%(returned)s) go back to their owners"),
    "match_end": gettext_noop("The match is over (%(why)s): %(leaders)s with %(top)s chips."),
    "all_hands_played": gettext_noop("all hands are played"),
    "cannot_ante": gettext_noop("fewer than two players can ante"),
    "time_up": gettext_noop("Time is up: the hand in progress goes to showdown as it stands."),
    "time_up_reason": gettext_noop("time is up"),
    # the physics-mode teaching note of a simplified hand (``note`` beside ``note_message``)
    "last_h_superposition": gettext_noop("the last H leaves it in superposition"),
    "then": gettext_noop("%(a)s; %(b)s"),
    "note_erased": gettext_noop("The H that erased this value did not really: in physics mode %(story)s, "
                                "so it would be %(value)s for sure."),
    "note_definite": gettext_noop("In physics mode this qubit has a definite value: in physics mode "
                                  "%(story)s, so it would be %(value)s for sure."),
    "note_chance": gettext_noop("In physics mode %(story)s: both modes leave this to chance (50/50)."),
}
