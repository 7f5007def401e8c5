"""`rubric replay TRAJECTORY.jsonl...`"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from rubric_tools.cli.app import app
from rubric_tools.reporting.formats import ReplayFormat
from rubric_tools.scoring.gates import DEFAULT_SEARCH_TIMEOUT


@app.command("replay")
def replay_command(
    trajectories: Annotated[list[Path], typer.Argument(help="Trajectory JSONL files.", show_default=False)],
    matter: Annotated[
        Path | None,
        typer.Option("--matter", "-m", help="Matter folder (default: found from each trajectory's path)."),
    ] = None,
    output_format: Annotated[ReplayFormat, typer.Option("--format", help="Output format.")] = ReplayFormat.TEXT,
    trace: Annotated[
        Path | None, typer.Option("--trace", help="Write the full per-step record as JSON to FILE.")
    ] = None,
    gate_timeout: Annotated[
        float, typer.Option("--gate-timeout", help="Per-search time limit for gate regexes, in seconds.")
    ] = DEFAULT_SEARCH_TIMEOUT,
    no_color: Annotated[bool, typer.Option("--no-color", help="Plain text output.")] = False,
) -> None:
    """Replay recorded trajectories through the embedded scorer, step by step.

    Exit 0 when every trajectory replayed, 1 when a gate search hit its time limit,
    2 on usage or input errors (the other trajectories still replay).
    """
    from rubric_tools.replaying import replay_paths  # heavy: only when run
    from rubric_tools.reporting.replay import render_json, render_text, trace_json

    report = replay_paths(trajectories, matter, gate_timeout)
    if output_format is ReplayFormat.JSON:
        sys.stdout.write(render_json(report) + "\n")
        errors = Console(stderr=True, no_color=no_color, highlight=False)
        for problem in report.usage_errors:
            errors.print(f"error: {problem}")
    else:
        render_text(
            report,
            Console(no_color=no_color, highlight=False),
            Console(stderr=True, no_color=no_color, highlight=False),
        )
    if trace is not None:
        try:
            trace.write_text(trace_json(report) + "\n", encoding="utf-8")
        except OSError as exc:
            Console(stderr=True).print(f"error: cannot write trace {trace}: {exc.strerror}")
            raise typer.Exit(2) from exc
    raise typer.Exit(report.exit_code)
