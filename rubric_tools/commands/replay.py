"""`rubric replay`: replay recorded trajectories and report them.

Exit 0 when every trajectory replayed, 1 when a gate search hit its time limit, 2 on
usage or input errors (the other trajectories still replay).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from rich.console import Console

from rubric_tools.commands.common import EXIT_USAGE, output_width
from rubric_tools.replaying import replay_paths
from rubric_tools.reporting.formats import ReplayFormat
from rubric_tools.reporting.replay import render_json, render_text, trace_json
from rubric_tools.scoring.gates import DEFAULT_SEARCH_TIMEOUT


@dataclass
class ReplayOptions:
    trajectories: Sequence[Path]
    matter: Path | None = None
    output_format: ReplayFormat = ReplayFormat.TEXT
    trace: Path | None = None
    gate_timeout: float = DEFAULT_SEARCH_TIMEOUT
    no_color: bool = False


def run_replay(options: ReplayOptions, stdout: TextIO, stderr: TextIO) -> int:
    report = replay_paths(list(options.trajectories), options.matter, options.gate_timeout)
    errors = Console(file=stderr, no_color=options.no_color, highlight=False, width=output_width(stderr))
    if options.output_format is ReplayFormat.JSON:
        stdout.write(render_json(report) + "\n")
        for problem in report.usage_errors:
            errors.print(f"error: {problem}")
    else:
        console = Console(file=stdout, no_color=options.no_color, highlight=False, width=output_width(stdout))
        render_text(report, console, errors)
    if options.trace is not None:
        try:
            options.trace.write_text(trace_json(report) + "\n", encoding="utf-8")
        except OSError as exc:
            errors.print(f"error: cannot write trace {options.trace}: {exc.strerror}")
            return EXIT_USAGE
    return report.exit_code
