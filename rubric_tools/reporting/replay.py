"""Render one replayed trajectory for people: a rich step table and summary, or a concise
line (its JSON records: `rubric_tools.reporting.replay_json`, which needs no rich)."""

from __future__ import annotations

from rich.console import Console
from rich.table import Table
from rich.text import Text

from rubric_tools.diagnostics import Diagnostic, Severity
from rubric_tools.replaying import TrajectoryReplay
from rubric_tools.reporting.replay_json import display_path
from rubric_tools.scoring.causes import critical_causes
from rubric_tools.scoring.episode import StepRecord
from rubric_tools.scoring.text import show_pattern


def _what_happened(record: StepRecord) -> Text:
    text = Text()
    if record.penalty_reason is not None and not record.events:
        text.append("penalty: ", style="yellow")
        text.append(record.penalty_reason)
    for index, event in enumerate(record.events):
        if index:
            text.append("\n")
        style = "red" if "critical_failure_pattern" in event else None
        text.append(str(event["type"]), style=style or "cyan")
        text.append(f" {event.get('criterion')}")
        if "critical_failure_pattern" in event:
            # The pattern itself is printed unwrapped under "critical failure" below.
            text.append("  gate fired", style="red")
    for warning in record.warnings:
        text.append(f"\nwarning: {warning}", style="yellow")
    for pattern in record.gate_timeouts:
        text.append(f"\ngate timed out: {show_pattern(pattern)}", style="bold red")
    return text


def _action_label(record: StepRecord) -> str:
    label = record.type if isinstance(record.type, str) else repr(record.type)
    action = record.action if isinstance(record.action, dict) else {}
    detail = action.get("issue_id") or action.get("document_id")
    if detail is not None and action.get("section") is not None:
        detail = f"{detail} §{action.get('section')}"
    return f"{label} {detail}" if detail is not None else label


def _render_item(console: Console, item: TrajectoryReplay) -> None:
    matter = f"matter {item.matter_id}" if item.matter is not None else "matter not found (pass --matter DIR)"
    console.print(Text(f"{display_path(item.trajectory)}", style="bold"), Text(f"  {matter}", style="dim"))
    if item.replay is None:
        return
    table = Table(show_edge=False, pad_edge=False, expand=False)
    table.add_column("step", justify="right")
    table.add_column("action")
    table.add_column("what happened")
    table.add_column("points", justify="right")
    table.add_column("raw", justify="right")
    for record in item.replay.steps:
        points = Text(
            f"{record.reward:+.4g}", style="green" if record.reward > 0 else ("red" if record.reward < 0 else "dim")
        )
        table.add_row(
            str(record.step), Text(_action_label(record)), _what_happened(record), points, f"{record.raw_score:.4g}"
        )
    console.print(table)
    result = item.replay.result
    ending = "terminated" if result["terminated"] else ("truncated" if result["truncated"] else "unfinished")
    summary = Text()
    summary.append(f"raw {result['raw_score']:g} / max {result['max_score']:g}   ")
    summary.append(f"normalized {result['normalized_score']:g}", style="bold")
    steps = result["steps"]
    summary.append(f"   {ending} after {steps} step{'' if steps == 1 else 's'}")
    console.print(summary)
    if result["critical_failure"]:
        console.print(Text("critical failure (score capped):", style="bold red"))
        for cause in critical_causes(result):
            console.print(Text(f"  - {cause.describe()}", style="red"), soft_wrap=True)
    for mismatch in item.quote_mismatches:
        lines = mismatch.lines()
        console.print(Text(lines[0], style="yellow"))
        for line in lines[1:]:
            console.print(Text(line), soft_wrap=True, overflow="ignore", crop=False)


def _render_diagnostic(console: Console, diagnostic: Diagnostic) -> None:
    style = "red" if diagnostic.severity is Severity.ERROR else "yellow"
    where = f"{display_path(diagnostic.file)}:{diagnostic.line}:{diagnostic.column}"
    # One line per diagnostic, never wrapped: editors and grep read `file:line:column:`.
    console.print(
        Text(f"{where}: ", style="bold") + Text(f"{diagnostic.code} ", style=style) + Text(diagnostic.message),
        soft_wrap=True,
    )
    if diagnostic.fix_hint:
        console.print(Text(f"  help: {diagnostic.fix_hint}", style="dim"), soft_wrap=True)


def render_item(console: Console, item: TrajectoryReplay) -> None:
    """One trajectory in full: its step table and summary."""
    _render_item(console, item)


def render_diagnostics(console: Console, item: TrajectoryReplay) -> None:
    for diagnostic in item.diagnostics:
        _render_diagnostic(console, diagnostic)


def concise_line(item: TrajectoryReplay) -> Text:
    """One line per trajectory: path, matter, score and how the episode ended."""
    line = Text(display_path(item.trajectory), style="bold")
    line.append(f"  {item.matter_id or '-'}  ", style="dim")
    if item.replay is None:
        errors = sum(1 for d in item.diagnostics if d.severity is Severity.ERROR)
        line.append(f"not replayed ({errors} error{'s' if errors != 1 else ''})", style="red")
        return line
    result = item.replay.result
    ending = "terminated" if result["terminated"] else ("truncated" if result["truncated"] else "unfinished")
    steps = result["steps"]
    line.append(f"raw {result['raw_score']:g} / max {result['max_score']:g}  ")
    line.append(f"normalized {result['normalized_score']:g}", style="bold")
    line.append(f"  {ending} after {steps} step{'' if steps == 1 else 's'}")
    if result["critical_failure"]:
        line.append("  critical failure", style="bold red")
    return line
