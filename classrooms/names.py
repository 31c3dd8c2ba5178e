"""Display names for students: stored as typed (trimmed, spaces collapsed, unicode NFC) or
refused with the reason, never silently shortened or filtered; made unique within a session.
Markup such as ``<b>x</b>`` is kept as text: pages escape it when they show it."""
from __future__ import annotations

import unicodedata

from django.utils.translation import gettext as _

MAX_LENGTH = 20
# Invisible characters that could hide or reorder a name (controls, bidi overrides, private
# use); the zero-width joiner and non-joiner stay allowed (emoji sequences, Persian, Indic).
_JOINERS = {"\u200c", "\u200d"}
# A short list, matched on letters only: a teacher can always remove a student.
_BLOCKED = ("fuck", "shit", "cunt", "bitch", "nigg", "fag", "penis", "vagina", "porn", "sex", "dick",
            "wank", "slut", "whore", "rape", "nazi", "hitler", "arse", "asshole", "bastard")


class BadName(ValueError):
    pass


def clean_name(raw: str) -> str:
    if not isinstance(raw, str):
        raise BadName(_("Type a name."))
    name = " ".join(unicodedata.normalize("NFC", raw).split())
    if any(unicodedata.category(ch)[0] == "C" and ch not in _JOINERS for ch in name):
        raise BadName(_("A name cannot contain invisible or control characters."))
    if len(name) > MAX_LENGTH:
        raise BadName(_("A name can have at most %(max)d characters (this one has %(n)d).")
                      % {"max": MAX_LENGTH, "n": len(name)})
    if not any(ch.isalnum() for ch in name):
        raise BadName(_("Type a name with at least one letter or digit."))
    letters = "".join(ch for ch in name.lower() if ch.isalpha())
    if any(word in letters for word in _BLOCKED):
        raise BadName(_("Please choose another name."))
    return name


def unique_name(name: str, taken: set[str]) -> str:
    """``Sam`` → ``Sam 2`` → ``Sam 3`` … when the name is already used (case-insensitive).
    The name itself is never cut: the stored field has room for a suffix beyond MAX_LENGTH."""
    lowered = {t.lower() for t in taken}
    if name.lower() not in lowered:
        return name
    n = 2
    while True:
        suffix = f" {n}"
        candidate = name + suffix
        if candidate.lower() not in lowered:
            return candidate
        n += 1
