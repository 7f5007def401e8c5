"""A long fuzzing campaign: structure-aware mutations of our matters and trajectories.

Each input is a mutated copy of one of our own matters (YAML values, gate regexes,
document lines, file-system tricks) with a mutated trajectory (see
`tests/fuzz_support.py`); every input is loaded, linted and replayed, and some are
solved, attacked and run through the command line in every output format. Workers
are separate processes with an address-space limit and a per-input time limit; a
sentinel file outside the matter, planted behind symlinks, must never be opened.

Prints inputs run, findings by class (traceback, internal-error, hang, outside-read,
rss, memory, exit-code, bad-output, worker-died, and the two oracle classes:
unloadable-lint-clean — a YAML file PyYAML's pure-Python `safe_load`, the reference's
reader, refuses while lint reports no load error for it — and search-cost — a structured
gate lint lets through that takes more than 5 CPU seconds on a 30,000-character
sentence) with a few distinct signatures each, the inputs run per kind and the workers'
peak RSS. Exit 1 when anything was found. Inputs include tag values the reference
cannot construct (`!!bool maybe`, `!!int ''`), 400-digit integers, `.nan`, tabs and
byte-order marks after block-style values, and dense structured gates. The time limit
of an input is CPU time (the machine is shared; a hang burns CPU).

    python benchmarks/fuzz.py [--inputs 100000] [--workers 2] [--seed 1] [--no-fs-tricks]
    python benchmarks/fuzz.py --atheris [atheris options]   # coverage-guided, if atheris installs
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import signal
import subprocess
import sys
import tempfile
import time
import warnings
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parent.parent
TIME_LIMIT = 10.0  # CPU seconds per input before it counts as a hang
RSS_LIMIT_MB = 500
ADDRESS_SPACE_LIMIT = 3 * 1024**3  # a runaway input fails with MemoryError instead of taking the machine
REPORT_EVERY = 50


class _Hang(BaseException):
    pass


#: CPU time, not wall time: a shared machine's load must not read as a hang.
_TIMER, _SIGNAL = signal.ITIMER_PROF, signal.SIGPROF


def _on_alarm(signum: int, frame: Any) -> None:
    raise _Hang()


def _peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def worker(seed: int, count: int, fs_tricks: bool) -> None:
    """Run `count` inputs from `seed`; one JSON line per REPORT_EVERY inputs on stdout."""
    sys.path.insert(0, str(REPO_ROOT))
    os.environ["RUBRIC_NO_CACHE"] = "1"
    warnings.simplefilter("ignore")  # FutureWarnings from `re` on odd set syntax are not findings
    resource.setrlimit(resource.RLIMIT_AS, (ADDRESS_SPACE_LIMIT, ADDRESS_SPACE_LIMIT))
    from tests.fuzz_support import OutsideReads, make_case, run_case, write_case

    reads = OutsideReads.install()
    workdir = Path(tempfile.mkdtemp(prefix="rubric-fuzz-"))
    sentinel = workdir / "outside" / "sentinel.txt"
    sentinel.parent.mkdir()
    sentinel.write_text("secret outside the matter\n", encoding="utf-8")
    reads.sentinels = {os.path.realpath(sentinel)}
    signal.signal(_SIGNAL, _on_alarm)
    rng = random.Random(seed)
    batch: list[list[str]] = []
    kinds: Counter[str] = Counter()
    ran = 0
    for index in range(count):
        case_seed = rng.getrandbits(64)
        case = make_case(random.Random(case_seed), fs_tricks=fs_tricks)
        root = workdir / "matter"
        reads.opened.clear()
        signal.setitimer(_TIMER, TIME_LIMIT)
        try:
            trajectory = write_case(case, root, sentinel)
            outcome = run_case(case, root, trajectory, reads)
            findings = outcome.findings
        except _Hang:
            findings = [("hang", f"over {TIME_LIMIT:g} s ({'+'.join(case.operations)})")]
        except MemoryError:
            findings = [("memory", "MemoryError")]
        finally:
            signal.setitimer(_TIMER, 0)
        ran += 1
        kinds["search" if "search" in case.operations else case.kind] += 1
        rss = _peak_rss_mb()
        if rss > RSS_LIMIT_MB:
            findings.append(("rss", f"peak RSS {rss:.0f} MB"))
        batch += [[kind, detail, str(case_seed)] for kind, detail in findings]
        last = index == count - 1 or rss > RSS_LIMIT_MB
        if ran % REPORT_EVERY == 0 or last:
            print(json.dumps({"ran": ran, "kinds": kinds, "findings": batch, "rss_mb": rss}), flush=True)
            batch, ran = [], 0
            kinds = Counter()
        if rss > RSS_LIMIT_MB:
            return  # the peak is sticky: a fresh worker measures the next inputs


def campaign(inputs: int, workers: int, seed: int, fs_tricks: bool) -> int:
    started = time.perf_counter()
    per_worker = max(1, inputs // workers)
    remaining = {w: per_worker for w in range(workers)}
    next_seed = seed * 1_000_003
    processes: dict[int, subprocess.Popen[str]] = {}
    findings: dict[str, Counter[str]] = defaultdict(Counter)
    examples: dict[str, str] = {}
    kinds: Counter[str] = Counter()
    peak_rss = 0.0
    ran = 0

    def start(slot: int) -> None:
        nonlocal next_seed
        next_seed += 1
        argv = [sys.executable, __file__, "--worker", str(next_seed), str(remaining[slot])]
        if not fs_tricks:
            argv.append("--no-fs-tricks")
        processes[slot] = subprocess.Popen(argv, stdout=subprocess.PIPE, text=True, cwd=REPO_ROOT)

    for slot in remaining:
        start(slot)
    while processes:
        for slot, process in list(processes.items()):
            assert process.stdout is not None
            line = process.stdout.readline()
            if line:
                record = json.loads(line)
                ran += record["ran"]
                kinds.update(record.get("kinds", {}))
                remaining[slot] -= record["ran"]
                peak_rss = max(peak_rss, record["rss_mb"])
                for kind, detail, case_seed in record["findings"]:
                    findings[kind][detail] += 1
                    examples.setdefault(f"{kind}|{detail}", case_seed)
                if ran and ran % 5000 < REPORT_EVERY:
                    rate = ran / (time.perf_counter() - started)
                    print(
                        f"  {ran:,} inputs, {sum(sum(c.values()) for c in findings.values())} findings, {rate:.0f}/s",
                        file=sys.stderr,
                        flush=True,
                    )
                continue
            code = process.wait()
            del processes[slot]
            if code != 0:
                findings["worker-died"][f"exit {code}"] += 1
                remaining[slot] -= 1  # the input that killed it is not retried
            if remaining[slot] > 0:
                start(slot)
    elapsed = time.perf_counter() - started
    print(f"fuzz campaign: {ran:,} inputs in {elapsed:,.0f} s ({ran / elapsed:.0f}/s), {workers} workers, seed {seed}")
    print("inputs by kind: " + ", ".join(f"{kind} {count:,}" for kind, count in sorted(kinds.items())))
    print(f"peak RSS of a worker: {peak_rss:.0f} MB (limit {RSS_LIMIT_MB} MB)")
    if not findings:
        print("findings: none (no traceback, internal error, hang, outside read, RSS over the limit)")
        return 0
    print("findings by class:")
    for kind, details in sorted(findings.items()):
        print(f"  {kind}: {sum(details.values())} ({len(details)} distinct)")
        for detail, times in details.most_common(5):
            seed_note = examples.get(f"{kind}|{detail}")
            print(f"    {times:>6} x {detail}" + (f"  [case seed {seed_note}]" if seed_note else ""))
    return 1


def replay_seed(case_seed: int, keep: Path) -> int:
    """Write the case of one seed into `keep` and run it in this process, verbosely."""
    sys.path.insert(0, str(REPO_ROOT))
    from tests.fuzz_support import OutsideReads, make_case, run_case, write_case

    reads = OutsideReads.install()
    sentinel = keep / "outside" / "sentinel.txt"
    sentinel.parent.mkdir(parents=True, exist_ok=True)
    sentinel.write_text("secret\n", encoding="utf-8")
    reads.sentinels = {os.path.realpath(sentinel)}
    case = make_case(random.Random(case_seed))
    trajectory = write_case(case, keep / "matter", sentinel)
    outcome = run_case(case, keep / "matter", trajectory, reads)
    print(f"case written to {keep / 'matter'} and {trajectory}; operations {case.operations}")
    for kind, detail in outcome.findings:
        print(f"{kind}: {detail}")
    return 1 if outcome.findings else 0


def atheris_main(argv: list[str]) -> int:
    try:
        import atheris  # type: ignore[import-not-found]
    except ImportError:
        print("atheris is not installed (pip install atheris); skipping the coverage-guided run")
        return 0
    sys.path.insert(0, str(REPO_ROOT))
    os.environ["RUBRIC_NO_CACHE"] = "1"
    from tests.fuzz_support import OutsideReads, make_case, run_case, write_case

    reads = OutsideReads.install()
    workdir = Path(tempfile.mkdtemp(prefix="rubric-atheris-"))
    sentinel = workdir / "sentinel.txt"
    sentinel.write_text("secret\n", encoding="utf-8")
    reads.sentinels = {os.path.realpath(sentinel)}

    def test_one_input(data: bytes) -> None:
        case = make_case(random.Random(data))
        reads.opened.clear()
        outcome = run_case(case, workdir / "matter", write_case(case, workdir / "matter", sentinel), reads)
        if outcome.findings:
            raise AssertionError(outcome.findings)

    atheris.Setup(argv, test_one_input)
    atheris.Fuzz()
    return 0


def main() -> int:
    if len(sys.argv) > 1 and sys.argv[1] == "--worker":
        worker(int(sys.argv[2]), int(sys.argv[3]), "--no-fs-tricks" not in sys.argv)
        return 0
    if "--atheris" in sys.argv:
        return atheris_main([a for a in sys.argv if a != "--atheris"])
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--inputs", type=int, default=100_000)
    parser.add_argument("--workers", type=int, default=max(1, (os.cpu_count() or 2)))
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--no-fs-tricks", action="store_true", help="no symlinks to the sentinel file")
    parser.add_argument("--replay-seed", type=int, help="write and run the case of one seed (from a finding)")
    parser.add_argument("--keep", type=Path, default=Path(tempfile.gettempdir()) / "rubric-fuzz-case")
    options = parser.parse_args()
    if options.replay_seed is not None:
        return replay_seed(options.replay_seed, options.keep)
    return campaign(options.inputs, options.workers, options.seed, not options.no_fs_tricks)


if __name__ == "__main__":
    sys.exit(main())
