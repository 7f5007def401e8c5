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

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from rubric_tools.audit.scoped_guards import bounded, exclusion_for, scopes_for, windows_without_negators
from rubric_tools.audit.texts import entry_texts
from rubric_tools.audit.thesaurus import Thesaurus
from rubric_tools.audit.widening import FALLBACKS, STEPS
from rubric_tools.code_registry import lookup
from rubric_tools.gate_analysis.gate_firing import fires
from rubric_tools.gate_analysis.regex_shape import unnormalized_requirement
from rubric_tools.scoring.gates import Gate


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


def frame_texts(gate: Gate, surface: str) -> list[str]:
    """The frames of the gate's own witnesses (completed into clauses as the audit's texts
    are): correct work it must stay silent on."""
    return [text.text for text in entry_texts(gate, 0, surface, Thesaurus(), partial=True)[1]]


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
    #: The entry's own exclusion kept inside the new one (None: replaced by it).
    kept_exclusion: str | None


def _guard_options(gate: Gate, surface: str) -> list[_GuardOption]:
    """Guards to try, scoped by meaning first: an exclusion of what governs the clause, kept
    with the entry's own exclusion or in place of it, with or without its `negation_guard`,
    with the pattern's windows closed to negators or not; a bare `negation_guard` last. Each
    is refused whenever it silences a protected text, so an entry's own careless guard (a
    negator anywhere before the match) is replaced only when the scoped one keeps its catches."""
    kinds = scopes_for(surface)
    tempered = windows_without_negators(gate.pattern)
    patterns = [(gate.pattern, "")]  # on a tie the lighter change wins: it comes first
    if tempered:
        patterns.append((tempered, " and windows no negator crosses"))
    kept_options = [(gate.exclude_context, "")]
    if gate.exclude_context:
        kept_options.append((None, " instead of the entry's exclude_context"))
    options: list[_GuardOption] = []
    for kept, instead in kept_options:
        for pattern, windows in patterns:
            exclusion = exclusion_for(pattern, kinds, kept)
            if bounded(exclusion) is not None:
                continue
            scoped = replace(gate, pattern=pattern, exclude_context=exclusion)
            options.append(_GuardOption(f"guard scoped by meaning{windows}{instead}", scoped, kept))
            if gate.negation_guard:
                name = f"guard scoped by meaning{windows}{instead} and instead of negation_guard"
                options.append(_GuardOption(name, replace(scoped, negation_guard=False, negation_scope="span"), kept))
    if tempered:
        options.append(
            _GuardOption("windows no negator crosses", replace(gate, pattern=tempered), gate.exclude_context)
        )
    if not gate.negation_guard:
        options.append(_GuardOption("negation_guard", replace(gate, negation_guard=True), gate.exclude_context))
    if gate.negation_scope != "before":
        before = replace(gate, negation_guard=True, negation_scope="before")
        options.append(_GuardOption("negation_guard before the match", before, gate.exclude_context))
    return options


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
    scoped_kinds = scopes_for(texts.surface)
    guarded, kept = False, gate.exclude_context
    if texts.false_positives or ((gate.negation_guard or gate.exclude_context) and texts.missed):
        for option in _guard_options(gate, texts.surface):
            if out_of_bounds(option.gate) is not None:
                continue
            outcome = verifier.outcome(option.gate)
            if not outcome.safe:
                tried.append(f"{option.name}: {_why(outcome)}")
                first_refused = first_refused or (option.gate, outcome)
                continue
            if _score(outcome) > _score(best):
                best, current, steps = outcome, option.gate, [option.name]
                guarded, kept = option.gate.exclude_context != gate.exclude_context, option.kept_exclusion
    if texts.missed:
        current, best, widened, refused = _widen(verifier, texts, current, best, guarded, scoped_kinds, kept)
        steps += widened
        tried += refused
    change = _change(gate, current)
    if not change:
        return EntryProposal(gate, gate, {}, (), best, tuple(tried), first_refused)
    return EntryProposal(gate, current, change, tuple(steps), best, tuple(tried), first_refused)


def _why(outcome: Outcome) -> str:
    if outcome.lost:
        return f"loses a catch: {outcome.lost[0]!r}"
    return f"fires on correct work: {outcome.new_hits[0]!r}"


def _rebuilt(current: Gate, pattern: str, guarded: bool, kinds: Sequence[str], kept: str | None) -> list[Gate]:
    """The gate with a widened pattern; a scoped exclusion this proposal added is rebuilt
    around the new pattern (or, when that is too costly, kept around the old one)."""
    widened = replace(current, pattern=pattern)
    if not guarded:
        return [widened]
    rebuilt = exclusion_for(pattern, kinds, kept)
    options = [replace(widened, exclude_context=rebuilt)] if bounded(rebuilt) is None else []
    return [*options, widened]


def _widen(
    verifier: _Verifier,
    texts: EntryTexts,
    current: Gate,
    best: Outcome,
    guarded: bool,
    kinds: Sequence[str],
    kept: str | None,
) -> tuple[Gate, Outcome, list[str], list[str]]:
    done: list[str] = []
    refused: list[str] = []
    # Every step at once first: one verification (and one compile of the exclusion) when
    # it is safe, which is the common case; else step by step.
    together, kinds_done = current.pattern, list[str]()
    for step in STEPS:
        if step.kind in FALLBACKS and FALLBACKS[step.kind] in kinds_done:
            continue
        widened = step.apply(together, texts.thesaurus)
        if widened is not None and out_of_bounds(Gate(widened)) is None:
            together, kinds_done = widened, [*kinds_done, step.kind]
    if kinds_done:
        for candidate in _candidates(current, together, guarded, kinds, kept):
            if out_of_bounds(candidate) is not None:
                continue
            outcome = verifier.outcome(candidate, verifier.new_frames(current, candidate))
            if outcome.safe and len(outcome.caught) > len(best.caught):
                return candidate, outcome, kinds_done, refused
            if not outcome.safe:
                refused.append(f"{', '.join(kinds_done)} together: {_why(outcome)}")
    skip: set[str] = set()
    for step in STEPS:
        if step.kind in skip:
            continue
        pattern = step.apply(current.pattern, texts.thesaurus)
        if pattern is None:
            continue
        accepted = False
        for candidate in _candidates(current, pattern, guarded, kinds, kept):
            problem = out_of_bounds(candidate)
            if problem is not None:
                refused.append(f"{step.kind}: {problem}")
                continue
            outcome = verifier.outcome(candidate, verifier.new_frames(current, candidate))
            if not outcome.safe:
                refused.append(f"{step.kind}: {_why(outcome)}")
                continue
            if len(outcome.caught) <= len(best.caught):
                break  # catches nothing more: not kept (the fix loop converges)
            guarded = guarded or candidate.exclude_context != current.exclude_context
            current, best, accepted = candidate, outcome, True
            done.append(step.kind)
            break
        if accepted:
            skip.update(k for k, fallback_of in FALLBACKS.items() if fallback_of == step.kind)
    return current, best, done, refused


def _candidates(current: Gate, pattern: str, guarded: bool, kinds: Sequence[str], kept: str | None) -> list[Gate]:
    """The widened gate with a scoped exclusion first — a wider pattern meets more correct
    work, so it comes with the guards scoped by meaning even when the audit's own frames did
    not need them — then as it stands."""
    found = _rebuilt(current, pattern, guarded, kinds, kept)
    if not guarded:
        exclusion = exclusion_for(pattern, kinds, kept)
        if bounded(exclusion) is None:
            found.insert(0, replace(current, pattern=pattern, exclude_context=exclusion))
    return found
