"""What `rubric audit` does, as a function of its options that returns the exit code.

Exit 0 when no finding is an error, 1 when one is, 2 on usage or configuration errors
or when a matter does not load cleanly enough to be audited. Matters are audited in a
process pool when there are several: each is independent, and the work is CPU-bound
regex searching.
"""

from __future__ import annotations

import os
import traceback
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from rubric_tools.audit.probe_writer import write_probes
from rubric_tools.audit.runner import AuditReport, MatterAudit, audit_source
from rubric_tools.checking.audit_inputs import audit_inputs
from rubric_tools.commands.common import EXIT_USAGE
from rubric_tools.config.audit import AuditSection
from rubric_tools.config.errors import ConfigError
from rubric_tools.config.resolve import command_paths, resolve_config
from rubric_tools.diagnostics import Severity
from rubric_tools.lint.vocabulary import CONFIG_VOCABULARY
from rubric_tools.loading.layout import matters_to_check, probe_paths
from rubric_tools.loading.matter import load_matter_source
from rubric_tools.reporting.lint_common import display_path


@dataclass
class AuditOptions:
    paths: Sequence[Path] = ()
    output_format: str = "text"
    write_probes: bool = False
    config_file: Path | None = None
    jobs: int | None = None
    # Issue 11: a verified guard proposal is an unsafe fix of rubric.yaml.
    fix: bool = False
    diff: bool = False
    unsafe_fixes: bool = False


def audit_matter(root: Path, settings: AuditSection) -> MatterAudit:
    """Load and audit one matter folder (nothing is audited when it does not load cleanly)."""
    source = load_matter_source(root)
    audit = MatterAudit(source.root, source.matter_id)
    audit.problems = [d for d in source.diagnostics if d.severity is Severity.ERROR]
    if not audit.problems:
        audit.diagnostics = audit_source(source, settings, audit_inputs(source.root))
    return audit


def _audit_one(job: tuple[Path, AuditSection]) -> MatterAudit:
    return audit_matter(*job)


def audit_roots(roots: Sequence[Path], settings: AuditSection, jobs: int | None = None) -> list[MatterAudit]:
    """Audit each matter root; in a process pool of `jobs` workers (default: the CPU count)."""
    workers = min(jobs or os.cpu_count() or 1, len(roots))
    if workers <= 1:
        return [audit_matter(root, settings) for root in roots]
    with ProcessPoolExecutor(max_workers=workers) as pool:
        return list(pool.map(_audit_one, [(root, settings) for root in roots]))


def _write_probes(report: AuditReport, stderr: TextIO) -> int:
    exit_code = 0
    for matter in report.matters:
        existing = [path for path in probe_paths(matter.root) if path.is_file()]
        written = write_probes(matter.root, matter.diagnostics, existing)
        if written.problem:
            stderr.write(f"error: {written.path}: {written.problem}\n")
            exit_code = EXIT_USAGE
        elif written.added:
            stderr.write(f"{written.path}: appended {written.added} probe(s) marked for review\n")
    return exit_code


def run_audit(options: AuditOptions, stdout: TextIO, stderr: TextIO) -> int:
    from rubric_tools.reporting.audit import render_json, render_sarif, render_text

    try:
        config = resolve_config(list(options.paths), CONFIG_VOCABULARY, options.config_file)
    except ConfigError as exc:
        stderr.write(f"error: {exc}\n")
        return EXIT_USAGE
    roots, problems = matters_to_check(command_paths(options.paths, config))
    report = AuditReport(usage_errors=problems)
    try:
        report.matters = audit_roots(roots, config.audit, options.jobs)
    except Exception:  # never a traceback for the user; keep the cause for the bug report
        stderr.write("internal error in rubric audit, please report it:\n" + traceback.format_exc())
        return EXIT_USAGE
    exit_code = report.exit_code
    if options.fix or options.diff:
        from rubric_tools.commands.lint_fixing import apply_report_fixes

        changed = apply_report_fixes(
            report.diagnostics,
            options.unsafe_fixes,
            write=not options.diff,
            stdout=stdout,
            stderr=stderr,
            cwd=Path.cwd(),
        )
        if options.diff:  # like `rubric lint --diff`: the diff only; exit 1 when it is not empty
            for matter in report.matters:  # a matter that did not load was not audited: say so
                for load_problem in matter.problems:
                    where = f"{display_path(load_problem.file, Path.cwd())}:{load_problem.line}:{load_problem.column}"
                    message = f"{load_problem.code} {load_problem.message} (not audited: the matter must load)"
                    stderr.write(f"error: {where}: {message}\n")
            for usage_error in report.usage_errors:
                stderr.write(f"error: {usage_error}\n")
            return EXIT_USAGE if report.exit_code == EXIT_USAGE else int(changed > 0)
    if options.output_format == "json":
        stdout.write(render_json(report))
    elif options.output_format == "sarif":
        stdout.write(render_sarif(report, exit_code=exit_code))
    else:
        stdout.write(render_text(report))
    if options.write_probes:
        exit_code = max(exit_code, _write_probes(report, stderr))
    for problem in report.usage_errors:
        stderr.write(f"error: {problem}\n")
    return exit_code
