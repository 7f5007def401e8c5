"""Render a coverage run like `coverage report -m`: a table of matters, then each
matter's uncovered items and surviving mutants at file:line."""

from __future__ import annotations

from pathlib import Path

from rich.console import Console
from rich.table import Table
from rich.text import Text

from rubric_tools.coverage.model import MatterCoverage, printable
from rubric_tools.coverage.verdict import CoverageRun


def display_path(root: str, name: str, cwd: Path | None = None) -> str:
    """`matters/x/rubric.yaml` relative to the working folder when it is below it."""
    path = Path(root) / name
    try:
        return str(path.resolve().relative_to((cwd or Path.cwd()).resolve()))
    except ValueError:
        return str(path)


def _percent(value: float | None) -> str:
    return "-" if value is None else f"{value:.1f}%"


def _summary_table(run: CoverageRun) -> Table:
    table = Table(show_edge=False, pad_edge=False, title_justify="left")
    for column in ("matter", "items", "covered", "cover"):
        table.add_column(column, justify="left" if column == "matter" else "right", no_wrap=True)
    if run.mutation:
        for column in ("mutants", "killed", "score"):
            table.add_column(column, justify="right", no_wrap=True)
    for matter in run.matters:
        cells = [printable(matter.matter_id), str(len(matter.items)), str(matter.covered), _percent(matter.percent)]
        if run.mutation:
            mutation = matter.mutation
            cells += (
                [str(len(mutation.mutants)), str(mutation.killed), _percent(mutation.score)]
                if mutation is not None
                else ["-", "-", "-"]
            )
        table.add_row(*cells)
    table.add_section()
    total_items = sum(len(m.items) for m in run.matters)
    totals = ["TOTAL", str(total_items), str(sum(m.covered for m in run.matters)), _percent(run.percent)]
    if run.mutation:
        mutants = sum(len(m.mutation.mutants) for m in run.matters if m.mutation is not None)
        killed = sum(m.mutation.killed for m in run.matters if m.mutation is not None)
        totals += [str(mutants), str(killed), _percent(100.0 * killed / mutants if mutants else None)]
    table.add_row(*totals, style="bold")
    return table


def _matter_details(matter: MatterCoverage, console: Console) -> None:
    survivors = matter.mutation.survivors if matter.mutation is not None else []
    if not (matter.missing or survivors or matter.problems):
        return
    console.print(Text(printable(matter.matter_id), style="bold"))
    for problem in matter.problems:
        console.print(Text(f"  problem: {printable(problem)}", style="red"))
    for item in matter.missing:
        console.print(
            Text(f"  {display_path(matter.root, item.file)}:{item.line}", style="cyan")
            + Text(f"  missing   {printable(item.id)}"),
            soft_wrap=True,
        )
    for mutant in survivors:
        console.print(
            Text(f"  {display_path(matter.root, mutant.file)}:{mutant.line}", style="cyan")
            + Text("  survived  ", style="yellow")
            + Text(f"{mutant.operator}: {printable(mutant.description)}"),
            soft_wrap=True,
        )
    if matter.mutation is not None and matter.mutation.not_run:
        console.print(
            Text(f"  {matter.mutation.not_run} mutants not run (max-mutants or mutation-time-budget)", style="yellow")
        )
    if matter.mutation is not None and matter.mutation.baseline_failures:
        console.print(
            Text(
                "  checks already failing before mutation (they cannot kill mutants): "
                + ", ".join(matter.mutation.baseline_failures),
                style="yellow",
            )
        )


def render_text(run: CoverageRun, console: Console) -> None:
    if not run.matters:  # the command says where it looked (stderr) and exits 2
        console.print(Text("No matters were measured.", style="bold red"))
        return
    console.print(_summary_table(run))
    console.print()
    for matter in run.matters:
        _matter_details(matter, console)
    for failure in run.failures:
        where = f"{failure.matter_id}: " if failure.matter_id else ""
        console.print(Text(printable(f"FAIL {failure.code} {where}{failure.message}"), style="bold red"))
