"""A position of a match (after ``action_number`` actions) as a circuit with a scorer."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext, ngettext

from games.engines import abilities_of
from games.models import Match
from games.selectors import state_at
from simulator.scoring import NotScorable, Scorer, scorer_for


@dataclass
class Position:
    match: Match
    action_number: int
    state: Any
    circuit: Any
    scorer: Scorer


def no_such_position(match: Match, at: object) -> str:
    """The refusal of a position ``at`` that ``match`` does not have (a run's request, a page's)."""
    return ngettext("This match has %(seq)s action; there is no position %(at)s.",
                    "This match has %(seq)s actions; there is no position %(at)s.", match.seq) \
        % {"seq": match.seq, "at": at}


def load_position(match: Match, action_number: int | None = None, *, public: bool = False) -> Position:
    """The position after ``action_number`` actions (default: now); with ``public``, its circuit
    as the players may see it (``Abilities.private_circuit``: a secret of one seat stays out).
    Raises ``NotScorable`` when the game or the position has no circuit."""
    upto = match.seq if action_number is None else action_number
    if upto < 0 or upto > match.seq:
        raise NotScorable(no_such_position(match, upto))
    state = state_at(match, upto)
    game = match.engine
    circuit = abilities_of(game).circuit_for(game, state, is_teacher=not public)
    if circuit is None:
        raise NotScorable(gettext("This position has no quantum circuit (for poker: physics mode is off)."))
    return Position(match, upto, state, circuit, scorer_for(match.game, state, circuit))


def qasm3_of(circuit: Any) -> str:
    from qiskit import qasm3

    return qasm3.dumps(circuit)
