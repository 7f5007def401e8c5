"""`rubric audit --fix / --diff`: apply the audit's proposals round after round, to a
fixed point.

Each matter is copied to a temporary folder; there it is audited, every applicable fix
(one per gate entry: its guard and widening merged and verified as a whole) is spliced
into rubric.yaml, and it is audited again, until no fix applies (at most `MAX_ROUNDS`
rounds, like ruff's fix loop). One run gives what repeated runs give. The matter's own
probe files and trajectories (`inputs`, found beside the original) are read in every
round. Only at the end is anything compared with, or written back to, the original
files, so `--diff` never touches them and an interrupted `--fix` leaves each file
either as it was or fully fixed.

Entries of one list can be fixed in the same round: each entry's proposal keeps every
protected text *that entry* catches, and fires on no correct-work text, so the merged
list loses nothing either.
"""

from __future__ import annotations

import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from rubric_tools.audit.corpus import AuditInputs
from rubric_tools.audit.runner import audit_source
from rubric_tools.config.audit import AuditSection
from rubric_tools.diagnostics import Diagnostic
from rubric_tools.fixing.apply_fixes import apply_fixes
from rubric_tools.fixing.working_copy import FileChange, changed_files, copy_matter, write_back
from rubric_tools.loading.matter import load_matter_source

#: At most this many rounds of audit-and-fix per matter.
MAX_ROUNDS = 10


@dataclass
class MatterFix:
    """What fixing one matter did."""

    root: Path
    changes: list[FileChange] = field(default_factory=list)
    applied: int = 0  # fixes spliced in, over all rounds
    rounds: int = 0  # audits run (the last one found nothing left to apply)
    rejected: list[str] = field(default_factory=list)
    unsafe_left: int = 0  # fixes not applied without --unsafe-fixes
    problems: list[str] = field(default_factory=list)  # the matter (or a round's result) did not load


def _applicable(diagnostics: list[Diagnostic], unsafe: bool) -> list[Diagnostic]:
    return [d for d in diagnostics if d.fix is not None and (unsafe or d.fix.safe)]


def fix_matter(root: Path, settings: AuditSection, inputs: AuditInputs, *, unsafe: bool) -> MatterFix:
    """Audit and fix a copy of the matter at `root` to a fixed point; the original is not
    touched (`MatterFix.changes` holds the new file texts)."""
    result = MatterFix(root)
    with tempfile.TemporaryDirectory(prefix="rubric-audit-fix-") as folder:
        copy = Path(folder) / root.name
        copy_matter(root, copy)
        for _ in range(MAX_ROUNDS):
            source = load_matter_source(copy)
            if not source.ok:
                result.problems.append(f"{root}: the fixed rubric does not load; nothing written")
                return result
            diagnostics = audit_source(source, settings, inputs)
            result.rounds += 1
            fixes = [d.fix for d in _applicable(diagnostics, unsafe) if d.fix is not None]
            results = apply_fixes(fixes)
            for applied in results:
                result.rejected += [f"{applied.path.name}: {fix.message}" for fix in applied.rejected]
            written = [r for r in results if r.applied and r.path.resolve().is_relative_to(copy.resolve())]
            if not written:
                result.unsafe_left = sum(1 for d in diagnostics if d.fix is not None and not (unsafe or d.fix.safe))
                break
            for applied in written:
                applied.path.write_bytes(applied.after.encode("utf-8"))
                result.applied += len(applied.applied)
        result.changes = changed_files(copy, root)
    return result


def write_changes(fixes: list[MatterFix]) -> list[str]:
    """Write every changed file back; the errors of those that could not be written."""
    errors: list[str] = []
    for fix in fixes:
        fix.changes, failed = write_back(fix.changes)
        errors += failed
    return errors
