"""One proposal per gate entry: the guard and the widening that together fix what the audit
found on it, verified as a whole.

Verification never loses a catch: the proposal is refused when it silences any text the
gate list fires on today among its must-fire texts (witnesses, the sin in its habitats —
replacement recitals, "shall not exceed", "without limiting …" —, rewrites, the matter's
must-fire probes and trajectory texts), or makes the list fire on any correct-work text
it is silent on today (the matter's own texts, and frames of the sin — including the
frames of the *widened* pattern's new witnesses).

- The guard, when the entry fires on correct work or frames, is an `exclude_context`
  scoped by meaning (`scoped_guards`), kept with the entry's own exclusion; when the
  entry's `negation_guard` drops a sin (a negator in another clause, a limit idiom), the
  guard replaces it. A bare `negation_guard` (either scope) is tried too, and refused
  like any other when it silences a protected text.
- The widening, when rewrites or habitats of the sin slip past the list, applies each
  step of `widening.STEPS` that stays safe and within lint's bounds.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Any

from rubric_tools.audit.pattern_tree import flattened
from rubric_tools.audit.scoped_guards import (
    EXCLUSION_BUDGET,
    EXCLUSION_TOTAL_BUDGET,
    SHORT_WINDOW,
    bounded,
    longest_window,
    negator_in_own_words,
    scoped_exclusions,
    scopes_for,
    windows_without_negators,
    written_length,
)
from rubric_tools.audit.texts import entry_texts
from rubric_tools.audit.thesaurus import Thesaurus
from rubric_tools.audit.widening import (
    FALLBACKS,
    MAX_PIECES,
    NEGATOR_FREE_SLACK,
    SLACK,
    STEPS,
    Step,
    word_pieces,
)
from rubric_tools.code_registry import lookup
from rubric_tools.gate_analysis.gate_firing import fires
from rubric_tools.gate_analysis.regex_shape import unnormalized_requirement
from rubric_tools.scoring.gates import Gate
from rubric_tools.scoring.text import normalize


@dataclass
class EntryTexts:
    """What one entry's proposal is verified against."""

    gates: tuple[Gate, ...]
    index: int
    surface: str
    protected: Sequence[str]  # must-fire texts the list fires on today: never lost
    silent: Sequence[str]  # must-not-fire texts the list is silent on today: never hit
    false_positives: Sequence[str]  # must-not-fire texts this entry fires on: to silence
    missed: Sequence[str]  # must-fire texts no entry fires on, attributed to this one: to catch
    thesaurus: Thesaurus = field(default_factory=Thesaurus)


@dataclass(frozen=True)
class Outcome:
    lost: tuple[str, ...]
    new_hits: tuple[str, ...]
    silenced: tuple[str, ...]
    caught: tuple[str, ...]

    @property
    def safe(self) -> bool:
        return not self.lost and not self.new_hits


@dataclass(frozen=True)
class EntryProposal:
    """The entry before and after, what changes, and how it does on the entry's texts."""

    before: Gate
    after: Gate
    change: dict[str, Any]
    steps: tuple[str, ...]  # what was done: "guard scoped by meaning", "numbers", ...
    outcome: Outcome
    tried: tuple[str, ...] = ()  # what was refused and why
    #: The first refused candidate and what it would have lost or hit.
    refused: tuple[Gate, Outcome] | None = None

    @property
    def verified(self) -> bool:
        return self.outcome.safe and bool(self.outcome.silenced or self.outcome.caught) and bool(self.change)


def entry_mapping(gate: Gate) -> dict[str, Any]:
    """A gate as the mapping a rubric would write."""
    mapping: dict[str, Any] = {"pattern": gate.pattern}
    if gate.negation_guard:
        mapping["negation_guard"] = True
        if gate.negation_scope != "span":
            mapping["negation_scope"] = gate.negation_scope
    if gate.require_context:
        mapping["require_context"] = gate.require_context
    if gate.exclude_context:
        mapping["exclude_context"] = gate.exclude_context
    return mapping


def _change(before: Gate, after: Gate) -> dict[str, Any]:
    change: dict[str, Any] = {}
    if after.pattern != before.pattern:
        change["pattern"] = after.pattern
    if after.negation_guard != before.negation_guard:
        change["negation_guard"] = after.negation_guard
    if after.negation_scope != before.negation_scope and after.negation_guard:
        change["negation_scope"] = after.negation_scope
    if after.exclude_context != before.exclude_context:
        change["exclude_context"] = after.exclude_context
    return change


