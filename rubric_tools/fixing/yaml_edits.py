"""Build `Edit`s that replace one YAML scalar (a value or a key) in place, or delete a
mapping entry written on a line of its own.

Positions come from the loader's position API (`YamlSource.positions`), never from
parser internals, so the edits survive a change of YAML parser. The replacement keeps
the node's quoting style where the new text can be written in it; the applier then
re-parses the spliced file and checks that the node holds exactly the intended value.
Only single-line nodes are edited: a folded or multi-line scalar is left to the author.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

from rubric_tools.diagnostics import Span
from rubric_tools.fixing.fixes import Edit, InstancePath
from rubric_tools.loading.yaml_source import YamlSource

# Characters that make a plain scalar mean something else (or nothing) in YAML.
_PLAIN_UNSAFE_START = set("!&*-?:,[]{}#|>@`\"'%")
# What ends a plain scalar inside a flow collection for the reference's loader: the flow
# indicators, "?" (PyYAML's scanner stops there too, where libyaml reads on), ": " and " #".
_FLOW_UNSAFE = re.compile(r"[\[\]{},?]|: | #")


def flow_unsafe(text: str) -> bool:
    """Whether `text`, written unquoted, would not read back as itself inside a flow
    collection (`{pattern: …}`): it must be quoted there."""
    return _FLOW_UNSAFE.search(text) is not None


def node_text(source: YamlSource, span: Span) -> str | None:
    """The source text of a single-line span, or None when it cannot be sliced exactly."""
    if span.line != span.end_line or not 1 <= span.line <= len(source.lines):
        return None
    line = source.lines[span.line - 1]
    if span.end_column - 1 > len(line):
        return None
    return line[span.column - 1 : span.end_column - 1]


def _single_quoted(value: str) -> str | None:
    if any(ord(c) < 0x20 or c in "\x7f\x85\u2028\u2029" for c in value):
        return None  # single quotes have no escapes
    return "'" + value.replace("'", "''") + "'"


def _double_quoted(value: str) -> str:
    # JSON string escapes are all valid YAML double-quoted escapes.
    return json.dumps(value, ensure_ascii=False)


def _plain(value: str) -> str | None:
    if (
        not value
        or value != value.strip()
        or value[0] in _PLAIN_UNSAFE_START
        or flow_unsafe(value)  # the value may sit in a flow collection
        or value.endswith(":")
        or any(ord(c) < 0x20 for c in value)
    ):
        return None
    return value  # the applier re-parses, so a value YAML would read differently is caught


def render_string_like(old_text: str, value: str) -> str:
    """`value` written in the quoting style of `old_text` when possible."""
    if old_text.startswith('"'):
        return _double_quoted(value)
    if old_text.startswith("'"):
        return _single_quoted(value) or _double_quoted(value)
    return _plain(value) or _single_quoted(value) or _double_quoted(value)


def render_number(value: float) -> str:
    if math.isfinite(value) and float(value).is_integer():
        return str(int(value)) if abs(value) < 1e15 else repr(float(value))
    return repr(round(value, 10))


def replace_value(source: YamlSource, path: InstancePath, new_text: str, expected: Any) -> Edit | None:
    """An edit writing `new_text` over the value at `path` (which must then equal `expected`)."""
    position = source.positions.get(path)
    if position is None:
        return None
    old = node_text(source, position.value)
    if old is None or old == new_text:
        return None
    return Edit(source.path, position.value, old, new_text, yaml_path=path, expected=expected)


def replace_string(source: YamlSource, path: InstancePath, value: str) -> Edit | None:
    """An edit making the string at `path` read `value`, keeping its quoting style."""
    position = source.positions.get(path)
    if position is None:
        return None
    old = node_text(source, position.value)
    if old is None:
        return None
    return replace_value(source, path, render_string_like(old, value), value)


def rename_key(source: YamlSource, path: InstancePath, new_key: str) -> Edit | None:
    """An edit renaming the mapping key at `path` (its last element) to `new_key`."""
    position = source.positions.get(path)
    if position is None or position.key is None or not isinstance(path[-1], str):
        return None
    old = node_text(source, position.key)
    if old is None:
        return None
    return Edit(
        source.path,
        position.key,
        old,
        render_string_like(old, new_key),
        yaml_path=(*path[:-1], new_key),
        expected=value_at(source.data, path),
        renamed_from=path[-1],
    )


def delete_entry(source: YamlSource, path: InstancePath) -> Edit | None:
    """An edit deleting the mapping entry at `path` (`max_score: 17` and any comment after
    it), when it is the only thing on its one line; None otherwise."""
    from rubric_tools.fixing.apply_fixes import is_yaml, line_starts, read_for_edit

    position = source.positions.get(path)
    read = read_for_edit(source.path)
    if position is None or position.key is None or read is None:
        return None
    line = position.key.line
    starts = line_starts(read[0], is_yaml(source.path))
    if position.value.end_line != line or line > len(starts):
        return None
    end = starts[line] if line < len(starts) else len(read[0])
    text = read[0][starts[line - 1] : end]
    if text[: position.key.column - 1].strip():
        return None  # something else before the key on its line (a flow mapping, a list dash)
    span = Span(line, 1, line + 1, 1) if line < len(starts) else Span(line, 1, line, len(text) + 1)
    return Edit(source.path, span, text, "", yaml_path=path, deleted=True)


def value_at(data: Any, path: InstancePath) -> Any:
    for part in path:
        if isinstance(data, dict) and part in data:
            data = data[part]
        elif isinstance(data, list) and isinstance(part, int) and 0 <= part < len(data):
            data = data[part]
        else:
            return None
    return data
