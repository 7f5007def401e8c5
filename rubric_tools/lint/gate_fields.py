"""Helpers shared by the gate rules: the regex-valued fields of a gate entry, why a
regex does not compile, and where a character of a YAML scalar sits in the file."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from rubric_tools.diagnostics import Span
from rubric_tools.gate_analysis.regex_problem import regex_problem
from rubric_tools.lint.context import LintContext
from rubric_tools.loading.element_build import NEGATION_SCOPES as NEGATION_SCOPES
from rubric_tools.loading.elements import GateElement, Location
from rubric_tools.loading.yaml_source import InstancePath

#: Every key a structured gate may carry (engine.md §4); anything else is an error.
GATE_KEYS = ("pattern", "negation_guard", "negation_scope", "require_context", "exclude_context")
REGEX_KEYS = ("pattern", "require_context", "exclude_context")


@dataclass(frozen=True)
class RegexField:
    """One regex of a gate: its pattern or one of its context regexes."""

    gate: GateElement
    key: str  # "pattern", "require_context" or "exclude_context"
    location: Location
    text: str

    @property
    def path(self) -> InstancePath:
        return self.location.path


def describe(gate: GateElement) -> str:
    """How a finding names a gate: its list, its index and its issue."""
    return gate.name()


def regex_fields(gate: GateElement) -> Iterator[RegexField]:
    """The string regexes of a gate entry (non-strings are other rules' business)."""
    if gate.form == "string" and gate.pattern is not None:
        yield RegexField(gate, "pattern", gate.location, gate.pattern)
        return
    for key, value in (
        ("pattern", gate.pattern),
        ("require_context", gate.require_context),
        ("exclude_context", gate.exclude_context),
    ):
        # An empty context regex is skipped by the engine; an empty pattern is not.
        if value is not None and (value or key == "pattern"):
            yield RegexField(gate, key, gate.at(key), value)


def valid_regex_fields(ctx: LintContext) -> Iterator[RegexField]:
    """Every regex of every gate that compiles (G003 reports the others)."""
    for gate in ctx.model.gates():
        for field in regex_fields(gate):
            if regex_problem(field.text) is None:
                yield field


def scalar_character_span(location: Location, value: str, index: int) -> Span | None:
    """The span of character `index` of the string scalar at `location`, or None.

    Only exact when the scalar sits on one line and is written without escapes
    (plain, or quoted with nothing to unescape): then its source text is the value
    itself, after the opening quote.
    """
    source = location.source
    position = source.positions.get(location.path) if source is not None else None
    if source is None or position is None or position.value.line != position.value.end_line:
        return None
    span = position.value
    if not 0 < span.line <= len(source.lines):
        return None
    written = source.lines[span.line - 1][span.column - 1 : span.end_column - 1]
    if written == value:
        offset = 0
    elif len(written) >= 2 and written[0] == written[-1] and written[0] in "'\"" and written[1:-1] == value:
        offset = 1
    else:
        return None
    column = span.column + offset + min(max(index, 0), max(len(value) - 1, 0))
    return Span.point(span.line, column)
