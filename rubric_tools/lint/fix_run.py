"""`rubric lint --fix / --diff`: apply fixes round after round on a working copy.

Each matter is copied to a temporary folder; there it is linted, its applicable fixes
are spliced in, and it is linted again, until no fix applies (at most `MAX_ROUNDS`
rounds, like ruff's fix loop). Safe fixes are proven against the original matter's
trajectories and probes in every round. Only at the end is anything compared with, or
written back to, the original files, so `--diff` never touches them and an
interrupted `--fix` leaves each file either as it was or fully fixed.
"""

from __future__ import annotations

import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from rubric_tools.config.lint import LintSection
from rubric_tools.fixing.apply_fixes import apply_fixes
from rubric_tools.fixing.working_copy import FileChange, changed_files, copy_matter, write_back
from rubric_tools.lint.engine import lint_source, selected_rules
from rubric_tools.loading.layout import discover_matters
from rubric_tools.loading.matter import load_matter_source

MAX_ROUNDS = 10


@dataclass
class FixRun:
    """What fixing did: changed files, how many fixes went in, which were refused."""

    changes: list[FileChange] = field(default_factory=list)
    applied: int = 0
    rejected: list[str] = field(default_factory=list)  # "file: fix message" that did not re-parse
    refused: set[tuple[Path, str]] = field(default_factory=set)  # the same as (original file, fix message)
    problems: list[str] = field(default_factory=list)  # paths that hold no matter
    write_errors: list[str] = field(default_factory=list)
    unsafe_left: int = 0  # unsafe fixes not applied (no --unsafe-fixes), counted after the last round


def _fix_copy(copy: Path, original: Path, config: LintSection, unsafe: bool, run: FixRun) -> None:
    rules = selected_rules(config)
    for _ in range(MAX_ROUNDS):
        report = lint_source(load_matter_source(copy), config, rules, witness_root=original)
        fixes = [d.fix for d in report.diagnostics if d.fix is not None and (unsafe or d.fix.safe)]
        results = apply_fixes(fixes)
        for result in results:
            run.rejected += [f"{result.path.relative_to(copy)}: {fix.message}" for fix in result.rejected]
            run.refused.update((original / result.path.relative_to(copy), fix.message) for fix in result.rejected)
        # Never write through a symlink: it may point at the original, or out of the matter.
        applied = [result for result in results if result.applied and _inside(result.path, copy)]
        if not applied:
            run.unsafe_left += sum(1 for d in report.diagnostics if d.fix is not None and not (unsafe or d.fix.safe))
            return
        for result in applied:
            result.path.write_bytes(result.after.encode("utf-8"))
            run.applied += len(result.applied)


def _inside(path: Path, folder: Path) -> bool:
    return not path.is_symlink() and path.resolve().is_relative_to(folder.resolve())


def fix_paths(paths: Sequence[Path], config: LintSection, *, unsafe: bool = False, write: bool = True) -> FixRun:
    """Fix every matter under `paths`; write the results back when `write`."""
    roots, problems = discover_matters(paths)
    run = FixRun(problems=problems)
    for root in roots:
        with tempfile.TemporaryDirectory(prefix="rubric-fix-") as folder:
            copy = Path(folder) / root.name
            copy_matter(root, copy)
            _fix_copy(copy, root, config, unsafe, run)
            run.changes += changed_files(copy, root)
    if write:
        run.changes, run.write_errors = write_back(run.changes)
    return run
