"""What `rubric audit` does, as a function of its options that returns the exit code.

Exit 0 when no finding is an error, 1 when one is, 2 on usage or configuration errors
or when a matter does not load cleanly enough to be audited.
"""

from __future__ import annotations

import traceback
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from rubric_tools.audit.probe_writer import write_probes
from rubric_tools.audit.runner import AuditReport, audit_roots
from rubric_tools.audit.settings import AuditSettingsError, settings_from_config
from rubric_tools.checking.discovery import matters_to_check
from rubric_tools.lint.config_file import ConfigError, matter_paths, resolve_config

EXIT_USAGE = 2
FORMATS = ("text", "json", "sarif")


@dataclass
class AuditOptions:
    paths: Sequence[Path] = ()
    output_format: str = "text"
    write_probes: bool = False
    config_file: Path | None = None
    jobs: int | None = None


def run_audit(options: AuditOptions, stdout: TextIO, stderr: TextIO) -> int:
    from rubric_tools.reporting.audit import render_json, render_sarif, render_text

    try:
        config = resolve_config(list(options.paths), options.config_file)
        settings = settings_from_config(config.audit, config.source)
    except (ConfigError, AuditSettingsError) as exc:
        stderr.write(f"error: {exc}\n")
        return EXIT_USAGE
    roots, problems = matters_to_check(list(options.paths) or matter_paths(config))
    report = AuditReport(usage_errors=problems)
    try:
        report.matters = audit_roots(roots, settings, options.jobs)
    except Exception:  # never a traceback for the user; keep the cause for the bug report
        stderr.write("internal error in rubric audit, please report it:\n" + traceback.format_exc())
        return EXIT_USAGE
    exit_code = report.exit_code(settings)
    if options.output_format == "json":
        stdout.write(render_json(report))
    elif options.output_format == "sarif":
        stdout.write(render_sarif(report, exit_code=exit_code))
    else:
        stdout.write(render_text(report))
    if options.write_probes:
        for matter in report.matters:
            written = write_probes(matter.root, matter.diagnostics)
            if written.problem:
                stderr.write(f"error: {written.path}: {written.problem}\n")
                exit_code = max(exit_code, EXIT_USAGE)
            elif written.added:
                stderr.write(f"{written.path}: appended {written.added} probe(s) marked for review\n")
    for problem in report.usage_errors:
        stderr.write(f"error: {problem}\n")
    return exit_code
