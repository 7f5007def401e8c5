"""Coverage and mutation speed over the conformance matters, against plain checking.

The reference, measured in the same run: replaying every trajectory of the matters and
running every gate probe once (what `rubric check` does for them, minus lint and
attacks). Prints the wall time of coverage (replays with the observer, item crediting)
and of mutation testing, serial and on 2 worker processes, as ratios to that reference.

    python benchmarks/coverage.py [--corpus DIR] [--rounds N]
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from pathlib import Path

from rubric_tools.coverage.analysis import AnalysisOptions, analyze_matter, analyze_matters
from rubric_tools.coverage.mutation import failing_checks
from rubric_tools.coverage.suite import load_suite
from rubric_tools.loading.matter import load_matter_source

DEFAULT_CORPUS = Path(__file__).resolve().parent.parent.parent / "shared" / "conformance"


def best_of(rounds: int, work: Callable[[], object]) -> float:
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    roots = sorted(path for path in (args.corpus / "matters").iterdir() if (path / "matter.yaml").is_file())
    loaded = [(load_matter_source(root), load_suite(root)) for root in roots]

    def check_once() -> None:
        for source, suite in loaded:
            list(failing_checks(source.matter, suite))

    reference = best_of(args.rounds, check_once)
    coverage = best_of(args.rounds, lambda: [analyze_matter(root, AnalysisOptions()) for root in roots])
    mutation_options = AnalysisOptions(mutation=True)
    start = time.perf_counter()
    measured = [analyze_matter(root, mutation_options) for root in roots]
    serial = time.perf_counter() - start
    parallel = best_of(1, lambda: analyze_matters(roots, mutation_options, jobs=2))
    mutants = sum(len(m.mutation.mutants) for m in measured if m.mutation is not None)
    trajectories = sum(len(suite.trajectories) for _, suite in loaded)
    print(f"{len(roots)} matters, {trajectories} trajectories, {mutants} mutants")
    print(f"reference (replay every trajectory, run every probe): {reference:.2f} s")
    print(f"coverage, in-process:        {coverage:.2f} s  = {coverage / reference:.2f}x the reference")
    print(
        f"mutation, serial:            {serial:.2f} s  = {serial / reference:.1f}x the reference "
        f"({serial / max(mutants, 1) * 1000:.0f} ms per mutant)"
    )
    print(
        f"mutation, 2 processes:       {parallel:.2f} s  = {parallel / reference:.1f}x the reference "
        f"(speed-up {serial / parallel:.2f}x)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
