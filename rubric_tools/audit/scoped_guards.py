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
loose (a plain gap `[^.;]`) and stricter (`STRICTNESS`: no comma, "no"/"not" not in a limit
idiom, a strike not across words that introduce inserted text, no clause barrier word).
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

import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from rubric_tools.audit import lexicon, markers
from rubric_tools.audit.guard_evidence import GAP, Governed, governing
from rubric_tools.audit.guard_key_choice import Explained, Keys, key_choices, key_offset, own_terms, where
from rubric_tools.audit.guard_keys import MAX_KEY, keys
from rubric_tools.audit.guard_windows import SHORT_WINDOW, longest_window
from rubric_tools.audit.markers import LIMIT_IDIOM, Term
from rubric_tools.audit.pattern_tree import top_level_branches
from rubric_tools.audit.word_use import noun_in_its_own_right
from rubric_tools.gate_analysis.witness import witnesses
from rubric_tools.scoring.text import normalize

#: At most this many characters a proposal adds to an entry's exclude_context (beyond the
#: entry's own exclusion, which is kept in front): a marker family or two, a gap and the
#: key words. An auditor reads it in seconds; a longer one is split (fewer kinds) or not
#: proposed.
EXCLUSION_BUDGET = 280
#: At most this many characters of an exclude_context are parts this module wrote, over
#: every round of `--fix` (each round adds at most `EXCLUSION_BUDGET`): two pieces an
#: auditor reviews one after the other, never an unbounded pile.
EXCLUSION_TOTAL_BUDGET = 2 * EXCLUSION_BUDGET
#: The smallest gap written: an auditor rounds up ("{0,40}"), so that a determiner or a
#: short list more than the evidence showed is still covered.
MIN_GAP = 80


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


# ------------------------------------------------------------------ writing the exclusion


#: How strictly an exclusion keeps to the key's clause, loosest first: 0, a plain gap
#: `[^.;]`; 1, no comma either ("Without limiting Section 9.2, <the sin>", "…, but <the
#: sin>"); 2, commas allowed (a list: "Neither Provider nor any affiliate, subprocessor,
#: …, may") but not "but", "no"/"not" not in a limit idiom, "without" not in "without
#: limiting", a strike not across words that introduce inserted text; 3, all of these, no
#: comma and no other clause barrier word ("provided", "except", "unless"). Tried
#: broadest first: 0, 2, 1, 3.
STRICTNESS = (0, 2, 1, 3)
_BARRIER_WORDS = r"\b(?:but|provided|except|unless)\b"


def _gap(terms: Sequence[Term], size: int, strict: int, listing: bool = False, subject: bool = False) -> str:
    """The gap between the markers `terms` and the key: a later rejection may follow a ";",
    a marker after the key stays before the next comma, a strike stops at a colon and
    (stricter) at words that introduce inserted text. A `listing` marker ("neither … nor
    …") crosses the commas of its list at every strictness."""
    if any(t.kind == "disowned" for t in terms):
        return f"[^.]{{0,{size}}}?"
    struck = any(t.kind == "struck" and t.side == "before" for t in terms)
    # After the key, a comma ends its clause ("…, and Northline shall not be required to
    # give reasons" is another clause's negator); before it, a comma may sit in a list
    # ("Neither Provider nor any affiliate, subprocessor, … may").
    after = all(t.side == "after" for t in terms)
    comma = "," if (strict in (1, 3) or after) and not listing else ""
    allowed = "[^.;" + comma + (":" if struck else "") + "]"
    if after and all(t.kind in ("struck", "restricted") for t in terms):
        # A strike recital or a limit names where the words stand: "the ninety-day period in
        # Section 13.1 is replaced" crosses the section number's period.
        allowed = f"(?:{allowed}|\\.\\d)"
    barred = [markers.INSERTION] if struck and strict > 1 else []
    # A negator after the key never crosses an "and" that opens a clause of its own ("… is
    # unlawful and must not go forward" denies something else); only a key that is a
    # `subject` may have an "and" right after it, in a compound subject ("Provider and its
    # affiliates shall not").
    negated_after = after and any(t.kind == "negated" for t in terms)
    compound = negated_after and subject
    if negated_after:
        barred.append(" and ")
    if strict > 1:
        barred.append(_BARRIER_WORDS if strict > 2 else r" but\b")
    if not barred:
        return f"{allowed}{{0,{size}}}?"
    return ("(?: and)?" if compound else "") + f"(?:(?!{'|'.join(barred)}){allowed}){{0,{size}}}?"


