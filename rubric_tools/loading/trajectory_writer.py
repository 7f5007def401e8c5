"""Write a trajectory as JSONL or YAML, lossless for JSON values (`rubric convert`,
`rubric new`'s reference trajectory).

YAML is written for people: one list item per action, `type` first, long or multi-line
text as `|-` block strings (and trailing spaces or tabs, which a block string cannot
hold, in quoted form). Reading it back yields exactly the JSON values written.
"""

from __future__ import annotations

import io
import json
import math
import re
from collections.abc import Sequence
from typing import Any

# Text longer than this, or with a line break, is written as a block string.
BLOCK_THRESHOLD = 80
# Plain scalars that a YAML 1.1 reader (PyYAML, many editors) would not read as the same
# string: booleans, nulls, numbers, sexagesimals, dates. Written double-quoted instead.
_AMBIGUOUS_PLAIN = re.compile(
    r"^(?:y|n|yes|no|on|off|true|false|null|~|[-+]?(?:\.inf|\.nan)|[-+]?[0-9][0-9_:.eE+-]*|"
    r"0[xob][0-9a-fA-F_]+|\d{4}-\d\d?-\d\d?(?:[Tt ].*)?|=|<<)$",
    re.IGNORECASE,
)
HEADER = "# yaml-language-server: $schema={schema}\n# A trajectory: one list item per action, in order.\n"


def _needs_escapes(text: str) -> bool:
    """Characters only a double-quoted scalar carries intact: YAML line breaks other than
    \\n (NEL, LS, PS, CR), a byte-order mark, other control characters."""
    return any((not ch.isprintable() and ch not in "\n\t") or ch in "\ufeff\u2028\u2029\x85" for ch in text)


def _is_block_safe(text: str) -> bool:
    """Can this text round-trip through a `|-` block scalar unchanged?"""
    if not text or text != text.rstrip("\n") or text[0] in " \t":
        return False
    if any(line != line.rstrip(" \t") for line in text.split("\n")):
        return False
    return all(ch == "\n" or (ch.isprintable() and ch not in "\ufeff\u2028\u2029\x85") for ch in text)


def _yaml_text(actions: Sequence[Any]) -> str:
    from ruamel.yaml import YAML
    from ruamel.yaml.scalarstring import DoubleQuotedScalarString, LiteralScalarString

    def prepare(value: Any) -> Any:
        if isinstance(value, dict):
            ordered = dict(sorted(value.items(), key=lambda item: item[0] != "type"))
            return {key: prepare(item) for key, item in ordered.items()}
        if isinstance(value, list):
            return [prepare(item) for item in value]
        if isinstance(value, str) and (len(value) > BLOCK_THRESHOLD or "\n" in value) and _is_block_safe(value):
            return LiteralScalarString(value)
        if isinstance(value, str) and (_AMBIGUOUS_PLAIN.match(value) or _needs_escapes(value)):
            return DoubleQuotedScalarString(value)
        return value

    yaml = YAML(typ="rt", pure=True)
    yaml.width = 4096  # never fold a line: folding is where round trips lose spaces
    yaml.indent(mapping=2, sequence=2, offset=0)
    yaml.allow_unicode = True
    yaml.representer.add_representer(type(None), lambda r, _: r.represent_scalar("tag:yaml.org,2002:null", "null"))
    buffer = io.StringIO()
    yaml.dump([prepare(action) for action in actions], buffer)
    return buffer.getvalue()


def actions_to_yaml(actions: Sequence[Any], schema_line: str | None = None) -> str:
    header = HEADER.format(schema=schema_line) if schema_line else ""
    return header + (_yaml_text(actions) if actions else "[]\n")


def actions_to_jsonl(actions: Sequence[Any]) -> str:
    return "".join(json.dumps(action, ensure_ascii=False, allow_nan=True) + "\n" for action in actions)


def has_non_finite(value: Any) -> bool:
    if isinstance(value, float):
        return not math.isfinite(value)
    if isinstance(value, dict):
        return any(has_non_finite(v) for v in value.values())
    if isinstance(value, list):
        return any(has_non_finite(v) for v in value)
    return False
