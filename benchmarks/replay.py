"""Replay speed, each figure beside its target, as ratios to peers measured in this run.

Every comparison is interleaved (ours and the peer back to back, round after round, in
alternating order) and printed as the median of the rounds' ratios with its spread; no peer
figure is a constant.

1. The scorer against its floor (the unavoidable text work on the same corpus, see
   `replay_floor.py`), CPU time, in child processes: the pure-Python scorer (the default
   install) and, when it is installed, the compiled one, round after round; compiled ÷
   pure steps/s with its spread. Target: ours/floor <= 2 for both.
2. The reference engine called directly and the reference env (through them, the same
   corpus trajectories), when a reference checkout and an adapter that calls them are
   given (`--reference PATH --reference-adapter FILE`; see `reference_steps`); else it
   says that the peer was not measured.
3. The whole `rubric replay <corpus>/trajectories --output-format jsonl --jobs 1` process
   against loading the matters and replaying the same trajectories in-process
   (`rubric_tools.load_matter` + reading each file + `rubric_tools.replay`, timed inside
   a fresh process): CPU time. Target: <= 1.5x.
4. Long episodes: per-step time and memory of alternating submit/revise episodes of
   two lengths, revising the first submission (then the same revising the latest), beside
   their floor: the text work plus what a revision's contract itself demands
   (`replay_floor.revision_floor_seconds`: a revision re-scores all n submissions, and the
   identical raw_score needs n float additions in order, so that floor is Θ(n) per revision
   step too). Per-step time cannot be flat; ours/floor can (and should).

Memory and throughput over folders of 1k-100k trajectory files: `folder_memory.py`.

    python benchmarks/replay.py [--rounds N] [--parts 1,2,3,4] [--corpus DIR]
                                [--reference PATH --reference-adapter FILE]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
import tracemalloc
from dataclasses import replace
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import replay_floor  # noqa: E402
from measure import (  # noqa: E402
    NO_REFERENCE,
    child_environment,
    corpus_folder,
    interleaved,
    machine,
    ratio_line,
    ratios,
    reference_checkout,
    run_process,
    spread,
)

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
COMMAND_TARGET = 1.5  # the whole `rubric replay` process / loading and replaying in-process


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


# ------------------------------------------------------------ 1. the scorers against their floor


def _scorer_child(corpus: Path, rounds: int, pure: bool) -> dict[str, Any]:
    """This benchmark's scorer figures (`--scorer-figures`) from a child process, with the
    pure-Python scorer forced or not (a module is compiled or not for the life of a process)."""
    command = [sys.executable, __file__, "--corpus", str(corpus), "--rounds", str(rounds), "--scorer-figures"]
    run = run_process(command, _scorer_environment(pure))
    if run.code != 0:
        raise RuntimeError(f"the scorer child failed (exit {run.code})")
    figures: dict[str, Any] = json.loads(run.output)
    return figures


def _scorer_environment(pure: bool) -> dict[str, str]:
    environment = child_environment(RUBRIC_PURE_PYTHON="1")
    if not pure:
        del environment["RUBRIC_PURE_PYTHON"]
    return environment


def _compiled_installed() -> bool:
    """Whether a process left to choose runs the compiled scorer."""
    probe = "from rubric_tools._accelerator import describe; print(describe())"
    run = run_process([sys.executable, "-c", probe], _scorer_environment(pure=False))
    return run.output.startswith(("compiled", "partly compiled"))


def scorer_figures(corpus: Path, rounds: int) -> dict[str, Any]:
    """In this process: steps, the median of `rounds` interleaved rounds of ours and the floor
    (CPU seconds), and the scorer that ran."""
    work = load_corpus(corpus)
    steps, ours, floor, _, _ = _measure_against_floor(corpus, work, rounds)
    return {
        "scorer": describe_scorer(),
        "steps": steps,
        "ours": steps / statistics.median(ours),
        "floor": steps / statistics.median(floor),
        "ratio": statistics.median(ratios(ours, floor)),
    }


def scorers_against_floor(corpus: Path, rounds: int) -> None:
    kinds = {"pure": True, **({"compiled": False} if _compiled_installed() else {})}
    figures: dict[str, list[dict[str, Any]]] = {kind: [] for kind in kinds}

    def measure(kind: str) -> float:
        figures[kind].append(_scorer_child(corpus, 3, kinds[kind]))
        return 0.0

    interleaved({kind: (lambda kind=kind: measure(kind)) for kind in kinds}, rounds)  # type: ignore[misc]
    steps = figures["pure"][0]["steps"]
    print(
        f"1. the scorer against its floor: {steps:,} steps of the conformance corpus, {rounds} interleaved rounds,\n"
        "   each a fresh process (CPU time, the median of 3 passes); median of the rounds (min, max)"
    )
    print(
        "   ours:  rubric_tools.scoring.replay, the scoring engine: every handler, its events, the step records and\n"
        "          budgets, the episode result (no file reading, no action validation, no output)\n"
        "   floor: the text work no scorer of these rules can skip (normalize, concept look-ups, first-wins\n"
        "          matching, time-limited gate searches, quote look-ups) plus one dispatch per step (replay_floor.py)"
    )
    for kind, rows in figures.items():
        print(f"   {kind} ({rows[0]['scorer']}):")
        print(f"     ours  {spread([r['ours'] for r in rows], ' steps/s', digits=0)}")
        print(f"     floor {spread([r['floor'] for r in rows], ' steps/s', digits=0)}")
        print(ratio_line("   ours/floor", [r["ratio"] for r in rows], FLOOR_TARGET))
    if "compiled" in figures:
        speedup = [c["ours"] / p["ours"] for c, p in zip(figures["compiled"], figures["pure"], strict=True)]
        print(ratio_line(" compiled ÷ pure steps/s (each round's pair)", speedup))
    else:
        print(
            "   compiled ÷ pure: not measured, the compiled scorer is not installed "
            "(RUBRIC_COMPILE=1 pip install -e '.[test,compiled]')"
        )


# ------------------------------------------------------------ 2. the reference engine and env


def _load_adapter(path: Path) -> Any:
    import importlib.util

    spec = importlib.util.spec_from_file_location("reference_adapter", path)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot load {path}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def reference_steps(corpus: Path, checkout: Path, adapter: Path, kind: str, passes: int) -> dict[str, float]:
    """Steps/s of the reference, in this (child) process: the median of `passes` passes over the
    corpus trajectories, CPU time. The adapter is a Python file that knows the checkout's API:

        def load(matter_dir: str) -> object                  # the reference engine's matter
        def replay(matter: object, actions: list) -> object  # the engine called directly
        def env_replay(matter_dir: str, actions: list) -> object  # optional: through its env

    The checkout (and its `src/`) are put first on sys.path before the adapter is loaded."""
    for folder in (checkout / "src", checkout):
        if folder.is_dir():
            sys.path.insert(0, str(folder))
    module = _load_adapter(adapter)
    work = []
    for path in sorted(corpus.glob("trajectories/*/*.jsonl")):
        actions = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
        work.append((str(corpus / "matters" / path.parent.name), actions))
    # Steps as ours counts them (the steps replayed, an episode stopping at its step budget),
    # so that both sides' steps/s divide the same number.
    ours = {folder: rubric_tools.load_matter(folder).matter for folder, _ in work}
    steps = sum(len(replay(ours[folder], actions).steps) for folder, actions in work)
    if kind == "engine":
        matters = {folder: module.load(folder) for folder, _ in work}
        run = lambda: [module.replay(matters[folder], actions) for folder, actions in work]  # noqa: E731
    else:
        run = lambda: [module.env_replay(folder, actions) for folder, actions in work]  # noqa: E731
    run()  # warm: what ours is measured warm against too
    seconds = statistics.median(_cpu(run) for _ in range(passes))
    return {"steps_per_second": steps / seconds}


def reference_peers(corpus: Path, rounds: int, checkout: Path | None, adapter: Path | None) -> None:
    print("2. the reference engine called directly, and the reference env, on the same trajectories")
    if checkout is None:
        print(f"   {NO_REFERENCE}")
        return
    if adapter is None or not adapter.is_file():
        print(
            f"   peer not measured: a reference checkout is given ({checkout}) but no adapter that calls its engine\n"
            "   (--reference-adapter FILE defining load(matter_dir), replay(matter, actions) and optionally\n"
            "   env_replay(matter_dir, actions); see reference_steps in this file)"
        )
        return
    kinds = ["engine", *(["env"] if hasattr(_load_adapter(adapter), "env_replay") else [])]
    base = [sys.executable, __file__, "--corpus", str(corpus), "--reference", str(checkout)]

    def child(*arguments: str) -> float:
        run = run_process([*base, "--reference-adapter", str(adapter), *arguments], child_environment())
        if run.code != 0:
            raise RuntimeError(f"a reference child failed (exit {run.code})")
        return float(json.loads(run.output)["steps_per_second"])

    measures = {"ours": lambda: float(_scorer_child(corpus, 3, pure=True)["ours"])}
    for kind in kinds:
        measures[kind] = lambda kind=kind: child("--peer-figures", kind)  # type: ignore[misc]
    figures = interleaved(measures, rounds)
    print(f"   ours (pure Python)  {spread(figures['ours'], ' steps/s', digits=0)}")
    for kind in kinds:
        print(f"   reference {kind:<6}    {spread(figures[kind], ' steps/s', digits=0)}")
        print(ratio_line(f" ours ÷ reference {kind} steps/s", ratios(figures["ours"], figures[kind])))


# ------------------------------------------------------------ 3. the command against in-process

IN_PROCESS = """
import json, sys, time
from pathlib import Path
import rubric_tools
corpus = Path(sys.argv[1])
started = time.process_time()
matters = {}
for path in sorted(corpus.glob("trajectories/*/*.jsonl")):
    if path.parent.name not in matters:
        matters[path.parent.name] = rubric_tools.load_matter(corpus / "matters" / path.parent.name).matter
    actions = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    rubric_tools.replay(matters[path.parent.name], actions)
