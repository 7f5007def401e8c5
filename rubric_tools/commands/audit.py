"""What `rubric audit` does, as a function of its options that returns the exit code.

Exit 0 when no finding is an error, 1 when one is, 2 on usage or configuration errors
or when a matter does not load cleanly enough to be audited. Matters are audited in a
process pool when there are several: each is independent, and the work is CPU-bound
regex searching.
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, TextIO, TypeVar

from rubric_tools.audit.codes import GATE_DODGED, GATE_FIRES_ON_CORRECT_WORK, GATE_FIRES_ON_NEGATED_FRAME
from rubric_tools.audit.runner import (
    AuditReport,
    MatterAudit,
    audit_matter_source,
    collect_less,
    preload,
    start_worker,
)
from rubric_tools.checking.audit_inputs import audit_inputs
from rubric_tools.commands.common import EXIT_USAGE, report_internal_error
from rubric_tools.config.audit import AuditSection
from rubric_tools.config.errors import ConfigError
from rubric_tools.config.resolve import command_paths, resolve_config
from rubric_tools.diagnostics import Severity
from rubric_tools.lint.vocabulary import CONFIG_VOCABULARY
from rubric_tools.loading.layout import matter_sizes, matters_to_check, probe_paths
from rubric_tools.loading.matter import load_matter_source
from rubric_tools.reporting.lint_common import display_path

if TYPE_CHECKING:  # `--fix` and `--write-probes` import their modules when they run
    from rubric_tools.audit.fix_loop import MatterFix

#: A matter's job for a worker (root, settings, a flag) and what it gives back.
_Job = tuple[Path, AuditSection, bool]
_Done = TypeVar("_Done")

#: The findings whose gate entry gets a guard proposal (`audit.gate_audit`).
PROPOSED_CODES = frozenset(code.code for code in (GATE_FIRES_ON_CORRECT_WORK, GATE_FIRES_ON_NEGATED_FRAME, GATE_DODGED))


@dataclass
class AuditOptions:
    paths: Sequence[Path] = ()
    output_format: str = "text"
    write_probes: bool = False
    config_file: Path | None = None
    jobs: int | None = None
    # A verified proposal is an unsafe fix of rubric.yaml; --fix loops to a fixed point.
    fix: bool = False
    diff: bool = False
    unsafe_fixes: bool = False

    @property
    def proposes(self) -> bool:
        """Whether gate findings get their guard proposals. Every proposal is an unsafe fix,
        and, as ruff shows unsafe fixes only with `--unsafe-fixes`, they are made only when
        asked for: `--unsafe-fixes` shows them, `--fix` and `--diff` apply them or count
        them. Making them is most of an audit's cost; the findings are the same without."""
        return self.unsafe_fixes or self.fix or self.diff


def audit_matter(root: Path, settings: AuditSection, propose: bool = True) -> MatterAudit:
    """Load and audit one matter folder (nothing is audited when it does not load cleanly);
    without `propose`, its gate findings carry no proposal and no fix."""
    source = load_matter_source(root)
    audit = MatterAudit(source.root, source.matter_id)
    audit.problems = [d for d in source.diagnostics if d.severity is Severity.ERROR]
    if not audit.problems:
        result = audit_matter_source(source, settings, audit_inputs(source.root), propose=propose)
        audit.diagnostics, audit.robustness = result.diagnostics, result.robustness
    return audit


def _audit_one(job: _Job) -> MatterAudit:
    return audit_matter(*job)


def _audit_cost(root: Path) -> int:
    """About what a matter's audit costs: its gates (the rubric's size) times what each is
    completed and checked against (the size of the matter's other files: its documents,
    facts and answers, split into the sentences every witness is sought in). A matter with
    no rubric costs nothing."""
    rubric, others = matter_sizes(root)
    return rubric * max(others, 1)


