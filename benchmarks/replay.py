"""Replay speed and memory, each figure beside its target, as ratios measured in this run.

1. The scorer against its floor (the unavoidable text work on the same corpus, see
   `replay_floor.py`): conformance corpus in-process, CPU time, best of several rounds.
2. Long episodes: per-step time and memory of alternating submit/revise episodes of
   two lengths, revising the first submission (then the same revising the latest), beside
   their floor: the text work plus what a revision's contract itself demands
   (`replay_floor.revision_floor_seconds`: a revision re-scores all n submissions, and the
   identical raw_score needs n float additions in order, so that floor is Θ(n) per revision
   step too). Per-step time cannot be flat; ours/floor can (and should).
3. `rubric replay` processes over 1k, 10k and 100k trajectories (hard links to the
   corpus in a temporary folder, made now and deleted after), `--format jsonl` to
   /dev/null, with `--jobs 1` and `--jobs 2`: trajectories/s and the peak RSS of the
   process tree.

    python benchmarks/replay.py [--rounds N] [--sizes 1000,10000,100000] [--corpus DIR]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
from dataclasses import replace
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import replay_floor  # noqa: E402

import rubric_tools  # noqa: E402
from rubric_tools._accelerator import describe as describe_scorer  # noqa: E402
from rubric_tools.loading.action_check import validate_actions  # noqa: E402
from rubric_tools.loading.trajectory import load_trajectory  # noqa: E402
from rubric_tools.scoring import replay  # noqa: E402
from rubric_tools.scoring.episode import HANDLERS  # noqa: E402
from rubric_tools.scoring.state import WORK_PRODUCT_EVENTS  # noqa: E402

DEFAULT_CORPUS = Path(__file__).resolve().parent.parent.parent / "shared" / "conformance"
FLOOR_TARGET = 2.0  # ours / floor
FLAT_TARGET = 1.2  # per-step time at 4x the episode length / at 1x
PEAK_TARGET_MB = 300  # for 100k trajectories
REFERENCE_ENGINE_STEPS_PER_SECOND = 5_000  # published figure for the reference engine


def load_corpus(corpus: Path) -> list[tuple[Any, list[object]]]:
    matters: dict[str, Any] = {}
    work = []
    for path in sorted(corpus.glob("trajectories/*/*.jsonl")):
        matter_id = path.parent.name
        if matter_id not in matters:
            matters[matter_id] = rubric_tools.load_matter(corpus / "matters" / matter_id).matter
        actions = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
        work.append((matters[matter_id], actions))
    return work


def _met(ratio: float, target: float) -> str:
    return "met" if ratio <= target else "NOT MET"


def _replay_each(work: list[tuple[Any, list[object]]]) -> None:
    """Replay every trajectory, dropping each result after it, as `rubric replay` streams."""
    for matter, actions in work:
        replay(matter, actions)


def _replay_all(work: list[tuple[Any, list[object]]]) -> list[Any]:
    """Replay every trajectory and keep every result, as a caller collecting them would."""
    return [replay(matter, actions) for matter, actions in work]


def _cpu(function: Any) -> float:
    start = time.process_time()
    function()
    return time.process_time() - start


def _measure_against_floor(
    corpus: Path, work: list[tuple[Any, list[object]]], rounds: int
) -> tuple[int, list[float], list[float], list[float], list[float]]:
    """(steps, and per round: ours, floor, action validation, ours keeping every result) in CPU seconds."""
    plans = replay_floor.plan_text_work(work, replay)
    steps = sum(len(types) for types, _ in plans)
    trajectories = [load_trajectory(path) for path in sorted(corpus.glob("trajectories/*/*.jsonl"))]
    ours, floor, validation, kept = [], [], [], []
    for _ in range(rounds):  # interleaved, so all see the same machine
        ours.append(_cpu(lambda: _replay_each(work)))
        floor.append(replay_floor.floor_seconds(plans, HANDLERS))
        validation.append(_cpu(lambda: [validate_actions(trajectory) for trajectory in trajectories]))
        kept.append(_cpu(lambda: _replay_all(work)))
    return steps, ours, floor, validation, kept


def _pure_python_figures(corpus: Path, rounds: int) -> dict[str, float] | None:
    """This section's figures for the pure-Python scorer, from a child process run with
    RUBRIC_PURE_PYTHON=1 (a module is compiled or not for the life of a process)."""
    completed = subprocess.run(
        [sys.executable, __file__, "--corpus", str(corpus), "--rounds", str(rounds), "--scorer-figures"],
        env={**os.environ, "RUBRIC_PURE_PYTHON": "1"},
        capture_output=True,
        text=True,
        check=False,
    )
    if completed.returncode != 0:
        print(f"  (the pure-Python run failed: {completed.stderr.strip()[-300:]})")
        return None
    figures: dict[str, float] = json.loads(completed.stdout)
    return figures


def scorer_against_floor(corpus: Path, work: list[tuple[Any, list[object]]], rounds: int) -> None:
    steps, ours, floor, validation, kept = _measure_against_floor(corpus, work, rounds)
    best_ours, best_floor, best_validation, best_kept = min(ours), min(floor), min(validation), min(kept)
    print(
        f"scorer against its floor: {len(work)} conformance trajectories, {steps:,} steps, "
        f"best of {rounds} interleaved rounds (CPU time); the scorer here: {describe_scorer()}"
    )
    print(
        "  ours:  rubric_tools.scoring.replay, the scoring engine: every handler, its events, the step\n"
        "         records and budgets, the episode result (no file reading, no action validation, no output),\n"
        "         each result dropped after its replay, as `rubric replay` streams"
    )
    print(
        "  floor: the text work no scorer of these rules can skip (normalize, concept look-ups, first-wins\n"
        "         matching, time-limited gate searches, quote look-ups) plus one dispatch per step (replay_floor.py)"
    )
    print(f"  ours  {steps / best_ours:10,.0f} steps/s   floor {steps / best_floor:10,.0f} steps/s")
    ratio = best_ours / best_floor
    # Each round times both back to back: on a busy machine the median of the rounds' own
    # ratios moves less than the ratio of the two best times.
    per_round = statistics.median(o / f for o, f in zip(ours, floor, strict=True))
    print(
        f"  ours/floor {ratio:.2f} (best times; median of the rounds' ratios {per_round:.2f})   "
        f"target <= {FLOOR_TARGET:.1f}: {_met(ratio, FLOOR_TARGET)}"
    )
    if describe_scorer().startswith("compiled"):
        pure = _pure_python_figures(corpus, rounds)
        if pure is not None:
            print(
                f"  the same, pure Python (RUBRIC_PURE_PYTHON=1, a child process just after): ours "
                f"{pure['ours']:,.0f} steps/s, floor {pure['floor']:,.0f} steps/s, ours/floor {pure['ratio']:.2f} "
                f"(compiled is {steps / best_ours / pure['ours']:.2f}x the pure-Python scorer's steps/s)"
            )
    print(
        f"  vs the reference engine (~{REFERENCE_ENGINE_STEPS_PER_SECOND:,} steps/s): "
        f"{steps / best_ours / REFERENCE_ENGINE_STEPS_PER_SECOND:.1f}x"
    )
    print(
        f"  not in `ours`: action validation as `rubric replay` runs it (schema check of every action, "
        f"explanations of the invalid ones) adds {best_validation / best_ours:.0%} of the scorer's time;"
    )
    print(
        f"  keeping all {len(work)} results alive instead (as a caller collecting them would) costs "
        f"{best_kept / best_ours - 1:.0%} more (garbage collection and allocation of the live records)"
    )


def _alternating_episode(corpus: Path, submissions: int, latest: bool = False) -> tuple[Any, list[object]]:
    source = rubric_tools.load_matter(corpus / "matters" / "nego_saas_010").matter
    matter = replace(source, constraints=replace(source.constraints, maximum_steps=10 * submissions + 100))
    good = corpus / "trajectories" / "nego_saas_010" / "good.jsonl"
    actions = [json.loads(line) for line in good.read_text(encoding="utf-8").splitlines() if line.strip()]
    episode: list[object] = [a for a in actions if a["type"] == "read_document"]
    issues = [a for a in actions if a["type"] == "submit_issue"]
    for index in range(submissions):
        episode.append({**issues[index % len(issues)], "issue_id": f"label-{index}"})
        # Revise the first submission (or the latest): every revision re-scores every submission so far.
        revised_index = index if latest else 0
        revised = {**issues[revised_index % len(issues)], "issue_id": f"label-{revised_index}"}
        episode.append({**revised, "type": "revise_issue", "analysis": f"{revised['analysis']} ({index})"})
    return matter, episode


def _episode_floor(matter: Any, actions: list[object], rounds: int) -> float:
    """The floor of one episode: its text work and dispatch (as for the corpus) plus the
    work its revisions' contract demands (`replay_floor.revision_floor_seconds`)."""
    plan = replay_floor.plan_text_work([(matter, actions)], replay)
    records = list(replay(matter, actions).steps)
    return min(
        replay_floor.floor_seconds(plan, HANDLERS) + replay_floor.revision_floor_seconds([records], WORK_PRODUCT_EVENTS)
        for _ in range(rounds)
    )


