"""Join codes: 6 characters from an alphabet without look-alikes (no 0/O, 1/I/L), from ``secrets``."""
from __future__ import annotations

import secrets

ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
LENGTH = 6


def new_code() -> str:
    return "".join(secrets.choice(ALPHABET) for _ in range(LENGTH))


def normalise(typed: str) -> str:
    """What a student types, as a code: case, spaces and dashes forgiven."""
    return "".join(ch for ch in typed.upper() if ch.isalnum())[:20]
