"""CSV cells a spreadsheet would not run as formulas: a cell starting with ``= + - @``, a tab or
a carriage return gets a leading apostrophe (plain numbers such as -0.5 stay as they are) (OWASP's advice against CSV injection).

``write_csv`` / ``csv_text`` write a whole export for a reader: a UTF-8 BOM, and for a language
whose spreadsheets write 0,5 (Spanish, Polish) ";" between cells and the decimal comma."""
from __future__ import annotations

import csv
import io
import re

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
PLAIN_NUMBER = re.compile(r"[+-]?\d+(\.\d+)?")  # an expected score of -0.5000 stays a number


def safe_cell(value: object) -> object:
    if isinstance(value, str) and value.startswith(FORMULA_STARTS) and not PLAIN_NUMBER.fullmatch(value):
        return "'" + value
    return value


def safe_row(values) -> list:
    return [safe_cell(v) for v in values]


# ---------------------------------------------------------------------------- a spreadsheet's CSV

# the separator and the decimal mark a spreadsheet of the language reads a CSV with: a language
# that writes 0,5 separates cells with ";" (Excel and LibreOffice in Spanish and Polish do)
DECIMAL_COMMA = {"es", "pl"}
BOM = "\ufeff"  # a UTF-8 mark first: Excel then reads "Zoë" as UTF-8, not as its code page
DECIMAL_NUMBER = re.compile(r"[+-]?\d+\.\d+")


def csv_format(language: str | None) -> tuple[str, str]:
    """(separator, decimal mark) for a reader of ``language`` ("es-ES" counts as "es")."""
    base = (language or "en").split("-")[0].lower()
    return (";", ",") if base in DECIMAL_COMMA else (",", ".")


def local_cell(value: object, decimal: str) -> object:
    """A cell with the reader's decimal mark: a float, or a string that is a plain decimal number
    ("0.5000"); other cells (dates, names, integers) as they are; every cell through ``safe_cell``."""
    value = safe_cell(value)  # (a plain number, -0.5 included, stays as it is)
    if decimal != ".":
        if isinstance(value, float):
            value = repr(value).replace(".", decimal)
        elif isinstance(value, str) and DECIMAL_NUMBER.fullmatch(value):
            value = value.replace(".", decimal)
    return value


def write_csv(out, header: list[str], rows, language: str | None) -> None:
    """A whole CSV into the text stream ``out``: a UTF-8 BOM, the ``header`` (already in the
    reader's words), then ``rows``, each cell formula-safe and with the reader's decimal mark,
    separated as a spreadsheet of ``language`` expects."""
    separator, decimal = csv_format(language)
    out.write(BOM)
    writer = csv.writer(out, delimiter=separator)
    writer.writerow(safe_row(header))
    for row in rows:
        writer.writerow([local_cell(v, decimal) for v in row])


def csv_text(header: list[str], rows, language: str | None) -> str:
    out = io.StringIO()
    write_csv(out, header, rows, language)
    return out.getvalue()
