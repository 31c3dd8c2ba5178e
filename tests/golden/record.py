"""Record the golden playthroughs (``tests/support/golden.py``: what they hold, how they are
compared) that ``tests/test_golden_games.py`` replays::

    .venv/bin/python -m tests.golden.record              # every scenario
    .venv/bin/python -m tests.golden.record --game qtris # one game's

A scenario's file is named after its game's current rules version
(``tests/golden/<game>/<variant>-<name>.v<version>.json``). A missing file is recorded; a file
that exists is never overwritten: its rules version did not change, so neither may the game it
recorded. It is replayed instead, and if the engine now plays it otherwise this says where and
exits with 1 (as the test fails): keep the old behaviour for that version, or bump the engine's
``rules_version`` (games/engines/base.py, "Rules versions") and run this again, which records
the new version's files beside the old ones.

Needs no database: engines and bots are pure Python.
"""
from __future__ import annotations

import argparse
import sys

from games.engines import get_game
from tests.support.golden import GOLDEN_DIR, SCENARIOS, compare, dumps, load, record


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", help="only this game's scenarios (its slug)")
    args = parser.parse_args(argv)
    scenarios = [s for s in SCENARIOS if args.game in (None, s.game)]
    if not scenarios:
        parser.error(f"no scenario of {args.game!r}")
    refused = 0
    for scenario in scenarios:
        path = scenario.path(get_game(scenario.game).rules_version)
        shown = path.relative_to(GOLDEN_DIR.parent.parent)
        if path.exists():
            problem = compare(load(path))
            if problem is None:
                print(f"kept      {shown} (same rules version, still replays as recorded)")
            else:
                refused += 1
                print(f"REFUSED   {shown}: its rules version did not change, but the engine now "
                      f"plays it otherwise: {problem}", file=sys.stderr)
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        text = dumps(record(scenario))
        path.write_text(text, encoding="utf-8")
        print(f"recorded  {shown} ({len(text.encode()) / 1000:.1f} kB)")
    if refused:
        print(f"{refused} file(s) not overwritten: keep the old rules for their version, or bump "
              "the engine's rules_version and record again.", file=sys.stderr)
    return 1 if refused else 0


if __name__ == "__main__":
    sys.exit(main())
