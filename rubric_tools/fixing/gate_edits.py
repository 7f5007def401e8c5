"""The edit that writes a structured guard into a gate entry (the fix of a verified
`rubric audit` proposal): set keys such as `negation_guard` or `exclude_context`.

- a string entry `- "pattern"` becomes a flow mapping on the same line,
  `- {pattern: "pattern", negation_guard: true}` (the pattern's text kept as written);
- a flow mapping on one line is rewritten with the keys set;
- a block mapping has existing keys' values replaced in place and new keys added on a
  line of their own after its last line, at its indentation.

Everything else in the file stays byte for byte; the applier re-parses the result and
checks that the entry equals the old one with the change applied.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from rubric_tools.diagnostics import Applicability, Edit, Fix, InstancePath, Span
from rubric_tools.fixing.yaml_edits import flow_unsafe, node_text, value_at
from rubric_tools.loading.yaml_source import YamlSource


def render_yaml_value(value: Any) -> str | None:
    """A YAML flow scalar reading back as `value` (a bool, number or string)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, str):
        if any(ord(c) < 0x20 or c in "\x7f\x85\u2028\u2029" for c in value):
            return json.dumps(value, ensure_ascii=False)  # needs escapes: double quotes
        return "'" + value.replace("'", "''") + "'"  # no escapes, so a regex stays as written
    return None


def _value_text(source: YamlSource, path: InstancePath, value: Any) -> str | None:
    position = source.positions.get(path)
    written = node_text(source, position.value) if position is not None else None
    return written if written is not None else render_yaml_value(value)


def _flow_mapping(
    source: YamlSource, path: InstancePath, entry: Mapping[str, Any], change: Mapping[str, Any]
) -> str | None:
    items = []
    for key, value in {**entry, **change}.items():
        text = render_yaml_value(value) if key in change else _value_text(source, (*path, key), value)
        if text is None:
            return None
        items.append(f"{key}: {text}")
    return "{" + ", ".join(items) + "}"


def _block_edits(
    source: YamlSource, path: InstancePath, entry: Mapping[str, Any], change: Mapping[str, Any]
) -> list[Edit] | None:
    edits: list[Edit] = []
    added: list[str] = []
    for key, value in change.items():
        rendered = render_yaml_value(value)
        if rendered is None:
            return None
        position = source.positions.get((*path, key))
        if key in entry and position is not None:
            old = node_text(source, position.value)
            if old is None:
                return None
            edits.append(Edit(source.path, position.value, old, rendered))
        else:
            added.append(f"{key}: {rendered}")
    if added:
        children = [p for k, p in source.positions.items() if len(k) > len(path) and k[: len(path)] == path]
        first_key = min((p.key for p in children if p.key is not None), default=None, key=lambda s: (s.line, s.column))
        if first_key is None:
            return None
        last_line = max(
            p.value.end_line - (1 if p.value.end_column == 1 and p.value.end_line > p.value.line else 0)
            for p in children
        )
        end = len(source.lines[last_line - 1]) + 1
        indent = " " * (first_key.column - 1)
        insertion = "".join(f"\n{indent}{item}" for item in added)
        edits.append(Edit(source.path, Span(last_line, end, last_line, end), "", insertion))
    return edits


def _span_text(source: YamlSource, span: Span) -> str | None:
    """The source text of a span over several lines (lines joined by "\\n")."""
    if not 1 <= span.line <= span.end_line <= len(source.lines):
        return None
    if span.line == span.end_line:
        return node_text(source, span)
    lines = source.lines[span.line - 1 : span.end_line]
    return "\n".join([lines[0][span.column - 1 :], *lines[1:-1], lines[-1][: span.end_column - 1]])


def _string_entry(written: str, change: Mapping[str, Any], value: str | None = None) -> str | None:
    """`"pattern"` → `{pattern: "pattern", key: value}`, the pattern text kept as written
    (re-quoted when, unquoted, it would not parse inside a flow mapping: `[ -]`, `{0,40}`)."""
    if value is not None and not written.startswith(("'", '"')) and flow_unsafe(written):
        written = render_yaml_value(value) or written
    items = {"pattern": written, **{k: render_yaml_value(v) for k, v in change.items()}}
    if "pattern" in change:
        items["pattern"] = render_yaml_value(change["pattern"])
    if any(text is None for text in items.values()):
        return None
    return "{" + ", ".join(f"{key}: {text}" for key, text in items.items()) + "}"


def guard_fix(source: YamlSource, path: InstancePath, change: Mapping[str, Any], message: str) -> Fix | None:
    """An unsafe fix setting `change` on the gate entry at `path` of rubric.yaml."""
    entry = value_at(source.data, path)
    position = source.positions.get(path)
    if position is None or not change:
        return None
    if isinstance(entry, str):
        entry_mapping: dict[str, Any] = {"pattern": entry}
    elif isinstance(entry, Mapping) and all(isinstance(k, str) for k in entry):
        entry_mapping = dict(entry)
    else:
        return None
    expected = {**entry_mapping, **change}
    written = node_text(source, position.value)
    if isinstance(entry, str) and written is None:
        # A plain scalar folded over several lines: the entry is rewritten whole, on one line.
        written = _span_text(source, position.value)
        as_one_line = render_yaml_value(entry)
        new_entry = _string_entry(as_one_line, change) if as_one_line is not None else None
        if written is None or new_entry is None:
            return None
        return Fix(
            message,
            (Edit(source.path, position.value, written, new_entry, yaml_path=path, expected=expected),),
            Applicability.UNSAFE,
        )
    if isinstance(entry, str) or (written is not None and written.startswith("{")):
        if written is None:
            return None
        new = (
            _string_entry(written, change, entry)
            if isinstance(entry, str)
            else _flow_mapping(source, path, entry_mapping, change)
        )
        if new is None:
            return None
        return Fix(
            message,
            (Edit(source.path, position.value, written, new, yaml_path=path, expected=expected),),
            Applicability.UNSAFE,
        )
    block = _block_edits(source, path, entry_mapping, change)
    if not block:
        return None
    first = block[0]
    verified = Edit(first.file, first.span, first.old, first.new, yaml_path=path, expected=expected)
    return Fix(message, (verified, *block[1:]), Applicability.UNSAFE)