def _code(name: str) -> str:
    """The code of the lint rule called `name` (the code table knows every code)."""
    entry = lookup(name)
    return entry.code if entry is not None else name


def out_of_bounds(gate: Gate) -> str | None:
    """Why a proposed gate breaks lint's rules for gate regexes (G003, G007, G008, G012,
    G016), or None."""
    for regex in (gate.pattern, gate.require_context, gate.exclude_context):
        if regex:
            problem = bounded(regex)
            if problem is not None:
                return problem
    if unnormalized_requirement(gate.pattern) is not None:
        return f"needs text that normalization removes ({_code('gate-needs-unnormalized-text')})"
    if fires(Gate(gate.pattern), ""):
        return f"matches the empty string ({_code('gate-matches-empty')})"
    return None


#: A widened pattern may be at most this many times as long as the entry's own, plus
#: `PATTERN_BUDGET_EXTRA` characters: an auditor reviews the change in seconds. A proposal
#: over budget is tried step by step (each step that fits), or not proposed.
PATTERN_BUDGET_FACTOR = 2
PATTERN_BUDGET_EXTRA = 150


def pattern_budget(original: str) -> int:
    return PATTERN_BUDGET_FACTOR * len(original) + PATTERN_BUDGET_EXTRA


def over_budget(before: Gate, after: Gate) -> str | None:
    """Why the change from `before` to `after` is too long to review (`pattern_budget`,
    `scoped_guards.EXCLUSION_BUDGET`), or None."""
    if len(after.pattern) > max(pattern_budget(before.pattern), len(before.pattern)):
        return f"the pattern would grow to {len(after.pattern)} characters (budget {pattern_budget(before.pattern)})"
    added = len(after.exclude_context or "") - len(before.exclude_context or "")
    if after.exclude_context != before.exclude_context:
        if added > EXCLUSION_BUDGET + 1:  # "|" joins it to the entry's own
            return f"the exclude_context would grow by {added} characters (budget {EXCLUSION_BUDGET})"
        # What this tool wrote counts over every round of `--fix` (its parts are told by
        # their gap); what the author wrote does not count.
        written = written_length(after.exclude_context)
        if written > EXCLUSION_TOTAL_BUDGET:
            return (
                f"the exclude_context would hold {written} characters of scoped parts (budget {EXCLUSION_TOTAL_BUDGET})"
            )
    return None


def frame_texts(gate: Gate, surface: str) -> list[str]:
    """The frames of the gate's own witnesses (completed into clauses as the audit's texts
    are): correct work it must stay silent on."""
    return list(_frame_texts(gate, surface))


@lru_cache(maxsize=256)
def _frame_texts(gate: Gate, surface: str) -> tuple[str, ...]:
    # Cached: every candidate of an entry is compared with the same gate before it.
    return tuple(text.text for text in entry_texts(gate, 0, surface, Thesaurus(), partial=True)[1])


class _Verifier:
    def __init__(self, texts: EntryTexts) -> None:
        self.texts = texts
        gate = texts.gates[texts.index]
        # Every protected text this entry catches stays caught by it, even one another entry
        # also catches: the proposals of all entries of a list can then be applied together.
        self.protected = [t for t in texts.protected if fires(gate, t)]
        self.others = [g for i, g in enumerate(texts.gates) if i != texts.index]

    def outcome(self, gate: Gate, extra_silent: Sequence[str] = ()) -> Outcome:
        lost = tuple(t for t in self.protected if not fires(gate, t))
        new_hits = tuple(t for t in (*self.texts.silent, *extra_silent) if fires(gate, t))
        silenced = tuple(t for t in self.texts.false_positives if not fires(gate, t))
        caught = tuple(t for t in self.texts.missed if fires(gate, t))
        return Outcome(lost, new_hits, silenced, caught)

    def new_frames(self, before: Gate, after: Gate) -> list[str]:
        """Frames of the widened pattern's witnesses the old one did not have."""
        if after.pattern == before.pattern:
            return []
        old = set(frame_texts(before, self.texts.surface))
        others_silent = [t for t in frame_texts(after, self.texts.surface) if t not in old]
        return [t for t in others_silent if not any(fires(g, t) for g in self.others)]


