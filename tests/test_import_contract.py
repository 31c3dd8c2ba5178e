"""The direction of imports is a contract (``[tool.importlinter]`` in pyproject.toml): the wiring
(``config``) on top, then ``simulator`` → ``classrooms`` → ``games``, and ``core`` at the bottom,
importing no app; engines and the quantum core import none of them. An import against it fails
here, naming the import and its line."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_every_import_goes_one_way():
    pytest.importorskip("importlinter")
    command = shutil.which("lint-imports", path=str(Path(sys.executable).parent)) or "lint-imports"
    result = subprocess.run([command, "--no-cache"], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "BROKEN" not in result.stdout and "KEPT" in result.stdout


def test_the_contract_catches_an_import_against_it(tmp_path):
    """The contract is read and enforced: a ``core`` module importing an app breaks it. (Checked
    on a copy of the packages: a probe written into the checkout would break the test above when
    both run at once, on two workers of the suite.)"""
    pytest.importorskip("importlinter")
    ignore = shutil.ignore_patterns("__pycache__", "static", "templates", "locale", "*.po", "*.mo")
    for package in ("config", "simulator", "classrooms", "games", "core", "quantum"):
        shutil.copytree(ROOT / package, tmp_path / package, ignore=ignore)
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    (tmp_path / "core" / "_import_contract_probe.py").write_text("import games.models  # noqa: F401\n")
    command = shutil.which("lint-imports", path=str(Path(sys.executable).parent)) or "lint-imports"
    result = subprocess.run([command, "--no-cache"], cwd=tmp_path, capture_output=True, text=True, timeout=120,
                            env={**os.environ, "PYTHONPATH": str(tmp_path)})
    assert result.returncode != 0
    assert "core._import_contract_probe -> games.models" in result.stdout
