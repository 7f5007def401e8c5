"""The scorer now against the scorer at an earlier revision, on the same corpus, in this run.

Issue 12 states its scorer target twice: ours ≤ 2× the floor (`benchmarks/replay.py`),
"i.e. ≈ 3× today's steps/s". This measures the second reading: both scorers replay the
conformance corpus in fresh interpreters (the earlier one from a temporary git worktree of
REV, made now and removed after), interleaved, best of several passes each, CPU time.

    python benchmarks/replay_history.py [--rev b06c769] [--rounds 3] [--corpus DIR]

b06c769 is main just before issue 12's work was merged (1 December 2026).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_CORPUS = ROOT.parent / "shared" / "conformance"
DEFAULT_REVISION = "b06c769"
TARGET = 3.0  # the "≈ 3× today's steps/s"

# Run in a fresh interpreter with the scorer under test first on sys.path: replay every
# trajectory of the corpus, drop each result, and print steps and the best CPU seconds.
_PROBE = """
import json, sys, time
from pathlib import Path
import rubric_tools
from rubric_tools.scoring.episode import replay
corpus = Path(sys.argv[1])
matters, work = {}, []
for path in sorted(corpus.glob("trajectories/*/*.jsonl")):
    name = path.parent.name
    if name not in matters:
        matters[name] = rubric_tools.load_matter(corpus / "matters" / name).matter
    work.append((matters[name], [json.loads(line) for line in path.read_text().splitlines() if line.strip()]))
steps = sum(len(replay(matter, actions).steps) for matter, actions in work)
best = None
for _ in range(int(sys.argv[2])):
    start = time.process_time()
    for matter, actions in work:
        replay(matter, actions)
    seconds = time.process_time() - start
    best = seconds if best is None else min(best, seconds)
print(steps, best)
"""


def _measure(source: Path, corpus: Path, passes: int) -> tuple[int, float]:
    environment = {**os.environ, "PYTHONPATH": str(source)}
    output = subprocess.run(
        [sys.executable, "-c", _PROBE, str(corpus), str(passes)],
        env=environment,
        cwd=tempfile.gettempdir(),  # so that neither checkout shadows the other from the cwd
        check=True,
        capture_output=True,
        text=True,
    ).stdout.split()
    return int(output[0]), float(output[1])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rev", default=DEFAULT_REVISION)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--passes", type=int, default=7)
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        earlier = Path(scratch) / "earlier"
        git = ["git", "-C", str(ROOT), "worktree"]
        subprocess.run([*git, "add", "-q", "--detach", str(earlier), args.rev], check=True)
        try:
            now_best, then_best, steps = float("inf"), float("inf"), 0
            for _ in range(args.rounds):  # interleaved, so both see the same machine
                steps, seconds = _measure(ROOT, args.corpus, args.passes)
                now_best = min(now_best, seconds)
                then_steps, seconds = _measure(earlier, args.corpus, args.passes)
                then_best = min(then_best, seconds)
                if then_steps != steps:
                    print(f"the two scorers replay different step counts: {then_steps} and {steps}", file=sys.stderr)
                    return 1
        finally:
            subprocess.run([*git, "remove", "--force", str(earlier)], check=True)
    ratio = then_best / now_best
    print(
        f"the scorer now against the scorer at {args.rev}: {steps:,} conformance steps, "
        f"best of {args.rounds}x{args.passes} passes"
    )
    print(f"  now {steps / now_best:10,.0f} steps/s   at {args.rev} {steps / then_best:10,.0f} steps/s")
    verdict = "met" if ratio >= TARGET else "NOT MET"
    print(f"  now/then {ratio:.2f}x   issue 12's second reading of its target, ~{TARGET:.0f}x: {verdict}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
