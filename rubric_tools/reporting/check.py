"""Render a CheckReport: a table per matter, JSON, or JUnit XML for CI."""

from __future__ import annotations

from pathlib import Path
from typing import Any
from xml.etree import ElementTree

from rich.console import Console
from rich.text import Text

from rubric_tools.checking.rows import OVERALL, CheckRow
from rubric_tools.checking.runner import CheckReport, MatterCheck
from rubric_tools.reporting import safe_output
from rubric_tools.scoring.json_values import json_default

JSON_FORMAT_VERSION = 1


def _relative(path: Path | None, cwd: Path) -> str | None:
    if path is None:
        return None
    try:
        return str(path.resolve().relative_to(cwd.resolve()))
    except ValueError:
        return str(path)


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}{'' if number == 1 else 's'}"


def _status(row: CheckRow) -> Text:
    if not row.passed:
        return Text("FAIL", style="bold red")
    return Text("warn", style="yellow") if row.warning else Text("pass", style="green")


#: The table's columns: header, the widest a cell may be (None: as wide as its content).
_COLUMNS = (("check", None), ("name", 48), ("status", None), ("got", None))
_RULE, _HEAD_BAR, _CELL_BAR = "━", " ┃ ", " │ "


def _table(matter: MatterCheck, width: int, cwd: Path) -> Text:
    """A matter's rows as an aligned table, its title above: the four columns as wide as
    their content (a name cut with "…" past 48 cells), "got" folded to what is left of
    `width`. Written out here rather than with `rich.table.Table`, which spends more on a
    few hundred rows than the checking of a matter does (`benchmarks/lint.py`)."""
    cells = [[Text(row.kind), Text(row.name), _status(row), Text(row.got)] for row in matter.rows]
    widths = []
    for column, (header, widest) in enumerate(_COLUMNS):
        wide = max([len(header), *(row[column].cell_len for row in cells)])
        widths.append(min(wide, widest) if widest else wide)
    fixed = sum(widths[:-1]) + len(_CELL_BAR) * (len(widths) - 1)
    widths[-1] = max(min(widths[-1], width - fixed), 10)
    lines = [Text(f"{matter.matter_id}  {_relative(matter.root, cwd)}", style="bold")]
    lines.append(Text(_HEAD_BAR.join(h.ljust(w) for (h, _), w in zip(_COLUMNS, widths, strict=True)), style="bold"))
    lines.append(Text("╇".join(_RULE * (w + (1 if i in (0, 3) else 2)) for i, w in enumerate(widths))))
    for row in cells:
        for cell, cell_width in zip(row[:3], widths, strict=False):
            cell.truncate(cell_width, overflow="ellipsis", pad=True)
        for index, part in enumerate(_folded(row[3], widths[3])):
            first = row[:3] if index == 0 else [Text(" " * w) for w in widths[:3]]
            lines.append(Text(_CELL_BAR).join([*first, part]))
    return Text("\n").join(lines)


def _folded(text: Text, width: int) -> list[Text]:
    """`text` cut into lines of at most `width` cells (never an empty list)."""
    plain = text.plain
    if len(plain) <= width and "\n" not in plain:
        return [text]
    parts: list[Text] = []
    for line in text.split("\n"):
        parts += [line[start : start + width] for start in range(0, max(len(line), 1), width)]
    return parts