def verify(texts: EntryTexts, candidate: Gate) -> Outcome:
    """What putting `candidate` in place of the entry does to its texts: the protected texts
    it loses, the silent ones it fires on, the false positives it silences, the missed sins
    it catches (and the frames of its own new witnesses it fires on, as new hits)."""
    verifier = _Verifier(texts)
    return verifier.outcome(candidate, verifier.new_frames(texts.gates[texts.index], candidate))


@dataclass(frozen=True)
class _GuardOption:
    name: str
    gate: Gate


def _settings(gate: Gate, texts: EntryTexts, verifier: _Verifier) -> list[tuple[str, Gate]]:
    """The negation guard settings to try, the entry's own first. The guard stays on; off
    only when a must-fire text proves it silences a real sin that `negation_scope: before`
    cannot save: the sin's own words carry the negator, a limit idiom that runs into the
    match ("in no event later than 72 hours after …"). A negator further away ("Without
    limiting Section 9.2, …") is not reason enough: the guard stays, that text stays missed."""
    settings = [("", gate)]
    before = replace(gate, negation_guard=True, negation_scope="before")
    if not gate.negation_guard:
        settings += [("negation_guard", replace(gate, negation_guard=True, negation_scope="span"))]
    if gate.negation_scope != "before" or not gate.negation_guard:
        settings += [("negation_scope: before", before)]
    if gate.negation_guard:
        off = replace(gate, negation_guard=False, negation_scope="span")
        proof = next(
            (
                t
                for t in texts.missed
                if fires(off, t) and not fires(before, t) and negator_in_own_words(gate.pattern, t)
            ),
            None,
        )
        if proof is not None:
            settings += [(f"instead of negation_guard, which silences {proof!r}", off)]
    return settings


def _guard_options(gate: Gate, texts: EntryTexts, verifier: _Verifier) -> list[_GuardOption]:
    """Guards to try, lightest first: the engine's guard (turned on, or scoped `before` the
    match), alone or with a compact exclusion scoped by meaning to the gate's key words —
    built from the correct work the setting still fires on, the kinds of marker it shows
    only; the entry's own exclusion is kept in front of it. Each option is refused by the
    caller whenever it silences a protected text."""
    kinds = scopes_for(texts.surface)
    options: list[_GuardOption] = []
    for name, setting in _settings(gate, texts, verifier):
        must_silence = [t for t in texts.false_positives if fires(setting, t)]
        if not setting.negation_guard and gate.negation_guard:
            # With the guard off, what it silenced must be silenced by the exclusion.
            must_silence += [t for t in texts.silent if fires(setting, t)]
        if setting != gate:
            options.append(_GuardOption(name, setting))
            if verifier.outcome(setting).lost:
                continue  # an exclusion only silences more: it cannot win the catch back
        on = setting.negation_guard
        for exclusion in scoped_exclusions(setting.pattern, must_silence, kinds, gate.exclude_context, guard_on=on):
            scoped = replace(setting, exclude_context=exclusion.regex)
            options.append(
                _GuardOption(_joined(f"guard scoped by meaning ({', '.join(exclusion.kinds)})", name), scoped)
            )
    if not gate.negation_guard or gate.negation_scope == "before":
        tempered = windows_without_negators(gate.pattern)
        if tempered:
            options.append(_GuardOption("windows no negator crosses", replace(gate, pattern=tempered)))
    return options


def _joined(first: str, second: str) -> str:
    return f"{first} and {second}" if second else first


def _score(outcome: Outcome) -> int:
    return len(outcome.silenced) + len(outcome.caught)


