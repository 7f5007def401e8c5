"""`rubric rescore ARCHIVE... --matters DIR [--base DIR | --base-rev REV]`: argument parsing
only; the work is `commands.rescore`."""

from __future__ import annotations

import sys
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from rubric_tools.cli.app import commands


class RescoreFormat(StrEnum):
    TABLE = "table"
    JSON = "json"


class Backend(StrEnum):
    PROCESS = "process"
    RAY = "ray"


@commands.command("rescore")
def rescore_command(
    archives: Annotated[
        list[Path],
        typer.Argument(
            help="Archive files or folders (JSONL trajectories, JSONL episodes, *.trace.json; gzip of any).",
            show_default=False,
        ),
    ],
    matters: Annotated[
        Path | None, typer.Option("--matters", "-m", help="Folder of matter folders (default: found as replay does).")
    ] = None,
    base: Annotated[Path | None, typer.Option("--base", help="Folder of the base matters to compare with.")] = None,
    base_rev: Annotated[
        str | None, typer.Option("--base-rev", help="Compare with the same matters at this git revision.")
    ] = None,
    jobs: Annotated[int | None, typer.Option("--jobs", "-j", help="Worker processes (default: all cores).")] = None,
    backend: Annotated[Backend, typer.Option("--backend", help="Where to score.")] = Backend.PROCESS,
    ray_address: Annotated[
        str | None, typer.Option("--ray-address", help="Ray cluster address (default: a local one).")
    ] = None,
    out: Annotated[
        Path | None, typer.Option("--out", "-o", help="Write one row per trajectory: .jsonl or .parquet.")
    ] = None,
    resume: Annotated[bool, typer.Option("--resume", help="Continue an interrupted run writing to --out.")] = False,
    max_changed: Annotated[
        int | None, typer.Option("--max-changed", help="Fail when more trajectories change.")
    ] = None,
    max_mean_drift: Annotated[
        float | None, typer.Option("--max-mean-drift", help="Fail when a matter's mean delta moves more.")
    ] = None,
    fail_on_critical_flip: Annotated[
        bool, typer.Option("--fail-on-critical-flip", help="Fail when a critical failure appears or vanishes.")
    ] = False,
    output_format: Annotated[
        RescoreFormat, typer.Option("--output-format", "--format", help="Output format.")
    ] = RescoreFormat.TABLE,
    no_color: Annotated[bool, typer.Option("--no-color", help="Plain text output.")] = False,
) -> None:
    """Re-score an archive of rollouts under the current matters and a base version.

    Exit 0 when every threshold holds, 1 when one breaks, 2 on usage or input errors
    (malformed records are reported and skipped; the rest is still scored).
    """
    from rubric_tools.commands.rescore import RescoreCommandOptions, run_rescore  # heavy: only when run
    from rubric_tools.rescore.run import RescoreOptions
    from rubric_tools.rescore.summary import Thresholds

    options = RescoreOptions(
        archives=archives,
        matters=matters,
        base=base,
        base_rev=base_rev,
        jobs=jobs,
        backend=backend.value,
        ray_address=ray_address,
        out=out,
        resume=resume,
        thresholds=Thresholds(max_changed, max_mean_drift, fail_on_critical_flip),
    )
    command = RescoreCommandOptions(options, output_format.value, no_color)
    raise typer.Exit(run_rescore(command, sys.stdout, sys.stderr))