def render_text(report: CheckReport, console: Console) -> None:
    """A table per matter (one row per check), then each failure with expected vs got."""
    cwd = Path.cwd()
    for matter in report.matters:
        console.print(_table(matter, console.width, cwd), soft_wrap=True)
        for row in matter.rows:
            if row.passed and not row.warning:
                continue
            where = f"{_relative(row.file, cwd)}:{row.line}" if row.file and row.line else _relative(row.file, cwd)
            label, style = ("warn", "bold yellow") if row.passed else ("FAIL", "bold red")
            console.print(
                Text(f"{label} {row.kind} {row.name}", style=style) + Text(f"  {where}" if where else "", style="dim")
            )
            console.print(Text(f"  expected: {row.expected}"))
            console.print(Text(f"  got:      {row.got}"))
            for line in row.detail.splitlines():
                # Unwrapped: a path, a pattern or a quoted passage stays on one line.
                console.print(Text(f"    {line}", style="yellow" if row.passed else "red"), soft_wrap=True)
        console.print()
    if not report.matters:  # the command says where it looked (stderr) and exits 2
        console.print(Text("No matters were checked.", style="bold red"))
        return
    # `--coverage` adds the overall threshold as a pseudo-matter: not a matter, nor one that fails.
    overall = [m for m in report.matters if m.matter_id == OVERALL and m.root == Path(".")]
    matters = [m for m in report.matters if m not in overall]
    failed = [m.matter_id for m in matters if not m.passed] + ["overall coverage" for m in overall if not m.passed]
    rows = report.rows
    passed_rows = sum(1 for r in rows if r.passed)
    warned = sum(1 for r in rows if r.warning)
    summary = f"{passed_rows}/{_count(len(rows), 'check')} passed in {_count(len(matters), 'matter')}"
    if warned:
        summary += f" ({_count(warned, 'warning')})"
    if failed:
        console.print(Text(f"{summary}; failing: {', '.join(failed)}", style="bold red"))
    else:
        console.print(Text(summary + ".", style="bold green"))


def _row_json(row: CheckRow, cwd: Path) -> dict[str, Any]:
    return {
        "kind": row.kind,
        "name": row.name,
        "passed": row.passed,
        "warning": row.warning,
        "expected": row.expected,
        "got": row.got,
        "detail": row.detail,
        "file": _relative(row.file, cwd),
        "line": row.line,
    }


def render_json(report: CheckReport, cwd: Path | None = None) -> str:
    cwd = cwd or Path.cwd()
    document = {
        "version": JSON_FORMAT_VERSION,
        "passed": report.exit_code == 0,
        "matters": [
            {
                "matter_id": m.matter_id,
                "root": _relative(m.root, cwd),
                "passed": m.passed,
                "checks": [_row_json(r, cwd) for r in m.rows],
            }
            for m in report.matters
        ],
        "errors": list(report.usage_errors),
    }
    return safe_output.dumps(document, default=json_default)


def render_junit(report: CheckReport, cwd: Path | None = None) -> str:
    """One <testsuite> per matter, one <testcase> per check."""
    cwd = cwd or Path.cwd()
    suites = ElementTree.Element(
        "testsuites",
        name="rubric check",
        tests=str(len(report.rows)),
        failures=str(sum(1 for r in report.rows if not r.passed)),
    )
    for matter in report.matters:
        suite = ElementTree.SubElement(
            suites,
            "testsuite",
            name=matter.matter_id,
            tests=str(len(matter.rows)),
            failures=str(sum(1 for r in matter.rows if not r.passed)),
            errors="0",
            skipped="0",
        )
        for row in matter.rows:
            attributes = {"classname": f"{matter.matter_id}.{row.kind}", "name": row.name}
            if row.file is not None:
                attributes["file"] = _relative(row.file, cwd) or ""
            if row.line is not None:
                attributes["line"] = str(row.line)
            case = ElementTree.SubElement(suite, "testcase", attributes)
            if not row.passed:
                failure = ElementTree.SubElement(case, "failure", message=f"expected {row.expected}; got {row.got}")
                failure.text = row.detail
    for problem in report.usage_errors:
        suite = ElementTree.SubElement(suites, "testsuite", name="usage", tests="1", failures="0", errors="1")
        case = ElementTree.SubElement(suite, "testcase", classname="usage", name="arguments")
        ElementTree.SubElement(case, "error", message=problem)
    ElementTree.indent(suites)
    xml = ElementTree.tostring(suites, encoding="unicode")
    return '<?xml version="1.0" encoding="utf-8"?>\n' + safe_output.xml_text(xml)
