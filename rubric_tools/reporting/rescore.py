"""Render `rubric rescore`: the summary table, the rows that moved, and JSON.

Archive and rubric text (file names, matter ids, gate patterns) is escaped before rich
renders it: a `[bold]` in a file name is printed as is.
"""

from __future__ import annotations

from pathlib import Path
from typing import IO, Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from rubric_tools._version import __version__
from rubric_tools.diagnostics import Diagnostic
from rubric_tools.reporting.safe_output import dumps as safe_dumps
from rubric_tools.rescore.run import RescoreRun
from rubric_tools.scoring.json_values import json_default

MAX_CAUSES = 2
MAX_ITEM_CHANGES = 3


def diagnostic_line(diagnostic: Diagnostic) -> str:
    """`file:line:column: R002 [error] message` (plain text: print it without markup)."""
    hint = f" (hint: {diagnostic.fix_hint})" if diagnostic.fix_hint else ""
    return (
        f"{diagnostic.file}:{diagnostic.line}:{diagnostic.column}: {diagnostic.code} "
        f"[{diagnostic.severity.value}] {diagnostic.message}{hint}"
    )


def _number(value: float | None, signed: bool = False) -> str:
    if value is None:
        return "-"
    return f"{value:+.4f}" if signed else f"{value:.4f}"


def _rate(value: float | None) -> str:
    return "-" if value is None else f"{value:.0%}"


def _score(score: dict[str, Any] | None) -> str:
    if score is None:
        return "-"
    return f"{score['normalized_score']:.4f}" + (" CF" if score["critical_failure"] else "")


def _why(row: dict[str, Any]) -> str:
    parts: list[str] = []
    flip = row["critical_flip"]
    if flip is not None:
        causes = "; ".join(c["description"] for c in flip["causes"][:MAX_CAUSES])
        parts.append(f"critical {flip['direction']}: {causes}")
    for change in row["issue_changes"][:MAX_ITEM_CHANGES]:
        parts.append(f"{change['type']} {change['criterion']} {change['delta']:+g}")
    extra = len(row["issue_changes"]) - MAX_ITEM_CHANGES
    if extra > 0:
        parts.append(f"… {extra} more")
    if row["reproduced"] is False:
        parts.append(f"recorded {_score(row['recorded'])} not reproduced")
    return escape("\n".join(parts))


def _shown_path(file: str) -> str:
    """The path relative to the working folder when it is inside it (shorter to read)."""
    try:
        return str(Path(file).resolve().relative_to(Path.cwd().resolve()))
    except (ValueError, OSError):
        return file


def summary_table(run: RescoreRun) -> Table:
    table = Table(title="rescore summary", title_justify="left")
    table.add_column("matter", no_wrap=True)  # an id is never folded
    for header in ("rows", "changed", "mean Δ", "worst Δ", "critical", "flips +/-", "reproduced"):
        table.add_column(header, justify="right", no_wrap=True)
    matters = [run.summary.matters[key] for key in sorted(run.summary.matters)]
    for matter in [*matters, run.summary.total]:
        data = matter.as_json()
        reproduced = f"{matter.reproduced}/{matter.recorded}" if matter.recorded else "-"
        table.add_row(
            escape(matter.matter_id),
            str(matter.trajectories),
            str(matter.changed),
            _number(matter.mean_delta, signed=True),
            _number(matter.worst_delta, signed=True),
            f"{_rate(data['critical_rate_before'])}→{_rate(data['critical_rate_after'])}",
            f"{matter.gained_critical}/{matter.lost_critical}",
            reproduced,
            end_section=matter is matters[-1] if matters else False,
        )
    return table


def rows_table(run: RescoreRun) -> Table:
    table = Table(title=f"trajectories that moved (first {len(run.notable)})", title_justify="left")
    table.add_column("source", overflow="fold")
    table.add_column("matter", no_wrap=True)
    for header in ("base/recorded", "current", "Δ", "why"):
        table.add_column(header)
    for row in run.notable:
        reference = row["base"] if row["base"] is not None else row["recorded"]
        source = _shown_path(row["source"]["file"])
        source += f"#{row['source']['index']}" if row["source"]["index"] is not None else ""
        table.add_row(
            escape(source),
            escape(str(row["matter_id"])),
            _score(reference),
            _score(row["current"]),
            _number(row["delta"], signed=True),
            _why(row),
        )
    return table


def render_table(run: RescoreRun, console: Console) -> None:
    console.print(summary_table(run))
    if run.notable:
        console.print(rows_table(run))
    total = run.summary.total
    line = f"{total.trajectories} trajectories, {total.changed} changed"
    if total.recorded:
        line += f", {total.reproduced}/{total.recorded} reproduce their recorded result"
    if run.summary.skipped:
        line += f", {run.summary.skipped} skipped (see the errors above)"
    if run.resumed_rows:
        line += f" ({run.resumed_rows} rows from the interrupted run)"
    console.print(escape(line))
    for breach in run.breaches:
        console.print(f"[bold red]threshold broken:[/] {escape(breach)}")


class JsonStream:
    """The JSON document, written as rows come: memory does not grow with the archive."""

    def __init__(self, stream: IO[str]) -> None:
        self.stream = stream
        self.count = 0
        self.started = False  # nothing is written before the first row: a usage error leaves stdout empty

    def _start(self) -> None:
        if not self.started:
            self.stream.write(f'{{"tool_version": {safe_dumps(__version__)}, "rows": [')
            self.started = True

    def row(self, row: dict[str, Any]) -> None:
        self._start()
        self.stream.write(("\n" if self.count == 0 else ",\n") + safe_dumps(row, indent=None, default=json_default))
        self.count += 1

    def finish(self, run: RescoreRun) -> None:
        self._start()
        tail = {
            "summary": run.summary.as_json(),
            "breaches": run.breaches,
            "diagnostics": [
                {
                    "code": d.code,
                    "name": d.name,
                    "severity": d.severity.value,
                    "message": d.message,
                    "file": str(d.file),
                    "line": d.line,
                    "column": d.column,
                }
                for d in run.diagnostics
            ],
            "exit_code": run.exit_code,
        }
        self.stream.write("\n], " + safe_dumps(tail, indent=None)[1:] + "\n")
