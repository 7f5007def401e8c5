"""`rubric max-score MATTER`: the derived max_score, term by term."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from rubric_tools.cli.app import app
from rubric_tools.loading.matter import MATTER_FILE, load_matter_source
from rubric_tools.scoring.result import derived_max_score, max_score_items


def max_score_report(matter_dir: Path, as_json: bool, console: Console) -> int:
    """Print the table (or JSON); exit 0 when the declared value, if any, agrees, else 1."""
    if not (matter_dir / MATTER_FILE).is_file():
        Console(stderr=True).print(f"error: {matter_dir}: not a matter folder (no {MATTER_FILE})")
        return 2
    source = load_matter_source(matter_dir)
    errors = [d for d in source.diagnostics if d.severity.value == "error"]
    for problem in errors:
        Console(stderr=True).print(f"error: {problem.file}:{problem.line}:{problem.column}: {problem.message}")
    rubric, positions = source.matter.rubric, source.matter.positions
    items = max_score_items(rubric, positions)
    derived = derived_max_score(rubric, positions)
    declared = rubric.max_score
    agrees = declared is None or abs(declared - derived) < 1e-9
    if as_json:
        sys.stdout.write(json.dumps({
            "matter_id": source.matter_id,
            "items": [vars(item) for item in items],
            "derived": derived,
            "declared": declared,
        }, indent=2) + "\n")
    else:
        table = Table(title=f"max_score of {source.matter_id}", title_justify="left", show_edge=False)
        for column in ("section", "item", "component"):
            table.add_column(column)
        table.add_column("points", justify="right")
        for item in items:
            table.add_row(item.section, item.item, item.component, f"{item.points:g}")
        table.add_section()
        table.add_row("total", "", "derived", f"{derived:g}", style="bold")
        if declared is not None:
            table.add_row("", "", "declared", f"{declared:g}", style="bold" if agrees else "bold red")
        console.print(table)
        if not agrees:
            console.print(f"[red]declared max_score {declared:g} differs from the derived {derived:g}; "
                          "the engine divides by the declared value[/red]")
    return 2 if errors else (0 if agrees else 1)


@app.command("max-score")
def max_score_command(
    matter: Annotated[Path, typer.Argument(help="The matter folder.")],
    output_format: Annotated[str, typer.Option("--output-format", help="text or json.")] = "text",
) -> None:
    """Show the derived max_score as a table, one row per item and component."""
    if output_format not in ("text", "json"):
        Console(stderr=True).print("error: --output-format must be text or json")
        raise typer.Exit(2)
    raise typer.Exit(max_score_report(matter, output_format == "json", Console(highlight=False)))
