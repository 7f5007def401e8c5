"""What `rubric check` does, as a function of its options that returns the exit code."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TextIO

from rich.console import Console

from rubric_tools.checking.runner import check_paths
from rubric_tools.commands.common import EXIT_USAGE, report_internal_error
from rubric_tools.config.errors import ConfigError
from rubric_tools.config.resolve import command_paths, resolve_config
from rubric_tools.lint.vocabulary import CONFIG_VOCABULARY
from rubric_tools.reporting.check import render_json, render_junit, render_text
from rubric_tools.reporting.formats import CheckFormat


@dataclass
class CheckOptions:
    paths: Sequence[Path] = ()
    output_format: CheckFormat = CheckFormat.TEXT
    config_file: Path | None = None
    output: Path | None = None
    no_color: bool = False
    strict: bool = False  # --strict: on top of `[tool.rubric.check] strict`
    ignore_non_matter_files: bool = False  # the pre-commit hooks' mode
    coverage: bool = False  # also measure rubric coverage (issue 10)
    mutation: bool = False  # and mutation adequacy


def run_check(options: CheckOptions, stdout: TextIO, stderr: TextIO) -> int:
    # user paths and text, one line each (soft_wrap: a path is never cut at 80 columns)
    errors = Console(file=stderr, no_color=options.no_color, highlight=False, markup=False, soft_wrap=True)
    try:
        config = resolve_config(list(options.paths), CONFIG_VOCABULARY, options.config_file)
    except ConfigError as exc:
        errors.print(f"error: {exc}")
        return EXIT_USAGE
    if options.strict:
        config = replace(config, check=replace(config.check, strict=True))
    paths = list(options.paths)
    if options.ignore_non_matter_files and paths:
        from rubric_tools.loading.layout import files_outside_matters

        outside = set(files_outside_matters(paths))
        paths = [p for p in paths if p not in outside]
        if not paths:
            return 0  # every file handed over lies outside the matters: nothing to check
    paths = command_paths(paths, config)
    try:
        report = check_paths(paths, config)
        if options.coverage or options.mutation:
            from rubric_tools.coverage.check_rows import add_coverage_rows

            add_coverage_rows(report, config.coverage, options.mutation)
    except Exception as exc:  # never a traceback for the user (unless --debug): one line, code I001
        return report_internal_error(stderr, exc, "checking")
    if options.output_format is CheckFormat.TEXT:
        # errors="replace": text taken from a matter may hold a lone surrogate.
        target = options.output.open("w", encoding="utf-8", errors="replace") if options.output else stdout
        try:
            # A pipe or a file gets a fixed, comfortable width instead of rich's 80 columns.
            width = None if target.isatty() else 120
            render_text(
                report,
                Console(
                    file=target, no_color=options.no_color or options.output is not None, highlight=False, width=width
                ),
            )
        finally:
            if options.output:
                target.close()
    else:
        text = render_json(report) if options.output_format is CheckFormat.JSON else render_junit(report)
        if options.output is not None:
            options.output.write_text(text + "\n", encoding="utf-8", errors="replace")
        else:
            stdout.write(text + "\n")
    for problem in report.usage_errors:  # usage errors go to stderr whatever the format
        errors.print(f"error: {problem}")
    return report.exit_code
