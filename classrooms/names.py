"""Display names for students: trimmed, filtered and made unique within a class session."""
from __future__ import annotations

import re
import unicodedata

MAX_LENGTH = 20
_ALLOWED = re.compile(r"[^\w .'\-]", re.UNICODE)
# A short list, matched on letters only: a teacher can always remove a student.
_BLOCKED = ("fuck", "shit", "cunt", "bitch", "nigg", "fag", "penis", "vagina", "porn", "sex", "dick",
            "wank", "slut", "whore", "rape", "nazi", "hitler", "arse", "asshole", "bastard")


class BadName(ValueError):
    pass


def clean_name(raw: str) -> str:
    if not isinstance(raw, str):
        raise BadName("Type a name.")
    name = unicodedata.normalize("NFKC", raw)
    name = "".join(ch for ch in name if unicodedata.category(ch)[0] != "C")
    name = _ALLOWED.sub("", name)
    name = " ".join(name.split())[:MAX_LENGTH].strip()
    if not name or not any(ch.isalnum() for ch in name):
        raise BadName("Type a name with at least one letter or digit.")
    letters = "".join(ch for ch in name.lower() if ch.isalpha())
    if any(word in letters for word in _BLOCKED):
        raise BadName("Please choose another name.")
    return name


def unique_name(name: str, taken: set[str]) -> str:
    """``Sam`` → ``Sam 2`` → ``Sam 3`` … when the name is already used (case-insensitive)."""
    lowered = {t.lower() for t in taken}
    if name.lower() not in lowered:
        return name
    n = 2
    while True:
        suffix = f" {n}"
        candidate = name[: MAX_LENGTH - len(suffix)] + suffix
        if candidate.lower() not in lowered:
            return candidate
        n += 1
