"""The diagnostic record shared by the loader, the lint engine and the reporters.

A diagnostic is the only thing that travels from a check to a reporter (the
check-jsonschema model): checks never print, reporters never check.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path


class Severity(StrEnum):
    """How bad a finding is; ordered so that `>=` compares badness."""

    INFO = "info"
    WARNING = "warning"
    ERROR = "error"

    @property
    def rank(self) -> int:
        return {"info": 0, "warning": 1, "error": 2}[self.value]

    def __ge__(self, other: object) -> bool:
        if not isinstance(other, Severity):
            return NotImplemented
        return self.rank >= other.rank

    def __gt__(self, other: object) -> bool:
        if not isinstance(other, Severity):
            return NotImplemented
        return self.rank > other.rank

    def __le__(self, other: object) -> bool:
        if not isinstance(other, Severity):
            return NotImplemented
        return self.rank <= other.rank

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, Severity):
            return NotImplemented
        return self.rank < other.rank


@dataclass(frozen=True, order=True)
class Span:
    """A 1-based, end-exclusive region of a file: line:column to end_line:end_column."""

    line: int
    column: int
    end_line: int
    end_column: int

    @classmethod
    def point(cls, line: int, column: int, width: int = 1) -> Span:
        return cls(line, column, line, column + max(width, 1))


@dataclass(frozen=True)
class Diagnostic:
    """One finding: a stable code, where it is, what is wrong and how to fix it."""

    code: str
    name: str
    severity: Severity
    message: str
    file: Path
    span: Span | None = None
    fix_hint: str | None = None
    matter: str | None = None
    extra: dict[str, object] = field(default_factory=dict, compare=False, hash=False)

    @property
    def line(self) -> int:
        return self.span.line if self.span else 1

    @property
    def column(self) -> int:
        return self.span.column if self.span else 1

    def sort_key(self) -> tuple[str, int, int, str]:
        return (str(self.file), self.line, self.column, self.code)
