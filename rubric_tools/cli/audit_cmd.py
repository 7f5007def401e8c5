"""`rubric audit [PATHS]`: argument parsing only; the work is `run_audit`."""

from __future__ import annotations

import sys
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from rubric_tools.cli.app import commands
from rubric_tools.cli.params import MatterPaths


class AuditFormat(StrEnum):
    text = "text"
    json = "json"
    sarif = "sarif"


@commands.command("audit")
def audit_command(
    paths: MatterPaths = None,
    output_format: Annotated[
        AuditFormat,
        typer.Option("--output-format", "--format", help="text, json or sarif.", case_sensitive=False),
    ] = AuditFormat.text,
    write_probes: Annotated[
        bool, typer.Option("--write-probes", help="Append the evidence to each matter's probe file, marked for review.")
    ] = False,
    config: Annotated[Path | None, typer.Option("--config", help="Configuration file to use.")] = None,
    jobs: Annotated[int | None, typer.Option("--jobs", "-j", min=1, help="Matters audited in parallel.")] = None,
    fix: Annotated[bool, typer.Option("--fix", help="Write the fixes (verified guards are unsafe fixes).")] = False,
    diff: Annotated[bool, typer.Option("--diff", help="Print the fixes as a unified diff; write nothing.")] = False,
    unsafe_fixes: Annotated[
        bool,
        typer.Option(
            "--unsafe-fixes",
            help="Propose guards for the gate findings (unsafe fixes) and show them; with --fix or --diff, apply them.",
        ),
    ] = False,
) -> None:
    """Execute every gate and concept against texts whose verdict is known: witnesses of the
    gate's own regex, the matter's correct work, negated frames and meaning-preserving rewrites.

    Exit 0 when no finding is an error, 1 when one is, 2 on usage or configuration errors.
    """
    from rubric_tools.commands.audit import AuditOptions, run_audit  # heavy: only when run

    options = AuditOptions(paths or [], output_format.value, write_probes, config, jobs, fix, diff, unsafe_fixes)
    raise typer.Exit(run_audit(options, sys.stdout, sys.stderr))
