"""`rubric coverage`: measure coverage (and mutation adequacy) of matters, render it, and
return the exit code: 0, 1 below a `[tool.rubric.coverage]` threshold, 2 on usage errors."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TextIO

from rich.console import Console

from rubric_tools.commands.common import EXIT_USAGE, report_internal_error
from rubric_tools.config.errors import ConfigError
from rubric_tools.config.resolve import command_paths, resolve_config
from rubric_tools.coverage.runs import measure
from rubric_tools.coverage.verdict import CoverageRun
from rubric_tools.lint.vocabulary import CONFIG_VOCABULARY
from rubric_tools.reporting.formats import CoverageFormat


@dataclass
class CoverageOptions:
    paths: Sequence[Path] = ()
    output_format: CoverageFormat = CoverageFormat.TEXT
    config_file: Path | None = None
    output: Path | None = None
    mutation: bool = False
    html: Path | None = None
    jobs: int | None = None
    fail_under: float | None = None
    no_color: bool = False


def _write(text: str, options: CoverageOptions, stdout: TextIO) -> None:
    if options.output is not None:
        options.output.write_text(text + "\n", encoding="utf-8")
    else:
        stdout.write(text + "\n")


def _render(run: CoverageRun, options: CoverageOptions, stdout: TextIO) -> None:
    if options.output_format is CoverageFormat.JSON:
        from rubric_tools.reporting.coverage_json import render_json

        _write(render_json(run), options, stdout)
        return
    from rubric_tools.reporting.coverage_text import render_text

    target = options.output.open("w", encoding="utf-8") if options.output else stdout
    try:
        # A pipe or a file gets a fixed, comfortable width instead of rich's 80 columns.
        width = None if target.isatty() else 120
        plain = options.no_color or options.output is not None
        render_text(run, Console(file=target, no_color=plain, highlight=False, width=width))
    finally:
        if options.output:
            target.close()


def run_coverage(options: CoverageOptions, stdout: TextIO, stderr: TextIO) -> int:
    errors = Console(file=stderr, no_color=options.no_color, highlight=False, soft_wrap=True)  # one line each
    try:
        config = resolve_config(list(options.paths), CONFIG_VOCABULARY, options.config_file)
    except ConfigError as exc:
        errors.print(f"error: {exc}", markup=False)
        return EXIT_USAGE
    settings = config.coverage
    if options.fail_under is not None:
        settings = replace(settings, fail_under=options.fail_under)
    paths = command_paths(options.paths, config)
    try:
        html = options.html is not None
        # The HTML report shows each gate list's robustness: the audit runs for it.
        robustness = config.audit if html else None
        run = measure(paths, settings, options.mutation, keep_sources=html, jobs=options.jobs, robustness=robustness)
        if options.html is not None:
            from rubric_tools.reporting.coverage_html import write_html

            index = write_html(run, options.html)
            errors.print(f"wrote HTML report to {index}", markup=False)
    except OSError as exc:
        errors.print(f"error: {exc}", markup=False)
        return EXIT_USAGE
    except Exception as exc:  # never a traceback for the user (unless --debug): one line, code I001
        return report_internal_error(stderr, exc, "measuring coverage")
    try:
        _render(run, options, stdout)
    except OSError as exc:
        errors.print(f"error: cannot write the report: {exc}", markup=False)
        return EXIT_USAGE
    for problem in run.usage_errors:
        errors.print(f"error: {problem}", markup=False)
    return run.exit_code
