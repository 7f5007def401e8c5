"""What is written at a position of a matter file: a citation, an id, a gate, a rule code
in a suppression, a section heading, a trajectory's stem.

YAML files are read through the loader's node positions (the deepest key or value whose
span holds the position); JSONL trajectories and Markdown documents by their lines.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rubric_tools.diagnostics import Span
from rubric_tools.loading.elements import GateElement
from rubric_tools.loading.yaml_source import InstancePath, YamlSource
from rubric_tools.lsp.index import ESCALATION, ISSUE, QUESTION, MatterIndex
from rubric_tools.scoring.sections import HEADING_PREFIX, heading_token
from rubric_tools.scoring.text import split_citation

#: The kinds of matter file the server knows (`FileKind`), besides the four matter YAML files.
DOCUMENT, TRAJECTORY, PROBES, EXPECTATIONS = "document", "trajectory", "probes", "expectations.yaml"
RUBRIC, COUNTERPARTY, HIDDEN_FACTS, MATTER = "rubric.yaml", "counterparty.yaml", "hidden_facts.yaml", "matter.yaml"

#: `rubric: ignore[CODES]` and `ignore-file[...]`, in a YAML comment or an HTML comment.
SUPPRESSION = re.compile(r"rubric:\s*(?:ignore-file|ignore)\s*\[(?P<codes>[^\]\n]*)")
_CODE_TOKEN = re.compile(r"[A-Za-z0-9-]+")
_JSON_STRING = re.compile(r'"(?:[^"\\\n]|\\.)*"')


@dataclass(frozen=True)
class Target:
    """Something at a position that the server can explain or follow."""

    kind: str  # "citation", "item", "code", "gate", "section", "stem"
    file: Path
    span: Span
    text: str  # the citation, id, code or stem as written
    item_kind: str = ""  # for "item": issue, question or escalation
    definition: bool = False  # the position is on the item's own id in the rubric
    document: str = ""  # for "citation" and "section"
    token: str = ""
    gate: GateElement | None = None


def node_at(source: YamlSource, line: int, column: int) -> tuple[InstancePath, bool, Span] | None:
    """The deepest node whose key or value holds line:column: (its path, whether the
    position is on the key, the span of what holds it)."""
    point = (line, column)
    best: tuple[InstancePath, bool, Span] | None = None
    for path, position in source.positions.items():
        for span, on_key in ((position.key, True), (position.value, False)):
            if span is None or not (span.line, span.column) <= point <= (span.end_line, span.end_column):
                continue
            if best is None or len(path) > len(best[0]) or (len(path) == len(best[0]) and on_key):
                best = (path, on_key, span)
    return best


def suppression_code_at(line_text: str, column: int, file: Path, line: int) -> Target | None:
    """The rule code (or name) under `column` (1-based) inside a suppression comment."""
    for match in SUPPRESSION.finditer(line_text):
        start = match.start("codes")
        for token in _CODE_TOKEN.finditer(match.group("codes")):
            first, last = start + token.start() + 1, start + token.end() + 1
            if first <= column <= last:
                return Target("code", file, Span(line, first, line, last), token.group())
    return None


def _citation(file: Path, span: Span, text: str, index: MatterIndex, *, known_only: bool) -> Target | None:
    parts = split_citation(text)
    if parts is None:
        return None
    if known_only and not any(doc.id == parts[0] for doc in index.model.documents):
        return None
    return Target("citation", file, span, text, document=parts[0], token=parts[1])


def _value(source: YamlSource, path: InstancePath) -> Any:
    value: Any = source.data
    for part in path:
        try:
            value = value[part]
        except (KeyError, IndexError, TypeError):
            return None
    return value


def _gate_at(index: MatterIndex, path: InstancePath) -> GateElement | None:
    for gate in index.model.gates():
        if path[: len(gate.location.path)] == gate.location.path:
            return gate
    return None


def yaml_target(kind: str, source: YamlSource, index: MatterIndex, line: int, column: int) -> Target | None:
    """What the position of a YAML matter file names."""
    found = node_at(source, line, column)
    if found is None:
        return None
    path, on_key, span = found
    value = _value(source, path)
    file = source.path
    text = str(value) if isinstance(value, str | int | float) and not isinstance(value, bool) else None
    last = path[-1] if path else None
    if kind == RUBRIC:
        if len(path) == 3 and path[0] in ("issues", "questions", "escalations") and last == "id" and not on_key:
            item_kind = {"issues": ISSUE, "questions": QUESTION, "escalations": ESCALATION}[str(path[0])]
            return Target("item", file, span, str(value), item_kind, definition=True) if text is not None else None
        if path[:2] == ("final_submission", "required_issue_ids") and len(path) == 3 and text is not None:
            return Target("item", file, span, text, ISSUE)
        if len(path) >= 3 and path[0] == "issues" and not on_key and text is not None:
            if path[2] == "anchor" or (path[2] == "required_citations" and len(path) == 4):
                return _citation(file, span, text, index, known_only=False)
        if len(path) >= 4 and path[0] == "issues":
            gate = _gate_at(index, path)
            if gate is not None:
                return Target("gate", file, gate.location.span or span, gate.pattern or "", gate=gate)
        return None
    if kind == COUNTERPARTY and len(path) == 2 and path[0] == "positions" and on_key:
        return Target("item", file, span, str(last), ISSUE)
    if kind == HIDDEN_FACTS and len(path) == 2 and on_key and path[0] in ("client_answers", "escalation_answers"):
        return Target("item", file, span, str(last), QUESTION if path[0] == "client_answers" else ESCALATION)
    if kind == EXPECTATIONS and len(path) >= 2 and path[0] == "trajectories":
        if len(path) == 2 and on_key:  # the entry of a trajectory: its definition is the file
            return Target("stem", file, span, str(last), definition=True)
        if len(path) == 3 and last == "below" and text is not None:
            return Target("stem", file, span, text)
        if path[2:] == ("cause", "criterion") and text is not None:
            cause = _value(source, path[:-1])
            missed = isinstance(cause, dict) and cause.get("kind") == "missed_critical_escalation"
            return Target("item", file, span, text, ESCALATION if missed else ISSUE)
    if kind == PROBES and last == "criterion" and not on_key and text is not None:
        return Target("item", file, span, text, ISSUE)
    if kind == TRAJECTORY and not on_key and text is not None:
        return _citation(file, span, text, index, known_only=True)
    return None


def jsonl_target(file: Path, line_text: str, line: int, column: int, index: MatterIndex) -> Target | None:
    """A citation written as a JSON string of a JSONL trajectory line."""
    for match in _JSON_STRING.finditer(line_text):
        first, last = match.start() + 1, match.end() + 1
        if not first <= column <= last:
            continue
        try:
            text = json.loads(match.group())
        except ValueError:
            return None
        return _citation(file, Span(line, first, line, last), text, index, known_only=True)
    return None


def heading_target(file: Path, document_id: str, line_text: str, line: int) -> Target | None:
    """The section a `## ` heading line of a document opens."""
    if not line_text.startswith(HEADING_PREFIX):
        return None
    token = heading_token(line_text)
    if token is None:
        return None
    return Target("section", file, Span(line, 1, line, len(line_text) + 1), token, document=document_id, token=token)