def _alternation(terms: Sequence[str]) -> str:
    """Terms as one alternation, written as an auditor would: the words bounded on both
    sides together ("\\b(?:nobody|never)\\b"), those bounded before together, the rest."""
    if len(terms) == 1:
        return terms[0]
    both = [t[2:-2] for t in terms if _bare(t, "\\b", "\\b")]
    stems = [t[2:-3] for t in terms if _bare(t, "\\b", "\\w*")]
    left = [t[2:] for t in terms if t.startswith("\\b") and not _bare(t, "\\b", "\\b") and not _bare(t, "\\b", "\\w*")]
    rest = [t for t in terms if not t.startswith("\\b")]
    groups = []
    if both:
        groups.append("\\b" + _group(both) + "\\b")
    if stems:
        groups.append("\\b" + _group(stems) + "\\w*")
    if left:
        groups.append("\\b" + _group(left))
    groups += rest
    return groups[0] if len(groups) == 1 else "(?:" + "|".join(groups) + ")"


def _bare(term: str, prefix: str, suffix: str) -> bool:
    """`term` is prefix + words + suffix, the words free of any top-level `|`, `\\b` or lookaround."""
    if not (term.startswith(prefix) and term.endswith(suffix)) or len(term) <= len(prefix) + len(suffix):
        return False
    inner = term[len(prefix) : -len(suffix)]
    return "\\b" not in inner and "(?!" not in inner and "|" not in re.sub(r"\([^()]*\)", "", inner)


def _group(words: list[str]) -> str:
    return words[0] if len(words) == 1 else "(?:" + "|".join(words) + ")"


def _keyed(key: str, side: str) -> str:
    if side == "before" and key[:1].isalnum():
        return "\\b" + key
    return key


def _rounded(distance: int) -> int:
    return min(GAP, max(MIN_GAP, math.ceil(distance / 20) * 20))


@dataclass(frozen=True)
class _Part:
    """Markers on one side of the key, with one gap: "before", "after" (in the clause) or
    "later" (a later clause disowning it, past a ";")."""

    side: str
    kinds: tuple[str, ...]
    terms: tuple[Term, ...]
    distance: int
    support: int  # evidence texts it explains


def _render(part: _Part, keyed: Keys, strict: int) -> str:
    key = keyed.before if part.side == "before" else keyed.after
    size = _rounded(part.distance)
    if part.side != "before":
        restricting = [t for t in part.terms if t.kind == "restricted"]
        if not restricting or keyed.closing in ("", key):
            return _after_key(key, part.terms, size, strict)
        # A restriction is keyed apart, to the words that close the match (`Keys.closing`).
        rest = [t for t in part.terms if t not in restricting]
        keyed_apart = _after_key(keyed.closing, restricting, size, strict)
        return f"{_after_key(key, rest, size, strict)}|{keyed_apart}" if rest else keyed_apart
    # Before the key, two kinds of marker keep their own rule about commas: "neither" crosses
    # its list's ("Neither Provider nor any affiliate, subprocessor, or … may"), a supposition
    # never crosses the one that ends its clause ("If the service fails, regulators will fine
    # the vendor" asserts the fine).
    listing = [t for t in part.terms if t == _NEITHER and strict in (1, 3)]
    supposing = [t for t in part.terms if t.kind == "supposed"]
    rest = [t for t in part.terms if t not in listing and t not in supposing]
    branches = []
    if rest:
        branches.append(_marker(rest, strict) + _gap(rest, size, strict))
    if listing:
        branches.append(_NEITHER.loose + _gap(listing, size, strict, listing=True))
    supposition = ""
    if supposing:  # its gap never crosses a comma (strictness 1 and 3 keep commas out)
        supposition = _marker(supposing, strict) + _gap(supposing, size, strict + 1 if strict in (0, 2) else strict)
    # The supposition is keyed apart, to the match's opening words (`Keys.opening`).
    apart = bool(supposition) and bool(keyed.opening) and keyed.opening != key
    if supposition and not apart:
        branches.append(supposition)
    striking = [t for t in part.terms if t.kind == "struck"]
    if striking:
        # The struck words quoted: the quotation is one unit, its commas are its own
        # ('Delete "all representations, including billing, expire …" and insert …'); the
        # words quoted right after "replacing" are the struck ones ('replacing "five
        # percent" with "ten percent"'; "replaced with: …" quotes the inserted ones).
        quoted = _alternation([_marker(striking, strict), _REPLACING])
        branches.append(f'{quoted} ?["“][^"”]{{0,{size}}}?')
    written = []
    if branches:
        marker = branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"
        written.append(f"{marker}{_keyed(key, 'before')}")
    if apart:
        written.append(f"{supposition}{_keyed(keyed.opening, 'before')}")
    return "|".join(written)


def _after_key(key: str, terms: Sequence[Term], size: int, strict: int) -> str:
    return f"{key}{_gap(terms, size, strict, subject=_is_subject(key))}{_marker(terms, strict)}"