def _long_episode_figures(corpus: Path, rounds: int, latest: bool) -> list[tuple[int, float, float, int]]:
    """(steps, ours per step, floor per step, peak traced memory) at two episode lengths."""
    figures = []
    for submissions in (375, 1500):
        matter, actions = _alternating_episode(corpus, submissions, latest)
        seconds = min(_cpu(lambda: replay(matter, actions)) for _ in range(rounds))  # noqa: B023
        floor = _episode_floor(matter, actions, rounds)
        tracemalloc.start()
        replay(matter, actions)
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        figures.append((len(actions), seconds / len(actions), floor / len(actions), peak))
    return figures


def long_episodes(corpus: Path, rounds: int) -> None:
    figures = _long_episode_figures(corpus, rounds, latest=False)
    (short, short_step, short_floor, short_peak), (long, long_step, long_floor, long_peak) = figures
    print(f"alternating submit/revise episodes: {short} and {long} steps (best of {rounds}, CPU time)")
    print(
        f"  per step: ours {short_step * 1e6:.0f} us and {long_step * 1e6:.0f} us; floor {short_floor * 1e6:.1f} us "
        f"and {long_floor * 1e6:.1f} us; peak traced memory {short_peak / 2**20:.1f} MB and {long_peak / 2**20:.1f} MB"
    )
    per_step, floor_growth = long_step / short_step, long_floor / short_floor
    print(
        f"  at {long / short:.0f}x the length, per step: ours {per_step:.1f}x (target: flat, <= {FLAT_TARGET:.1f}x: "
        f"{_met(per_step, FLAT_TARGET)}); the floor {floor_growth:.1f}x"
    )
    print(
        "    (not flat by contract: a revision re-scores all n submissions, and the identical raw_score needs its\n"
        "    n float additions in order from a new start, and the event list re-appended: the floor of a revision\n"
        "    step is itself Θ(n), see replay_floor.revision_floor_seconds; what can be flat is ours/floor)"
    )
    short_ratio, long_ratio = short_step / short_floor, long_step / long_floor
    print(
        f"  ours/floor {short_ratio:.2f} and {long_ratio:.2f}: growth {long_ratio / short_ratio:.2f}x "
        f"(target: flat, <= {FLAT_TARGET:.1f}x: {_met(long_ratio / short_ratio, FLAT_TARGET)}); "
        f"memory {long_peak / short_peak:.1f}x (the records' event tuples; the events themselves are shared)"
    )
    # The same episodes revising the latest submission instead of the first: a revision may
    # change what the submissions after it see, so where it is in the episode matters.
    (_, short_step, short_floor, _), (_, long_step, long_floor, _) = _long_episode_figures(corpus, rounds, latest=True)
    short_ratio, long_ratio = short_step / short_floor, long_step / long_floor
    growth = long_ratio / short_ratio
    print(
        f"  revising the latest submission instead: per step ours {short_step * 1e6:.0f} us and "
        f"{long_step * 1e6:.0f} us; ours/floor {short_ratio:.2f} and {long_ratio:.2f}: growth "
        f"{growth:.2f}x (target: flat, <= {FLAT_TARGET:.1f}x: {_met(growth, FLAT_TARGET)})"
    )


