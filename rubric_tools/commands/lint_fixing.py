"""The `--fix`, `--diff` and baseline parts of `rubric lint`, called by `run_lint`.

Messages go to stderr so that a JSON or SARIF report on stdout stays one document.
"""

from __future__ import annotations

import difflib
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from rubric_tools.commands.common import EXIT_FINDINGS, EXIT_OK, EXIT_USAGE
from rubric_tools.config.lint import LintSection
from rubric_tools.config.project import ProjectConfig
from rubric_tools.diagnostics import Diagnostic
from rubric_tools.lint.engine import LintReport
from rubric_tools.reporting.lint_common import display_path

if TYPE_CHECKING:
    from rubric_tools.commands.lint import LintOptions


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 'es' if word.endswith('x') else 's'}"


def unified_diff(path: Path, before: str, after: str, cwd: Path) -> str:
    shown = display_path(path, cwd)
    lines = difflib.unified_diff(
        before.splitlines(keepends=True), after.splitlines(keepends=True), f"a/{shown}", f"b/{shown}"
    )
    return "".join(line if line.endswith(("\n", "\r")) else line + "\n\\ No newline at end of file\n" for line in lines)


def run_diff(
    paths: Sequence[Path], config: LintSection, unsafe: bool, stdout: TextIO, stderr: TextIO, cwd: Path
) -> int:
    """Print what `--fix` would change; write nothing. Exit 1 when something would change (as ruff)."""
    from rubric_tools.lint.fix_run import fix_paths

    run = fix_paths(paths, config, unsafe=unsafe, write=False)
    for problem in run.problems:
        print(f"error: {problem}", file=stderr)
    for change in run.changes:
        stdout.write(unified_diff(change.path, change.before, change.after, cwd))
    for rejected in run.rejected:
        print(f"warning: fix not applied, the result would not parse as intended: {rejected}", file=stderr)
    if run.changes:
        print(f"Would apply {_plural(run.applied, 'fix')} to {_plural(len(run.changes), 'file')}.", file=stderr)
    else:
        print("No fixes available." if run.applied == 0 else "No changes.", file=stderr)
    if run.unsafe_left:
        print(
            f"{run.unsafe_left} unsafe fix{'' if run.unsafe_left == 1 else 'es'} not shown: add --unsafe-fixes.",
            file=stderr,
        )
    if run.problems:
        return EXIT_USAGE
    return EXIT_FINDINGS if run.changes else EXIT_OK


def run_fix(
    paths: Sequence[Path], config: LintSection, unsafe: bool, stderr: TextIO, cwd: Path
) -> tuple[int, list[str], set[tuple[Path, str]]]:
    """Write the fixes; return how many were applied, the files that could not be written
    and the fixes refused because their result would not parse (file, fix message)."""
    from rubric_tools.lint.fix_run import fix_paths

    run = fix_paths(paths, config, unsafe=unsafe, write=True)
    for rejected in run.rejected:
        print(f"warning: fix not applied, the result would not parse as intended: {rejected}", file=stderr)
    if run.changes:
        files = ", ".join(display_path(c.path, cwd) for c in run.changes)
        print(f"Applied {_plural(run.applied, 'fix')} to {_plural(len(run.changes), 'file')}: {files}", file=stderr)
    return run.applied, run.write_errors, run.refused


def without_refused_fixes(diagnostics: list[Diagnostic], refused: set[tuple[Path, str]]) -> list[Diagnostic]:
    """The findings, a fix `--fix` could not apply (its result would not parse) no longer
    offered: the report must not call fixable what `--fix` just refused."""
    if not refused:
        return diagnostics
    return [
        replace(d, fix=None) if d.fix is not None and d.file is not None and (d.file, d.fix.message) in refused else d
        for d in diagnostics
    ]


def _baseline_file(config: ProjectConfig, options: LintOptions, cwd: Path) -> Path | None:
    from rubric_tools.lint.baseline import configured_baseline

    if options.baseline is not None:
        return options.baseline if options.baseline.is_absolute() else cwd / options.baseline
    found = configured_baseline(config.source, config.lint.baseline)
    return found if found is None or found.is_absolute() else cwd / found


def use_baseline(
    report: LintReport, config: ProjectConfig, options: LintOptions, stderr: TextIO, cwd: Path
) -> int | None:
    """Write, apply or prune the baseline; an exit code when the command ends here."""
    if options.write_baseline is None and options.baseline is None and config.lint.baseline is None:
        if options.prune_baseline:
            print("error: --prune-baseline needs --baseline FILE (or `baseline` in the configuration)", file=stderr)
            return EXIT_USAGE
        return None  # no baseline: the module is not even imported
    from rubric_tools.lint import baseline

    if options.write_baseline is not None:
        target = options.write_baseline if options.write_baseline.is_absolute() else cwd / options.write_baseline
        entries = baseline.record(report.diagnostics, target.parent)
        try:
            target.write_text(baseline.render_baseline(entries), encoding="utf-8")
        except OSError as exc:
            print(f"error: cannot write {options.write_baseline}: {exc.strerror or exc}", file=stderr)
            return EXIT_USAGE
        count = sum(e.count for e in entries)
        print(f"Wrote {count} finding{'' if count == 1 else 's'} to baseline {display_path(target, cwd)}.", file=stderr)
        return EXIT_OK
    path = _baseline_file(config, options, cwd)
    if path is None:
        return None
    try:
        entries = baseline.read_baseline(path)
    except baseline.BaselineError as error:
        print(f"error: {error}", file=stderr)
        return EXIT_USAGE
    # Entries of matters not linted this time (pre-commit passes a few files) are
    # neither applied nor stale, and pruning keeps them.
    roots = [m.root.resolve() for m in report.matters]

    def in_scope(entry: baseline.Entry) -> bool:
        file = (path.parent / entry.key.file).resolve()
        return any(file.is_relative_to(root) for root in roots)

    outside = [e for e in entries if not in_scope(e)]
    filtered = baseline.apply_baseline(report.diagnostics, [e for e in entries if in_scope(e)], path.parent)
    kept = {id(d) for d in filtered.new}
    for matter in report.matters:
        matter.diagnostics = [d for d in matter.diagnostics if id(d) in kept]
    report.baselined = filtered.baselined
    if options.prune_baseline:
        if filtered.stale:
            path.write_text(baseline.render_baseline(filtered.matched + outside), encoding="utf-8")
        gone = sum(n for _, n in filtered.stale)
        print(
            f"Pruned {gone} stale baseline entr{'y' if gone == 1 else 'ies'} from {display_path(path, cwd)}.",
            file=stderr,
        )
    else:
        report.other.extend(baseline.stale_diagnostics(path, filtered.stale))
    return None