@lru_cache(maxsize=1024)  # asked again for each exclusion written around the same key
def _is_subject(key: str) -> bool:
    """Whether a key is a noun phrase (the clause's subject, "provider", "customer data"),
    not a clause or a predicate of its own ("provider owns", "customer may use …")."""
    for word in re.findall(r"[a-z]+", key.lower()):
        if word in lexicon.MODALS or word in lexicon.BE_FORMS:
            return False
        if lexicon.is_verb(word) and not noun_in_its_own_right(word) and not lexicon.lemmas(word).get("NOUN"):
            return False
    return True


def _marker(terms: Sequence[Term], strict: int) -> str:
    """The terms as one alternation; stricter, as their strict spellings, the terms that
    state a limit in an idiom sharing one lookahead, written once."""
    if strict > 1:
        idiomatic = [t.loose for t in terms if t.strict == t.loose + LIMIT_IDIOM]
        spelled = [t.strict or t.loose for t in terms if t.loose not in idiomatic]
        if idiomatic:
            group = _alternation(idiomatic)
            spelled.append((f"(?:{group})" if top_level_branches(group) != [group] else group) + LIMIT_IDIOM)
    else:
        spelled = [t.loose for t in terms]
    return _alternation(list(dict.fromkeys(spelled)))


#: A replacement verb: right before a quotation, what it names is struck.
_REPLACING = r"\breplac\w*"

#: The negator that opens a list of subjects ("Neither Provider nor any affiliate,
#: subprocessor, or …"): a comma after it is the list's, not another clause's.
_NEITHER = next(t for t in markers.TERMS if t.loose == r"\bneither\b")


def _parts(
    evidence: Sequence[list[Governed]],
    family: bool,
    guard_on: bool,
    one_clause: bool = False,
    own: frozenset[Term] = frozenset(),
) -> list[_Part]:
    """One part per kind and side the evidence shows, the best supported first. Unless the
    match is `one_clause`, a negator after the key is left out, unless it follows the whole
    match at once: past a long window it may govern another clause than the one the sin
    ends in. A family leaves out the `own` terms, the sin's own words."""
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
            terms = _family(kind, place, guard_on, own)
        else:
            terms = tuple(t for t in markers.TERMS if any(g.term == t for g in found_here))
        if not terms:
            continue
        distance = max(g.distance for g in found_here)
        parts.append(_Part(terms[0].side, (kind,), terms, distance, support[(place, kind)]))
    if one_clause:
        parts += _mirrored(grouped, guard_on, own)
    # A negator first: the commonest way correct work disowns a sin (the engine's own guard);
    # then the best supported; a mirrored part last, as the budget allows.
    return sorted(parts, key=lambda p: (p.support == 0, p.kinds != ("negated",), -p.support))


def _family(kind: str, place: str, guard_on: bool, own: frozenset[Term]) -> tuple[Term, ...]:
    """The terms of `kind` on one side of the key, as an exclusion writes them: not the
    engine's own negators where its guard is on, nor the sin's `own` markers."""
    return tuple(
        t
        for t in markers.TERMS
        if t.kind == kind and where(t) == place and not (guard_on and t.engine) and t not in own
    )


def _mirrored(
    grouped: dict[tuple[str, str], list[Governed]], guard_on: bool, own: frozenset[Term] = frozenset()
) -> list[_Part]:
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
            found.append(_Part(terms[0].side, ("negated",), terms, 0, 0))
    return found


def _merged(parts: Sequence[_Part]) -> list[_Part]:
    """Parts on the same side of the key as one: their terms in one alternation."""
    by_where: dict[str, list[_Part]] = {}
    for part in parts:
        by_where.setdefault(where(part.terms[0]), []).append(part)
    merged = []
    for same in by_where.values():
        terms = tuple(t for t in markers.TERMS if any(t in p.terms for p in same))
        kinds = tuple(k for p in same for k in p.kinds)
        merged.append(_Part(same[0].side, kinds, terms, max(p.distance for p in same), sum(p.support for p in same)))
    return merged


def _fit(
    parts: list[_Part], key: Keys, strict: int, families: Sequence[_Part] = ()
) -> tuple[str, tuple[str, ...]] | None:
    """The parts, the best supported first, as many as the budget allows, those on one side
    of the key merged. Then each part chosen gives way to its kind's whole family (the
    same kind and side in `families`) where the budget still allows: the terms a text
    showed are the least a kind needs, its family what an auditor writes when there is room."""
    chosen: list[_Part] = []
    for part in parts:
        if budget_length(_written([*chosen, part], key, strict)) <= EXCLUSION_BUDGET:
            chosen.append(part)
    if not chosen:
        return None
    family_of = {(p.side, p.kinds): p for p in families}

    def widened(index: int) -> list[_Part]:
        family = family_of.get((chosen[index].side, chosen[index].kinds))
        return chosen if family is None else [*chosen[:index], family, *chosen[index + 1 :]]

    # The families that add the fewest characters first: the most kinds widened in the budget.
    for index in sorted(range(len(chosen)), key=lambda i: budget_length(_written(widened(i), key, strict))):
        if budget_length(_written(widened(index), key, strict)) <= EXCLUSION_BUDGET:
            chosen = widened(index)
    return _written(chosen, key, strict), tuple(dict.fromkeys(k for p in chosen for k in p.kinds))


