"""`rubric solve` and `rubric attack` as library functions returning the exit code.

Exit codes: solve 0 when max_score is reached, 1 when points fall short; attack 0
when every threshold holds, 1 when one fails; both 2 on input errors (no matter,
a matter file that cannot be read, an unwritable --write file, a bad configuration).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

from rich.console import Console

from rubric_tools.commands.common import EXIT_USAGE
from rubric_tools.diagnostics import Severity
from rubric_tools.lint.config_file import ConfigError, resolve_config
from rubric_tools.loading.matter import MATTER_FILE, MatterSource, load_matter_source
from rubric_tools.prove.render import render_attack_text, render_solution_text
from rubric_tools.prove.solver import solve


def load_for_proof(path: Path, err: TextIO) -> MatterSource | None:
    """The matter at `path`, or None (with a message on `err`) when it cannot be proved:
    no matter.yaml there, or a matter file the loader could not read as written."""
    root = path.parent if path.is_file() else path
    if not (root / MATTER_FILE).is_file():
        err.write(f"error: {path} is not a matter folder (no {MATTER_FILE})\n")
        return None
    source = load_matter_source(root)
    load_errors = [d for d in source.diagnostics if d.code.startswith("L") and d.severity is Severity.ERROR]
    for diagnostic in load_errors:
        err.write(
            f"error: {diagnostic.file}:{diagnostic.line}:{diagnostic.column}: {diagnostic.code} {diagnostic.message}\n"
        )
    return None if load_errors else source


def write_trajectory(actions: Sequence[object], destination: Path) -> None:
    """The trajectory as JSONL: one action object per line."""
    lines = (json.dumps(action, ensure_ascii=False) for action in actions)
    destination.write_text("".join(line + "\n" for line in lines), encoding="utf-8")


def run_solve(
    path: Path, write: Path | None, output_format: str, out: TextIO, err: TextIO, *, no_color: bool = False
) -> int:
    """Solve the matter at `path`, print the proof, optionally write the trajectory."""
    source = load_for_proof(path, err)
    if source is None:
        return EXIT_USAGE
    solution = solve(source.matter)
    if write is not None:
        try:
            write_trajectory(solution.actions, write)
        except OSError as exc:
            err.write(f"error: cannot write {write}: {exc.strerror or exc}\n")
            return EXIT_USAGE
    if output_format == "json":
        document = solution.to_json()
        document["trajectory"] = list(solution.actions)
        if write is not None:
            document["written_to"] = str(write)
        out.write(json.dumps(document, indent=2, ensure_ascii=False) + "\n")
    else:
        render_solution_text(
            solution, Console(file=out, no_color=no_color, highlight=False, width=max(Console(file=out).width, 100))
        )
        if write is not None:
            out.write(f"trajectory written to {write}\n")
    return solution.exit_code


def run_attack(
    path: Path, output_format: str, out: TextIO, err: TextIO, *, config_file: Path | None = None, no_color: bool = False
) -> int:
    """Replay every reward-hacking strategy against the matter at `path`."""
    from rubric_tools.prove.attacks import attack_matter
    from rubric_tools.prove.thresholds import ThresholdError, thresholds_from_config

    source = load_for_proof(path, err)
    if source is None:
        return EXIT_USAGE
    try:
        config = resolve_config([source.root], config_file)
        thresholds = thresholds_from_config(config.attack, config.source)
    except (ConfigError, ThresholdError) as exc:
        err.write(f"error: {exc}\n")
        return EXIT_USAGE
    report = attack_matter(source, thresholds)
    if output_format == "json":
        out.write(json.dumps(report.to_json(), indent=2, ensure_ascii=False) + "\n")
    else:
        render_attack_text(
            report, Console(file=out, no_color=no_color, highlight=False, width=max(Console(file=out).width, 110))
        )
    return report.exit_code
