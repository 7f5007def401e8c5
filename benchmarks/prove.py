"""`rubric solve` and `rubric attack` over the conformance corpus.

Prints, per matter: the solver's raw score against max_score (and the reasons for any
shortfall), the keyword ceiling's normalized score, the best other attack's normalized
score and strategy, and the time the solver and the full attack (every strategy plus the
reference) take: the first, cold run (gate regexes compiled) and the best of the rest.

    python benchmarks/prove.py [--rounds N] [--corpus DIR]
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import TypeVar

import rubric_tools
from rubric_tools.prove import solve
from rubric_tools.prove.attacks import REPORTED, attack_matter

DEFAULT_CORPUS = Path(__file__).resolve().parent.parent.parent / "shared" / "conformance"
T = TypeVar("T")


def timed(rounds: int, work: Callable[[], T]) -> tuple[T, float, float]:
    """The last result, the first (cold) run's wall time and the fastest of `rounds` runs."""
    times = []
    result: T | None = None
    for _ in range(max(rounds, 1)):
        start = time.perf_counter()
        result = work()
        times.append(time.perf_counter() - start)
    return result, times[0], min(times)  # type: ignore[return-value]


def milliseconds(cold: float, best: float) -> str:
    return f"{cold * 1000:.1f}/{best * 1000:.1f}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5, help="timing rounds per matter (best is kept)")
    parser.add_argument("--corpus", type=Path, default=Path(os.environ.get("RUBRIC_CONFORMANCE_DIR", DEFAULT_CORPUS)))
    args = parser.parse_args()
    matters_dir = args.corpus / "matters"
    if not matters_dir.is_dir():
        print(f"error: no conformance corpus at {args.corpus} (set RUBRIC_CONFORMANCE_DIR)", file=sys.stderr)
        return 2
    header = (
        f"{'matter':30} {'solver':>12} {'ceiling':>8} {'best other attack':>31} "
        f"{'solve ms cold/best':>19} {'attack ms cold/best':>20}"
    )
    print(header)
    print("-" * len(header))
    for folder in sorted(p for p in matters_dir.iterdir() if p.is_dir()):
        source = rubric_tools.load_matter(folder)
        solution, solve_cold, solve_best = timed(args.rounds, partial(solve, source.matter))
        report, attack_cold, attack_best = timed(args.rounds, partial(attack_matter, source))
        # Ceilings are the strategies reported but never failed (the exempt ones, and a
        # clean matter's stuffed summary).
        ceiling = max((r.normalized_score for r in report.rows if r.verdict == REPORTED), default=0.0)
        others = [r for r in report.rows if r.verdict != REPORTED]
        best = max(others, key=lambda r: r.normalized_score) if others else None
        best_text = f"{best.normalized_score:.4f} {best.name}" if best else "-"
        score = f"{solution.raw_score:g}/{solution.max_score:g}"
        print(
            f"{folder.name:30} {score:>12} {ceiling:8.4f} {best_text:>31} "
            f"{milliseconds(solve_cold, solve_best):>19} {milliseconds(attack_cold, attack_best):>20}"
        )
        for shortfall in solution.shortfalls:
            print(f"{'':32}-{shortfall.points:g} {shortfall.reason.value}: {shortfall.message}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