def _tree_rss_kb(pid: int) -> int:
    """Resident memory of a process and its descendants, from /proc (Linux)."""
    total, pending = 0, [pid]
    while pending:
        current = pending.pop()
        try:
            with open(f"/proc/{current}/status", encoding="ascii") as status:
                total += next((int(line.split()[1]) for line in status if line.startswith("VmRSS:")), 0)
            for task in os.listdir(f"/proc/{current}/task"):
                with open(f"/proc/{current}/task/{task}/children", encoding="ascii") as children:
                    pending.extend(int(child) for child in children.read().split())
        except (OSError, ValueError):
            continue
    return total


def _build_trajectories(corpus: Path, folder: Path, count: int) -> Path:
    """`count` trajectories under folder/trajectories/<matter>/ (hard links to one copy of
    the corpus) beside folder/matters/, and a list file naming them."""
    sources = sorted(corpus.glob("trajectories/*/*.jsonl"))
    copies = folder / "corpus"
    if not copies.exists():
        shutil.copytree(corpus / "matters", folder / "matters")
        for source in sources:
            target = copies / source.parent.name / source.name
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(source, target)
    listing = folder / f"list-{count}.txt"
    with listing.open("w", encoding="utf-8") as names:
        for index in range(count):
            source = sources[index % len(sources)]
            target = folder / "trajectories" / source.parent.name / f"{index:06d}.jsonl"
            if not target.exists():
                target.parent.mkdir(parents=True, exist_ok=True)
                os.link(copies / source.parent.name / source.name, target)
            names.write(f"{target}\n")
    return listing


