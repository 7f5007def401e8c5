"""A content-addressed cache of parsed YAML, so repeated lints skip the parser.

A file whose bytes were parsed before (by this version of the tool) is restored from
the cache: its plain data, the position of every node and its YAML-1.1 notes. Only
files that parsed without any diagnostic, into plain values, are cached (a date
cannot be marshalled, so a file holding one is simply parsed again). The key is the
text the loader already read under the file-system policy, so the cache never reads
a file itself. Entries are `marshal` data (plain values only; loading one
never runs code). Set RUBRIC_NO_CACHE=1 to disable, RUBRIC_CACHE_DIR to move it.
"""

from __future__ import annotations

import hashlib
import marshal
import os
from pathlib import Path
from typing import Any

from rubric_tools._version import __version__
from rubric_tools.diagnostics import Span

CACHE_FORMAT = 3  # 3: text on which libyaml and PyYAML disagree is parsed by PyYAML

SpanTuple = tuple[int, int, int, int]


def cache_dir() -> Path | None:
    if os.environ.get("RUBRIC_NO_CACHE") == "1":
        return None
    configured = os.environ.get("RUBRIC_CACHE_DIR")
    if configured:
        return Path(configured)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "rubric-tools"


def _entry(text: str) -> Path | None:
    folder = cache_dir()
    if folder is None:
        return None
    digest = hashlib.sha256(f"{CACHE_FORMAT}:{__version__}:".encode() + text.encode("utf-8")).hexdigest()
    return folder / digest[:2] / f"{digest}.marshal"


def _span(values: SpanTuple | None) -> Span | None:
    return Span(*values) if values is not None else None


def _tuple(span: Span | None) -> SpanTuple | None:
    return (span.line, span.column, span.end_line, span.end_column) if span is not None else None


#: A YAML-1.1 note: (instance path, reading, text written, span, is the key).
Note = tuple[tuple[Any, ...], str, str, Span, bool]
Positions = dict[tuple[Any, ...], tuple[Span, Span | None]]


def restore(text: str) -> tuple[Any, Positions, list[Note]] | None:
    """The cached (data, positions, notes) for this file content, or None."""
    entry = _entry(text)
    if entry is None:
        return None
    try:
        data, positions, notes = marshal.loads(entry.read_bytes())
        return (
            data,
            {path: (Span(*value), _span(key)) for path, value, key in positions},
            [(path, reading, written, Span(*span), is_key) for path, reading, written, span, is_key in notes],
        )
    except (OSError, EOFError, ValueError, TypeError):
        return None


def store(text: str, data: Any, positions: Positions, notes: list[Note]) -> None:
    """Remember a clean parse. Failing to write the cache is never an error."""
    entry = _entry(text)
    if entry is None:
        return
    flat = [(path, _tuple(value), _tuple(key)) for path, (value, key) in positions.items()]
    flat_notes = [(path, reading, written, _tuple(span), is_key) for path, reading, written, span, is_key in notes]
    try:
        payload = marshal.dumps((data, flat, flat_notes))
        entry.parent.mkdir(parents=True, exist_ok=True)
        temporary = entry.with_suffix(f".{os.getpid()}.tmp")
        temporary.write_bytes(payload)
        temporary.replace(entry)
    except (OSError, ValueError):
        return
