"""Guards scoped by meaning, written with the engine's own primitives.

The engine's `negation_guard` drops a match when any negator stands between the start of
its sentence and the match: a negator in another clause ("No cap applies to fees; Provider
may use Customer Data …"), in a limit idiom ("in no event later than …", "shall not
exceed …") or in a limiting phrase ("without limiting …") silences a real sin. Its
`exclude_context` drops a match when a regex matches anywhere in the sentence: a bare
`\\b(?:deleted|replaced)\\b` silences "Section 4.2 is deleted and replaced with: <the sin>".

The guards built here are `exclude_context` regexes that carry the gate's own pattern,
so a marker counts only when it governs the matched clause:

- `negated`: a governing negator (`markers.governing_negator`), then up to GAP characters
  that cross no clause barrier (";", "but", "provided", "except", …) and no verb that
  negates again ("nothing … limits X" affirms X), then the sin;
- `contrasted`: "rather than", "in lieu of", "instead of" right before the sin;
- `rejected`: a rejection verb governing the clause ("we reject the proposal that …");
- `disowned_after`: a later clause pointing back ("…; we reject that", "… is unacceptable");
- `attributed`: the counterparty's draft or position reporting it ("their markup says …");
- `supposed`: a supposition ("if we accepted …");
- `struck`: a deletion governing the sin ("delete …", "… is struck"), never across the
  words that introduce new text ("replaced with", "amended to read", "insert").

`exclusion_for(pattern, kinds)` joins the chosen guards into one regex; `bounded` checks
what lint checks of a gate regex (it compiles in `re`, is not too costly, cannot
backtrack catastrophically).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rubric_tools.audit import markers
from rubric_tools.audit.pattern_tree import without_optional_groups
from rubric_tools.gate_analysis.regex_shape import backtracking_risk
from rubric_tools.lint.gate_fields import regex_problem

#: How far (characters) a marker may stand before the sin it governs.
GAP = 80
#: How far a later rejection may stand after the sin.
AFTER_GAP = 60
#: Verbs that negate a second time: "nothing in this section limits X" affirms X.
_SECOND_NEGATIONS = (
    r"\b(?:limit|restrict|prevent|prohibit|preclude|bar|impair|derogate|restrain|affect|waive|prejudice)\w*"
)
#: Patterns longer than this are not copied into an exclusion whole (size and cost): the
#: exclusion then carries the pattern's first alternative items only.
MAX_EMBEDDED = 1800


def _barriers(*extra: str) -> str:
    return "|".join((*markers.CLAUSE_BARRIERS, *extra))


def _gap(size: int, *extra: str) -> str:
    """Up to `size` characters that cross no clause barrier (nor any of `extra`)."""
    return without_optional_groups(rf"(?:(?!{_barriers(*extra)})[^.]){{0,{size}}}?")


@dataclass(frozen=True)
class Scope:
    """One kind of governing marker, as the evidence and the description name it."""

    kind: str
    description: str
    surfaces: tuple[str, ...] = ("issue", "redline", "settlement")


SCOPES: tuple[Scope, ...] = (
    Scope("negated", "a negator governing the clause"),
    Scope("contrasted", "a contrast ('rather than', 'in lieu of') before it"),
    Scope("rejected", "a rejection governing the clause", ("issue",)),
    Scope("disowned", "a later clause rejecting it", ("issue",)),
    Scope("attributed", "the counterparty's draft or position reporting it", ("issue",)),
    Scope("supposed", "a supposition ('if we accepted')", ("issue",)),
    Scope("struck", "words struck out (never words inserted)"),
)
SCOPE_KINDS = tuple(scope.kind for scope in SCOPES)


def scopes_for(surface: str) -> tuple[str, ...]:
    return tuple(scope.kind for scope in SCOPES if surface in scope.surfaces)


def _sin(pattern: str) -> str:
    return f"(?:{pattern})"


def scoped(kind: str, pattern: str) -> str:
    """The exclusion of one kind for a gate whose pattern is `pattern`."""
    sin = _sin(pattern)
    if kind == "negated":
        return rf"(?:{markers.governing_negator()}){_gap(GAP, _SECOND_NEGATIONS)}{sin}"
    if kind == "contrasted":
        return rf"\b(?:{'|'.join(markers.CONTRAST)})\s+(?:(?:the|an?|any|such|its|their)\s+)?{sin}"
    if kind == "rejected":
        return rf"(?:{markers.rejection()}){_gap(GAP, _SECOND_NEGATIONS)}{sin}"
    if kind == "disowned":
        return rf"{sin}[^.]{{0,{AFTER_GAP}}}?(?:{markers.later_rejection()})"
    if kind == "attributed":
        return rf"(?:{markers.attribution()}){_gap(GAP)}{sin}"
    if kind == "supposed":
        return rf"(?:{markers.supposition()}){_gap(GAP)}{sin}"
    if kind == "struck":
        inserted = markers.insertion()
        before = rf"(?:{markers.striking()}){_gap(GAP, inserted)}{sin}"
        after = (
            rf"{sin}{_gap(GAP, inserted)}\b(?:is|are|be|been|being)\s+(?:hereby\s+|to\s+be\s+)?"
            rf"(?:deleted|struck|stricken|removed|omitted|excised|withdrawn)\b"
        )
        return f"{before}|{after}"
    raise ValueError(kind)


_BEFORE_KINDS = ("negated", "contrasted", "rejected", "attributed", "supposed", "struck")


def _marker(kind: str) -> str:
    """The marker of a kind that governs what follows it (optional groups written as
    alternations with an empty branch: see `pattern_tree.without_optional_groups`)."""
    return without_optional_groups(_marker_text(kind))


def _marker_text(kind: str) -> str:
    if kind == "negated":
        return markers.governing_negator()
    if kind == "contrasted":
        return rf"\b(?:{'|'.join(markers.CONTRAST)})\b"
    if kind == "rejected":
        return markers.rejection()
    if kind == "attributed":
        return markers.attribution()
    if kind == "supposed":
        return markers.supposition()
    return markers.striking()


def exclusion_for(pattern: str, kinds: Sequence[str], existing: str | None = None) -> str:
    """One exclude_context regex dropping the matches governed by any of `kinds`, kept with
    the gate's existing exclusion (`existing`, when there is one). The markers that come
    before the sin share one gap (barred by every clause barrier, second negation and
    insertion), so the pattern is copied at most twice."""
    sin = _sin(pattern)
    parts = [existing] if existing else []
    before = [_marker(kind) for kind in kinds if kind in _BEFORE_KINDS]
    if before:
        gap = _gap(GAP, _SECOND_NEGATIONS, markers.insertion()) if "struck" in kinds else _gap(GAP, _SECOND_NEGATIONS)
        parts.append(f"(?:{'|'.join(f'(?:{m})' for m in before)}){gap}{sin}")
    after = []
    if "disowned" in kinds:
        after.append(f"[^.]{{0,{AFTER_GAP}}}?(?:{without_optional_groups(markers.later_rejection())})")
    if "struck" in kinds:
        after.append(
            rf"{_gap(GAP, markers.insertion())}\b(?:is|are|be|been|being)\s+(?:hereby\s+|to\s+be\s+|)"
            r"(?:deleted|struck|stricken|removed|omitted|excised|withdrawn)\b"
        )
    if after:
        parts.append(f"{sin}(?:{'|'.join(after)})")
    return "|".join(f"(?:{part})" for part in parts) if len(parts) > 1 else parts[0]


def bounded(regex: str) -> str | None:
    """Why `regex` may not stand in a gate (lint rules G003, G012, G016), or None."""
    problem = regex_problem(regex)
    if problem is not None:
        return problem.message
    return backtracking_risk(regex)