def _measure_process(arguments: list[str]) -> tuple[float, float, float, int]:
    """(wall seconds, CPU seconds of the tree, peak tree RSS in MB, exit code). CPU time
    matters on a shared machine, where wall time mostly measures the neighbours."""
    start = time.perf_counter()
    process = subprocess.Popen(arguments, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    peak_kb = 0
    while True:
        pid, status, usage = os.wait4(process.pid, os.WNOHANG)
        if pid:
            break
        peak_kb = max(peak_kb, _tree_rss_kb(process.pid))
        time.sleep(0.02)
    wall = time.perf_counter() - start
    process.returncode = os.waitstatus_to_exitcode(status)
    # Not ru_maxrss: it counts the benchmark's own memory, which the child had before exec.
    return wall, usage.ru_utime + usage.ru_stime, peak_kb / 1024, process.returncode


def replay_processes(corpus: Path, sizes: list[int]) -> None:
    rubric = [sys.executable, "-m", "rubric_tools", "replay", "--format", "jsonl"]
    with tempfile.TemporaryDirectory(prefix="rubric-replay-bench-") as temp:
        folder = Path(temp)
        _, bare_cpu, bare_peak, _ = _measure_process([sys.executable, "-c", "import time; time.sleep(0.3)"])
        print(
            f"`rubric replay --format jsonl @LIST` processes (a bare interpreter: {bare_cpu:.2f} s CPU, "
            f"{bare_peak:.0f} MB)"
        )
        for count in sizes:
            listing = _build_trajectories(corpus, folder, count)
            for jobs in (1, 2):
                wall, cpu, peak, code = _measure_process([*rubric, "--jobs", str(jobs), f"@{listing}"])
                target = f" (target < {PEAK_TARGET_MB} MB)" if count >= 100_000 else ""
                print(
                    f"  {count:>7,} trajectories --jobs {jobs}: {count / wall:7,.0f} trajectories/s wall, "
                    f"{count / cpu:7,.0f} per CPU second; peak RSS of the tree {peak:4.0f} MB{target}, "
                    f"{peak / bare_peak:.1f}x a bare interpreter; exit {code}"
                )


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--sizes", default="1000,10000,100000", help="trajectory counts for the process runs")
    parser.add_argument("--corpus", type=Path, default=Path(os.environ.get("RUBRIC_CONFORMANCE_DIR", DEFAULT_CORPUS)))
    parser.add_argument("--scorer-figures", action="store_true", help=argparse.SUPPRESS)  # the pure-Python child
    args = parser.parse_args()
    if not (args.corpus / "trajectories").is_dir():
        print(f"corpus not found at {args.corpus}", file=sys.stderr)
        return 2
    if args.scorer_figures:
        steps, ours, floor, _, _ = _measure_against_floor(args.corpus, load_corpus(args.corpus), args.rounds)
        ratio = min(ours) / min(floor)
        print(json.dumps({"ours": steps / min(ours), "floor": steps / min(floor), "ratio": ratio}))
        return 0
    scorer_against_floor(args.corpus, load_corpus(args.corpus), args.rounds)
    long_episodes(args.corpus, args.rounds)
    sizes = [int(size) for size in args.sizes.split(",") if size.strip()]
    if sizes:
        replay_processes(args.corpus, sizes)
    return 0


if __name__ == "__main__":
    sys.exit(main())
