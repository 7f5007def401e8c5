"""`rubric max-score MATTER`: the derived max_score, term by term.

Exit 0 when the declared max_score, if any, agrees with the derived one, 1 when it
differs, 2 when the folder is not a matter or a matter file has errors.
"""

from __future__ import annotations

from pathlib import Path
from typing import TextIO

from rich.console import Console

from rubric_tools.commands.common import EXIT_FINDINGS, EXIT_OK, EXIT_USAGE, output_width
from rubric_tools.loading.layout import MATTER_FILE, is_matter
from rubric_tools.loading.matter import load_matter_source
from rubric_tools.reporting.max_score import print_max_score_table, render_max_score_json
from rubric_tools.scoring.result import derived_max_score, max_score_items


def run_max_score(matter_dir: Path, as_json: bool, stdout: TextIO, stderr: TextIO, *, no_color: bool = False) -> int:
    """Print the table (or JSON); return the exit code."""
    errors = Console(file=stderr, highlight=False, markup=False, no_color=no_color, soft_wrap=True)
    if not is_matter(matter_dir):
        errors.print(f"error: {matter_dir}: not a matter folder (no {MATTER_FILE})")
        return EXIT_USAGE
    source = load_matter_source(matter_dir)
    load_errors = [d for d in source.diagnostics if d.severity.value == "error"]
    for problem in load_errors:
        errors.print(
            f"error: {problem.file}:{problem.line}:{problem.column}: {problem.code} {problem.message}", soft_wrap=True
        )
    rubric, positions = source.matter.rubric, source.matter.positions
    items = max_score_items(rubric, positions)
    derived = derived_max_score(rubric, positions)
    declared = rubric.max_score
    if as_json:
        stdout.write(render_max_score_json(source.matter_id, items, derived, declared))
    else:
        console = Console(file=stdout, highlight=False, markup=False, no_color=no_color, width=output_width(stdout))
        print_max_score_table(console, source.matter_id, items, derived, declared)
    if load_errors:
        return EXIT_USAGE
    agrees = declared is None or abs(declared - derived) < 1e-9
    return EXIT_OK if agrees else EXIT_FINDINGS
