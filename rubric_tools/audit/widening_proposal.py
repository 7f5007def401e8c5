"""The widening half of an entry's proposal: every step of `widening.STEPS` that stays
safe, within lint's bounds and the size budget — all at once when that is safe, else step
by step, the cheapest first.

A step that catches a sin the list missed may bring an exclusion for the correct work it
newly fires on. A step that catches none of the generated sins is still kept when it is
safe as it stands (no exclusion written for it) and loses nothing: a gate is widened by
principle ("landlord" also as "landlords"), not only by the few rewrites the audit
happened to write."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import replace

from rubric_tools.audit.active_voice import other_voice, voice_guessing_no_object
from rubric_tools.audit.clause_slots import adverb_slots_without_negators
from rubric_tools.audit.guard_keys import keys, widened_key
from rubric_tools.audit.pattern_spellings import flattened
from rubric_tools.audit.pattern_tree import top_level_branches
from rubric_tools.audit.quantity_regexes import widen_quantities, with_compound_forms
from rubric_tools.audit.scoped_guards import is_written_part, scoped_exclusions, scopes_for
from rubric_tools.audit.slack import NEGATOR_FREE_SLACK, SLACK
from rubric_tools.audit.thesaurus import Thesaurus
from rubric_tools.audit.verification import EntryTexts, Outcome, Verifier, out_of_bounds, over_budget, score, why
from rubric_tools.audit.widening import (
    FALLBACKS,
    MAX_PIECES,
    STEPS,
    Step,
    word_pieces,
)
from rubric_tools.gate_analysis.gate_firing import fires
from rubric_tools.scoring.gates import Gate
from rubric_tools.scoring.text import normalize


def _negators_kept_out(current: Gate, pattern: str) -> str:
    """The widened pattern as the gate can take it: where its guard does not see inside the
    match (none, or `negation_scope: before`), slack and the other voice's room for an
    adverb keep negators out themselves."""
    if current.negation_guard and current.negation_scope == "span":
        return pattern
    return adverb_slots_without_negators(pattern.replace(SLACK, NEGATOR_FREE_SLACK))


def _try(
    verifier: Verifier, texts: EntryTexts, original: Gate, current: Gate, pattern: str
) -> tuple[Gate | None, Outcome | None, str | None]:
    """The widened gate, verified: as it stands, else with a compact exclusion of the
    correct work it newly fires on (kept after the entry's own). (gate, outcome, None) when
    safe; (None, outcome or None, why) when refused."""
    widened = replace(current, pattern=flattened(_negators_kept_out(current, pattern)))
    problem = over_budget(original, widened)
    if problem is not None:
        return None, None, problem
    gains = _may_catch_more(widened.pattern, current, texts.missed)
    problem = out_of_bounds(widened, texts.prose)
    if problem is not None:
        return None, None, problem if gains else None
    outcome = verifier.outcome(widened, verifier.new_frames(current, widened))
    if outcome.safe:
        spelled = _guard_spelled_as_pattern(widened, current, texts)
        if spelled is not None:
            again = verifier.outcome(spelled, verifier.new_frames(current, spelled))
            if again.safe:
                return spelled, again, None
        return widened, outcome, None
    if not gains:
        return None, None, None  # by principle only as it stands: no exclusion written for it
    if outcome.lost:
        return None, outcome, why(outcome)
    kinds = scopes_for(texts.surface)
    on = widened.negation_guard
    # The guard as it stands, its figures widened as the pattern's were ("five percent" in
    # the guard is "5%" too); the exclusion this proposal already wrote, with a part for the
    # new hits; else one exclusion for all the correct work, written anew.
    same_guard = [widen_quantities(current.exclude_context)] if current.exclude_context else []
    # The same guard keyed on what the widening put for its key: a longer guard, reviewed so.
    rekeyed = _guard_keyed_as_pattern(widened, current)
    added = scoped_exclusions(widened.pattern, outcome.new_hits, kinds, current.exclude_context, guard_on=on)
    hits = [*texts.false_positives, *outcome.new_hits]
    anew = scoped_exclusions(widened.pattern, hits, kinds, original.exclude_context, guard_on=on)
    for exclusion in [*same_guard, *([rekeyed] if rekeyed else []), *(e.regex for e in [*added, *anew])]:
        if exclusion == current.exclude_context:
            continue
        guarded = replace(widened, exclude_context=exclusion)
        # The same guard with its figures spelled every way is reviewed as the guard it was.
        reviewed = replace(widened, exclude_context=current.exclude_context) if exclusion in same_guard else guarded
        if over_budget(original, reviewed) is not None or out_of_bounds(guarded, texts.prose) is not None:
            continue
        again = verifier.outcome(guarded, verifier.new_frames(current, guarded))
        if again.safe:
            return guarded, again, None
    return None, outcome, why(outcome)


def _guard_spelled_as_pattern(widened: Gate, current: Gate, texts: EntryTexts) -> Gate | None:
    """The widened gate with the figures of the author's exclusion spelled every way in their
    own unit, as the pattern's now are (those of the tool's own parts: a span as a compound
    modifier too): the entry's guard against "rather than eighteen months" also sees "rather
    than an eighteen-month tail" once the pattern matches that. Not in another unit: a guard
    naming "12 months" says nothing of "one year after closing". None where the exclusion
    names no figure, or spelled so it leaves lint's bounds."""
    if not current.exclude_context:
        return None
    parts = top_level_branches(current.exclude_context)
    if parts is None:
        return None
    # The parts this tool wrote are keyed to the pattern's forms before this widening: they
    # take the commonest other form of a span only ("an eighteen-month tail"); every form
    # would take the room later rounds need.
    spelled = "|".join(
        with_compound_forms(part) if is_written_part(part) else widen_quantities(part, other_units=False)
        for part in parts
    )
    if spelled == current.exclude_context:
        return None
    guarded = replace(widened, exclude_context=spelled)
    return None if out_of_bounds(guarded, texts.prose) is not None else guarded


