"""Read a trajectory: JSONL (one action object per line, blank lines skipped) or YAML
(a list of action mappings, `.yaml`/`.yml`).

A line that is not JSON, or not a JSON object, or a YAML file that is not a list of
mappings, makes the trajectory invalid; it is reported with file:line:column and the
trajectory is not replayed. Other files are unaffected. Either way each action keeps
its position, so that later diagnostics (schema validation, scoring warnings) point at
the action's line and, where possible, at the offending key.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from rubric_tools.authoring_codes import TRAJECTORY_NOT_LIST
from rubric_tools.catalogue import CodeDoc
from rubric_tools.codes import ACTION_NOT_OBJECT, INVALID_JSON_LINE
from rubric_tools.diagnostics import Diagnostic, Severity, Span
from rubric_tools.loading.files import Overlay
from rubric_tools.loading.json_lines import line_decoder
from rubric_tools.loading.layout import YAML_SUFFIXES
from rubric_tools.loading.yaml_source import YamlSource, parse_yaml_text, read_text

FieldPath = tuple[str | int, ...]


def is_yaml_trajectory(path: Path) -> bool:
    return path.suffix.lower() in YAML_SUFFIXES


@dataclass
class Trajectory:
    path: Path
    actions: list[Any] = field(default_factory=list)
    line_numbers: list[int] = field(default_factory=list)  # source line of each action
    diagnostics: list[Diagnostic] = field(default_factory=list)
    # JSONL: the text of each action's line; YAML: the parsed source with every node's span.
    line_texts: list[str] = field(default_factory=list)
    yaml_source: YamlSource | None = None
    yaml_indexes: list[int] = field(default_factory=list)  # list index of each kept action

    @property
    def valid(self) -> bool:
        return not any(d.severity is Severity.ERROR for d in self.diagnostics)

    def span_of(self, index: int, path: FieldPath = (), *, key: bool = False) -> Span:
        """Where action `index` (or a field inside it) was written."""
        if self.yaml_source is not None:
            found = self.yaml_source.span((self.yaml_indexes[index], *path), key=key)
            return found or Span.point(self.line_numbers[index], 1)
        line = self.line_numbers[index]
        text = self.line_texts[index] if index < len(self.line_texts) else ""
        return _jsonl_span(line, text, path)


@lru_cache(maxsize=256)
def _key_pattern(key: str) -> re.Pattern[str]:
    """`"key":` as JSON writes it (the agents' actions share a few dozen keys)."""
    return re.compile(re.escape(json.dumps(key)) + r"\s*:")


def _jsonl_span(line: int, text: str, path: FieldPath) -> Span:
    """The column of the deepest named key of `path` on a JSONL line (first occurrence
    after its parents' keys); the line start when the path names no key."""
    column = 0
    for part in path:
        if not isinstance(part, str):
            continue
        match = _key_pattern(part).search(text, column)
        if match is None:
            break
        column = match.start()
    return Span.point(line, column + 1, max(1, len(json.dumps(path[-1])) if path and column else 1))


def _problem(path: Path, declared: CodeDoc, message: str, span: Span | None, hint: str) -> Diagnostic:
    return Diagnostic.of(declared, message, path, span or Span.point(1, 1), fix_hint=hint)


def parse_trajectory(path: Path, text: str) -> Trajectory:
    if is_yaml_trajectory(path):
        return parse_yaml_trajectory(path, text)
    trajectory = Trajectory(path)
    decode = line_decoder(text)
    for number, line in enumerate(text.split("\n"), start=1):
        if not line.strip():
            continue
        try:
            action = decode(line)
        # ValueError besides JSONDecodeError: an integer over 4,300 digits is refused by int().
        except (ValueError, RecursionError) as exc:
            column = getattr(exc, "colno", 1)
            reason = getattr(exc, "msg", None) or (str(exc).split(";")[0] if str(exc) else "nesting too deep")
            trajectory.diagnostics.append(
                _problem(
                    path,
                    INVALID_JSON_LINE,
                    f"line is not valid JSON: {reason}",
                    Span.point(number, column),
                    'each line must be one JSON object: {"type": ...}',
                )
            )
            continue
        if not isinstance(action, dict):
            trajectory.diagnostics.append(
                _problem(
                    path,
                    ACTION_NOT_OBJECT,
                    f"line is JSON but not an object (it is a {type(action).__name__})",
                    Span(number, 1, number, len(line) + 1),
                    'wrap the action in an object with a "type"',
                )
            )
            continue
        trajectory.actions.append(action)
        trajectory.line_numbers.append(number)
        trajectory.line_texts.append(line)
    return trajectory


def parse_yaml_trajectory(path: Path, text: str) -> Trajectory:
    """A YAML trajectory: a list whose items are the actions, in order."""
    source = parse_yaml_text(path, text)
    trajectory = Trajectory(path, yaml_source=source)
    trajectory.diagnostics.extend(source.diagnostics)
    if source.data is None:
        if source.readable and not trajectory.diagnostics:
            trajectory.diagnostics.append(
                _problem(
                    path,
                    TRAJECTORY_NOT_LIST,
                    "the YAML trajectory is empty",
                    Span.point(1, 1),
                    "write the actions as a list: `- type: read_document`",
                )
            )
        return trajectory
    if not isinstance(source.data, list):
        trajectory.diagnostics.append(
            _problem(
                path,
                TRAJECTORY_NOT_LIST,
                f"a YAML trajectory must be a list of actions, not a {_yaml_kind(source.data)}",
                source.span(()),
                "write the actions as a list: `- type: read_document`",
            )
        )
        return trajectory
    for index, action in enumerate(source.data):
        span = source.span((index,)) or Span.point(1, 1)
        if not isinstance(action, dict):
            trajectory.diagnostics.append(
                _problem(
                    path,
                    ACTION_NOT_OBJECT,
                    f"action {index + 1} is not a mapping (it is a {_yaml_kind(action)})",
                    span,
                    "each list item must be a mapping with a `type` key",
                )
            )
            continue
        trajectory.actions.append(action)
        trajectory.line_numbers.append(span.line)
        trajectory.yaml_indexes.append(index)
    return trajectory


def _yaml_kind(value: Any) -> str:
    if isinstance(value, dict):
        return "mapping"
    if isinstance(value, list):
        return "list"
    return "string" if isinstance(value, str) else type(value).__name__


def load_trajectory(path: Path, overlay: Overlay | None = None) -> Trajectory:
    """Read and parse a trajectory file (or its unsaved buffer in `overlay`)."""
    text, problem = read_text(path, overlay=overlay)
    if problem is not None:
        trajectory = Trajectory(path)
        trajectory.diagnostics.append(problem)
        return trajectory
    return parse_trajectory(path, text or "")