print(time.process_time() - started)
"""


def command_against_in_process(corpus: Path, rounds: int) -> None:
    command = [sys.executable, "-m", "rubric_tools", "replay", str(corpus / "trajectories")]
    command += ["--output-format", "jsonl", "--jobs", "1"]
    script = [sys.executable, "-c", IN_PROCESS, str(corpus)]
    environment = child_environment()
    run_process(command, environment)  # bytecode written, files in the page cache
    timed: list[float] = []

    def in_process() -> float:
        run = run_process(script, environment)
        timed.append(float(run.output))
        return run.cpu

    figures = interleaved({"command": lambda: run_process(command, environment).cpu, "in-process": in_process}, rounds)
    print(
        "3. the whole `rubric replay <corpus>/trajectories --output-format jsonl --jobs 1` process (CPU time,\n"
        "   interpreter start-up, imports, reading, validating, replaying, encoding, writing) against loading the\n"
        "   matters and replaying the same trajectories in one process (rubric_tools.load_matter, each file read\n"
        f"   and parsed, rubric_tools.replay), {rounds} interleaved rounds"
    )
    print(f"   command                       {spread(figures['command'], ' s CPU')}")
    print(f"   in-process, timed inside      {spread(timed, ' s CPU')}")
    print(f"   in-process, the whole process {spread(figures['in-process'], ' s CPU')}")
    print(ratio_line(" command ÷ in-process (timed inside)", ratios(figures["command"], timed), COMMAND_TARGET))
    print(
        ratio_line(
            " command ÷ in-process (whole process, start-up on both sides)",
            ratios(figures["command"], figures["in-process"]),
        )
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--corpus", type=Path, default=None)
    parser.add_argument("--reference", type=Path, default=None, help="a checkout of the upstream repository")
    parser.add_argument("--reference-adapter", type=Path, default=None, help="calls the reference engine and env")
    parser.add_argument("--parts", default="1,2,3,4", help="which parts to run (default: all four)")
    parser.add_argument("--scorer-figures", action="store_true", help=argparse.SUPPRESS)  # a scorer child
    parser.add_argument("--peer-figures", choices=("engine", "env"), help=argparse.SUPPRESS)  # a reference child
    args = parser.parse_args()
    corpus = corpus_folder(args.corpus)
    if not (corpus / "trajectories").is_dir():
        print(f"corpus not found at {corpus}", file=sys.stderr)
        return 2
    if args.scorer_figures:
        print(json.dumps(scorer_figures(corpus, args.rounds)))
        return 0
    checkout = reference_checkout(args.reference)
    if args.peer_figures:
        assert checkout is not None and args.reference_adapter is not None
        print(json.dumps(reference_steps(corpus, checkout, args.reference_adapter, args.peer_figures, 3)))
        return 0
    print(machine())
    parts = {part.strip() for part in args.parts.split(",")}
    if "1" in parts:
        scorers_against_floor(corpus, args.rounds)
    if "2" in parts:
        reference_peers(corpus, args.rounds, checkout, args.reference_adapter)
    if "3" in parts:
        command_against_in_process(corpus, args.rounds)
    if "4" in parts:
        long_episodes(corpus, args.rounds)
    return 0


if __name__ == "__main__":
    sys.exit(main())
