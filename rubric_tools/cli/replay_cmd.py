"""`rubric replay TRAJECTORY...`: argument parsing only; the work is `run_replay`."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from rubric_tools.cli.app import commands
from rubric_tools.defaults import DEFAULT_SEARCH_TIMEOUT
from rubric_tools.reporting.formats import ReplayFormat


@commands.command("replay")
def replay_command(
    # Plain strings: click converts and checks each Path one by one, which costs seconds
    # on 100k arguments; run_replay expands and checks them itself, lazily.
    trajectories: Annotated[
        list[str],
        typer.Argument(
            help="Trajectory files (JSONL, or YAML: .yaml, .yml), folders (every *.jsonl below), globs, "
            "@LISTFILE (one per line) or - (the list on stdin).",
            show_default=False,
            metavar="TRAJECTORY...",
        ),
    ],
    matter: Annotated[
        str | None,
        typer.Option("--matter", "-m", help="Matter folder (default: found from each trajectory's path)."),
    ] = None,
    output_format: Annotated[
        ReplayFormat,
        typer.Option(
            "--output-format",
            "--format",
            help="text: a step table per trajectory; concise: one line each; json: one document; "
            "jsonl: one JSON object per trajectory, as each finishes.",
            case_sensitive=False,
        ),
    ] = ReplayFormat.TEXT,
    trace: Annotated[
        str | None, typer.Option("--trace", help="Write the full per-step record as JSON to FILE.")
    ] = None,
    gate_timeout: Annotated[
        float, typer.Option("--gate-timeout", help="Per-search time limit for gate regexes, in seconds.")
    ] = DEFAULT_SEARCH_TIMEOUT,
    jobs: Annotated[
        int,
        typer.Option(
            "--jobs", "-j", min=0, help="Replay in N worker processes (0: one per CPU). Output order is input order."
        ),
    ] = 1,
    no_color: Annotated[bool, typer.Option("--no-color", help="Plain text output.")] = False,
) -> None:
    """Replay recorded trajectories through the embedded scorer, step by step.

    Exit 0 when every trajectory replayed, 1 when a gate search hit its time limit,
    2 on usage or input errors (the other trajectories still replay).
    """
    from rubric_tools.commands.replay import ReplayOptions, run_replay  # heavy: only when run

    options = ReplayOptions(
        arguments=trajectories,
        output_format=output_format.value,
        matter=Path(matter) if matter is not None else None,
        trace=Path(trace) if trace is not None else None,
        gate_timeout=gate_timeout,
        jobs=jobs,
        no_color=no_color,
    )
    raise typer.Exit(run_replay(options, sys.stdin, sys.stdout, sys.stderr))
