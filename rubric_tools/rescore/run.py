"""`rubric rescore`: read the archive, score every trajectory under the current matters
and the base, summarize, write the rows, apply the thresholds. Returns the exit code."""

from __future__ import annotations

import importlib.util
import json
import os
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rubric_tools._version import __version__
from rubric_tools.diagnostics import Diagnostic, Severity, Span
from rubric_tools.loading.layout import child_matters
from rubric_tools.rescore.archive import read_archive
from rubric_tools.rescore.backends import Outcome, Work, run_pool, run_serial
from rubric_tools.rescore.bases import BaseError, BaseMatters, resolve_revision
from rubric_tools.rescore.codes import MATTER_INVALID, MATTER_NOT_IN_BASE
from rubric_tools.rescore.items import matters_digest, run_key, work_items
from rubric_tools.rescore.outputs import OutputError, RowFile, check_output
from rubric_tools.rescore.summary import Summary, Thresholds
from rubric_tools.rescore.worker import Resolver, row_text

EXIT_OK, EXIT_THRESHOLD, EXIT_ERROR = 0, 1, 2
BACKENDS = ("process", "ray")
#: Rows kept for the table: the first ones that changed (the rest are in --out).
NOTABLE_ROWS = 25
#: Diagnostics kept for the final report; all of them are streamed and counted.
KEPT_DIAGNOSTICS = 1000


@dataclass
class RescoreOptions:
    archives: list[Path]
    matters: Path | None = None
    base: Path | None = None
    base_rev: str | None = None
    jobs: int | None = None  # None: all cores
    backend: str = "process"
    ray_address: str | None = None
    out: Path | None = None
    resume: bool = False
    thresholds: Thresholds = field(default_factory=Thresholds)
    progress: bool = False


@dataclass
class RescoreRun:
    """What the reporters render: filled as rows stream through."""

    summary: Summary = field(default_factory=Summary)
    notable: list[dict[str, Any]] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    breaches: list[str] = field(default_factory=list)
    resumed_rows: int = 0
    errors: int = 0
    warnings: int = 0

    @property
    def exit_code(self) -> int:
        if self.errors:
            return EXIT_ERROR
        return EXIT_THRESHOLD if self.breaches else EXIT_OK

    def wants(self, summary: dict[str, Any]) -> bool:
        """Whether the table keeps this row: it moved, and the table is not full yet."""
        moved = summary["changed"] or summary["reproduced"] is False or summary["critical_flip"] is not None
        return bool(moved) and len(self.notable) < NOTABLE_ROWS

    def add_row(self, summary: dict[str, Any], row: dict[str, Any] | None) -> None:
        """Count a row (its summary fields suffice); keep it for the table if it moved."""
        if row is not None and self.wants(summary):
            self.notable.append(row)
        self.summary.add(summary)


def usage_problem(options: RescoreOptions) -> str | None:
    """Why the options cannot run at all, or None."""
    if options.base is not None and options.base_rev is not None:
        return "--base and --base-rev cannot be used together"
    if options.matters is not None and not options.matters.is_dir():
        return f"{options.matters}: --matters is not a folder"
    if options.backend not in BACKENDS:
        return f"--backend must be one of {', '.join(BACKENDS)}"
    if options.jobs is not None and options.jobs < 1:
        return "--jobs must be at least 1"
    if options.resume and (options.out is None or options.matters is None):
        return "--resume needs --out (the checkpoint lives beside it) and --matters (it is keyed by their digest)"
    if options.resume and options.backend == "ray":
        return "--resume works with the process backend only"
    if options.backend == "ray" and importlib.util.find_spec("ray") is None:
        return "--backend ray needs Ray: pip install 'rubric-tools[ray]'"
    if options.base is not None and not options.base.is_dir():
        return f"{options.base}: --base is not a folder"
    if options.out is not None:
        try:
            check_output(options.out)
        except OutputError as exc:
            return str(exc)
    return None


def _base_label(options: RescoreOptions) -> str:
    if options.base_rev is not None:
        where = options.matters or (options.archives[0] if options.archives else Path.cwd())
        return "rev:" + resolve_revision(where if where.is_dir() else where.parent, options.base_rev)
    if options.base is not None:
        return "dir:" + matters_digest(options.base)
    return "none"


def _outcomes(
    options: RescoreOptions, items: Iterator[Work | Diagnostic], resolver: Resolver | None
) -> Iterator[Outcome]:
    jobs = options.jobs or os.cpu_count() or 1
    if options.backend == "ray":
        from rubric_tools.rescore.ray_backend import run_ray

        return run_ray(items, options.ray_address, resolver)
    if jobs == 1:
        return run_serial(items, resolver)
    return run_pool(items, jobs, resolver)


def _skip(items: Iterator[Work | Diagnostic], done: int) -> Iterator[Work | Diagnostic]:
    """Drop the first `done` work items (a resumed run); problems still pass through."""
    for item in items:
        if not isinstance(item, Diagnostic) and done > 0:
            done -= 1
            continue
        yield item