def propose_entry(texts: EntryTexts) -> EntryProposal | None:
    """The best safe change of the entry: a guard scoped by meaning, then every widening
    step that stays safe; None when nothing needs fixing."""
    gate = texts.gates[texts.index]
    if not texts.false_positives and not texts.missed:
        return None
    verifier = _Verifier(texts)
    tried: list[str] = []
    first_refused: tuple[Gate, Outcome] | None = None
    current, steps = gate, []
    best = verifier.outcome(gate)
    if texts.false_positives or ((gate.negation_guard or gate.exclude_context) and texts.missed):
        for option in _guard_options(gate, texts, verifier):
            if over_budget(gate, option.gate) is not None or out_of_bounds(option.gate) is not None:
                continue
            outcome = verifier.outcome(option.gate)
            if not outcome.safe:
                tried.append(f"{option.name}: {_why(outcome)}")
                first_refused = first_refused or (option.gate, outcome)
                continue
            if _score(outcome) > _score(best):
                best, current, steps = outcome, option.gate, [option.name]
        # An exclusion scopes the markers around the match; a negator inside the match's own
        # window ("Licensee shall have no obligation to indemnify") is the windows' to keep
        # out. A human writes both; each alone leaves the other's correct work flagged.
        current, best, steps = _with_tempered_windows(verifier, gate, current, best, steps)
    if texts.missed:
        current, best, widened, refused = _widen(verifier, texts, gate, current, best)
        steps += widened
        tried += refused
    change = _change(gate, current)
    if not change:
        return EntryProposal(gate, gate, {}, (), best, tuple(tried), first_refused)
    return EntryProposal(gate, current, change, tuple(steps), best, tuple(tried), first_refused)


def _with_tempered_windows(
    verifier: _Verifier, original: Gate, current: Gate, best: Outcome, steps: list[str]
) -> tuple[Gate, Outcome, list[str]]:
    """The chosen guard with windows no negator crosses as well, when that loses nothing and
    silences no less (for a gate without the engine's guard)."""
    name = "windows no negator crosses"
    # Not with the engine's guard on: `span` already sees inside the match, and `before` says
    # that a negator inside it is the sin's own ("in no event later than …").
    if name in steps or current.negation_guard:
        return current, best, steps
    tempered = windows_without_negators(current.pattern)
    if tempered is None:
        return current, best, steps
    candidate = replace(current, pattern=tempered)
    if over_budget(original, candidate) is not None or out_of_bounds(candidate) is not None:
        return current, best, steps
    outcome = verifier.outcome(candidate)
    # Taken when it silences more; or as much, with no generated text to show for it, when
    # every window is short: a negator that close to both ends governs the match ("Licensee
    # shall have no obligation to indemnify"), and the audit's own frames of that kind are
    # often too stilted to keep. Across a long window a negator is as likely another
    # clause's ("…shall not act without consent, which it may withhold in its sole discretion").
    longest = longest_window(current.pattern)
    evidence_free = longest is not None and longest <= SHORT_WINDOW
    if outcome.safe and (_score(outcome) > _score(best) or (evidence_free and _score(outcome) == _score(best))):
        return candidate, outcome, [*steps, name]
    return current, best, steps


def _why(outcome: Outcome) -> str:
    if outcome.lost:
        return f"loses a catch: {outcome.lost[0]!r}"
    return f"fires on correct work: {outcome.new_hits[0]!r}"


def _with_slack(current: Gate, pattern: str) -> str:
    """The widened pattern as the gate can take it: where its guard does not see inside the
    match (none, or `negation_scope: before`), slack keeps negators out itself."""
    if current.negation_guard and current.negation_scope == "span":
        return pattern
    return pattern.replace(SLACK, NEGATOR_FREE_SLACK)


def _try(
    verifier: _Verifier, texts: EntryTexts, original: Gate, current: Gate, pattern: str
) -> tuple[Gate | None, Outcome | None, str | None]:
    """The widened gate, verified: as it stands, else with a compact exclusion of the
    correct work it newly fires on (kept after the entry's own). (gate, outcome, None) when
    safe; (None, outcome or None, why) when refused."""
    widened = replace(current, pattern=_with_slack(current, flattened(pattern)))
    problem = over_budget(original, widened)
    if problem is not None:
        return None, None, problem
    if not _may_catch_more(widened.pattern, current, texts.missed):
        return None, None, None  # nothing to gain: not worth lint's bounds and the frames
    problem = out_of_bounds(widened)
    if problem is not None:
        return None, None, problem
    outcome = verifier.outcome(widened, verifier.new_frames(current, widened))
    if outcome.safe:
        return widened, outcome, None
    if outcome.lost:
        return None, outcome, _why(outcome)
    kinds = scopes_for(texts.surface)
    on = widened.negation_guard
    # The exclusion this proposal already wrote, with a part for the new hits; else one
    # exclusion for all the correct work, written anew.
    added = scoped_exclusions(widened.pattern, outcome.new_hits, kinds, current.exclude_context, guard_on=on)
    hits = [*texts.false_positives, *outcome.new_hits]
    anew = scoped_exclusions(widened.pattern, hits, kinds, original.exclude_context, guard_on=on)
    for exclusion in [*added, *anew]:
        guarded = replace(widened, exclude_context=exclusion.regex)
        if over_budget(original, guarded) is not None or out_of_bounds(guarded) is not None:
            continue
        again = verifier.outcome(guarded, verifier.new_frames(current, guarded))
        if again.safe:
            return guarded, again, None
    return None, outcome, _why(outcome)