def budget_length(exclusion: str) -> int:
    """How long `exclusion` counts against the budgets: the limit-idiom lookahead after a
    negator (`markers.LIMIT_IDIOM`) is one fixed construct, not the author's words, so a
    guard that keeps "no later than" from counting as a negator costs no more than one that
    does not (as a guard's lead-in costs nothing against the pattern's budget)."""
    return len(exclusion.replace(LIMIT_IDIOM, ""))


def _written(parts: Sequence[_Part], key: Keys, strict: int) -> str:
    return "|".join(_render(part, key, strict) for part in _merged(parts))


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


#: The gap a scoped exclusion writes between its marker and the key (`_gap`): a lazy window
#: with a multiple of 20 as its bound. By it a later round of `--fix` knows its own parts.
_WRITTEN_GAP = re.compile(r"(?:\[\^[.;,:]+\]|\[\^\.;,?:?\]\))\{0,\d*0\}\?")


def written_length(exclusion: str | None) -> int:
    """How many characters of `exclusion` are parts this module writes (a marker, a gap
    and a key): what counts against `EXCLUSION_TOTAL_BUDGET`, over every round of `--fix`."""
    parts = top_level_branches(exclusion or "") if exclusion else []
    if parts is None:
        return 0
    return budget_length("|".join(part for part in parts if _WRITTEN_GAP.search(part)))


def scoped_exclusions(
    pattern: str,
    texts: Iterable[str],
    kinds: Sequence[str],
    existing: str | None = None,
    *,
    guard_on: bool = False,
) -> list[Exclusion]:
    """Compact exclusions that silence `texts` (correct work the gate fires on), scoped to
    the gate's key words by the markers the texts show; lightest and most general first
    (the family of each kind loose, then strict, then the terms found alone). Empty when no
    text shows a marker of `kinds` governing a key."""
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
    for keyed in key_choices(list(explained.values()), whole):
        own = own_terms(sins, keyed)
        # Each text's markers as seen from the key of their side.
        evidence = [
            [*explained[keyed.before].sides(text, before=True), *explained[keyed.after].sides(text, before=False)]
            for text in unique
            if text in explained[keyed.before].shown or text in explained[keyed.after].shown
        ]
        evidence = [shown for shown in evidence if shown]
        families = _parts(evidence, True, guard_on, one_clause, own)
        terms_found = _parts(evidence, False, guard_on, one_clause, own)
        # Each kind's whole family; the terms found, each kind widened to its family where the
        # budget allows (four kinds' families rarely fit it together); the terms found.
        for parts, widened in ((families, ()), (terms_found, families), (terms_found, ())):
            for strict in STRICTNESS:
                fitted = _fit(parts, keyed, strict, widened)
                if fitted is not None and fitted[0] not in [e.added for e in found]:
                    found.append(Exclusion(with_existing(existing, fitted[0]), fitted[1], fitted[0]))
    return found


def _whole_match_key(pattern: str) -> str | None:
    """The whole pattern as a key, when it is one short clause: a marker before it governs
    the match where it stands, not a later mention of its words ("… after confirmation, and
    no further confirmation is required" against `after\\s+confirm\\w*`)."""
    branches = top_level_branches(pattern)
    if branches is None or len(branches) != 1 or len(pattern) > MAX_KEY or pattern in keys(pattern):
        return None
    return pattern


def exclusion_for(pattern: str, kinds: Sequence[str], existing: str | None = None) -> str | None:
    """Every term of `kinds` scoped to the pattern's key, strict, with no evidence read (the
    families whole): what a gate guarded against every frame would carry. It may run over
    `EXCLUSION_BUDGET`; proposals never use it. None when the pattern has no key."""
    found = keys(pattern)
    if not found:
        return None
    parts: dict[str, list[Term]] = {}
    for term in markers.TERMS:
        if term.kind in kinds:
            parts.setdefault(where(term), []).append(term)
    keyed = Keys(found[0], found[0])
    written = [
        _render(_Part(terms[0].side, (), tuple(terms), GAP if place == "before" else 60, 0), keyed, 3)
        for place, terms in parts.items()
    ]
    return with_existing(existing, "|".join(written))