def _guard_keyed_as_pattern(widened: Gate, current: Gate) -> str | None:
    """The entry's exclusion with the key of each part this tool wrote re-keyed to the
    group the widening put for it: an exclusion of "not … (?:unlawful)" that verification
    accepted for the entry is the same exclusion for "illegal" once the thesaurus gave the
    pattern "illegal" (`guard_keys.widened_key`: `(?:law|unlawful|illegal)`). None when no
    part's key changes."""
    if not current.exclude_context:
        return None
    parts = top_level_branches(current.exclude_context)
    if parts is None:
        return None
    renamed = {old: new for old in keys(current.pattern) if (new := widened_key(old, widened.pattern)) is not None}
    rewritten = []
    for part in parts:
        if is_written_part(part):  # the author's own parts stay as written
            for old, new in renamed.items():
                if part.endswith(old) or part.startswith(old):
                    part = part.replace(old, new)
        rewritten.append(part)
    joined = "|".join(rewritten)
    return joined if joined != current.exclude_context else None


def _may_catch_more(pattern: str, current: Gate, missed: Sequence[str]) -> bool:
    """Whether the bare pattern matches a missed sin the entry does not catch: a cheap `re`
    test before the costly checks (lint's bounds, the new witnesses' frames)."""
    try:
        compiled = re.compile(pattern, re.IGNORECASE)
    except re.error:
        return True  # let the bounds say why
    return any(compiled.search(normalize(t)) and not fires(current, t) for t in missed)


#: Whether a verified widening is kept: (its outcome, the best so far, it, the gate before it).
_Keep = Callable[[Outcome, Outcome, Gate, Gate], bool]


def widen_entry(
    verifier: Verifier, texts: EntryTexts, original: Gate, current: Gate, best: Outcome
) -> tuple[Gate, Outcome, list[str], list[str]]:
    if current.negation_guard and current.negation_scope == "span":
        # Its guard drops every match holding a negator: "of no effect" beside "void" would be
        # dead text (U001), so no member holding one is written.
        texts = replace(texts, thesaurus=texts.thesaurus.without_negators())
    # The steps that catch more first, so that the size budget goes to them; then, in the
    # room left, the steps kept by principle.
    current, best, done, refused = _widen(verifier, texts, original, current, best, _gains)
    current, best, more, _refused = _widen(verifier, texts, original, current, best, _kept)
    return current, best, [*done, *more], refused