def problem_diagnostic(problem: dict[str, Any]) -> Diagnostic:
    """The diagnostic of a problem a worker sent back as JSON; its name and severity are
    those of its declared code."""
    from rubric_tools.catalogue import find_code
    from rubric_tools.rescore.records import record_problem

    declared = find_code(str(problem["code"]))
    if declared is None:  # every problem is built from a declaration
        raise ValueError(f"undeclared rescore problem code {problem['code']!r}")
    return record_problem(
        problem["file"],
        problem["line"],
        declared,
        problem["message"],
        problem.get("hint"),
        problem.get("column", 1),
    )


def _resolver(options: RescoreOptions, bases: BaseMatters, generation: str) -> Resolver | None:
    """With --matters, workers parse episodes and find their matters themselves."""
    if options.matters is None:
        return None
    base_folders = None
    if options.base_rev is not None:
        folders = child_matters(options.matters)
        base_folders = {}
        for folder in folders:
            exported = bases.folder(folder)
            base_folders[str(folder.resolve())] = str(exported) if exported is not None else None
    base_dir = str(options.base) if options.base is not None else None
    return Resolver(str(options.matters), base_dir, base_folders, generation)


def _not_in_base(row: dict[str, Any], bases: BaseMatters) -> Diagnostic:
    reasons = sorted(set(bases.errors.values()))
    reason = f" ({reasons[0]})" if reasons else ""
    return Diagnostic.of(
        MATTER_NOT_IN_BASE,
        f"matter {row['matter_id']} has no base version{reason}: its rows have base null",
        Path(row["source"]["file"]) if "source" in row else Path(str(row["matter_id"])),
        Span.point(1, 1),
    )


RowCallback = Callable[[dict[str, Any]], object]


def rescore(
    options: RescoreOptions,
    on_row: RowCallback | None = None,
    on_diagnostic: Callable[[Diagnostic], object] | None = None,
    tick: RowCallback | None = None,
) -> RescoreRun:
    """Run the rescore; `on_row(row)` and `on_diagnostic(d)` stream results as they come.

    Raises BaseError when the base cannot be used at all.
    """
    run = RescoreRun()
    base_label = _base_label(options) if options.base_rev is not None else None  # a bad revision stops here
    bases = BaseMatters(options.base, options.base_rev)
    rows: RowFile | None = None
    warned_base: set[str] = set()
    said_once: set[str] = set()
    try:
        resume_at = None
        if options.out is not None:
            key = (
                run_key(options.archives, options.matters, base_label or _base_label(options), __version__)
                if options.matters is not None
                else "unkeyed"
            )
            rows = RowFile(options.out, key)
            resume_at = rows.resumable() if options.resume else None
            rows.open(resume_at)
            for row in rows.previous_rows():
                run.add_row(row, row)
                run.resumed_rows += 1
                if on_row is not None:
                    on_row(row)
        generation = uuid.uuid4().hex
        resolver = _resolver(options, bases, generation)
        unread = resolver is not None  # the workers read and parse (Ray's, episode lines only)
        records = read_archive(options.archives, raw_episodes=unread, raw_files=unread and options.backend != "ray")
        items = work_items(records, options.matters, bases, generation)
        if resume_at is not None:
            items = _skip(items, resume_at[0])
        for outcome in _outcomes(options, items, resolver):
            if isinstance(outcome, Diagnostic):
                _report(run, outcome, on_diagnostic)
                continue
            text, summary = outcome
            if rows is not None:
                rows.item_done()
            if summary is None:
                decoded = json.loads(text)
                if "problems" in decoded:  # a one-trajectory file with several bad lines
                    for each in decoded["problems"]:
                        _report(run, problem_diagnostic(each), on_diagnostic)
                    continue
                problem = decoded["problem"]
                if problem["code"] == MATTER_INVALID.code and problem["message"] in said_once:
                    run.summary.skipped += 1  # a matter that does not load is said once, counted always
                    continue
                if problem["code"] == MATTER_INVALID.code:
                    said_once.add(problem["message"])
                _report(run, problem_diagnostic(problem), on_diagnostic)
                continue
            encoded_row = row_text(text)
            if rows is not None:
                rows.write(encoded_row)
            full: dict[str, Any] | None = None
            if on_row is not None or run.wants(summary):  # decoding every row would cost the reader
                full = json.loads(encoded_row)
            run.add_row(summary, full)
            if summary["base_missing"] and summary["matter_id"] not in warned_base:
                warned_base.add(summary["matter_id"])
                _report(run, _not_in_base(full or json.loads(encoded_row), bases), on_diagnostic)
            if on_row is not None and full is not None:
                on_row(full)
            if tick is not None:
                tick(summary)
        if rows is not None:
            rows.finish()
            rows = None
    finally:
        if rows is not None:
            rows.close_interrupted()  # keep what is done for --resume
        bases.close()
    run.breaches = options.thresholds.breaches(run.summary)
    return run


def _report(run: RescoreRun, diagnostic: Diagnostic, on_diagnostic: Callable[[Diagnostic], object] | None) -> None:
    if diagnostic.severity is Severity.ERROR:
        run.summary.skipped += 1
        run.errors += 1
    else:
        run.warnings += 1
    if len(run.diagnostics) < KEPT_DIAGNOSTICS:
        run.diagnostics.append(diagnostic)
    if on_diagnostic is not None:
        on_diagnostic(diagnostic)


__all__ = ["BaseError", "RescoreOptions", "RescoreRun", "rescore", "usage_problem"]
