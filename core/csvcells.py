"""CSV cells a spreadsheet would not run as formulas: a cell starting with ``= + - @``, a tab or
a carriage return gets a leading apostrophe (plain numbers such as -0.5 stay as they are) (OWASP's advice against CSV injection)."""
from __future__ import annotations

import re

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
PLAIN_NUMBER = re.compile(r"[+-]?\d+(\.\d+)?")  # an expected score of -0.5000 stays a number


def safe_cell(value: object) -> object:
    if isinstance(value, str) and value.startswith(FORMULA_STARTS) and not PLAIN_NUMBER.fullmatch(value):
        return "'" + value
    return value


def safe_row(values) -> list:
    return [safe_cell(v) for v in values]
