"""Fixes as data: what a finding proposes to change, attached to the finding itself.

A `Fix` is one or more `Edit`s (a file, the exact region to replace, the text found
there and the text to put instead) plus its applicability. Renderers and the applier
read nothing else: no rule is asked twice. Like ruff, a fix is *safe* (applied by
`--fix`) or *unsafe* (only with `--unsafe-fixes`); a safe fix must not change any
score, which `rubric_tools.lint.fix_proof` checks by replaying the matter's
trajectories and probes, downgrading the fix when anything moves. The data classes live
in `rubric_tools.diagnostics` (a Diagnostic carries its fix); this module re-exports them
and converts fixes to JSON and to the result cache.

An edit may carry `yaml_path` and `expected`: after splicing, the file is parsed again
through the loader and the node at `yaml_path` must hold `expected` (`renamed_from`:
the key that must be gone), so a fix can never silently produce other YAML than meant.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from rubric_tools.diagnostics import Applicability, Edit, Fix, InstancePath, Span

__all__ = ["Applicability", "Edit", "Fix", "InstancePath", "fix_from_cache", "fix_to_cache", "fix_to_data"]


def fix_to_data(fix: Fix, relative: Callable[[Path], str]) -> dict[str, Any]:
    """A fix as JSON-ready data; `relative(path) -> str` renders each edit's file."""
    return {
        "message": fix.message,
        "applicability": fix.applicability.value,
        "downgraded": fix.downgraded,
        "edits": [
            {
                "file": relative(edit.file),
                "line": edit.span.line,
                "column": edit.span.column,
                "end_line": edit.span.end_line,
                "end_column": edit.span.end_column,
                "old": edit.old,
                "new": edit.new,
            }
            for edit in fix.edits
        ],
    }


def fix_to_cache(fix: Fix, root: Path) -> dict[str, Any]:
    """A fix as JSON data for the result cache, files relative to the matter `root`
    (raises ValueError for a file outside it)."""
    return {
        "message": fix.message,
        "applicability": fix.applicability.value,
        "downgraded": fix.downgraded,
        "edits": [
            {
                "file": edit.file.resolve().relative_to(root.resolve()).as_posix(),
                "span": [edit.span.line, edit.span.column, edit.span.end_line, edit.span.end_column],
                "old": edit.old,
                "new": edit.new,
                "yaml_path": list(edit.yaml_path) if edit.yaml_path is not None else None,
                "expected": edit.expected,
                "renamed_from": edit.renamed_from,
            }
            for edit in fix.edits
        ],
    }


def fix_from_cache(data: Any, root: Path) -> Fix | None:
    """The inverse of `fix_to_cache` (None for None)."""
    if data is None:
        return None
    edits = tuple(
        Edit(
            file=root / item["file"],
            span=Span(*item["span"]),
            old=item["old"],
            new=item["new"],
            yaml_path=tuple(item["yaml_path"]) if item["yaml_path"] is not None else None,
            expected=item["expected"],
            renamed_from=item["renamed_from"],
        )
        for item in data["edits"]
    )
    return Fix(data["message"], edits, Applicability(data["applicability"]), data["downgraded"])
