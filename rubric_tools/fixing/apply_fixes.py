"""Splice fixes into file text, byte-for-byte outside the edited nodes, and verify them.

Each edit replaces exactly the characters of its span; everything else (comments, key
order, quoting, blank lines, line endings, a byte-order mark) is untouched. A fix whose
`old` text is no longer at its span is skipped (the file changed since it was linted);
fixes that overlap one already taken wait for the next round, as in ruff. A YAML file
is re-parsed through the loader after splicing, and every edited node must hold the
value its fix promised; a fix that fails this is dropped, never written.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rubric_tools.diagnostics import Span
from rubric_tools.fixing.fixes import Edit, Fix
from rubric_tools.fixing.yaml_edits import value_at
from rubric_tools.loading.yaml_source import parse_yaml_text

# The loader counts YAML lines with these breaks; documents are numbered as an editor
# numbers them (`rubric_tools.scoring.sections.editor_lines`).
_YAML_BREAK = re.compile("\r\n|\r|\n|\x85|\u2028|\u2029")
_EDITOR_BREAK = re.compile("\r\n|\r|\n")
_YAML_SUFFIXES = (".yaml", ".yml")
BOM = "\ufeff"


def is_yaml(path: Path) -> bool:
    return path.suffix.lower() in _YAML_SUFFIXES


def line_starts(text: str, yaml: bool) -> list[int]:
    breaks = _YAML_BREAK if yaml else _EDITOR_BREAK
    return [0, *(match.end() for match in breaks.finditer(text))]


def _offset(starts: list[int], text: str, line: int, column: int) -> int | None:
    if not 1 <= line <= len(starts):
        return None
    offset = starts[line - 1] + column - 1
    return offset if offset <= len(text) else None


def char_range(text: str, span: Span, yaml: bool) -> tuple[int, int] | None:
    """The [start, end) character offsets of `span` in `text`, or None if out of range."""
    starts = line_starts(text, yaml)
    start = _offset(starts, text, span.line, span.column)
    end = _offset(starts, text, span.end_line, span.end_column)
    if start is None or end is None or end < start:
        return None
    return start, end


def _same(found: Any, expected: Any) -> bool:
    if isinstance(found, bool) or isinstance(expected, bool):
        return found is expected
    if isinstance(found, int | float) and isinstance(expected, int | float):
        return math.isclose(found, expected, rel_tol=1e-9, abs_tol=1e-12)
    return bool(found == expected)


def _holds(path: Path, text: str, edits: Iterable[Edit]) -> bool:
    """Whether `text` parses and every edited node holds what its fix promised."""
    parsed = parse_yaml_text(path, text)
    if not parsed.readable or any(d.code.startswith("L") for d in parsed.diagnostics):
        return False
    for edit in edits:
        if edit.yaml_path is None:
            continue
        parent = value_at(parsed.data, edit.yaml_path[:-1])
        if edit.renamed_from is not None and isinstance(parent, dict) and edit.renamed_from in parent:
            return False
        if edit.yaml_path not in parsed.positions or not _same(value_at(parsed.data, edit.yaml_path), edit.expected):
            return False
    return True


@dataclass
class FileResult:
    """One file's text before and after the fixes applied to it."""

    path: Path
    before: str
    after: str
    applied: list[Fix] = field(default_factory=list)
    rejected: list[Fix] = field(default_factory=list)  # spliced text did not hold


def splice(text: str, edits: Sequence[Edit], yaml: bool) -> str | None:
    """`text` with non-overlapping `edits` applied, or None when one does not fit."""
    ranges = []
    for edit in edits:
        found = char_range(text, edit.span, yaml)
        if found is None or text[found[0] : found[1]] != edit.old:
            return None
        ranges.append((found, edit.new))
    ranges.sort(key=lambda item: item[0])
    for (first, _), (second, _) in zip(ranges, ranges[1:], strict=False):
        if second[0] < first[1]:
            return None
    for (start, end), new in reversed(ranges):
        text = text[:start] + new + text[end:]
    return text


def _overlaps(bounds: list[tuple[int, int]], taken: list[tuple[int, int]]) -> bool:
    """Whether a range meets a taken one (two insertions at one point also clash)."""
    return any(
        (start < other_end and other_start < end) or start == end == other_start == other_end
        for start, end in bounds
        for other_start, other_end in taken
    )


def _fitting(path: Path, text: str, fixes: Sequence[Fix]) -> list[Fix]:
    """Fixes whose text is still at their spans, without overlapping an earlier one."""
    yaml = is_yaml(path)
    taken: list[tuple[int, int]] = []
    fitting: list[Fix] = []
    for fix in sorted(fixes, key=lambda f: min(e.span for e in f.edits)):
        ranges = [char_range(text, edit.span, yaml) for edit in fix.edits]
        bounds = [r for r in ranges if r is not None]
        if len(bounds) != len(ranges) or _overlaps(bounds, taken) or splice(text, fix.edits, yaml) is None:
            continue  # stale, or overlapping a fix already taken: the next round sees it again
        taken.extend(bounds)
        fitting.append(fix)
    return fitting


def _spliced(path: Path, text: str, fixes: Sequence[Fix]) -> str | None:
    """`text` with all `fixes`, if the result holds (parses, every node as promised)."""
    edits = [edit for fix in fixes for edit in fix.edits]
    spliced = splice(text, edits, is_yaml(path))
    if spliced is None or (is_yaml(path) and not _holds(path, spliced, edits)):
        return None
    return spliced


def apply_to_text(path: Path, text: str, fixes: Sequence[Fix]) -> FileResult:
    """Apply to one file's text every fix (whose edits all lie in this file) that fits.

    All fitting fixes are tried together first (one parse in the usual case); if the
    result does not hold, each is tried alone, and those that fail are rejected."""
    result = FileResult(path, text, text)
    chosen = _fitting(path, text, fixes)
    if not chosen:
        return result
    combined = _spliced(path, text, chosen)
    if combined is None:
        holding: list[Fix] = []
        for fix in chosen:
            (holding if _spliced(path, text, [fix]) is not None else result.rejected).append(fix)
        # Each holds alone; if not together, take the first now and the rest next round.
        chosen = holding if holding and _spliced(path, text, holding) is not None else holding[:1]
        combined = _spliced(path, text, chosen) if chosen else None
    if combined is None:
        return result
    result.after = combined
    result.applied = list(chosen)
    return result


def read_for_edit(path: Path) -> tuple[str, bool] | None:
    """A file's text with its byte-order mark split off (the loader's columns ignore it)."""
    try:
        text = path.read_bytes().decode("utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    return text.removeprefix(BOM), text.startswith(BOM)


def apply_fixes(fixes: Sequence[Fix]) -> list[FileResult]:
    """Apply `fixes` to the files on disk, in memory: the results say what would change.

    A fix touching several files is applied only if every file takes it."""
    by_file: dict[Path, list[Fix]] = {}
    for fix in fixes:
        files = {edit.file for edit in fix.edits}
        if len(files) == 1:
            by_file.setdefault(files.pop(), []).append(fix)
    results = []
    for path, file_fixes in sorted(by_file.items()):
        read = read_for_edit(path)
        if read is None:
            continue
        text, bom = read
        result = apply_to_text(path, text, file_fixes)
        if bom:
            result.before, result.after = BOM + result.before, BOM + result.after
        results.append(result)
    return results