def _may_catch_more(pattern: str, current: Gate, missed: Sequence[str]) -> bool:
    """Whether the bare pattern matches a missed sin the entry does not catch: a cheap `re`
    test before the costly checks (lint's bounds, the new witnesses' frames)."""
    try:
        compiled = re.compile(pattern, re.IGNORECASE)
    except re.error:
        return True  # let the bounds say why
    return any(compiled.search(normalize(t)) and not fires(current, t) for t in missed)


def _widen(
    verifier: _Verifier, texts: EntryTexts, original: Gate, current: Gate, best: Outcome
) -> tuple[Gate, Outcome, list[str], list[str]]:
    done: list[str] = []
    refused: list[str] = []
    # Every step at once first: one verification when it is safe, which is the common case;
    # else step by step.
    together, kinds_done = current.pattern, list[str]()
    for step in _cheapest_first(current.pattern, texts.thesaurus):
        if step.kind in FALLBACKS and FALLBACKS[step.kind] in kinds_done:
            continue
        widened = step.apply(together, texts.thesaurus)
        widened = flattened(widened) if widened is not None else None
        if widened is not None and over_budget(original, replace(current, pattern=widened)) is None:
            together, kinds_done = widened, [*kinds_done, step.kind]
    if kinds_done:
        candidate, outcome, why = _try(verifier, texts, original, current, together)
        if candidate is not None and outcome is not None and len(outcome.caught) > len(best.caught):
            return candidate, outcome, kinds_done, refused
        if why is not None:
            refused.append(f"{', '.join(kinds_done)} together: {why}")
    skip: set[str] = set()
    for step in _cheapest_first(current.pattern, texts.thesaurus):
        if step.kind in skip:
            continue
        pattern = step.apply(current.pattern, texts.thesaurus)
        if pattern is None:
            continue
        candidate, outcome, why = _try(verifier, texts, original, current, pattern)
        if candidate is None or outcome is None:
            if why is not None:
                refused.append(f"{step.kind}: {why}")
            if step.kind == "words" and over_budget(original, replace(current, pattern=pattern)):
                current, best = _pieces(verifier, texts, original, current, best, done)
            continue
        if len(outcome.caught) <= len(best.caught):
            continue  # catches nothing more: not kept (the fix loop converges)
        current, best = candidate, outcome
        done.append(step.kind)
        skip.update(k for k, fallback_of in FALLBACKS.items() if fallback_of == step.kind)
    return current, best, done, refused


def _cheapest_first(pattern: str, thesaurus: Thesaurus) -> list[Step]:
    """The widening steps, the one that adds the fewest characters to `pattern` first: each is
    kept only when it catches more, and the size budget is shared, so a hyphen or a number
    form is not crowded out by a thesaurus group tried before it."""

    def added(step: Step) -> int:
        widened = step.apply(pattern, thesaurus)
        return len(widened) - len(pattern) if widened is not None else 0

    return sorted(STEPS, key=added)


def _pieces(
    verifier: _Verifier, texts: EntryTexts, original: Gate, current: Gate, best: Outcome, done: list[str]
) -> tuple[Gate, Outcome]:
    """The words step split into simpler pieces, one phrase at a time: each kept that is
    safe, within budget and catches more."""
    index = 0
    pieces = word_pieces(current.pattern, texts.thesaurus)
    for _ in range(MAX_PIECES):
        if index >= len(pieces):
            break
        candidate, outcome, _why = _try(verifier, texts, original, current, pieces[index])
        if candidate is not None and outcome is not None and len(outcome.caught) > len(best.caught):
            current, best = candidate, outcome  # the phrase is now a group: the next one takes its index
            done.append("words (one phrase)")
            pieces = word_pieces(current.pattern, texts.thesaurus)
        else:
            index += 1
    return current, best
