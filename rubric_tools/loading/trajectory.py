"""Read a trajectory: JSONL, one action object per line, blank lines skipped.

A line that is not JSON, or not a JSON object, makes the trajectory invalid; it is
reported with file:line:column and the trajectory is not replayed. Other files are
unaffected.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rubric_tools.diagnostics import Diagnostic, Severity, Span
from rubric_tools.loading.yaml_source import read_text


@dataclass
class Trajectory:
    path: Path
    actions: list[Any] = field(default_factory=list)
    line_numbers: list[int] = field(default_factory=list)  # source line of each action
    diagnostics: list[Diagnostic] = field(default_factory=list)

    @property
    def valid(self) -> bool:
        return not any(d.severity is Severity.ERROR for d in self.diagnostics)


def _problem(path: Path, code: str, name: str, message: str, span: Span | None, hint: str) -> Diagnostic:
    return Diagnostic(code, name, Severity.ERROR, message, path, span or Span.point(1, 1), hint)


def parse_trajectory(path: Path, text: str) -> Trajectory:
    trajectory = Trajectory(path)
    for number, line in enumerate(text.split("\n"), start=1):
        if not line.strip():
            continue
        try:
            action = json.loads(line)
        except (json.JSONDecodeError, RecursionError) as exc:
            column = getattr(exc, "colno", 1)
            reason = getattr(exc, "msg", "nesting too deep")
            trajectory.diagnostics.append(_problem(
                path, "T001", "invalid-json-line", f"line is not valid JSON: {reason}",
                Span.point(number, column), "each line must be one JSON object: {\"type\": ...}",
            ))
            continue
        if not isinstance(action, dict):
            trajectory.diagnostics.append(_problem(
                path, "T002", "action-not-object",
                f"line is JSON but not an object (it is a {type(action).__name__})",
                Span(number, 1, number, len(line) + 1), "wrap the action in an object with a \"type\"",
            ))
            continue
        trajectory.actions.append(action)
        trajectory.line_numbers.append(number)
    return trajectory


def load_trajectory(path: Path) -> Trajectory:
    text, problem = read_text(path)
    if problem is not None:
        trajectory = Trajectory(path)
        trajectory.diagnostics.append(problem)
        return trajectory
    return parse_trajectory(path, text or "")
