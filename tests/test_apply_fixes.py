"""The splicer: exact spans, stale and overlapping fixes, and re-parse verification."""

from __future__ import annotations

from pathlib import Path

from rubric_tools.diagnostics import Span
from rubric_tools.fixing.apply_fixes import apply_to_text
from rubric_tools.fixing.fixes import Edit, Fix

TEXT = 'a: "x"  # keep\nb: [1, 2]\n\nc: y\n'
PATH = Path("m/rubric.yaml")


def _fix(line: int, column: int, end: int, old: str, new: str, path: tuple[str | int, ...], value: object) -> Fix:
    return Fix("f", (Edit(PATH, Span(line, column, line, end), old, new, yaml_path=path, expected=value),))


def test_fixes_splice_exactly_their_spans() -> None:
    result = apply_to_text(PATH, TEXT, [_fix(1, 4, 7, '"x"', '"z"', ("a",), "z"), _fix(4, 4, 5, "y", "w", ("c",), "w")])
    assert result.after == 'a: "z"  # keep\nb: [1, 2]\n\nc: w\n' and len(result.applied) == 2


def test_a_stale_fix_is_skipped() -> None:
    result = apply_to_text(PATH, TEXT, [_fix(1, 4, 7, '"q"', '"z"', ("a",), "z")])
    assert result.after == TEXT and result.applied == [] and result.rejected == []


def test_overlapping_fixes_wait_for_the_next_round() -> None:
    first = _fix(1, 4, 7, '"x"', '"z"', ("a",), "z")
    second = _fix(1, 5, 6, "x", "v", ("a",), "v")
    result = apply_to_text(PATH, TEXT, [first, second])
    assert result.applied == [first] and result.after.startswith('a: "z"')


def test_a_fix_that_does_not_yield_the_promised_value_is_rejected() -> None:
    broken = _fix(1, 4, 7, '"x"', '"z', ("a",), "z")  # unterminated quote: does not parse
    wrong = _fix(4, 4, 5, "y", "[w]", ("c",), "w")  # parses, but to a list
    good = _fix(1, 4, 7, '"x"', "'z'", ("a",), "z")
    result = apply_to_text(PATH, TEXT, [broken, wrong])
    assert result.after == TEXT and result.rejected == [broken, wrong]
    result = apply_to_text(PATH, TEXT, [good, wrong])
    assert result.applied == [good] and result.rejected == [wrong] and result.after.startswith("a: 'z'  # keep")
