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
  entry's `negation_guard` drops a sin for a limit idiom in its own words, the guard
  replaces it. A bare `negation_guard` (either scope) is tried too, and refused like any
  other when it silences a protected text.
- Last, when the engine's guard still drops a sin for a negator ahead of the match that
  governs another clause or nothing ("No other term changes; <sin>"), the pattern gets a
  lead-in and the guard the scope `before` (`guard_windows.with_lead_in`). In a later round
  the entry is worked on without its lead-in, which is put back in front.
- The widening, when rewrites or habitats of the sin slip past the list, applies each
  step of `widening.STEPS` that stays safe and within lint's bounds.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from rubric_tools.audit.guard_evidence import negator_in_own_words
from rubric_tools.audit.guard_windows import (
    SHORT_WINDOW,
    has_lead_in,
    longest_window,
    windows_without_negators,
    with_lead_in,
    without_lead_in,
)
from rubric_tools.audit.scoped_guards import scoped_exclusions, scopes_for
from rubric_tools.audit.verification import (
    EntryTexts,
    Outcome,
    Verifier,
    out_of_bounds,
    over_budget,
    score,
    why,
)
from rubric_tools.audit.widening_proposal import widen_entry
from rubric_tools.gate_analysis.gate_firing import fires
from rubric_tools.scoring.gates import Gate


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


@dataclass(frozen=True)
class _GuardOption:
    name: str
    gate: Gate


def _settings(gate: Gate, texts: EntryTexts, verifier: Verifier) -> list[tuple[str, Gate]]:
    """The negation guard settings to try, the entry's own first. The guard stays on; off
    only when a must-fire text proves it silences a real sin that `negation_scope: before`
    cannot save: the sin's own words carry the negator, a limit idiom that runs into the
    match ("in no event later than 72 hours after …"). A negator further away ("Without
    limiting Section 9.2, …") is not reason enough: the guard stays, and a lead-in may take
    that negator into the match last (`_with_lead_in`)."""
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


def _guard_options(gate: Gate, texts: EntryTexts, verifier: Verifier) -> list[_GuardOption]:
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
        exclusions = scoped_exclusions(setting.pattern, must_silence, kinds, gate.exclude_context, guard_on=on)
        if exclusions and not any(verifier.outcome(replace(setting, exclude_context=e.regex)).safe for e in exclusions):
            exclusions = scoped_exclusions(
                setting.pattern, must_silence, kinds, gate.exclude_context, guard_on=on, leave_one_kind_out=True
            )
        for exclusion in exclusions:
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


def propose_entry(texts: EntryTexts) -> EntryProposal | None:
    """The best safe change of the entry: a guard scoped by meaning, then every widening
    step that stays safe; None when nothing needs fixing."""
    entry = texts.gates[texts.index]
    if not texts.false_positives and not texts.missed:
        return None
    # An entry with a lead-in (an earlier round's) is worked on as written before it, and
    # every candidate verified with the lead-in back in front.
    verifier = Verifier(texts, lead_in=has_lead_in(entry.pattern))
    gate = replace(entry, pattern=without_lead_in(entry.pattern))
    tried: list[str] = []
    first_refused: tuple[Gate, Outcome] | None = None
    current, steps = gate, []
    best = unchanged = verifier.outcome(gate)
    if texts.false_positives or ((gate.negation_guard or gate.exclude_context) and texts.missed):
        for option in _guard_options(gate, texts, verifier):
            if over_budget(gate, option.gate) is not None or out_of_bounds(option.gate, texts.prose) is not None:
                continue
            outcome = verifier.outcome(option.gate)
            if not outcome.safe:
                tried.append(f"{option.name}: {why(outcome)}")
                first_refused = first_refused or (option.gate, outcome)
                continue
            # On a tie, an option with the engine's guard where the best has none: the guard
            # also silences the negations the generated texts do not show ("No provision
            # shall be construed to mean that …"), as a human would add it.
            guarded_tie = (
                score(outcome) == score(best) > score(unchanged)
                and option.gate.negation_guard
                and not current.negation_guard
            )
            if score(outcome) > score(best) or guarded_tie:
                best, current, steps = outcome, option.gate, [option.name]
        # An exclusion scopes the markers around the match; a negator inside the match's own
        # window ("Licensee shall have no obligation to indemnify") is the windows' to keep
        # out. A human writes both; each alone leaves the other's correct work flagged.
        current, best, steps = _with_tempered_windows(verifier, gate, current, best, steps)
    if texts.missed:
        current, best, widened, refused = widen_entry(verifier, texts, gate, current, best)
        steps += widened
        tried += refused
    if verifier.lead_in:
        current = verifier.led(current)
    else:
        current, best, steps = _with_lead_in(verifier, current, best, steps)
    change = _change(entry, current)
    if not change:
        return EntryProposal(entry, entry, {}, (), best, tuple(tried), first_refused)
    return EntryProposal(entry, current, change, tuple(steps), best, tuple(tried), first_refused)


def _with_tempered_windows(
    verifier: Verifier, original: Gate, current: Gate, best: Outcome, steps: list[str]
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
    if over_budget(original, candidate) is not None or out_of_bounds(candidate, verifier.texts.prose) is not None:
        return current, best, steps
    outcome = verifier.outcome(candidate)
    # Taken when it silences more; or as much, with no generated text to show for it, when
    # every window is short: a negator that close to both ends governs the match ("Licensee
    # shall have no obligation to indemnify"), and the audit's own frames of that kind are
    # often too stilted to keep. Across a long window a negator is as likely another
    # clause's ("…shall not act without consent, which it may withhold in its sole discretion").
    longest = longest_window(current.pattern)
    evidence_free = longest is not None and longest <= SHORT_WINDOW
    if outcome.safe and (score(outcome) > score(best) or (evidence_free and score(outcome) == score(best))):
        return candidate, outcome, [*steps, name]
    return current, best, steps


def _with_lead_in(
    verifier: Verifier, current: Gate, best: Outcome, steps: list[str]
) -> tuple[Gate, Outcome, list[str]]:
    """The chosen gate with a lead-in (`guard_windows.with_lead_in`) and the guard scoped
    `before` the match, when the engine's guard still drops a sin for a negator ahead of the
    match that the scope `before` sees too: in another clause ("No other term changes;
    <sin>") or a limit idiom ("No later than ten days after notice, <sin>"). Last, so that
    the guard and the widening are chosen on the pattern as the author wrote it."""
    if not current.negation_guard:
        return current, best, steps
    off = replace(current, negation_guard=False)
    before = replace(current, negation_scope="before")
    if not any(fires(off, t) and not fires(before, t) for t in verifier.texts.missed if t not in best.caught):
        return current, best, steps
    candidate = replace(before, pattern=with_lead_in(current.pattern))
    # No size budget: the lead-in and the negator stops it puts in the windows are one fixed
    # construct, which the budget does not count, and the gate it leads in passed its own
    # review (an exclusion whose figures were spelled every way is reviewed as it was). Read
    # back, a stopped window is "(?:[^.;]){0,80}", four characters longer than the author's.
    if out_of_bounds(candidate, verifier.texts.prose) is not None:
        return current, best, steps
    outcome = verifier.outcome(candidate)
    if outcome.safe and score(outcome) > score(best):
        return candidate, outcome, [*steps, "a lead-in the guard does not read (another clause, a limit idiom)"]
    return current, best, steps
