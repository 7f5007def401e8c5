"""What `rubric lint` does, as a function that takes its streams and returns the exit
code, so the command-line layer only parses (`rubric explain` and `rubric rules`:
`rubric_tools.commands.explain`).

Exit codes: 0 nothing at or above the fail level, 1 something was, 2 a usage,
configuration or internal error. Nothing here ever lets a traceback escape.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from rubric_tools.commands.common import EXIT_OK, EXIT_USAGE, report_internal_error, wants_color
from rubric_tools.config.errors import ConfigError
from rubric_tools.config.resolve import apply_overrides, command_paths, resolve_config
from rubric_tools.diagnostics import Severity
from rubric_tools.lint.engine import LintReport, lint_paths
from rubric_tools.lint.vocabulary import CONFIG_VOCABULARY
from rubric_tools.reporting.formats import OutputFormat
from rubric_tools.reporting.safe_output import clean_text


@dataclass
class LintOptions:
    """Everything `rubric lint` accepts; None means "as configured"."""

    paths: Sequence[Path] = ()
    output_format: OutputFormat = OutputFormat.FULL
    select: Sequence[str] = ()
    ignore: Sequence[str] = ()
    fail_level: Severity | None = None
    config_file: Path | None = None
    output: Path | None = None
    no_color: bool = False
    cwd: Path | None = None
    ignore_non_matter_files: bool = False  # the pre-commit hooks' mode
    # Fixes and baselines (issue 11).
    fix: bool = False
    unsafe_fixes: bool = False
    diff: bool = False
    baseline: Path | None = None
    write_baseline: Path | None = None
    prune_baseline: bool = False


def render_report(report: LintReport, output_format: OutputFormat, *, color: bool, cwd: Path | None) -> str:
    """The report in the requested format (a summary line only for full and concise).

    Only the chosen renderer is imported (SARIF, say, pulls in every rule's docs), and a
    report without findings is printed without rich when it is not coloured."""
    if output_format in (OutputFormat.FULL, OutputFormat.CONCISE) and not report.diagnostics and not color:
        from rubric_tools.reporting.lint_common import clean_summary

        return clean_summary(report)
    if output_format is OutputFormat.FULL:
        from rubric_tools.reporting.lint_full import render_full

        return render_full(report, color=color, cwd=cwd)
    if output_format is OutputFormat.CONCISE:
        from rubric_tools.reporting.lint_concise import render_concise

        return render_concise(report, color=color, cwd=cwd)
    if output_format is OutputFormat.JSON:
        from rubric_tools.reporting.lint_json import render_json

        return render_json(report, cwd=cwd)
    if output_format is OutputFormat.SARIF:
        from rubric_tools.reporting.lint_sarif import render_sarif

        return render_sarif(report, cwd=cwd)
    from rubric_tools.reporting.lint_github import render_github

    return render_github(report, cwd=cwd)


def _internal_error(stderr: TextIO, what: str) -> int:
    exc = sys.exc_info()[1]
    assert exc is not None  # only called from an `except` block
    return report_internal_error(stderr, exc, what)


def run_lint(options: LintOptions, stdout: TextIO, stderr: TextIO) -> int:
    """Resolve the configuration, lint, write the report; return the exit code."""
    cwd = (options.cwd or Path.cwd()).absolute()
    try:
        config = resolve_config(list(options.paths), CONFIG_VOCABULARY, options.config_file, cwd)
        config = apply_overrides(
            config, CONFIG_VOCABULARY, select=options.select, ignore=options.ignore, fail_level=options.fail_level
        )
    except ConfigError as error:
        print(f"error: {error}", file=stderr)
        return EXIT_USAGE
    except Exception:  # a bug must still end with a message, not a traceback
        return _internal_error(stderr, "reading the configuration")
    paths = [p if p.is_absolute() else cwd / p for p in options.paths]
    if options.ignore_non_matter_files and paths:
        from rubric_tools.loading.layout import files_outside_matters

        outside = set(files_outside_matters(paths))
        paths = [p for p in paths if p not in outside]
        if not paths:
            return EXIT_OK  # every file handed over lies outside the matters: nothing to lint
    paths = command_paths(paths, config, cwd)
    from rubric_tools.commands import lint_fixing

    try:
        if options.diff:
            return lint_fixing.run_diff(paths, config.lint, options.unsafe_fixes, stdout, stderr, cwd)
        nothing_fixed: tuple[int, list[str], set[tuple[Path, str]]] = (0, [], set())
        fixed, write_errors, refused = (
            lint_fixing.run_fix(paths, config.lint, options.unsafe_fixes, stderr, cwd) if options.fix else nothing_fixed
        )
        report = lint_paths(paths, config.lint)
        for matter in report.matters:
            matter.diagnostics = lint_fixing.without_refused_fixes(matter.diagnostics, refused)
        report.fixed = fixed
        report.unsafe_fixes = options.unsafe_fixes
        report.usage_errors += write_errors
        baseline_exit = lint_fixing.use_baseline(report, config, options, stderr, cwd)
        if baseline_exit is not None:
            return baseline_exit
        color = options.output is None and wants_color(stdout, options.no_color)
        text = render_report(report, options.output_format, color=color, cwd=cwd)
    except Exception:
        return _internal_error(stderr, "linting")
    for problem in report.usage_errors:
        print(f"error: {problem}", file=stderr)
    if options.output is not None:
        target = options.output if options.output.is_absolute() else cwd / options.output
        try:
            target.write_text(clean_text(text), encoding="utf-8")
        except OSError as exc:
            print(f"error: cannot write {options.output}: {exc.strerror or exc}", file=stderr)
            return EXIT_USAGE
    else:
        stdout.write(text)
        stdout.flush()
    return report.exit_code
