"""`rubric rescore` throughput and memory on an archive of 100,000+ trajectories.

Builds, in a temporary folder, JSONL-of-episodes archives from the conformance corpus
(each trajectory with its recorded result, repeated to the size asked), then times
`rubric rescore` processes: `--jobs 1`, `--jobs 2` and `--backend ray`. For each it
prints trajectories/s, steps/s and the peak RSS of the whole process tree (sampled
every 50 ms); then the per-step cost of `--jobs 1` at two archive sizes and at two
episode lengths, which must not grow. The speed-up of `--jobs 2` over `--jobs 1` is
the ratio the issue targets (>= 1.7 on two idle cores); the load average is printed
beside it because the machine may be shared, and so is CPU time, which contention
inflates less than wall time. For Ray the CPU figure misses the cluster's own daemons and
workers (they are not waited-for children of the `rubric` process); its RSS includes them.

    python benchmarks/rescore.py [--trajectories N] [--corpus DIR] [--skip-ray]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import NamedTuple

DEFAULT_CORPUS = Path(__file__).resolve().parent.parent.parent / "shared" / "conformance"


def corpus_episodes(corpus: Path) -> list[tuple[str, int]]:
    """(JSONL line of the episode, its number of actions) for every corpus trajectory."""
    episodes = []
    for path in sorted(corpus.glob("trajectories/*/*.jsonl")):
        actions = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
        expected = json.loads(path.with_name(path.stem + ".expected.json").read_text(encoding="utf-8"))
        line = json.dumps({"matter_id": path.parent.name, "actions": actions, "result": expected["result"]})
        episodes.append((line, len(actions)))
    return episodes


def write_archive(path: Path, episodes: list[tuple[str, int]], count: int) -> int:
    """`count` episodes cycling through `episodes`; returns the number of actions written."""
    steps = 0
    with path.open("w", encoding="utf-8") as stream:
        for index in range(count):
            line, length = episodes[index % len(episodes)]
            stream.write(line + "\n")
            steps += length
    return steps


def _tree_rss(pid: int) -> int:
    """Resident bytes of `pid` and all its descendants (Linux /proc)."""
    total, stack = 0, [pid]
    while stack:
        current = stack.pop()
        try:
            status = Path(f"/proc/{current}/status").read_text()
            total += next(int(line.split()[1]) * 1024 for line in status.splitlines() if line.startswith("VmRSS:"))
            for task in Path(f"/proc/{current}/task").iterdir():
                stack.extend(int(child) for child in (task / "children").read_text().split())
        except (OSError, StopIteration, ValueError):
            continue
    return total


class Timing(NamedTuple):
    wall: float  # seconds
    cpu: float  # user + system seconds of the process and its children
    peak: int  # bytes of resident memory of the process tree, at its peak


def timed_run(args: list[str]) -> Timing:
    """Wall and CPU seconds and peak process-tree RSS of one `rubric rescore` process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    process = subprocess.Popen(["rubric", "rescore", *args], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    peak = 0
    done = threading.Event()

    def sample() -> None:
        nonlocal peak
        while not done.is_set():
            peak = max(peak, _tree_rss(process.pid))
            time.sleep(0.05)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    _, errors = process.communicate()
    elapsed = time.perf_counter() - start
    done.set()
    sampler.join()
    if process.returncode != 0:
        raise SystemExit(f"rubric rescore {' '.join(args)} exited {process.returncode}: {errors.decode()[-2000:]}")
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    return Timing(elapsed, cpu, peak)


def report(label: str, trajectories: int, steps: int, timing: Timing, fixed: Timing | None = None) -> None:
    """One line of figures. With `fixed` (a near-empty run), the per-step costs leave start-up
    out: in wall time, and in CPU time, which other work on a shared machine inflates less."""
    per_step = ""
    if fixed is not None:
        wall, cpu = timing.wall - fixed.wall, timing.cpu - fixed.cpu
        per_step = f"  per step: {wall / steps * 1e6:>5.1f} µs wall {cpu / steps * 1e6:>5.1f} µs cpu"
    print(
        f"{label:<28} {trajectories / timing.wall:>8,.0f} traj/s {steps / timing.wall:>9,.0f} steps/s "
        f"wall {timing.wall:>6.1f} s  cpu {timing.cpu:>6.1f} s  peak RSS {timing.peak / 2**20:>6.0f} MiB{per_step}"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--trajectories", type=int, default=100_000)
    parser.add_argument("--corpus", type=Path, default=Path(os.environ.get("RUBRIC_CONFORMANCE_DIR", DEFAULT_CORPUS)))
    parser.add_argument("--skip-ray", action="store_true", help="do not time the Ray backend")
    args = parser.parse_args()
    if not (args.corpus / "trajectories").is_dir():
        print(f"corpus not found at {args.corpus}", file=sys.stderr)
        return 2
    matters = str(args.corpus / "matters")
    episodes = corpus_episodes(args.corpus)
    lengths = sorted(length for _, length in episodes)
    median = lengths[len(lengths) // 2]
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}  cores: {os.cpu_count()}")
    with tempfile.TemporaryDirectory(prefix="rubric-rescore-bench-") as temp:
        big, small = Path(temp) / "big.jsonl", Path(temp) / "small.jsonl"
        big_steps = write_archive(big, episodes, args.trajectories)
        small_count = max(args.trajectories // 5, len(episodes))
        small_steps = write_archive(small, episodes, small_count)
        print(
            f"archive: {args.trajectories:,} trajectories, {big_steps:,} steps, {big.stat().st_size / 2**20:,.0f} MiB"
        )

        tiny = Path(temp) / "tiny.jsonl"
        write_archive(tiny, episodes, 12)
        fixed = timed_run([str(tiny), "--matters", matters, "--jobs", "1"])
        print(f"start-up (12 trajectories): wall {fixed.wall:.2f} s; subtracted from the per-step costs below")

        one = timed_run([str(big), "--matters", matters, "--jobs", "1"])
        report("--jobs 1", args.trajectories, big_steps, one, fixed)
        two = timed_run([str(big), "--matters", matters, "--jobs", "2"])
        report("--jobs 2", args.trajectories, big_steps, two)
        print(
            f"speed-up --jobs 2 / --jobs 1: {one.wall / two.wall:.2f}x wall (target >= 1.7 on two idle cores); "
            f"CPU overhead of the pool: {two.cpu / one.cpu:.2f}x; "
            f"load average now: {' '.join(f'{x:.2f}' for x in os.getloadavg())}"
        )
        if not args.skip_ray:
            ray = timed_run([str(big), "--matters", matters, "--backend", "ray"])
            report("--backend ray", args.trajectories, big_steps, ray)
            print(f"speed-up ray / --jobs 1: {one.wall / ray.wall:.2f}x wall")

        print("per-step cost, --jobs 1, start-up subtracted (must not grow):")
        small_run = timed_run([str(small), "--matters", matters, "--jobs", "1"])
        report(f"  {small_count:,} trajectories", small_count, small_steps, small_run, fixed)
        report(f"  {args.trajectories:,} trajectories", args.trajectories, big_steps, one, fixed)
        for label, keep in (("short", lambda n: n <= median), ("long", lambda n: n > median)):
            chosen = [episode for episode in episodes if keep(episode[1])]
            path = Path(temp) / f"{label}.jsonl"
            steps = write_archive(path, chosen, small_count)
            mean = steps / small_count
            report(
                f"  {label} episodes ({mean:.0f} steps)",
                small_count,
                steps,
                timed_run([str(path), "--matters", matters, "--jobs", "1"]),
                fixed,
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
