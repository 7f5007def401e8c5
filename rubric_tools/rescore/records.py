"""What the archive readers produce: one record per trajectory, or a problem to report.

A record is small and picklable: it travels to a worker process as is.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rubric_tools.catalogue import CodeDoc
from rubric_tools.diagnostics import Diagnostic, Span, finite_float

#: The fields of a score, in the row's `current`, `base` and `recorded` objects.
SCORE_FIELDS = ("raw_score", "normalized_score", "critical_failure")


@dataclass(frozen=True)
class Source:
    """Where a trajectory came from: a file, and the record index when the file holds several."""

    file: str
    index: int | None = None
    line: int | None = None

    def as_json(self) -> dict[str, Any]:
        return {"file": self.file, "index": self.index, "line": self.line}

    def label(self) -> str:
        return self.file if self.index is None else f"{self.file}#{self.index}"


@dataclass(frozen=True)
class ArchiveRecord:
    """One trajectory to re-score.

    `matter_id` is what the archive says (None for a plain JSONL trajectory, whose matter
    is found from its path); `matter_hint` is the file it came from, used to find the
    matter as `rubric replay` does. `recorded` is the archive's own result, if any.
    """

    source: Source
    actions: tuple[Any, ...]
    matter_id: str | None = None
    matter_hint: str | None = None
    recorded: dict[str, Any] | None = None


@dataclass(frozen=True)
class RawEpisode:
    """A line of a JSONL of episodes, not parsed yet (a worker parses it).

    From an uncompressed file only its place travels (`offset`, `length`, with `text`
    empty): the worker reads those bytes itself, so the reading process neither decodes
    nor ships the archive's text to the pool (that hand-over cost about a fifth of the
    CPU of `--jobs 2`)."""

    file: str
    index: int
    line: int
    text: str
    offset: int = -1
    length: int = 0


@dataclass(frozen=True)
class RawFile:
    """A one-trajectory file (JSONL trajectory or trace), not read yet (a worker reads it)."""

    path: str


def recorded_score(result: Any) -> dict[str, Any] | None:
    """The `{raw_score, normalized_score, critical_failure}` of a recorded result, or None
    when it lacks one of them or has the wrong types (then nothing can be compared)."""
    if not isinstance(result, dict):
        return None
    # An integer of 400 digits is no score either.
    raw, normalized = finite_float(result.get("raw_score")), finite_float(result.get("normalized_score"))
    critical = result.get("critical_failure")
    if raw is None or normalized is None or not isinstance(critical, bool):
        return None
    return {"raw_score": raw, "normalized_score": normalized, "critical_failure": critical}


def record_problem(
    file: Path | str, line: int, declared: CodeDoc, message: str, hint: str | None = None, column: int = 1
) -> Diagnostic:
    """A malformed record or file: reported with its position, then skipped."""
    return Diagnostic.of(declared, message, Path(file), Span.point(max(line, 1), max(column, 1)), hint)