def _widen(
    verifier: Verifier, texts: EntryTexts, original: Gate, current: Gate, best: Outcome, keep: _Keep
) -> tuple[Gate, Outcome, list[str], list[str]]:
    done: list[str] = []
    refused: list[str] = []
    # Every step at once first: one verification when it is safe, which is the common case;
    # else step by step.
    together, kinds_done = current.pattern, list[str]()
    for step in _most_gain_first(current.pattern, texts.thesaurus, texts.missed):
        if step.kind in FALLBACKS and FALLBACKS[step.kind] in kinds_done:
            continue
        widened = step.apply(together, texts.thesaurus)
        widened = flattened(widened) if widened is not None else None
        if widened is not None and over_budget(original, replace(current, pattern=widened)) is None:
            together, kinds_done = widened, [*kinds_done, step.kind]
    skip: set[str] = set()
    if kinds_done:
        candidate, outcome, why = _try(verifier, texts, original, current, together)
        if candidate is not None and outcome is not None and keep(outcome, best, candidate, current):
            # What did not fit beside the others is still tried on its own (the words step
            # a phrase at a time) in the room that is left.
            current, best, done = candidate, outcome, list(kinds_done)
            skip.update(kinds_done)
            skip.update(k for k, fallback_of in FALLBACKS.items() if fallback_of in kinds_done)
        elif why is not None:
            refused.append(f"{', '.join(kinds_done)} together: {why}")
    for step in _most_gain_first(current.pattern, texts.thesaurus, texts.missed):
        if step.kind in skip:
            continue
        pattern = step.apply(current.pattern, texts.thesaurus)
        reviewed_as = original
        if step.kind == "passive" and (pattern is None or over_budget(original, replace(current, pattern=pattern))):
            pattern, reviewed_as = _compact_other_voice(original, current)
        if pattern is None:
            continue
        candidate, outcome, why = _try(verifier, texts, reviewed_as, current, pattern)
        if candidate is None or outcome is None:
            if why is not None:
                refused.append(f"{step.kind}: {why}")
            if step.kind == "words" and over_budget(original, replace(current, pattern=pattern)):
                current, best = _pieces(verifier, texts, original, current, best, done, keep)
            continue
        if candidate == current or not keep(outcome, best, candidate, current):
            # The same gate (the step wrote what the gate holds already, its negators kept
            # out), or it catches nothing more, or leaves correct work flagged again.
            continue
        current, best = candidate, outcome
        done.append(step.kind)
        skip.update(k for k, fallback_of in FALLBACKS.items() if fallback_of == step.kind)
    return current, best, done, refused


#: A window in a clause: "[^.]{0,80}", "(?:[^.]|\\.\\d){1,40}?", ".*".
_WINDOW = re.compile(r"\[\^|\.[*+{]")


def _compact_other_voice(original: Gate, current: Gate) -> tuple[str | None, Gate]:
    """The widened pattern with the clause *as the author wrote it* in the other voice, for
    when the other voice of the widened clause does not fit the size budget: a thesaurus
    group spent the room ("prohibits" grown to eight verbs), and its passive would write each
    of them again. The passive of the author's own words ("all model training is prohibited
    by law") is the paraphrase a reader writes first; it is the author's clause read in the
    other voice, so it is reviewed as part of the author's pattern (the gate returned beside
    it sets the budget). Where the clause holds a window ("assigns[^.]{0,80}consultant"),
    what the window holds is unknown, and the other voice of a guess is no paraphrase: only
    where the window holds the object before a verb that ends the clause ("(the rent act|…)
    [^.]{0,80}prohibits" -> "… is prohibited under the rent act"). (None, original) when the
    author's clause has no other voice, or the widened pattern holds it already."""
    others = [
        other
        for branch in top_level_branches(original.pattern) or []
        for other in (voice_guessing_no_object(branch) if _WINDOW.search(branch) else other_voice(branch))
        if other not in current.pattern
    ]
    if not others:
        return None, original
    return "|".join([current.pattern, *others]), replace(original, pattern="|".join([original.pattern, *others]))


