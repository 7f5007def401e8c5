"""`rubric lint`, `rubric explain` and `rubric rules`: argument parsing only; the work is
done by `rubric_tools.commands.lint`, whose functions return the exit code."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from rubric_tools.cli.app import commands
from rubric_tools.diagnostics import Severity
from rubric_tools.reporting.formats import OutputFormat, RulesFormat

_SELECTOR_HELP = "rule codes, code prefixes (G, G0) or rule names; comma-separated or repeated"


_IGNORE_OUTSIDE_HELP = "Skip given files that belong to no matter instead of failing (the pre-commit hooks pass it)."


@commands.command("lint")
def lint_command(
    paths: Annotated[
        list[Path] | None,
        typer.Argument(
            help="Matter folders, files inside matters, or folders holding matters "
            "\\[default: the configured matter-dirs, else .]",
            show_default=False,
        ),
    ] = None,
    output_format: Annotated[
        OutputFormat,
        typer.Option(
            "--output-format",
            "--format",
            help="full, concise, json, sarif or github.",
            case_sensitive=False,
            metavar="FORMAT",
        ),
    ] = OutputFormat.FULL,
    select: Annotated[
        list[str] | None, typer.Option("--select", help=f"Run only these rules: {_SELECTOR_HELP}.")
    ] = None,
    ignore: Annotated[
        list[str] | None, typer.Option("--ignore", help=f"Skip these rules too: {_SELECTOR_HELP}.")
    ] = None,
    fail_level: Annotated[
        Severity | None,
        typer.Option(
            "--fail-level",
            help="Exit 1 when a finding is at or above this severity \\[default: configured, else error].",
            case_sensitive=False,
            show_default=False,
        ),
    ] = None,
    config: Annotated[
        Path | None,
        typer.Option(
            "--config",
            help="Use this configuration file instead of discovering rubric.toml / pyproject.toml \\[tool.rubric].",
            dir_okay=False,
        ),
    ] = None,
    output: Annotated[
        Path | None,
        typer.Option("--output", "-o", help="Write the report to this file instead of stdout."),
    ] = None,
    no_color: Annotated[bool, typer.Option("--no-color", help="Never colour the output.")] = False,
    ignore_non_matter_files: Annotated[
        bool, typer.Option("--ignore-non-matter-files", help=_IGNORE_OUTSIDE_HELP)
    ] = False,
    fix: Annotated[bool, typer.Option("--fix", help="Apply safe fixes, then report what remains.")] = False,
    unsafe_fixes: Annotated[
        bool,
        typer.Option("--unsafe-fixes", help="Apply (with --fix, --diff) and count as fixable the unsafe fixes too."),
    ] = False,
    diff: Annotated[
        bool, typer.Option("--diff", help="Print the fixes as a unified diff and write nothing (exit 1 if any).")
    ] = False,
    baseline: Annotated[
        Path | None,
        typer.Option("--baseline", help="Report only findings not recorded in this baseline file.", dir_okay=False),
    ] = None,
    write_baseline: Annotated[
        Path | None,
        typer.Option("--write-baseline", help="Record today's findings in this baseline file.", dir_okay=False),
    ] = None,
    prune_baseline: Annotated[
        bool, typer.Option("--prune-baseline", help="Drop stale entries from the baseline file.")
    ] = False,
) -> None:
    """Check matters for authoring defects.

    Exit 0: nothing at or above the fail level; 1: something was; 2: usage or config error.
    """
    from rubric_tools.commands.lint import LintOptions, run_lint  # heavy: only when run

    options = LintOptions(
        paths=tuple(paths or ()),
        output_format=output_format,
        select=tuple(select or ()),
        ignore=tuple(ignore or ()),
        fail_level=fail_level,
        config_file=config,
        output=output,
        no_color=no_color,
        ignore_non_matter_files=ignore_non_matter_files,
        fix=fix,
        unsafe_fixes=unsafe_fixes,
        diff=diff,
        baseline=baseline,
        write_baseline=write_baseline,
        prune_baseline=prune_baseline,
    )
    raise typer.Exit(run_lint(options, sys.stdout, sys.stderr))


@commands.command("explain")
def explain_command(
    rule: Annotated[str, typer.Argument(help="A rule code (G003) or name (invalid-regex).")],
    no_color: Annotated[bool, typer.Option("--no-color", help="Never colour the output.")] = False,
) -> None:
    """Show a lint rule's documentation."""
    from rubric_tools.commands.explain import run_explain

    raise typer.Exit(run_explain(rule, sys.stdout, sys.stderr, no_color=no_color))


@commands.command("rules")
def rules_command(
    output_format: Annotated[
        RulesFormat, typer.Option("--output-format", "--format", help="A table, or JSON.", case_sensitive=False)
    ] = RulesFormat.TABLE,
    no_color: Annotated[bool, typer.Option("--no-color", help="Never colour the output.")] = False,
) -> None:
    """List every lint rule: code, name, family, default severity, fixable."""
    from rubric_tools.commands.explain import run_rules

    raise typer.Exit(run_rules(output_format, sys.stdout, sys.stderr, no_color=no_color))
