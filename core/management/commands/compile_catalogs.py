"""Compile the translation catalogs (locale/*/LC_MESSAGES/*.po -> .mo) in pure Python.

The .mo files are not in the repository: ``make install`` / ``make run`` / ``make test`` run
this command, so a fresh machine needs no GNU gettext. Only catalogs whose .po is newer than
their .mo are compiled again (``--force``: all of them).
"""
from __future__ import annotations

import os
from pathlib import Path

import polib
from django.conf import settings
from django.core.management.base import BaseCommand


def catalogs() -> list[Path]:
    found: list[Path] = []
    for root in settings.LOCALE_PATHS:
        found.extend(sorted(Path(root).glob("*/LC_MESSAGES/*.po")))
    return found


def compile_catalog(po_path: Path, *, force: bool = False) -> bool:
    """Write ``po_path``'s .mo beside it (fuzzy and untranslated entries left out, as msgfmt
    does); False when the .mo was already current."""
    mo_path = po_path.with_suffix(".mo")
    if not force and mo_path.exists() and mo_path.stat().st_mtime >= po_path.stat().st_mtime:
        return False
    catalog = polib.pofile(str(po_path))
    for entry in list(catalog):
        if "fuzzy" in entry.flags or entry.obsolete:
            catalog.remove(entry)
    # written beside it, then renamed over it: a process reading the catalogs meanwhile (the
    # test suite's workers compile them too) reads the old file or the new, never half of one
    partial = mo_path.with_name(f".{mo_path.stem}.{os.getpid()}.mo")
    catalog.save_as_mofile(str(partial))
    os.replace(partial, mo_path)
    return True


class Command(BaseCommand):
    help = "Compile locale/*/LC_MESSAGES/*.po into .mo files (pure Python, no GNU gettext)."

    def add_arguments(self, parser):
        parser.add_argument("--force", action="store_true", help="compile every catalog again")

    def handle(self, *args, force: bool = False, **options):
        done = [po for po in catalogs() if compile_catalog(po, force=force)]
        for po in done:
            self.stdout.write(f"compiled {po.relative_to(settings.BASE_DIR)}")
        if not done:
            self.stdout.write("catalogs up to date")
