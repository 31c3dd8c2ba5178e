"""The repository stands alone: no tracked file points outside it (to a ``../shared`` folder of
rules or seeds) or names tracker issue numbers. The rules live in ``docs/rules/``; a docstring
or comment says what a test or module does, not which ticket asked for it."""
from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
THIS = Path(__file__).resolve()

OUTSIDE = re.compile(r"\.\./shared|shared/(rules|seeds)")
ISSUE_NUMBER = re.compile(r"\b[Ii]ssues?\s*#?\d+\b")


def tracked_files() -> list[Path]:
    """The files git tracks, from the repository root; the test is skipped without git."""
    git = shutil.which("git")
    if git is None:
        pytest.skip("git is not installed: cannot list the tracked files")
    if not (ROOT / ".git").exists():
        pytest.skip(f"{ROOT} is not a git checkout (no .git): cannot list the tracked files")
    listed = subprocess.run([git, "ls-files", "-z"], cwd=ROOT, capture_output=True, check=False)
    if listed.returncode != 0:
        pytest.skip("git ls-files failed: " + listed.stderr.decode(errors="replace").strip())
    names = [n for n in listed.stdout.decode("utf-8", errors="surrogateescape").split("\0") if n]
    return [ROOT / name for name in names]


def text_of(path: Path) -> str | None:
    """The file's text, or None for a binary, undecodable or missing file."""
    try:
        data = path.read_bytes()
    except OSError:      # tracked but deleted in the work tree, or a directory (submodule)
        return None
    if b"\0" in data:
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


def test_no_tracked_file_points_outside_the_repository_or_names_an_issue_number():
    files = tracked_files()
    assert files, "git ls-files listed no file"
    found = []
    for path in files:
        if path.resolve() == THIS:
            continue
        text = text_of(path)
        if text is None:
            continue
        for number, line in enumerate(text.splitlines(), 1):
            if OUTSIDE.search(line) or ISSUE_NUMBER.search(line):
                found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()[:120]}")
    assert not found, ("point to docs/rules/<game>.md instead of ../shared, and drop tracker "
                       "issue numbers:\n" + "\n".join(found))
