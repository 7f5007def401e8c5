"""Start-up: what a command costs before and around its work, against the interpreter floor.

Best-of-N wall times of whole processes, measured in this run: a bare interpreter,
`import typer` (the CLI framework alone), `rubric --help`, `rubric replay --help`, and a
warm `rubric lint` of one matter (the result cache filled by a first run), with the
targets beside them. Ratios to `import typer` travel between machines; the targets are
the issue's (0.15 s and 0.2 s where `import typer` takes about 0.09 s).

    python benchmarks/startup.py [--rounds N] [--matter DIR]

To see where the time goes: `python -X importtime -m rubric_tools lint MATTER`.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
TYPER_IMPORT_SECONDS = 0.09  # on the machine the targets were set on
TARGETS = {"rubric --help": 0.15, "rubric lint (warm, one matter)": 0.2}


def _rubric() -> list[str]:
    script = Path(sys.executable).parent / "rubric"
    return [str(script)] if script.exists() else [sys.executable, "-m", "rubric_tools"]


def _best(command: list[str], rounds: int, environment: dict[str, str]) -> tuple[float, float]:
    """Best wall time and best CPU time (user + system) of `rounds` runs. On a busy machine
    the CPU time is the better estimate of what the wall time is on an idle one."""
    best_wall = best_cpu = float("inf")
    for _ in range(rounds):
        start = time.perf_counter()
        process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=environment)
        _, _, usage = os.wait4(process.pid, 0)
        best_wall = min(best_wall, time.perf_counter() - start)
        best_cpu = min(best_cpu, usage.ru_utime + usage.ru_stime)
    return best_wall, best_cpu


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--matter", type=Path, default=REPO / "matters" / "ai_saas_001")
    args = parser.parse_args()
    rubric = _rubric()
    with tempfile.TemporaryDirectory(prefix="rubric-startup-cache-") as cache:
        environment = {**os.environ, "RUBRIC_CACHE_DIR": cache}
        environment.pop("RUBRIC_NO_CACHE", None)
        lint = [*rubric, "lint", str(args.matter)]
        subprocess.run(lint, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=environment, check=False)
        commands = {
            "python -c pass": [sys.executable, "-c", "pass"],
            "python -c 'import typer'": [sys.executable, "-c", "import typer"],
            "rubric --help": [*rubric, "--help"],
            "rubric replay --help": [*rubric, "replay", "--help"],
            "rubric lint (warm, one matter)": lint,
        }
        times = {name: _best(command, args.rounds, environment) for name, command in commands.items()}
    typer_wall, typer_cpu = times["python -c 'import typer'"]
    print(f"best of {args.rounds} runs, this run: wall time, CPU time, and each as a ratio to `import typer`")
    for name, (wall, cpu) in times.items():
        line = f"  {name:32} wall {wall:6.3f} s ({wall / typer_wall:4.2f}x)  CPU {cpu:6.3f} s ({cpu / typer_cpu:4.2f}x)"
        if name in TARGETS:
            target = TARGETS[name]
            line += f"   target {target:.2f} s ({target / TYPER_IMPORT_SECONDS:.2f}x typer)"
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
