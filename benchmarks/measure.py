"""What every benchmark measures with: interleaved rounds, medians with their spread, the
machine, child processes' CPU and wall time, and the peers (the reference checkout).

No peer figure is ever a constant: a peer is measured in the same run, round by round
beside ours, or reported as not measured, with the reason.
"""

from __future__ import annotations

import os
import platform
import resource
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_CORPUS = REPO_ROOT.parent / "shared" / "conformance"
REFERENCE_VARIABLE = "RUBRIC_REFERENCE_DIR"
NO_REFERENCE = f"peer not measured: no reference checkout given (--reference PATH or {REFERENCE_VARIABLE})"


def corpus_folder(given: Path | None) -> Path:
    return given or Path(os.environ.get("RUBRIC_CONFORMANCE_DIR") or DEFAULT_CORPUS)


def reference_checkout(given: Path | None) -> Path | None:
    """The upstream repository's checkout, from --reference or $RUBRIC_REFERENCE_DIR."""
    found = given or (Path(os.environ[REFERENCE_VARIABLE]) if os.environ.get(REFERENCE_VARIABLE) else None)
    return found.resolve() if found is not None else None


def machine() -> str:
    """Where the absolute figures were taken: CPU, cores, load, interpreter."""
    model = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as info:
            model = next((line.split(":", 1)[1].strip() for line in info if line.startswith("model name")), model)
    except OSError:
        pass
    load = ", ".join(f"{value:.1f}" for value in os.getloadavg()) if hasattr(os, "getloadavg") else "?"
    return (
        f"machine: {model}, {os.cpu_count()} CPUs, load average {load}; "
        f"Python {platform.python_version()} ({sys.executable})"
    )


def child_environment(**extra: str) -> dict[str, str]:
    """The environment for measured child processes: bytecode is written and read as on a
    user's machine (a PYTHONDONTWRITEBYTECODE shell would make every run compile every
    module), no result or YAML cache unless asked. The package is the one installed in this
    interpreter's environment (editable or not, pure or compiled)."""
    environment = {k: v for k, v in os.environ.items() if k not in ("PYTHONDONTWRITEBYTECODE", "RUBRIC_CACHE_DIR")}
    environment["RUBRIC_NO_CACHE"] = "1"
    environment.update(extra)
    return environment


@dataclass(frozen=True)
class Run:
    """One child process: wall seconds, CPU seconds (user + system, itself and its children),
    exit code and standard output."""

    wall: float
    cpu: float
    code: int
    output: str = ""


def run_process(command: Sequence[str], environment: Mapping[str, str] | None = None, cwd: Path | None = None) -> Run:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    completed = subprocess.run(
        list(command),
        env=dict(environment) if environment is not None else child_environment(),
        cwd=cwd,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        check=False,
    )
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return Run(wall, cpu, completed.returncode, completed.stdout)


def interleaved(measures: Mapping[str, Callable[[], float]], rounds: int) -> dict[str, list[float]]:
    """Each measure once per round, the order rotating from round to round, so that every
    measure sees the same machine (load comes and goes)."""
    names = list(measures)
    figures: dict[str, list[float]] = {name: [] for name in names}
    for index in range(rounds):
        shift = index % len(names)
        for name in names[shift:] + names[:shift]:
            figures[name].append(measures[name]())
    return figures


def spread(values: Sequence[float], unit: str = "", scale: float = 1.0, digits: int = 2) -> str:
    """`median (min–max, n)`."""
    shown = [value * scale for value in values]
    return (
        f"{statistics.median(shown):.{digits}f}{unit} "
        f"(min {min(shown):.{digits}f}, max {max(shown):.{digits}f}, n={len(shown)})"
    )


def ratios(ours: Sequence[float], theirs: Sequence[float]) -> list[float]:
    """Round by round: ours / theirs (each pair measured back to back)."""
    return [a / b for a, b in zip(ours, theirs, strict=True)]


def verdict(values: Sequence[float], target: float) -> str:
    """Whether the median meets an upper target."""
    return f"target <= {target:g}: {'met' if statistics.median(values) <= target else 'NOT MET'}"


def ratio_line(label: str, values: Sequence[float], target: float | None = None) -> str:
    line = f"  {label}: {spread(values, 'x')}"
    return line + (f"   {verdict(values, target)}" if target is not None else "")
