"""Output that never crashes on what a user wrote and never breaks its format.

- JSON: a non-finite float (an `.inf` in a rubric makes scores infinite) becomes
  `null`, since `NaN`/`Infinity` are not JSON; a lone surrogate (`"\\ud800"` in a
  trajectory or a YAML file) becomes U+FFFD, since it cannot be encoded as UTF-8.
- Text: `clean_text` does the same replacement for strings printed to a terminal or
  written to a file; rich renders strings as `Text`, never as markup.
"""

from __future__ import annotations

import io
import json
import math
import re
from collections.abc import Callable
from typing import Any, TextIO

from rubric_tools.scoring.text import has_unencodable

REPLACEMENT = "\ufffd"


_SURROGATE = re.compile("[\ud800-\udfff]")


def clean_text(text: str) -> str:
    """`text` with every surrogate code point (unencodable in UTF-8) replaced by U+FFFD."""
    return _SURROGATE.sub(REPLACEMENT, text) if has_unencodable(text) else text


#: Characters XML 1.0 forbids (C0 controls but tab, newline and return; surrogates; U+FFFE/F).
_XML_INVALID = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def xml_text(text: str) -> str:
    """`text` with every character XML 1.0 cannot carry replaced by U+FFFD."""
    return _XML_INVALID.sub(REPLACEMENT, text)


def json_safe(value: Any) -> Any:
    """A copy of a JSON-shaped value with non-finite floats as None and clean strings."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, str):
        return clean_text(value)
    if isinstance(value, dict):
        return {clean_text(str(k)) if not isinstance(k, str) else clean_text(k): json_safe(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [json_safe(item) for item in value]
    return value


def dumps(value: Any, *, indent: int | None = 2, default: Callable[[Any], Any] | None = None) -> str:
    """`json.dumps` of `json_safe(value)`: strict JSON, always encodable."""
    return json.dumps(json_safe(value), indent=indent, ensure_ascii=False, allow_nan=False, default=default)


class CleanStream(io.TextIOBase):
    """A text stream that writes through to `target` with lone surrogates replaced, so
    that no format (text, tables, JSON, SARIF, JUnit, GitHub annotations) can fail to
    encode what a user wrote. The command line wraps stdout and stderr in it."""

    def __init__(self, target: TextIO) -> None:
        super().__init__()
        self.target = target

    def write(self, text: str) -> int:
        self.target.write(clean_text(text))
        return len(text)

    def flush(self) -> None:
        self.target.flush()

    def isatty(self) -> bool:
        isatty = getattr(self.target, "isatty", None)
        return bool(isatty and isatty())

    def fileno(self) -> int:
        return self.target.fileno()

    @property
    def encoding(self) -> str:  # type: ignore[override]
        return getattr(self.target, "encoding", None) or "utf-8"
