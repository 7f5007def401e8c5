"""Why a gate regex cannot run: the compile check that lint's G003/G016 report and that the
audit applies to every pattern it proposes (so a proposal is never a pattern lint refuses)."""

from __future__ import annotations

from dataclasses import dataclass

from rubric_tools.scoring.dialect import PatternRefused
from rubric_tools.scoring.gates import GateError, compile_pattern


@dataclass(frozen=True)
class RegexProblem:
    message: str
    position: int | None  # 0-based index into the pattern, when the error has one
    too_costly: bool = False  # refused for its size or compile cost (G016), not invalid (G003)


def regex_problem(pattern: str) -> RegexProblem | None:
    """Why `pattern` does not compile, for the reference engine (`re`) or the scorer.

    The scorer's `compile_pattern` parses and compiles with `re` first (after bounding
    the pattern's size and compile cost), then with `regex`."""
    try:
        compile_pattern(pattern)
    except GateError as exc:
        cause = exc.__cause__
        if isinstance(cause, PatternRefused):
            return RegexProblem(cause.message, cause.position, cause.too_costly)
        position = getattr(cause, "pos", None)
        return RegexProblem(exc.message, position if isinstance(position, int) else None)
    return None
