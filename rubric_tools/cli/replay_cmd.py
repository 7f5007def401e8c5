"""`rubric replay TRAJECTORY.jsonl...`: argument parsing only; the work is `commands.replay`."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from rubric_tools.cli.app import app
from rubric_tools.reporting.formats import ReplayFormat
from rubric_tools.scoring.gates import DEFAULT_SEARCH_TIMEOUT


@app.command("replay")
def replay_command(
    trajectories: Annotated[
        list[Path], typer.Argument(help="Trajectory files: JSONL, or YAML (.yaml, .yml).", show_default=False)
    ],
    matter: Annotated[
        Path | None,
        typer.Option("--matter", "-m", help="Matter folder (default: found from each trajectory's path)."),
    ] = None,
    output_format: Annotated[
        ReplayFormat, typer.Option("--output-format", "--format", help="text or json.", case_sensitive=False)
    ] = ReplayFormat.TEXT,
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
    from rubric_tools.commands.replay import ReplayOptions, run_replay  # heavy: only when run

    options = ReplayOptions(trajectories, matter, output_format, trace, gate_timeout, no_color)
    raise typer.Exit(run_replay(options, sys.stdout, sys.stderr))
