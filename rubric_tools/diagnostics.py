"""The diagnostic record shared by the loader, the lint engine and the reporters.

A diagnostic is the only thing that travels from a check to a reporter (the
check-jsonschema model): checks never print, reporters never check.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from enum import StrEnum
from pathlib import Path
from typing import Any, Protocol, TypeGuard

InstancePath = tuple[str | int, ...]


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


class CodeStatus(StrEnum):
    """Where a code stands, as ruff marks its rules: stable, preview (new, may still change)
    or deprecated (kept for now, to be removed). A renamed code is a redirect
    (`rubric_tools.code_registry.REDIRECTS`), not a status."""

    STABLE = "stable"
    PREVIEW = "preview"
    DEPRECATED = "deprecated"


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


class Applicability(StrEnum):
    """Whether `rubric lint --fix` may apply a fix (safe), or only with --unsafe-fixes."""

    SAFE = "safe"
    UNSAFE = "unsafe"


@dataclass(frozen=True)
class Edit:
    """Replace `old` at `span` (1-based, end-exclusive line:column) of `file` by `new`.

    `yaml_path`/`expected`: after splicing, the node there must hold `expected`
    (`renamed_from`: a renamed key, which must then be gone; `deleted`: the node at
    `yaml_path` must then be gone)."""

    file: Path
    span: Span
    old: str
    new: str
    yaml_path: InstancePath | None = None
    expected: Any = None
    renamed_from: str | None = None
    deleted: bool = False


@dataclass(frozen=True)
class Fix:
    """A finding's fix as data (see `rubric_tools.fixing.fixes`): what it does, its edits,
    and whether --fix may apply it."""

    message: str
    edits: tuple[Edit, ...]
    applicability: Applicability = Applicability.SAFE
    #: Why a fix declared safe was downgraded (the replay proof found a score that moved).
    downgraded: str | None = None

    @property
    def safe(self) -> bool:
        return self.applicability is Applicability.SAFE

    def downgrade(self, reason: str) -> Fix:
        return replace(self, applicability=Applicability.UNSAFE, downgraded=reason)


class DeclaredCode(Protocol):
    """A code as declared once: a catalogue entry (`rubric_tools.catalogue`) or a lint rule.

    Everything that emits or compares a code refers to its declaration, so that the code
    string, its name and its severity are written in one place only."""

    @property
    def code(self) -> str: ...

    @property
    def name(self) -> str: ...

    @property
    def severity(self) -> Severity: ...


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
    #: The edit that resolves the finding, when its rule can compute one (`rubric lint --fix`).
    fix: Fix | None = field(default=None, compare=False, hash=False)

    @classmethod
    def of(
        cls,
        declared: DeclaredCode,
        message: str,
        file: Path,
        span: Span | None = None,
        fix_hint: str | None = None,
        *,
        matter: str | None = None,
        extra: dict[str, object] | None = None,
    ) -> Diagnostic:
        """A diagnostic of a declared code: its code, name and severity come from the declaration."""
        return cls(
            declared.code,
            declared.name,
            declared.severity,
            message,
            file,
            span,
            fix_hint,
            matter,
            extra if extra is not None else {},
        )

    def has(self, declared: DeclaredCode) -> bool:
        """Whether this diagnostic is of the `declared` code."""
        return self.code == declared.code

    @property
    def line(self) -> int:
        return self.span.line if self.span else 1

    @property
    def column(self) -> int:
        return self.span.column if self.span else 1

    def sort_key(self) -> tuple[str, int, int, str]:
        return (str(self.file), self.line, self.column, self.code)


def finite_float(value: object) -> float | None:
    """`value` as a float when it is a finite number (never a bool); else None: a YAML or
    TOML integer may have more digits than any float holds, where `float()` and even
    `math.isfinite` raise instead of answering."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    try:
        number = float(value)
    except OverflowError:
        return None
    return number if math.isfinite(number) else None


def too_large_for_a_float(value: object) -> TypeGuard[int]:
    """Whether `value` is an integer (never a bool) with more digits than a float holds."""
    return isinstance(value, int) and not isinstance(value, bool) and finite_float(value) is None


def number_text(value: float) -> str:
    """A number as a message writes it ("0.5", "200", "-3"); an integer too large for a
    float by its size, not its digits ("a negative integer of 400 digits")."""
    try:
        return f"{value:g}"
    except OverflowError:
        size = abs(int(value))
        digits = int(size.bit_length() * math.log10(2)) + 1  # at most one too many
        if 10 ** (digits - 1) > size:
            digits -= 1
        return f"{'a negative' if value < 0 else 'an'} integer of {digits:,} digits"
