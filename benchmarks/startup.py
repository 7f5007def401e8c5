"""Start-up: what a command costs before and around its work, against the interpreter floor.

Whole processes, timed in this run and interleaved (one run of each case per round, so a
burst of load on the machine hits every case alike); the median of N rounds, wall time
and CPU time (user + system: on a loaded machine the better estimate of what the wall
time is on an idle one). Floors measured in the same run: `python -S -c pass` (the bare
interpreter), `python -c pass` (with site-packages) and `python -c 'import typer'` (the
CLI framework alone). Each command is printed with both ratios and, where the issue sets
one, its absolute wall-time target (0.15 s for `rubric --help` and `rubric explain CODE`,
0.2 s for a warm lint of one matter, set where `import typer` took about 0.09 s): read them against the floors to
judge the noise. The console script and `python -m rubric_tools` are both timed, to show
the entry point's own cost.

    python benchmarks/startup.py [--rounds N] [--matter DIR]

To see where the time goes: `python -X importtime -m rubric_tools lint MATTER`.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
PYTHON = sys.executable
# Seconds of wall time. `rubric explain CODE` (one code's page) is held to --help's target:
# it reads a generated rule index instead of importing the rules.
TARGETS = {
    "rubric --help": 0.15,
    "rubric lint MATTER (warm)": 0.2,
    "rubric explain G001": 0.15,
    "rubric explain T101": 0.15,
}


def _rubric() -> list[str]:
    script = Path(PYTHON).parent / "rubric"
    return [str(script)] if script.exists() else [PYTHON, "-m", "rubric_tools"]


def _run(command: list[str], environment: dict[str, str]) -> tuple[float, float]:
    """Wall time and CPU time (user + system) of one run of `command`."""
    start = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=environment)
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) not in (0, 1):
        raise SystemExit(f"{' '.join(command)} failed (exit {os.waitstatus_to_exitcode(status)})")
    return wall, usage.ru_utime + usage.ru_stime


def _cases(matter: Path, trajectory: Path) -> dict[str, list[str]]:
    rubric = _rubric()
    return {
        "python -S -c pass": [PYTHON, "-S", "-c", "pass"],
        "python -c pass": [PYTHON, "-c", "pass"],
        "python -c 'import typer'": [PYTHON, "-c", "import typer"],
        "rubric --help": [*rubric, "--help"],
        "python -m rubric_tools --help": [PYTHON, "-m", "rubric_tools", "--help"],
        "rubric lint --help": [*rubric, "lint", "--help"],
        "rubric replay --help": [*rubric, "replay", "--help"],
        "rubric lint MATTER (warm)": [*rubric, "lint", str(matter)],
        "rubric replay TRAJECTORY": [*rubric, "replay", str(trajectory), "--output-format", "concise"],
        "rubric explain G001": [*rubric, "explain", "G001"],  # a lint rule
        "rubric explain T101": [*rubric, "explain", "T101"],  # a replay code (the catalogue)
        "rubric rules": [*rubric, "rules"],  # every rule, from the same index
    }


FLOORS = ("python -S -c pass", "python -c pass", "python -c 'import typer'")


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--matter", type=Path, default=REPO / "matters" / "ai_saas_001")
    args = parser.parse_args()
    trajectory = args.matter / "trajectories" / "reference.jsonl"
    cases = _cases(args.matter, trajectory)
    samples: dict[str, list[tuple[float, float]]] = {name: [] for name in cases}
    with tempfile.TemporaryDirectory(prefix="rubric-startup-cache-") as cache:
        environment = {**os.environ, "RUBRIC_CACHE_DIR": cache}
        environment.pop("RUBRIC_NO_CACHE", None)
        # The warm-up writes bytecode as an installed package has it (pip compiles it at install):
        # with PYTHONDONTWRITEBYTECODE inherited, every run would compile every source again.
        environment.pop("PYTHONDONTWRITEBYTECODE", None)
        for command in cases.values():  # warm-up: fills the lint result cache, the OS file cache, .pyc files
            _run(command, environment)
        for _ in range(args.rounds):
            for name, command in cases.items():
                samples[name].append(_run(command, environment))
    wall = {name: statistics.median(w for w, _ in runs) for name, runs in samples.items()}
    cpu = {name: statistics.median(c for _, c in runs) for name, runs in samples.items()}
    bare, typer_ = "python -c pass", "python -c 'import typer'"
    print(f"median of {args.rounds} interleaved runs in this run, seconds; ratios to the floors measured alongside")
    print(f"  {'':32} {'wall':>6} {'CPU':>6}  {'wall/pass':>9} {'wall/typer':>10} {'CPU/typer':>9}   target (wall)")
    for name in cases:
        line = (
            f"  {name:32} {wall[name]:6.3f} {cpu[name]:6.3f}  {wall[name] / wall[bare]:8.1f}x"
            f" {wall[name] / wall[typer_]:9.2f}x {cpu[name] / cpu[typer_]:8.2f}x"
        )
        if name in TARGETS:
            target = TARGETS[name]
            verdict = "met" if wall[name] <= target else "MISSED"
            line += f"   <= {target:.2f} s: {verdict} (CPU {cpu[name]:.3f} s)"
        elif name in FLOORS:
            line += "   (floor)"
        print(line)
    script, module = wall["rubric --help"], wall["python -m rubric_tools --help"]
    print(f"entry points: console script / python -m = {script / module:.2f}x (rubric --help)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
