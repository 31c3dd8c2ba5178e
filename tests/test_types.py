"""The pure-Python packages type-check: mypy over ``quantum/`` and ``games/engines/``.

The files and the strictness are ``[tool.mypy]`` in pyproject.toml; this runs mypy as a
developer would (``python -m mypy`` from the repository root), with a fresh cache of its own
(a cold run takes a few seconds of CPU).
"""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("mypy")

ROOT = Path(__file__).resolve().parent.parent


def test_mypy_passes(tmp_path_factory):
    cache = tmp_path_factory.mktemp("mypy_cache")
    run = subprocess.run([sys.executable, "-m", "mypy", "--cache-dir", str(cache)], cwd=ROOT,
                         capture_output=True, text=True, timeout=180)
    assert run.returncode == 0, f"mypy failed:\n{run.stdout}{run.stderr}"
