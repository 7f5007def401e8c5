"""Guards scoped by meaning, written as a human auditor writes them: short enough to read
in seconds and paste by hand.

The engine's `negation_guard` drops a match when any negator stands between the start of
its sentence and the match (`negation_scope: before`: and the start of the match); its
`exclude_context` drops a match when a regex matches anywhere in the sentence. A bare
`\\b(?:deleted|replaced)\\b` silences "Section 4.2 is deleted and replaced with: <the sin>",
and a negator in a limit idiom ("in no event later than …") silences a real sin.

An exclusion built here scopes a marker to the gate the way an auditor does: the marker
(a few words of `markers.TERMS`), a short gap that stays in the clause, and the gate's
KEY words — its most specific literal, such as `train` or `72 hours` — not the whole
pattern:

    \\b(?:reject|declin)\\w*[^.;]{0,40}?\\btrain          (a marker before the key)
    \\btrain[^.;]{0,40}?\\b(?:only|solely)\\b             (a marker after it)

A short pattern of one branch is a key too (`_whole_match_key`): where the key's words
recur in the sentence ("… after confirmation, and no further confirmation is required"),
a negator before the whole match governs the match where it stands.

Only the kinds of marker the audit's evidence needed go in (`scoped_exclusions` reads the
correct-work texts the gate fires on and finds, in the clause of the key, which terms
govern it). Each kind comes as its whole short family first (a human writes
`\\b(?:reject|declin|refus)\\w*`, not the one verb seen), then as the terms found; each
loose (a plain gap `[^.;]`) and stricter (`STRICTNESS`: only a list's commas, no comma,
"no"/"not" not in a limit idiom, a strike not across words that introduce inserted text,
no clause barrier word).
The caller verifies every candidate and keeps the lightest that loses nothing.
`EXCLUSION_BUDGET` caps what a proposal adds; the parts best supported by the evidence
go in first.

The engine's guard stays on wherever it works (`proposals`): turned on, or scoped
`before` the match when the sin's own words carry a negator; off only when a must-fire
text proves it silences a sin whose own words carry the negator before the match
(`negator_in_own_words`: "in no event later than 72 hours after …").

The key words are `guard_keys.keys`; which markers govern them in a text is
`guard_evidence.governing`. `guard_windows.windows_without_negators` is the other half of
"scoped by meaning" for a gate without a span guard: a negator *inside* the match's own
window ("Client Materials are not owned by Consultant"); `guard_windows.bounded` checks
what lint checks of a gate regex (it compiles in `re`, is not too costly, cannot
backtrack catastrophically).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from rubric_tools.audit import markers
from rubric_tools.audit.exclusion_writing import (
    LIST_COMMA,
    STRICTEST,
    STRICTNESS,
    ExclusionPart,
    Strictness,
    render_part,
)
from rubric_tools.audit.frames import REPORTED_SURFACES
from rubric_tools.audit.guard_evidence import Governed, governing
from rubric_tools.audit.guard_key_choice import Explained, Keys, key_choices, key_offset, own_terms, where
from rubric_tools.audit.guard_keys import MAX_KEY, keys
from rubric_tools.audit.guard_windows import SHORT_WINDOW, longest_window
from rubric_tools.audit.markers import GAP, LIMIT_IDIOM, NOT_A_LIMIT, Term
from rubric_tools.audit.pattern_tree import top_level_branches
from rubric_tools.audit.quantities import quantities
from rubric_tools.gate_analysis.plain_search import re_compiled
from rubric_tools.gate_analysis.witness import witnesses
from rubric_tools.scoring.text import normalize

#: At most this many characters a proposal adds to an entry's exclude_context (beyond the
#: entry's own exclusion, which is kept in front): a marker family or two, a gap and the
#: key words. An auditor reads it in seconds; a longer one is split (fewer kinds) or not
#: proposed.
EXCLUSION_BUDGET = 280
#: At most this many characters of an exclude_context are parts this module wrote, over
#: every round of `--fix` (each round adds at most `EXCLUSION_BUDGET`): three pieces an
#: auditor reviews one after the other, never an unbounded pile. A later round needs room
#: for the kinds the first round's budget left out (a later rejection beside a negation and
#: a strike) and for the guard a later widening brings.
EXCLUSION_TOTAL_BUDGET = 3 * EXCLUSION_BUDGET


@dataclass(frozen=True)
class Scope:
    """One kind of governing marker, as the evidence and the description name it."""

    kind: str
    description: str
    surfaces: tuple[str, ...] = ("issue", "redline", "settlement")


SCOPES: tuple[Scope, ...] = (
    Scope("negated", "a negator governing the clause, or its object"),
    Scope("contrasted", "a contrast ('rather than', 'in lieu of') before it"),
    Scope("restricted", "a restriction ('only', 'solely', 'to the extent') after it in its clause"),
    Scope("rejected", "a rejection governing the clause", REPORTED_SURFACES),
    Scope("disowned", "a later clause rejecting it", REPORTED_SURFACES),
    Scope("attributed", "someone else's draft, position or claim reporting it", REPORTED_SURFACES),
    Scope("supposed", "a supposition ('if we accepted')", REPORTED_SURFACES),
    Scope("struck", "words struck out (never words inserted)"),
)
SCOPE_KINDS = tuple(scope.kind for scope in SCOPES)


def scopes_for(surface: str) -> tuple[str, ...]:
    return tuple(scope.kind for scope in SCOPES if surface in scope.surfaces)


def _parts(
    evidence: Sequence[list[Governed]],
    family: bool,
    guard_on: bool,
    one_clause: bool = False,
    own: frozenset[Term] = frozenset(),
    figures: bool = False,
) -> list[ExclusionPart]:
    """One part per kind and side the evidence shows, the best supported first. Unless the
    match is `one_clause`, a negator after the key is left out, unless it follows the whole
    match at once: past a long window it may govern another clause than the one the sin
    ends in. The `own` terms, the sin's own words, are left out (`own_terms`); a family
    has the terms that revise a figure only where the sin names one (`figures`)."""
    grouped: dict[tuple[str, str], list[Governed]] = {}
    support: dict[tuple[str, str], int] = {}
    for shown in evidence:
        for side_kind in {(where(g.term), g.term.kind) for g in shown}:
            support[side_kind] = support.get(side_kind, 0) + 1
        for governed in shown:
            after_negator = governed.term.kind == "negated" and where(governed.term) == "after"
            if one_clause or not after_negator or governed.adjacent:
                grouped.setdefault((where(governed.term), governed.term.kind), []).append(governed)
    parts = []
    for (place, kind), found_here in grouped.items():
        if family:
            terms = _family(kind, place, guard_on, own, figures)
        else:
            terms = tuple(t for t in markers.TERMS if any(g.term == t for g in found_here) and t not in own)
        if not terms:
            continue
        distance = max(g.distance for g in found_here)
        parts.append(ExclusionPart(terms[0].side, (kind,), terms, distance, support[(place, kind)]))
    if one_clause:
        parts += _mirrored(grouped, guard_on, own)
    # A negator first: the commonest way correct work disowns a sin (the engine's own guard);
    # then the best supported; a mirrored part last, as the budget allows.
    return sorted(parts, key=lambda p: (p.support == 0, p.kinds != ("negated",), -p.support))


def _family(kind: str, place: str, guard_on: bool, own: frozenset[Term], figures: bool = False) -> tuple[Term, ...]:
    """The terms of `kind` on one side of the key, as an exclusion writes them: not the
    engine's own negators where its guard is on, nor the sin's `own` markers, nor, unless
    the sin names a figure (`figures`), the terms that revise one (`Term.figures_only`)."""
    return tuple(
        t
        for t in markers.TERMS
        if t.kind == kind
        and where(t) == place
        and t.in_family
        and (figures or not t.figures_only)
        and not (guard_on and t.engine)
        and t not in own
    )


def _mirrored(
    grouped: dict[tuple[str, str], list[Governed]], guard_on: bool, own: frozenset[Term] = frozenset()
) -> list[ExclusionPart]:
    """A negator governs its clause from either side of the key: before the subject ("it
    is not the case that provider owns …") as after it, on the predicate or its object
    ("provider owns no right", "provider is not entitled to …"). The generated evidence
    shows one side; a human scopes both. The other side's family, at the smallest gap,
    with no support of its own."""
    found = []
    for place in ("before", "after"):
        if ("before" if place == "after" else "after", "negated") not in grouped or (place, "negated") in grouped:
            continue
        terms = _family("negated", place, guard_on, own)
        if terms:
            found.append(ExclusionPart(terms[0].side, ("negated",), terms, 0, 0))
    return found


def _merged(parts: Sequence[ExclusionPart]) -> list[ExclusionPart]:
    """Parts on the same side of the key as one: their terms in one alternation."""
    by_where: dict[str, list[ExclusionPart]] = {}
    for part in parts:
        by_where.setdefault(where(part.terms[0]), []).append(part)
    merged = []
    for same in by_where.values():
        terms = tuple(t for t in markers.TERMS if any(t in p.terms for p in same))
        kinds = tuple(k for p in same for k in p.kinds)
        merged.append(
            ExclusionPart(same[0].side, kinds, terms, max(p.distance for p in same), sum(p.support for p in same))
        )
    return merged


def _fit(
    parts: list[ExclusionPart], key: Keys, strict: Strictness, families: Sequence[ExclusionPart] = ()
) -> tuple[str, tuple[str, ...]] | None:
    """The parts, the best supported first, as many as the budget allows, those on one side
    of the key merged. Then each part chosen gives way to its kind's whole family (the
    same kind and side in `families`) where the budget still allows: the terms a text
    showed are the least a kind needs, its family what an auditor writes when there is room."""
    chosen: list[ExclusionPart] = []
    for part in parts:
        if budget_length(_written([*chosen, part], key, strict)) <= EXCLUSION_BUDGET:
            chosen.append(part)
    if not chosen:
        return None
    family_of = {(p.side, p.kinds): p for p in families}

    def widened(index: int) -> list[ExclusionPart]:
        family = family_of.get((chosen[index].side, chosen[index].kinds))
        return chosen if family is None else [*chosen[:index], family, *chosen[index + 1 :]]

    # The families that add the fewest characters first: the most kinds widened in the budget.
    for index in sorted(range(len(chosen)), key=lambda i: budget_length(_written(widened(i), key, strict))):
        if budget_length(_written(widened(index), key, strict)) <= EXCLUSION_BUDGET:
            chosen = widened(index)
    return _written(chosen, key, strict), tuple(dict.fromkeys(k for p in chosen for k in p.kinds))


def budget_length(exclusion: str) -> int:
    """How long `exclusion` counts against the budgets: the lookarounds after a negator
    (`markers.LIMIT_IDIOM`: no limit idiom, no "whether or not") are one fixed construct,
    not the author's words, so a guard that keeps "no later than" from counting as a negator
    costs no more than one that does not (as a guard's lead-in costs nothing against the
    pattern's budget). The lookahead
    alone (`markers.NOT_A_LIMIT`) is what earlier versions wrote there: in a rubric they
    fixed it costs nothing either. A gap's list commas (`LIST_COMMA`) are one fixed construct
    too, counted as the plain gap they widen."""
    return len(exclusion.replace(LIMIT_IDIOM, "").replace(NOT_A_LIMIT, "").replace(f"|{LIST_COMMA}", ""))


def _written(parts: Sequence[ExclusionPart], key: Keys, strict: Strictness) -> str:
    return "|".join(render_part(part, key, strict) for part in _merged(parts))


@dataclass(frozen=True)
class Exclusion:
    """One candidate exclude_context and what it is scoped to."""

    regex: str  # the whole exclude_context (the entry's own first, when it had one)
    kinds: tuple[str, ...]
    added: str  # what the proposal adds


_GAP_BOUND = re.compile(r"\{0,\d+\}")


def with_existing(existing: str | None, added: str) -> str:
    """The entry's own exclusion and the added parts, `own|new`. An added part that only
    widens the gap of one the entry has (a later round of `--fix`) takes its place."""
    if not existing:
        return added
    mine = top_level_branches(existing)
    new = top_level_branches(added)
    if mine is None or new is None:
        return f"{existing}|{added}"
    shapes = {_GAP_BOUND.sub("{}", part): index for index, part in enumerate(mine)}
    for part in new:
        index = shapes.get(_GAP_BOUND.sub("{}", part))
        if index is None:
            mine.append(part)
        else:
            mine[index] = part
    return "|".join(dict.fromkeys(mine))


#: The gap a scoped exclusion writes between its marker and the key (`exclusion_writing._gap`): a lazy window
#: with a multiple of 20 as its bound. By it a later round of `--fix` knows its own parts.
_WRITTEN_GAP = re.compile(r"(?:\[\^[.;,:]+\]|\[\^\.;,?:?\]\))\{0,\d*0\}\?")


def is_written_part(part: str) -> bool:
    """Whether a top-level branch of an exclude_context is a part this module wrote (told
    by its gap, or by the list commas of its gap), not the author's."""
    return _WRITTEN_GAP.search(part) is not None or LIST_COMMA in part


def written_length(exclusion: str | None) -> int:
    """How many characters of `exclusion` are parts this module writes (a marker, a gap
    and a key): what counts against `EXCLUSION_TOTAL_BUDGET`, over every round of `--fix`."""
    parts = top_level_branches(exclusion or "") if exclusion else []
    if parts is None:
        return 0
    return budget_length("|".join(part for part in parts if is_written_part(part)))


def scoped_exclusions(
    pattern: str,
    texts: Iterable[str],
    kinds: Sequence[str],
    existing: str | None = None,
    *,
    guard_on: bool = False,
    leave_one_kind_out: bool = False,
) -> list[Exclusion]:
    """Compact exclusions that silence `texts` (correct work the gate fires on), scoped to
    the gate's key words by the markers the texts show; lightest and most general first
    (the family of each kind loose, then strict, then the terms found alone). Empty when no
    text shows a marker of `kinds` governing a key. With `leave_one_kind_out`, instead, the
    families of every kind shown but one, for each kind in turn: what is left to try when
    each exclusion of every kind silences a sin."""
    unique = list(dict.fromkeys(texts))
    explained: dict[str, Explained] = {}
    whole = _whole_match_key(pattern)
    for rank, key in enumerate([*keys(pattern), *([whole] if whole else [])]):
        for text in unique:
            shown = governing(pattern, key, text, kinds, guard_on)
            if shown:
                entry = explained.setdefault(key, Explained(key, rank))
                entry.add(text, shown, key_offset(pattern, key, text))
    if not explained:
        return []
    found: list[Exclusion] = []
    # A negator after the key, evidenced or not, only where every window is short, so that
    # the match is one clause ("the Target shall not act without consent, which it may
    # withhold in its sole discretion" is two, against `target.*sole discretion`).
    longest = longest_window(pattern)
    one_clause = longest is not None and longest <= SHORT_WINDOW
    sins = [normalize(w.text) for w in witnesses(pattern)]
    figures = any(quantities(sin) for sin in sins)
    subjects = _opening_keys(list(explained), sins)
    for keyed in key_choices(list(explained.values()), whole):
        keyed = replace(keyed, subjects=subjects)
        own = own_terms(sins, keyed)
        # Each text's markers as seen from the key of their side.
        evidence = [
            [*explained[keyed.before].sides(text, before=True), *explained[keyed.after].sides(text, before=False)]
            for text in unique
            if text in explained[keyed.before].shown or text in explained[keyed.after].shown
        ]
        evidence = [shown for shown in evidence if shown]
        families = _parts(evidence, True, guard_on, one_clause, own, figures)
        terms_found = _parts(evidence, False, guard_on, one_clause, own)
        # Each kind's whole family; the terms found, each kind widened to its family where the
        # budget allows (four kinds' families rarely fit it together); the terms found.
        candidates: list[tuple[list[ExclusionPart], Sequence[ExclusionPart]]]
        if leave_one_kind_out:
            # Each kind left out in turn: where one kind's markers also stand before a sin
            # that no gap keeps out ("No other term changes and Tenant gets six months
            # rent-free": another clause's negator, joined by "and"), the others still
            # silence what they govern.
            kinds_shown = list(dict.fromkeys(k for part in families for k in part.kinds))
            candidates = [
                ([p for p in families if left_out not in p.kinds], ())
                for left_out in (kinds_shown if len(kinds_shown) > 1 else ())
            ]
        else:
            candidates = [(families, ()), (terms_found, families), (terms_found, ())]
        for parts, widened in candidates:
            for strict in STRICTNESS:
                fitted = _fit(parts, keyed, strict, widened)
                if fitted is not None and fitted[0] not in [e.added for e in found]:
                    found.append(Exclusion(with_existing(existing, fitted[0]), fitted[1], fitted[0]))
    return found


def _opening_keys(found: Sequence[str], sins: Sequence[str]) -> frozenset[str]:
    """The keys that open every sin (witness) they stand in: the sin's subject."""
    opening = set()
    for key in found:
        compiled = re_compiled(key)
        if compiled is None:
            continue
        starts = [match.start() for sin in sins if (match := compiled.search(sin)) is not None]
        if starts and all(start == 0 for start in starts):
            opening.add(key)
    return frozenset(opening)


def _whole_match_key(pattern: str) -> str | None:
    """The whole pattern as a key, when it is one short clause: a marker before it governs
    the match where it stands, not a later mention of its words ("… after confirmation, and
    no further confirmation is required" against `after\\s+confirm\\w*`)."""
    branches = top_level_branches(pattern)
    if branches is None or len(branches) != 1 or len(pattern) > MAX_KEY or pattern in keys(pattern):
        return None
    return pattern


def exclusion_for(pattern: str, kinds: Sequence[str], existing: str | None = None) -> str | None:
    """Every term of `kinds` but the sin's own (`own_terms`) scoped to the pattern's key,
    strict, with no evidence read (the families whole): what a gate guarded against every
    frame would carry. It may run over `EXCLUSION_BUDGET`; proposals never use it. None when
    the pattern has no key."""
    found = keys(pattern)
    if not found:
        return None
    sins = [normalize(w.text) for w in witnesses(pattern)]
    keyed = Keys(found[0], found[0], subjects=_opening_keys(found[:1], sins))
    own = own_terms(sins, keyed)
    parts: dict[str, list[Term]] = {}
    for term in markers.TERMS:
        if term.kind in kinds and term not in own:
            parts.setdefault(where(term), []).append(term)
    written = [
        render_part(
            ExclusionPart(terms[0].side, (), tuple(terms), GAP if place == "before" else 60, 0), keyed, STRICTEST
        )
        for place, terms in parts.items()
    ]
    return with_existing(existing, "|".join(written))
