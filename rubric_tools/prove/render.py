"""Text output of `rubric solve` and `rubric attack` (rich tables).

Our own styling is rich markup; every string that comes from the matter (ids, paths,
messages naming them) is escaped or passed as `Text`, so `[/x]` prints as written."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich import box
from rich.console import Console
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from rubric_tools.prove.solver import Solution

if TYPE_CHECKING:
    from rubric_tools.prove.attacks import AttackReport, AttackRow

VERDICT_STYLE = {"pass": "green", "fail": "bold red", "reported": "yellow"}


def render_solution_text(solution: Solution, console: Console) -> None:
    """One headline (score vs max, steps), then one table row per shortfall."""
    result = solution.result
    budgets = solution.replay.steps[-1].budgets if solution.replay.steps else None
    count = result["steps"]
    steps = f"{count} step{'' if count == 1 else 's'}" + (f", {budgets.steps} to spare" if budgets else "")
    verdict = (
        "[green]max_score reached[/]"
        if solution.reached
        else (f"[red]{len(solution.shortfalls)} shortfall{'s' if len(solution.shortfalls) != 1 else ''}[/]")
    )
    critical = " [bold red]critical failure[/]" if solution.critical_failure else ""
    console.print(
        f"[bold]{escape(solution.matter_id)}[/]: {result['raw_score']:g} / {solution.max_score:g} "
        f"(normalized {result['normalized_score']:g}) in {steps} — {verdict}{critical}"
    )
    if solution.max_score != solution.derived_max_score:
        console.print(f"  derived max_score: {solution.derived_max_score:g}")
    # One entry per shortfall, location first, so a terminal or an editor can jump to it.
    for shortfall in solution.shortfalls:
        critical = " [bold red](critical)[/]" if shortfall.critical else ""
        console.print(
            f"  [red]-{shortfall.points:g}[/]{critical}  [bold]{shortfall.reason.value}[/]  {escape(shortfall.where)}",
            soft_wrap=True,
        )
        console.print(Text(f"      {shortfall.message}"))


def _row(table: Table, row: AttackRow, reference: bool = False, why: bool = True) -> None:
    style = VERDICT_STYLE.get(row.verdict, "") if not reference else "bold"
    verdict = "reference" if reference else row.verdict
    table.add_row(
        Text(row.name),
        f"{row.raw_score:g}",
        f"{row.normalized_score:g}",
        "[red]yes[/]" if row.critical_failure else "no",
        str(row.steps),
        f"[{style}]{verdict}[/]" if style else verdict,
        *([Text(row.reason)] if why else []),
    )


WIDE_TABLE = 110


def render_attack_text(report: AttackReport, console: Console) -> None:
    """The strategies beside the reference trajectory, and the overall verdict."""
    table = Table(
        title=Text(f"{report.matter_id}: reward-hacking strategies"),
        header_style="bold",
        box=box.SIMPLE_HEAD,
        pad_edge=False,
    )
    # Names, numbers and verdicts never wrap; only the explanation wraps, between words,
    # so the table fits 80 columns.
    for column, justify in (
        ("strategy", "left"),
        ("raw", "right"),
        ("norm.", "right"),
        ("crit.", "left"),
        ("steps", "right"),
        ("verdict", "left"),
    ):
        table.add_column(column, justify=justify, no_wrap=True)  # type: ignore[arg-type]
    # Below WIDE_TABLE columns (an 80-column terminal) the reasons follow the table.
    wide = console.width >= WIDE_TABLE
    if wide:
        table.add_column("why", ratio=1, min_width=12)
    _row(table, report.reference, reference=True, why=wide)
    for row in report.rows:
        _row(table, row, why=wide)
    console.print(table)
    if not wide:
        for row in report.rows:
            console.print(Text(f"  {row.name}: {row.reason}"))
    console.print(Text(f"thresholds: {report.thresholds.describe()}"))
    if report.passed:
        console.print("[green]no strategy beats the rubric[/]")
    else:
        names = ", ".join(row.name for row in report.failures)
        console.print(
            Text(
                f"{len(report.failures)} strateg{'ies' if len(report.failures) != 1 else 'y'} beat the rubric: {names}",
                style="red",
            )
        )