def costliest_first(roots: Sequence[Path]) -> list[int]:
    """The indices of `roots`, the costliest audit first (`_audit_cost`). A pool given the
    costly ones first does not end on one of them while the other workers stand idle (the
    conformance matters' audits range from 0.01 s to 0.27 s; ordered by the rubric's size
    alone, the two workers ended 0.06 s apart)."""
    return sorted(range(len(roots)), key=lambda index: -_audit_cost(roots[index]))


def audit_roots(
    roots: Sequence[Path], settings: AuditSection, jobs: int | None = None, propose: bool = True
) -> list[MatterAudit]:
    """Audit each matter root; in a process pool of `jobs` workers (default: the CPU count).
    The audits come back in the order of `roots`."""
    order = costliest_first(roots)
    audits = _each_job(_audit_one, [(roots[index], settings, propose) for index in order], jobs)
    done = dict(zip(order, audits, strict=True))
    return [done[index] for index in range(len(roots))]


def _each_job(run: Callable[[_Job], _Done], jobs_list: Sequence[_Job], jobs: int | None) -> list[_Done]:
    """`run` of each job, in order: in a process pool of `jobs` workers (default: the CPU
    count) when there are several, else in this process; the collector runs less often in
    either (`runner.collect_less`)."""
    workers = min(jobs or os.cpu_count() or 1, len(jobs_list))
    if workers <= 1:
        collect_less()
        return [run(job) for job in jobs_list]
    if multiprocessing.get_start_method() == "fork":
        preload()  # the lexicon and the number words read once here, shared by the forked workers
    with ProcessPoolExecutor(max_workers=workers, initializer=start_worker) as pool:
        return list(pool.map(run, jobs_list))


def _write_probes(report: AuditReport, stderr: TextIO) -> int:
    from rubric_tools.audit.probe_writer import write_probes  # only with --write-probes

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


def _fix_one(job: _Job) -> MatterFix:
    from rubric_tools.audit.fix_loop import fix_matter  # only with --fix or --diff

    root, settings, unsafe = job
    return fix_matter(root, settings, audit_inputs(root), unsafe=unsafe)


def fix_roots(roots: Sequence[Path], settings: AuditSection, unsafe: bool, jobs: int | None = None) -> list[MatterFix]:
    """Run the audit's fix loop on each matter (in a process pool when there are several)."""
    loadable = [root for root in roots if load_matter_source(root).ok]
    return _each_job(_fix_one, [(root, settings, unsafe) for root in loadable], jobs)


def _run_fix(
    report: AuditReport,
    roots: Sequence[Path],
    config: AuditSection,
    options: AuditOptions,
    stdout: TextIO,
    stderr: TextIO,
) -> int | None:
    """The fix loop for `--fix` and `--diff`; an exit code when the command ends here (`--diff`)."""
    from rubric_tools.audit.fix_loop import write_changes
    from rubric_tools.commands.lint_fixing import unified_diff

    if not options.unsafe_fixes:
        # Every audit fix is unsafe: without --unsafe-fixes there is nothing to apply.
        hidden = sum(1 for d in report.diagnostics if d.fix is not None and not d.fix.safe)
        stderr.write("No fixes available.\n" if not hidden else "")
        if hidden:
            stderr.write(f"{hidden} unsafe fix{'' if hidden == 1 else 'es'} available with --unsafe-fixes.\n")
        if options.diff:
            _report_unaudited(report, stderr)
            return EXIT_USAGE if report.exit_code == EXIT_USAGE else 0
        return None
    fixes = fix_roots([m.root for m in report.matters if not m.problems], config, True, options.jobs)
    for fix in fixes:
        for problem in fix.problems:
            stderr.write(f"error: {problem}\n")
        for rejected in fix.rejected:
            stderr.write(f"warning: fix not applied, the result would not parse as intended: {rejected}\n")
    changed = [change for fix in fixes for change in fix.changes]
    applied = sum(fix.applied for fix in fixes)
    rounds = max((fix.rounds for fix in fixes), default=0)
    if options.diff:  # like `rubric lint --diff`: the diff only; exit 1 when it is not empty
        _report_unaudited(report, stderr)
        for change in changed:
            stdout.write(unified_diff(change.path, change.before, change.after, Path.cwd()))
        if changed:
            stderr.write(
                f"Would apply {applied} fix{'' if applied == 1 else 'es'} to {len(changed)} file"
                f"{'' if len(changed) == 1 else 's'} ({rounds} audit round{'' if rounds == 1 else 's'}).\n"
            )
        else:
            stderr.write("No fixes available.\n")
        return EXIT_USAGE if report.exit_code == EXIT_USAGE else int(bool(changed))
    errors = write_changes(fixes)
    for error in errors:
        stderr.write(f"error: {error}\n")
    if changed:
        files = ", ".join(str(c.path) for fix in fixes for c in fix.changes)
        stderr.write(
            f"Applied {applied} fix{'' if applied == 1 else 'es'} in {rounds} audit round"
            f"{'' if rounds == 1 else 's'}: {files}\n"
        )
        before = report.matters
        report.matters = audit_roots(roots, config, options.jobs)  # what is left after fixing
        _figures_after_fix(before, report.matters)
    return None


