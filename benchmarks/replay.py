"""Replay throughput: the whole conformance corpus in-process, and one CLI process.

Prints trajectories/s and steps/s (matters loaded once, best of several rounds), the
ratio to the reference engine's published ~5,000 steps/s on these machines, and the
wall time of one `rubric replay` process over one matter's trajectories.

    python benchmarks/replay.py [--rounds N] [--corpus DIR]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import rubric_tools

REFERENCE_ENGINE_STEPS_PER_SECOND = 5_000
DEFAULT_CORPUS = Path(__file__).resolve().parent.parent.parent / "shared" / "conformance"


def load_corpus(corpus: Path) -> list[tuple[rubric_tools.MatterSource, list[object]]]:
    matters: dict[str, rubric_tools.MatterSource] = {}
    work = []
    for path in sorted(corpus.glob("trajectories/*/*.jsonl")):
        matter_id = path.parent.name
        if matter_id not in matters:
            matters[matter_id] = rubric_tools.load_matter(corpus / "matters" / matter_id)
        actions = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
        work.append((matters[matter_id], actions))
    return work


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--corpus", type=Path,
                        default=Path(os.environ.get("RUBRIC_CONFORMANCE_DIR", DEFAULT_CORPUS)))
    args = parser.parse_args()
    if not (args.corpus / "trajectories").is_dir():
        print(f"corpus not found at {args.corpus}", file=sys.stderr)
        return 2

    work = load_corpus(args.corpus)
    timings = []
    steps = 0
    for _ in range(args.rounds):
        start = time.perf_counter()
        steps = sum(len(rubric_tools.replay(matter, actions).steps) for matter, actions in work)
        timings.append(time.perf_counter() - start)
    best = min(timings)
    steps_per_second = steps / best
    print(f"corpus: {len(work)} trajectories, {steps} steps, best of {args.rounds} rounds")
    print(f"in-process: {best * 1000:.1f} ms per pass  "
          f"{len(work) / best:,.0f} trajectories/s  {steps_per_second:,.0f} steps/s")
    print(f"vs reference engine (~{REFERENCE_ENGINE_STEPS_PER_SECOND:,} steps/s): "
          f"{steps_per_second / REFERENCE_ENGINE_STEPS_PER_SECOND:.1f}x")

    one_matter = sorted((args.corpus / "trajectories" / "nego_saas_010").glob("*.jsonl"))
    start = time.perf_counter()
    completed = subprocess.run(
        [sys.executable, "-m", "rubric_tools", "replay", "--format", "json", *map(str, one_matter)],
        capture_output=True, check=False,
    )
    wall = time.perf_counter() - start
    print(f"one `rubric replay` process over nego_saas_010 ({len(one_matter)} trajectories): "
          f"{wall:.2f} s wall, exit {completed.returncode}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
