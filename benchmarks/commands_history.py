"""Commands now against the same commands at an earlier revision, in this run.

`benchmarks/replay.py` (part 3) and `benchmarks/lint.py` measure each command against its own
floor; this measures what a change bought: `rubric replay <corpus>/trajectories --output-format
jsonl --jobs 1` and caches-off `rubric lint <corpus>/matters` (and, asked for with
`--commands`, caches-off `rubric check` and `rubric audit` of the same matters), each run from
this checkout and from REV (a temporary git worktree, made now and removed after), in fresh
processes, interleaved round by round (the order alternating), CPU and wall time; median of the
rounds' ratios (now ÷ then) with the lowest and highest.

    python benchmarks/commands_history.py [--rev c66a9be] [--rounds 7] [--corpus DIR]
                                          [--commands replay,lint,check,audit]

c66a9be is main before issue 25's second round; 7f8f6a6 before its third (check and audit);
01d55e5 before its check-and-audit round, after which `rubric audit` makes its guard
proposals only with `--unsafe-fixes` (so `audit` then made them, now does not).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

from measure import REPO_ROOT, Run, child_environment, corpus_folder, interleaved, machine, ratio_line, run_process

DEFAULT_REVISION = "c66a9be"


def _commands(corpus: Path) -> dict[str, list[str]]:
    ours = [sys.executable, "-m", "rubric_tools"]
    return {
        "replay": [*ours, "replay", str(corpus / "trajectories"), "--output-format", "jsonl", "--jobs", "1"],
        "lint": [*ours, "lint", str(corpus / "matters")],
        "check": [*ours, "check", str(corpus / "matters")],
        "audit": [*ours, "audit", str(corpus / "matters")],
    }


def compare(corpus: Path, earlier: Path, revision: str, rounds: int, names: list[str]) -> None:
    checkouts = {"now": REPO_ROOT, "then": earlier}
    for name, command in _commands(corpus).items():
        if name not in names:
            continue
        runs: dict[str, list[Run]] = {side: [] for side in checkouts}

        def measure(side: str, command: list[str] = command, runs: dict[str, list[Run]] = runs) -> float:
            # Each side's package first on the path, run from its own checkout.
            environment = child_environment(PYTHONPATH=str(checkouts[side]))
            runs[side].append(run_process(command, environment, checkouts[side]))
            return runs[side][-1].cpu

        for side in checkouts:
            measure(side)  # bytecode written, files in the page cache
            runs[side].clear()
        interleaved({side: (lambda side=side: measure(side)) for side in checkouts}, rounds)  # type: ignore[misc]
        exits = {side: sorted({run.code for run in runs[side]}) for side in checkouts}
        print(f"{name}: {' '.join(command[2:])} (exit codes now {exits['now']}, at {revision} {exits['then']})")
        for label, read in (("CPU", lambda run: run.cpu), ("wall", lambda run: run.wall)):
            now, then = [read(run) for run in runs["now"]], [read(run) for run in runs["then"]]
            print(ratio_line(f"  now ÷ {revision}, {label}", [a / b for a, b in zip(now, then, strict=True)]))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rev", default=DEFAULT_REVISION)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--corpus", type=Path, default=None)
    parser.add_argument("--commands", default="replay,lint", help="which of replay,lint,check,audit to compare")
    args = parser.parse_args()
    names = [name.strip() for name in args.commands.split(",") if name.strip()]
    unknown = sorted(set(names) - set(_commands(Path())))
    if unknown:
        print(f"unknown command(s): {', '.join(unknown)}", file=sys.stderr)
        return 2
    corpus = corpus_folder(args.corpus)
    if not (corpus / "trajectories").is_dir():
        print(f"conformance corpus not found at {corpus} (set RUBRIC_CONFORMANCE_DIR)", file=sys.stderr)
        return 2
    print(machine())
    print(f"{args.rounds} interleaved rounds, fresh processes, caches off; median (min, max) of now ÷ then")
    with tempfile.TemporaryDirectory() as scratch:
        earlier = Path(scratch) / "earlier"
        git = ["git", "-C", str(REPO_ROOT), "worktree"]
        subprocess.run([*git, "add", "-q", "--detach", str(earlier), args.rev], check=True)
        try:
            compare(corpus, earlier, args.rev, args.rounds, names)
        finally:
            subprocess.run([*git, "remove", "--force", str(earlier)], check=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
