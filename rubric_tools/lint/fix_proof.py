"""Prove that a safe fix cannot change any score, or downgrade it to unsafe.

The witnesses are the matter's own trajectories and gate probes (found as `rubric
check` finds them, see `rubric_tools.lint.witnesses`). Each is replayed through the
scorer, in memory, on the matter as it is and on a temporary copy with the fixes
applied; a fix stays safe only if every trajectory's result and step rewards, and every
probe's verdict, are identical. All safe fixes are tried together first (one replay when
nothing moves, the usual case); when something moves, each is tried alone and those that
move are downgraded. A comparison stops at the first witness that differs.
"""

from __future__ import annotations

import tempfile
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from rubric_tools.diagnostics import Diagnostic
from rubric_tools.fixing.apply_fixes import apply_fixes
from rubric_tools.fixing.fixes import Fix
from rubric_tools.fixing.working_copy import copy_matter
from rubric_tools.lint.witnesses import Witnesses, find_witnesses, observe_each
from rubric_tools.loading.files import Overlay
from rubric_tools.scoring.model import Matter


def _fixed_matter(root: Path, fixes: Sequence[Fix], overlay: Overlay | None = None) -> Matter | None:
    """The matter with `fixes` applied, loaded from a temporary copy (None: they do not apply).

    With `overlay` (unsaved editor buffers, `rubric lsp`) the fixes are applied to the
    buffers and the fixed files join them: nothing is copied or written."""
    from rubric_tools.loading.matter import load_matter_source

    results = apply_fixes(fixes, overlay)
    if sum(len(r.applied) for r in results) != len(fixes):
        return None
    if overlay is not None:
        fixed = {result.path.resolve(): result.after.encode("utf-8") for result in results}
        return load_matter_source(root, {**overlay, **fixed}).matter
    with tempfile.TemporaryDirectory(prefix="rubric-fix-proof-") as folder:
        copy = Path(folder) / root.name
        copy_matter(root, copy)
        for result in results:
            try:
                relative = result.path.resolve().relative_to(root.resolve())
            except ValueError:
                return None
            target = copy / relative
            if target.is_symlink() or not target.resolve().is_relative_to(copy.resolve()):
                return None  # writing would go through a link, maybe into the original
            target.write_text(result.after, encoding="utf-8", newline="")
        return load_matter_source(copy).matter


class _Observed:
    """The unfixed matter's scores, computed witness by witness only as far as needed."""

    def __init__(self, matter: Matter, witnesses: Witnesses) -> None:
        self._pending = observe_each(matter, witnesses)
        self._seen: list[tuple[str, Any]] = []

    def at(self, index: int) -> tuple[str, Any]:
        while len(self._seen) <= index:
            self._seen.append(next(self._pending))
        return self._seen[index]


def _first_moved(before: _Observed, fixed: Matter, witnesses: Witnesses) -> str | None:
    for index, (key, value) in enumerate(observe_each(fixed, witnesses)):
        if before.at(index) != (key, value):
            return key
    return None


def prove_safe_fixes(
    root: Path,
    matter: Matter,
    diagnostics: list[Diagnostic],
    witnesses: Witnesses | None = None,
    *,
    witness_root: Path | None = None,
    overlay: Overlay | None = None,
) -> list[Diagnostic]:
    """`diagnostics` (of the matter folder `root`) with every safe fix that moves a score
    downgraded to unsafe. The witnesses are those of `witness_root` (default `root`): a
    working copy of a matter is proven against the original's trajectories. `overlay`:
    the unsaved buffers the matter was loaded with."""
    safe = [index for index, d in enumerate(diagnostics) if d.fix is not None and d.fix.safe]
    if not safe:
        return diagnostics
    witnesses = witnesses if witnesses is not None else find_witnesses(witness_root or root)
    if not witnesses:
        return diagnostics
    before = _Observed(matter, witnesses)

    def moved_by(fixes: Sequence[Fix]) -> tuple[bool, str | None]:
        """Whether the fixes apply, and the first witness whose score they move."""
        fixed = _fixed_matter(root, fixes, overlay)
        return (False, None) if fixed is None else (True, _first_moved(before, fixed, witnesses))

    proven = list(diagnostics)
    applies, together = moved_by([fix for index in safe if (fix := diagnostics[index].fix) is not None])
    if applies and together is None:
        return proven  # the usual case: one replay proves them all
    for index in safe:
        fix = diagnostics[index].fix
        assert fix is not None
        moved = together if applies and len(safe) == 1 else moved_by([fix])[1]
        if moved is not None:
            proven[index] = replace(diagnostics[index], fix=fix.downgrade(f"applying it changes the score of {moved}"))
    return proven
