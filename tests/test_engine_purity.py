"""Engines (and the bots and the ``quantum`` package they stand on) are pure Python.

Each module is imported in a FRESH interpreter (not pytest's, where Django is already loaded)
and the test fails if that import loaded Django, a project app (``simulator``, ``classrooms``),
Django REST framework, Channels or Qiskit (Qiskit may only be imported lazily, inside a
``circuit()`` call). One bare interpreter is started for them all and forks a child per module:
each child starts from the bare interpreter's modules, as a fresh one would, in a millisecond
instead of an interpreter's start. A second check reads the QTris package's imports (module
level and inside functions) and fails on an import cycle.
"""
from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FORBIDDEN = ("django", "simulator", "classrooms", "rest_framework", "channels", "qiskit")
PURE_PACKAGES = ("quantum", "games/engines", "games/bots")
# one test process for the file: the probe (a module fixture) runs once, not once per worker
pytestmark = pytest.mark.xdist_group("purity")

# Run in a fresh interpreter: for each group of module names, a forked child imports them and
# reports the forbidden modules then loaded (or the import's traceback); one JSON line for all.
# NumPy and the standard library's modules the engines use are imported once, before the forks
# (none of them is forbidden, nor loads anything forbidden): each child then imports only the
# project's modules, in milliseconds.
_PROBE = """
import json, os, sys, traceback
from importlib import import_module
forbidden = {forbidden!r}
for shared in ("numpy", "ast", "collections", "copy", "dataclasses", "datetime", "fractions",
               "functools", "hashlib", "itertools", "math", "random", "re", "typing"):
    import_module(shared)
results = []
for group in {groups!r}:
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read)
        try:
            for name in group:
                import_module(name)
            found = dict(loaded=sorted(m for m in sys.modules if m.split(".")[0] in forbidden))
        except BaseException:
            found = dict(error=traceback.format_exc())
        with os.fdopen(write, "w") as out:
            out.write(json.dumps(found))
        os._exit(0)
    os.close(write)
    with os.fdopen(read) as got:
        results.append(json.loads(got.read() or '{{"error": "the child died"}}'))
    os.waitpid(pid, 0)
print(json.dumps(results))
"""


def _module_names() -> list[str]:
    names = []
    for package in PURE_PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            names.append(".".join(parts))
    return names


def probe(groups: list[list[str]]) -> list[dict]:
    """Per group of modules: ``{"loaded": [forbidden modules]}`` once a fresh interpreter's
    child imported them, or ``{"error": traceback}``."""
    code = _PROBE.format(forbidden=FORBIDDEN, groups=groups)
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)}  # no DJANGO_SETTINGS_MODULE
    run = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True,
                         text=True, timeout=120)
    assert run.returncode == 0, f"the probe failed:\n{run.stderr}"
    return json.loads(run.stdout.strip().splitlines()[-1])


def forbidden_loaded_by(*modules: str) -> list[str]:
    """The forbidden modules a fresh interpreter has loaded after importing ``modules``."""
    [found] = probe([list(modules)])
    assert "error" not in found, f"importing {modules} failed:\n{found['error']}"
    return found["loaded"]


@pytest.fixture(scope="module")
def probed() -> dict[str, dict]:
    """Every module of the pure packages, each imported on its own (one probe for them all)."""
    names = _module_names()
    return dict(zip(names, probe([[name] for name in names]), strict=True))


def test_every_engine_module_is_found():
    names = _module_names()
    for expected in ("quantum", "quantum.states", "games.engines", "games.engines.base",
                     "games.engines.quantum_poker", "games.engines.quantum_tictactoe",
                     "games.engines.qtris", "games.engines.qtris.flow",
                     "games.engines.qtris.circuit", "games.bots", "games.bots.qtris"):
        assert expected in names


@pytest.mark.parametrize("module", _module_names())
def test_engine_module_imports_nothing_but_pure_python(module, probed):
    found = probed[module]
    assert "error" not in found, f"importing {module} failed:\n{found['error']}"
    assert found["loaded"] == []


def test_the_probe_sees_a_django_import():
    """The check can fail: a module that imports Django is caught."""
    assert "django" in forbidden_loaded_by("quantum", "django.utils.functional")


def test_each_child_of_the_probe_starts_fresh():
    """What one module's import loaded is not in the next one's child (nor an import's error)."""
    django, broken, pure = probe([["django.utils.functional"], ["games.engines.no_such_module"],
                                  ["quantum"]])
    assert "django" in django["loaded"]
    assert "ModuleNotFoundError" in broken["error"]
    assert pure == {"loaded": []}


def _package_imports(package: Path) -> dict[str, set[str]]:
    """Module -> sibling modules it imports (anywhere in the file), for one package."""
    dotted = ".".join(package.relative_to(ROOT).parts)
    modules = {p.stem for p in package.glob("*.py") if p.stem != "__init__"}
    graph: dict[str, set[str]] = {}
    for name in modules:
        deps: set[str] = set()
        for node in ast.walk(ast.parse((package / f"{name}.py").read_text())):
            if isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level == 1 and not base:  # from . import tiles
                    deps |= {a.name for a in node.names if a.name in modules}
                elif node.level == 1:
                    deps.add(base.split(".")[0])
                elif base.startswith(dotted + "."):
                    deps.add(base[len(dotted) + 1:].split(".")[0])
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name.startswith(dotted + "."):
                        deps.add(alias.name[len(dotted) + 1:].split(".")[0])
        graph[name] = (deps & modules) - {name}
    return graph


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for dep in sorted(graph[node]):
            if state.get(dep) == 1:
                return stack[stack.index(dep):] + [dep]
            if dep not in state and (found := visit(dep)):
                return found
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state and (found := visit(node)):
            return found
    return None


def test_qtris_modules_import_each_other_without_a_cycle():
    graph = _package_imports(ROOT / "games" / "engines" / "qtris")
    assert "preview" in graph["flow"]
    assert _cycle(graph) is None, " -> ".join(_cycle(graph))


def test_the_cycle_check_finds_a_cycle():
    assert _cycle({"flow": {"preview"}, "preview": {"flow"}}) == ["flow", "preview", "flow"]
    assert _cycle({"flow": {"preview"}, "preview": set()}) is None
