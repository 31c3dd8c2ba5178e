"""The English texts of Quantum Ticket-to-Ride's events and refusals, as msgids for the
catalogs (``event_texts``: ``{code: msgid}``, see games/engines/base.py)."""
from __future__ import annotations

from ..base import gettext_noop as _

EVENT_TEXTS = {
    # nested messages
    "player": _("Player %(number)s"),
    "mission": _("from %(start)s in %(initial)s to %(target)s in %(goal)s"),
    "seat_mission": _("%(player)s %(mission)s"),
    "missions_more": _("%(first)s; %(rest)s"),
    "entangled": _("q0 entangled with q1"),
    "drawn_cards_one": _("%(count)s card"),
    "drawn_cards": _("%(count)s cards"),
    "gate_cards_one": _("%(count)s %(gate)s card"),
    "gate_cards": _("%(count)s %(gate)s cards"),
    "wins_one": _("%(names)s wins"),
    "wins_many": _("%(names)s win"),
    # events
    "setup": _("Each player gets %(hand)s gate cards and one secret mission. Order: %(order)s."),
    "mission_dealt": _("Your mission: %(mission)s."),
    "turn": _("%(player)s to play."),
    "last_turn": _("%(player)s: last turn."),
    "cannot_act": _("%(player)s can neither draw nor claim and passes."),
    "may_run": _("%(player)s may run a path or end the turn."),
    "turn_end": _("%(player)s ends the turn."),
    "draw": _("%(player)s draws %(cards)s (%(pile)s left in the pile)."),
    "drew": _("You drew %(cards)s."),
    "claim": _("%(player)s claims %(a)s–%(b)s (%(gate)s, length %(length)s) with %(cards)s."),
    "mission_complete": _("%(player)s runs %(path)s: %(gates)s takes %(initial)s to %(reached)s "
                          "(register %(ket)s), fidelity %(fidelity)s with %(goal)s: mission "
                          "complete!"),
    "run_no_match": _("You run %(path)s: %(gates)s takes %(initial)s to %(reached)s (register "
                      "%(ket)s), fidelity %(fidelity)s with %(goal)s: no match, play goes on."),
    # teaching moments
    "moment_mission": _("%(player)s completed a mission with a run: %(gates)s took %(initial)s to "
                        "%(goal)s along %(path)s."),
    "last_round": _("The pile is empty: every player has one last turn."),
    "game_end_mission": _("The game is over (a mission is complete): %(winners)s. Missions: "
                          "%(missions)s."),
    "game_end_pile_empty": _("The game is over (the pile is empty and everyone has had a last "
                             "turn): %(winners)s. Missions: %(missions)s."),
    "game_end_time_up": _("Time is up: the game is scored as it stands, the most claimed route "
                          "length wins (unfinished missions score nothing): %(winners)s. "
                          "Missions: %(missions)s."),
    "game_end_blocked": _("The game is over (nobody can draw or claim any more): %(winners)s. "
                          "Missions: %(missions)s."),
}
