"""`rubric max-score` renderers: the derived max_score term by term, as a table or JSON."""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Console
from rich.table import Table
from rich.text import Text

from rubric_tools.reporting import safe_output
from rubric_tools.scoring.result import MaxScoreItem


def render_max_score_json(matter_id: str, items: Sequence[MaxScoreItem], derived: float, declared: float | None) -> str:
    record = {"matter_id": matter_id, "items": [vars(item) for item in items], "derived": derived, "declared": declared}
    return safe_output.dumps(record) + "\n"


def print_max_score_table(
    console: Console, matter_id: str, items: Sequence[MaxScoreItem], derived: float, declared: float | None
) -> None:
    agrees = declared is None or abs(declared - derived) < 1e-9
    table = Table(title=Text(f"max_score of {matter_id}"), title_justify="left", show_edge=False)
    for column in ("section", "item", "component"):
        table.add_column(column)
    table.add_column("points", justify="right")
    for item in items:
        table.add_row(item.section, Text(item.item), item.component, f"{item.points:g}")
    table.add_section()
    table.add_row("total", "", "derived", f"{derived:g}", style="bold")
    if declared is not None:
        table.add_row("", "", "declared", f"{declared:g}", style="bold" if agrees else "bold red")
    console.print(table)
    if not agrees:
        console.print(
            Text(
                f"declared max_score {declared:g} differs from the derived {derived:g}; "
                "the engine divides by the declared value",
                style="red",
            )
        )