def _report_unaudited(report: AuditReport, stderr: TextIO) -> None:
    """`--diff` prints no report: say which matters were not audited, and why."""
    for matter in report.matters:
        for load_problem in matter.problems:
            where = f"{display_path(load_problem.file, Path.cwd())}:{load_problem.line}:{load_problem.column}"
            message = f"{load_problem.code} {load_problem.message} (not audited: the matter must load)"
            stderr.write(f"error: {where}: {message}\n")
    for usage_error in report.usage_errors:
        stderr.write(f"error: {usage_error}\n")


def _figures_after_fix(before: Sequence[MatterAudit], after: Sequence[MatterAudit]) -> None:
    """Each fixed matter's robustness figures: the lists as first audited, then as fixed,
    both on the texts of the first audit."""
    from rubric_tools.audit.robustness import refigured
    from rubric_tools.gate_analysis.gate_firing import gate_lists

    first = {(m.root, f.name): f for m in before for f in m.robustness}
    for matter in after:
        source = load_matter_source(matter.root)
        if not source.ok:
            continue
        fixed = {f"{g.issue_id}/{g.surface}": g for g in gate_lists(source.model)}
        figures = []
        for figure in matter.robustness:
            original, gate_list = first.get((matter.root, figure.name)), fixed.get(figure.name)
            figures.append(refigured(original, gate_list) if original and gate_list else figure)
        matter.robustness = figures


def _hint_proposals(report: AuditReport, options: AuditOptions, stderr: TextIO) -> None:
    """Say how to see the guard proposals that were not made (as ruff counts hidden fixes)."""
    if options.proposes:
        return
    gate_findings = sum(1 for d in report.diagnostics if d.code in PROPOSED_CODES)
    if gate_findings:
        stderr.write(
            f"Guard proposals (unsafe fixes) for the {gate_findings} gate finding{'' if gate_findings == 1 else 's'} "
            "were not made: `--unsafe-fixes` shows them, `--fix --unsafe-fixes` writes them.\n"
        )


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
        report.matters = audit_roots(roots, config.audit, options.jobs, options.proposes)
        if options.fix or options.diff:
            ended = _run_fix(report, roots, config.audit, options, stdout, stderr)
            if ended is not None:
                return ended
    except Exception as exc:  # never a traceback for the user (unless --debug): one line, code I001
        return report_internal_error(stderr, exc, "auditing")
    exit_code = report.exit_code
    if options.output_format == "json":
        stdout.write(render_json(report))
    elif options.output_format == "sarif":
        stdout.write(render_sarif(report, exit_code=exit_code))
    else:
        stdout.write(render_text(report))
        _hint_proposals(report, options, stderr)
    if options.write_probes:
        exit_code = max(exit_code, _write_probes(report, stderr))
    for problem in report.usage_errors:
        stderr.write(f"error: {problem}\n")
    return exit_code
