"""`rubric check`'s text table: columns aligned on every row, a long name cut with "…",
a long result folded under its own column, within the console's width."""

from __future__ import annotations

import io
from pathlib import Path

from rich.console import Console

from rubric_tools.checking.rows import CheckRow
from rubric_tools.checking.runner import CheckReport, MatterCheck
from rubric_tools.reporting.check import render_text


def _rendered(rows: list[CheckRow], width: int = 100) -> list[str]:
    matter = MatterCheck(Path("matters/nda_001"), "nda_001", rows)
    out = io.StringIO()
    render_text(CheckReport([matter]), Console(file=out, width=width, no_color=True, highlight=False))
    return out.getvalue().splitlines()


def _row(kind: str, name: str, got: str, passed: bool = True) -> CheckRow:
    return CheckRow(kind, name, passed, "expected", got, "", None)


def test_columns_line_up_on_every_row() -> None:
    lines = _rendered([_row("lint", "rubric lint", "clean"), _row("trajectory", "good.jsonl", "1 (raw 4/4)")])
    assert lines[0].startswith("nda_001")
    header, rule, *rows = lines[1:5]
    assert header.split("┃")[0] == "check      " and "━╇━" in rule
    bars = {line.index("│") for line in rows}
    assert bars == {header.index("┃")} and len(rows) == 2
    assert rows[0].startswith("lint       │ rubric lint") and rows[1].startswith("trajectory │ good.jsonl")


def test_a_long_name_is_cut_and_a_long_result_folded_within_the_width() -> None:
    name, got = "n" * 60 + ".jsonl", "x" * 150
    lines = _rendered([_row("trajectory", name, got, passed=False)], width=100)
    rows = [line for line in lines if "│" in line]
    assert "…" in rows[0] and name not in rows[0]
    assert all(len(line) <= 100 for line in rows)
    assert "".join(line.split("│")[-1].strip() for line in rows) == got
    column = rows[0].rindex("│")
    assert all(line.rindex("│") == column for line in rows), "the folded part stays under its column"
    assert any(line.startswith("FAIL trajectory") for line in lines)
