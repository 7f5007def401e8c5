"""Guards scoped by meaning, written with the engine's own primitives.

The engine's `negation_guard` drops a match when any negator stands between the start of
its sentence and the match: a negator in another clause ("No cap applies to fees; Provider
may use Customer Data …"), in a limit idiom ("in no event later than …", "shall not
exceed …") or in a limiting phrase ("without limiting …") silences a real sin. Its
`exclude_context` drops a match when a regex matches anywhere in the sentence: a bare
`\\b(?:deleted|replaced)\\b` silences "Section 4.2 is deleted and replaced with: <the sin>".

The guards built here are `exclude_context` regexes that carry the gate's own pattern,
so a marker counts only when it governs the matched clause. Before the sin, a marker
followed by up to GAP characters that cross no clause barrier (";", "but", "provided",
"except", …) and, for a deletion, no words that introduce new text ("replaced with",
"amended to read", "insert"):

- `negated`: a governing negator (`markers.governing_negator`: the engine's list and its
  kin, without "no later than", "shall not exceed", "not only", "without limiting", …);
- `contrasted`: "rather than", "in lieu of", "instead of", "reduced from";
- `restricted`: "only", "solely", "exclusively", "to the extent" (before or after it);
- `rejected`: a rejection verb ("we reject the proposal that …", "declines to accept");
- `attributed`: the counterparty's draft or position, a claim reported or disowned
  ("their markup says …", "the vendor argues that …", "it is wrong to say that …");
- `supposed`: a supposition ("if we accepted …");
- `struck`: a deletion ("delete …"), never across the words that introduce new text.

After the sin, in the same clause: a negated object or predicate ("… assigns to X no
right", "… does not apply"), a later rejection ("…; we reject that", "… is
unacceptable", "…; it does not"), and, for `struck`, "… is deleted", "… is replaced with".

`exclusion_for(pattern, kinds)` joins them into one regex that copies the pattern once
(a conditional group: a marker before it, or else one after it). `windows_without_negators`
is the other half of "scoped by meaning": a negator *inside* the match's own window
("Client Materials are not owned by Consultant") governs it too. `bounded` checks what
lint checks of a gate regex (it compiles in `re`, is not too costly, cannot backtrack
catastrophically).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rubric_tools.audit import markers
from rubric_tools.audit.pattern_tree import (
    Item,
    is_window,
    parse_items,
    render,
    walk_sequences,
    without_optional_groups,
)
from rubric_tools.audit.widening import SLACK
from rubric_tools.gate_analysis.regex_problem import regex_problem
from rubric_tools.gate_analysis.regex_shape import backtracking_risk

_LIGHT_SLACK = r"\b[^.;]{1,30}?\b"

#: How far (characters) a marker may stand before the sin it governs: a clause with a
#: list of objects ("shall not use Customer Data, prompts, inputs or Outputs … to train").
GAP = 120
#: How far a later rejection may stand after the sin, and struck words run on past it.
AFTER_GAP = 60


@dataclass(frozen=True)
class Scope:
    """One kind of governing marker, as the evidence and the description name it."""

    kind: str
    description: str
    surfaces: tuple[str, ...] = ("issue", "redline", "settlement")


_ANALYSIS = ("issue",)
SCOPES: tuple[Scope, ...] = (
    Scope("negated", "a negator governing the clause, or its object"),
    Scope("contrasted", "a contrast ('rather than', 'in lieu of') before it"),
    Scope("restricted", "a restriction ('only', 'solely', 'to the extent') after it in its clause"),
    Scope("rejected", "a rejection governing the clause", _ANALYSIS),
    Scope("disowned", "a later clause rejecting it", _ANALYSIS),
    Scope("attributed", "someone else's draft, position or claim reporting it", _ANALYSIS),
    Scope("supposed", "a supposition ('if we accepted')", _ANALYSIS),
    Scope("struck", "words struck out (never words inserted)"),
)
SCOPE_KINDS = tuple(scope.kind for scope in SCOPES)


def scopes_for(surface: str) -> tuple[str, ...]:
    return tuple(scope.kind for scope in SCOPES if surface in scope.surfaces)


def _barriers(*extra: str) -> str:
    return "|".join((*markers.CLAUSE_BARRIERS, *extra))


def _gap(size: int, *extra: str) -> str:
    """Up to `size` characters that cross no clause barrier (nor any of `extra`)."""
    return without_optional_groups(rf"(?:(?!{_barriers(*extra)}|\.(?!\d)).){{0,{size}}}?")


def _before(kind: str) -> str | None:
    """The marker of a kind that governs what follows it."""
    if kind == "negated":
        text = markers.governing_negator()
    elif kind == "contrasted":
        text = rf"\b(?:{'|'.join(markers.CONTRAST)})\b"
    elif kind == "rejected":
        text = markers.rejection()
    elif kind == "attributed":
        text = markers.attribution()
    elif kind == "supposed":
        text = markers.supposition()
    elif kind == "struck":
        text = markers.striking()
    else:
        return None
    return without_optional_groups(text)


_NEGATED_OBJECT = r"\s+(?:[\w'’-]+\s+){0,2}?(?:no|none|nothing|neither)\b(?!\s+(?:later|more|less|fewer)\s+than)"
_NEGATED_PREDICATE = (
    r"\s+(?:does|do|did|is|are|was|were|will|would|shall|should|can|could|may|must)\s*(?:not\b|n['’]t\b)"
)
_STRUCK_VERBS = (
    r"\s*(?:is|are|be|been|being)\s+(?:hereby\s+|to\s+be\s+|)"
    r"(?:deleted|struck|stricken|removed|omitted|excised|withdrawn|replaced|substituted)\b"
)


def _after(kind: str) -> str | None:
    """What, right after the sin and in its clause, disowns it."""
    if kind == "negated":
        return f"(?:{_NEGATED_OBJECT}|{_NEGATED_PREDICATE})"
    if kind == "restricted":
        return rf"[^.;]{{0,{AFTER_GAP}}}?\b(?:{'|'.join(markers.RESTRICTING)})\b"
    if kind == "disowned":
        return f"[^.]{{0,{AFTER_GAP}}}?(?:{without_optional_groups(markers.later_rejection())})"
    if kind == "struck":
        # The words struck may run on past the match, up to their closing quote or the verb.
        return f'(?:[^"”;]{{0,100}}["”]|{_gap(GAP, markers.insertion())}){_STRUCK_VERBS}'
    return None


def _group_name(existing: str | None, pattern: str) -> str:
    taken = (existing or "") + pattern
    index = 0
    while f"(?P<governs{index or ''}>" in taken:
        index += 1
    return f"governs{index or ''}"


def exclusion_for(pattern: str, kinds: Sequence[str], existing: str | None = None) -> str:
    """One exclude_context regex dropping the matches governed by any of `kinds`, kept with
    the gate's existing exclusion (`existing`, when there is one). The pattern is copied
    once: `(?:(?P<governs>MARKER)GAP)?PATTERN(?(governs)|AFTER)` — a marker before it,
    or else something after it that disowns it."""
    before = [marker for marker in map(_before, kinds) if marker]
    after = [tail for tail in map(_after, kinds) if tail]
    barred = (markers.insertion(),) if "struck" in kinds else ()
    name = _group_name(existing, pattern)
    # Inside the exclusion the pattern's slack need not keep negators out (a negator there is
    # what the exclusion looks for): a plain window keeps the regex within lint's size bounds.
    sin = f"(?:{pattern.replace(SLACK, _LIGHT_SLACK)})"
    parts = [existing] if existing else []
    if before and after:
        marker = "|".join(f"(?:{m})" for m in before)
        parts.append(f"(?:(?P<{name}>{marker}){_gap(GAP, *barred)})?{sin}(?({name})|(?:{'|'.join(after)}))")
    elif before:
        parts.append(f"(?:{'|'.join(f'(?:{m})' for m in before)}){_gap(GAP, *barred)}{sin}")
    elif after:
        parts.append(f"{sin}(?:{'|'.join(after)})")
    return "|".join(f"(?:{part})" for part in parts) if len(parts) > 1 else parts[0]


def scoped(kind: str, pattern: str) -> str:
    """The exclusion of one kind alone (for tests and evidence)."""
    return exclusion_for(pattern, [kind])


#: Where a clause ends inside a window: a negator before it governs another clause.
_WINDOW_BARRIERS = (
    r"(?:;|,\s*(?:which|who|whom|whose|and|or)\b|\b(?:but|provided|except|unless|whereas|however|although|while)\b)"
)


#: What a window of the pattern may not hold in the matched clause: a governing negator
#: (compact: limit idioms such as "no later than", "not more than", "without undue delay"
#: pass), a deletion, an appearance ("looks as though"). Short, because it is repeated at
#: every character of the window (lint's G016 counts the expansion).
_WINDOW_STOPS = (
    r"\bn(?:o(?!\s+(?:later|more|less|fewer|sooner|event\s+(?:later|after)))|ot(?!\s+(?:later|more|less|fewer|only|"
    r"limited|to\s+exceed|exceed))|ever|either|othing|one|obody|or)\b|\bcannot\b|\bwithout\b(?!\s+(?:undue|limit|"
    r"prejudice))|n['’]t\b|\b(?:delet|strik|struck|remov)\w*|\b(?:looks?|appears?|seems?)\s+(?:as|to|like)\b"
)


def windows_without_negators(pattern: str) -> str | None:
    """`pattern` with no governing negator (nor a deletion) in the stretch of each window
    that is in the matched clause: "Client Materials are not owned by Consultant" no longer
    matches `client materials[^.]{0,60}owned by consultant`, nor "Licensee shall have no
    obligation to indemnify Licensor" `licensee[^.]{0,60}indemnify licensor`. A negator
    before a clause barrier inside the window ("shall not act without consent, which it may
    withhold in its sole discretion") governs another clause and lets the gate fire. None
    when the pattern has no window."""
    tree = parse_items(pattern)
    if tree is None:
        return None
    negator = _WINDOW_STOPS
    changed = False
    for sequence in walk_sequences(tree):
        for index, item in enumerate(sequence):
            if not is_window(item):
                continue
            allowed = "." if item.kind == "dot" else item.text if item.kind == "class" else "(?:[^.]|\\.(?=\\d))"
            high = _upper_bound(item.quant)
            lazy = "?" if item.quant.endswith("?") else ""
            count = f"{{0,{high}}}" if high is not None else "*"
            tempered = f"(?:(?!{negator}){allowed}){count}{lazy}"
            sequence[index] = Item("raw", f"(?:{allowed}{count}?{_WINDOW_BARRIERS}|){tempered}")
            changed = True
    return "|".join(render(branch) for branch in tree) if changed else None


def _upper_bound(quant: str) -> int | None:
    digits = quant.strip("?+").strip("{}").split(",")
    return int(digits[-1]) if quant.startswith("{") and digits[-1].isdigit() else None


def bounded(regex: str) -> str | None:
    """Why `regex` may not stand in a gate (lint rules G003, G012, G016), or None."""
    problem = regex_problem(regex)
    if problem is not None:
        return problem.message
    return backtracking_risk(regex)
