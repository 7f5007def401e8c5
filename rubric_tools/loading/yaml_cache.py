"""A content-addressed cache of parsed YAML, so repeated lints skip the parser.

ruamel.yaml's round-trip parser is pure Python and dominates lint time. A file whose
bytes were parsed before (by this version of the tool) is restored from the cache:
its plain data and the position of every node. Only files that parsed without any
diagnostic are cached. Entries are `marshal` data (plain values only; loading one
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

CACHE_FORMAT = 1

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


def restore(text: str) -> tuple[Any, dict[tuple[Any, ...], tuple[Span, Span | None]]] | None:
    """The cached (data, positions) for this file content, or None."""
    entry = _entry(text)
    if entry is None:
        return None
    try:
        data, positions = marshal.loads(entry.read_bytes())
    except (OSError, EOFError, ValueError, TypeError):
        return None
    return data, {path: (_span(value), _span(key)) for path, value, key in positions}  # type: ignore[misc]


def store(text: str, data: Any, positions: dict[tuple[Any, ...], tuple[Span, Span | None]]) -> None:
    """Remember a clean parse. Failing to write the cache is never an error."""
    entry = _entry(text)
    if entry is None:
        return
    flat = [(path, _tuple(value), _tuple(key)) for path, (value, key) in positions.items()]
    try:
        payload = marshal.dumps((data, flat))
        entry.parent.mkdir(parents=True, exist_ok=True)
        temporary = entry.with_suffix(f".{os.getpid()}.tmp")
        temporary.write_bytes(payload)
        temporary.replace(entry)
    except (OSError, ValueError):
        return
