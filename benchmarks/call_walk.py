"""Walk the static call graph from `rubric check`'s per-matter entry and print where it goes:
the functions it stops at, in how many files, how often it enters each package, how often it
crosses between `audit` and `lint`, and how often it climbs back up the layers, counted over
the whole house and over the stages only (see `tests/call_graph.py`).

    python benchmarks/call_walk.py                 # this checkout
    python benchmarks/call_walk.py --repo OTHER    # another checkout (its own layer order)
    python benchmarks/call_walk.py --stops         # also list the stops, one per line

The graph and its rules are `tests/call_graph.py`; not a speed benchmark.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent


def main(argv: list[str] | None = None) -> int:
    sys.path.insert(0, str(REPO_ROOT))
    from tests.call_graph import CHECK_ENTRY, STAGES, WHOLE_HOUSE, walk

    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repo", type=Path, default=REPO_ROOT, help="the checkout to walk (default: this one)")
    parser.add_argument("--entry", default=CHECK_ENTRY, help=f"module:function to start from (default {CHECK_ENTRY})")
    parser.add_argument("--stops", action="store_true", help="list every stop, with its package")
    args = parser.parse_args(argv)
    result = walk(args.repo.resolve(), args.entry)
    if args.stops:
        for stop, package in zip(result.stops, result.packages, strict=True):
            print(f"{package:14} {stop}")
    figures = {
        f"whole house ({WHOLE_HOUSE} and above)": result.figures(WHOLE_HOUSE),
        f"stages ({STAGES} and above)": result.figures(STAGES),
        "calls into lint from outside it": [f"{a} -> {b}" for a, b in result.callers_into("lint")],
    }
    print(json.dumps(figures, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
