"""Entanglion at a glance (``Abilities.summary``): the components found, the turn, the detection
rate, where the ships are and their state, for the teacher's dashboard card and the session
report; ranked by more components first, then fewer turns."""
from __future__ import annotations

from ..base import gettext_noop, message

SUMMARY_TEXTS = {
    "both_on": gettext_noop("both ships on %(planet)s"),
    "ships_on": gettext_noop("Mercurial on %(m)s, Rubicon on %(r)s"),
    "glance": gettext_noop("%(found)d of %(total)d components · turn %(turn)d · detection rate %(rate)s · "
                           "%(where)s · %(ket)s"),
    "won": gettext_noop("Won in %(turns)d turns · "),
    "lost": gettext_noop("Caught after %(turns)d turns · "),
    "time_up": gettext_noop("Time ran out after %(turns)d turns · "),
}


def summary(view: dict) -> dict:
    ships = view["ships"]
    found = view["components"]["found"]
    total = view["components"]["total"]
    turns = view.get("turn_number", 0)
    where = (message("both_on", planet=ships["mercurial"]) if view.get("inside")
             else message("ships_on", m=ships["mercurial"], r=ships["rubicon"]))
    text = [message("glance", found=found, total=total, turn=turns, rate=view["detection"]["rate"], where=where,
                    ket=view["state"]["ket"])]
    result = view.get("result")
    if result in ("won", "lost", "time_up"):
        text.insert(0, message(result, turns=turns))
    return {
        "facts": {"components": found, "total": total, "detection_rate": view["detection"]["rate"],
                  "detection_index": view["detection"]["index"], "ships": ships, "ket": view["state"]["ket"],
                  "turns": turns, "result": result},
        "text": text,
        # more components first, then fewer turns
        "rank": (-found, turns),
    }