def _gains(outcome: Outcome, best: Outcome, _candidate: Gate, _current: Gate) -> bool:
    return _better(outcome, best)


def _kept(outcome: Outcome, best: Outcome, candidate: Gate, current: Gate) -> bool:
    """A widening is kept when it is better (`_better`), or by principle: as good, with the
    guard as it was. (The fix loop still ends: the steps only widen, within a size budget,
    and at most `fix_loop.MAX_ROUNDS` rounds run.)"""
    if _better(outcome, best):
        return True
    return (
        candidate.exclude_context == current.exclude_context
        and len(outcome.caught) >= len(best.caught)
        and score(outcome) >= score(best)
    )


def _better(outcome: Outcome, best: Outcome) -> bool:
    """A widening is kept when it catches more, and fixes more in all: a guard remade for the
    wider pattern may silence other correct work than the chosen one, never less in sum
    than the sins it adds."""
    return len(outcome.caught) > len(best.caught) and score(outcome) > score(best)


def _most_gain_first(pattern: str, thesaurus: Thesaurus, missed: Sequence[str]) -> list[Step]:
    """The widening steps in the order the shared size budget is spent on them: the one
    whose pattern alone matches the most missed sins first, then the one that adds the
    fewest characters (so a hyphen or a number form is not crowded out by a thesaurus
    group that catches no more). Numbers come before any step that writes slack: they
    read a figure written literally ("five percent"), which slack between its words
    ("five\\b(?:…){1,40}?\\bpercent") no longer is."""

    def order(step: Step) -> tuple[int, int]:
        widened = step.apply(pattern, thesaurus)
        return (0, 0) if widened is None else _gain_order(widened, pattern, missed)

    ordered = sorted(STEPS, key=order)
    numbers = next(step for step in ordered if step.kind == "numbers")
    first_slack = next(i for i, step in enumerate(ordered) if step.kind in _WRITES_SLACK)
    if ordered.index(numbers) > first_slack:
        ordered.remove(numbers)
        ordered.insert(first_slack, numbers)
    return ordered


def _matched(pattern: str, texts: Sequence[str]) -> int:
    """How many of `texts` the bare `pattern` matches (a cheap `re` test)."""
    try:
        compiled = re.compile(pattern, re.IGNORECASE)
    except re.error:
        return 0
    return sum(1 for text in texts if compiled.search(normalize(text)))


#: The steps that write slack between a pattern's words.
_WRITES_SLACK = ("slack", "words and slack")


def _pieces(
    verifier: Verifier, texts: EntryTexts, original: Gate, current: Gate, best: Outcome, done: list[str], keep: _Keep
) -> tuple[Gate, Outcome]:
    """The words step split into simpler pieces, one phrase at a time: each kept that is
    safe, within budget and catches more. As for the steps (`_most_gain_first`), the piece
    that alone matches the most missed sins is tried first, then the one that adds the
    fewest characters: a long group that catches nothing ("law" among "statute",
    "legislation") does not spend the room a verb's group needs."""
    pieces = _by_gain(word_pieces(current.pattern, texts.thesaurus), current.pattern, texts.missed)
    for _ in range(MAX_PIECES):
        if not pieces:
            break
        candidate, outcome, _why = _try(verifier, texts, original, current, pieces.pop(0))
        if candidate is not None and outcome is not None and keep(outcome, best, candidate, current):
            current, best = candidate, outcome  # the phrase is now a group: the others are written anew
            done.append("words (one phrase)")
            pieces = _by_gain(word_pieces(current.pattern, texts.thesaurus), current.pattern, texts.missed)
    return current, best


def _by_gain(patterns: Sequence[str], current: str, missed: Sequence[str]) -> list[str]:
    """Widenings of `current`, in `_gain_order`."""
    return sorted(patterns, key=lambda pattern: _gain_order(pattern, current, missed))


def _gain_order(widened: str, pattern: str, missed: Sequence[str]) -> tuple[int, int]:
    """Where a widening of `pattern` stands in the order the size budget is spent: the one
    that alone matches the most of `missed` first, then the one that adds the fewest characters."""
    return -_matched(widened, missed), len(widened) - len(pattern)
