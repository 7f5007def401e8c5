"""What a proposal for one gate entry is verified against, and how it does.

Verification never loses a catch: a candidate is refused when it silences any text the
gate list fires on today among its must-fire texts, or makes the list fire on any
correct-work text it is silent on today (including the frames of the widened pattern's
own new witnesses); and when it breaks lint's bounds for gate regexes or its size budget.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache

from rubric_tools.audit.guard_windows import bounded, has_lead_in, led, without_lead_in, without_window_stops
from rubric_tools.audit.quantities import spellings
from rubric_tools.audit.scoped_guards import EXCLUSION_BUDGET, EXCLUSION_TOTAL_BUDGET, budget_length, written_length
from rubric_tools.audit.texts import entry_texts
from rubric_tools.audit.thesaurus import Thesaurus
from rubric_tools.code_registry import lookup
from rubric_tools.gate_analysis.gate_firing import fires
from rubric_tools.gate_analysis.regex_shape import unnormalized_requirement
from rubric_tools.gate_analysis.search_cost import describe_cost, prose_sample, search_cost
from rubric_tools.scoring.gates import Gate

#: What a proposed gate's search cost is estimated on where no matter is given: lint adds
#: the matter's documents (`search_cost.matter_prose`), and so does the audit.
ORDINARY_PROSE = prose_sample(())


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
    prose: str = ORDINARY_PROSE  # what lint measures the search cost on (G017)


@dataclass(frozen=True)
class Outcome:
    lost: tuple[str, ...]
    new_hits: tuple[str, ...]
    silenced: tuple[str, ...]
    caught: tuple[str, ...]

    @property
    def safe(self) -> bool:
        return not self.lost and not self.new_hits


def score(outcome: Outcome) -> int:
    return len(outcome.silenced) + len(outcome.caught)


def why(outcome: Outcome) -> str:
    """What a refused candidate would break, shown by one text: a whole sentence when one
    is among them (the sin in its habitat reads better than the regex's bare words)."""
    if outcome.lost:
        return f"loses a catch: {_shown(outcome.lost)!r}"
    return f"fires on correct work: {_shown(outcome.new_hits)!r}"


def _shown(texts: Sequence[str]) -> str:
    return next((text for text in texts if text[:1].isupper() and text.endswith(".")), texts[0])


def _code(name: str) -> str:
    """The code of the lint rule called `name` (the code table knows every code)."""
    entry = lookup(name)
    return entry.code if entry is not None else name


def out_of_bounds(gate: Gate, prose: str = ORDINARY_PROSE) -> str | None:
    """Why a proposed gate breaks lint's rules for gate regexes (G003, G007, G008, G012,
    G016, G017), or None. `prose` is what its search cost is measured on: the matter's
    sample (`search_cost.matter_prose`), as lint measures it, where the matter is known."""
    for regex in (gate.pattern, gate.require_context, gate.exclude_context):
        if regex:
            problem = bounded(regex)
            if problem is not None:
                return problem
    if unnormalized_requirement(gate.pattern) is not None:
        return f"needs text that normalization removes ({_code('gate-needs-unnormalized-text')})"
    if fires(Gate(gate.pattern), ""):
        return f"matches the empty string ({_code('gate-matches-empty')})"
    # A pattern that matches at nearly every character of the prose runs its guards on
    # every match; its lookaheads over the matter's own words may not finish at all.
    cost = search_cost(gate, prose)
    if cost is not None and cost.too_costly:
        return f"too costly to search with ({_code('gate-search-too-costly')}): {describe_cost(cost)}"
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
    # The lead-in a guard scoped `before` needs is one fixed construct, not the author's words,
    # and so is the negator stop it puts in the pattern's windows (`without_window_stops`).
    own = without_window_stops(without_lead_in(before.pattern))
    length = len(without_window_stops(without_lead_in(after.pattern)))
    if length > max(pattern_budget(own), len(own)):
        return f"the pattern would grow to {length} characters (budget {pattern_budget(own)})"
    added = budget_length(after.exclude_context or "") - budget_length(before.exclude_context or "")
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


def flagged_in_another_spelling(gate: Gate, text: str) -> bool:
    """Whether `gate` fires on `text` with one of its figures written another way ("a year"
    as "12 months", "5.0 %" as "five percent"): then a wider gate firing on `text` adds no
    correct work the gate did not already flag."""
    return any(fires(gate, variant) for variant in spellings(text))


def frame_texts(gate: Gate, surface: str) -> list[str]:
    """The frames of the gate's own witnesses (completed into clauses as the audit's texts
    are): correct work it must stay silent on."""
    return [text for _kind, text in _frame_texts(gate, surface)]


@lru_cache(maxsize=256)
def _frame_texts(gate: Gate, surface: str) -> tuple[tuple[str, str], ...]:
    # Cached: every candidate of an entry is compared with the same gate before it.
    return tuple((text.kind, text.text) for text in entry_texts(gate, 0, surface, Thesaurus(), partial=True)[1])


class Verifier:
    """What a candidate for one entry does to its texts. With `lead_in`, the entry has a
    lead-in (`guard_windows.with_lead_in`) that candidates are written without: each is
    verified as it will be written, with the lead-in back in front (`led`)."""

    def __init__(self, texts: EntryTexts, lead_in: bool = False) -> None:
        self.texts = texts
        self.lead_in = lead_in
        gate = texts.gates[texts.index]
        # Every protected text this entry catches stays caught by it, even one another entry
        # also catches: the proposals of all entries of a list can then be applied together.
        self.protected = [t for t in texts.protected if fires(gate, t)]
        self.others = [g for i, g in enumerate(texts.gates) if i != texts.index]

    def led(self, gate: Gate) -> Gate:
        """`gate` as written into the rubric: with the entry's lead-in, if it has one."""
        if not self.lead_in or has_lead_in(gate.pattern):
            return gate
        return replace(gate, pattern=led(gate.pattern), negation_guard=True, negation_scope="before")

    def outcome(self, gate: Gate, extra_silent: Sequence[str] = ()) -> Outcome:
        gate = self.led(gate)
        lost = tuple(t for t in self.protected if not fires(gate, t))
        new_hits = tuple(t for t in (*self.texts.silent, *extra_silent) if fires(gate, t))
        silenced = tuple(t for t in self.texts.false_positives if not fires(gate, t))
        caught = tuple(t for t in self.texts.missed if fires(gate, t))
        return Outcome(lost, new_hits, silenced, caught)

    def new_frames(self, before: Gate, after: Gate) -> list[str]:
        """Frames of the widened pattern's witnesses the old one did not have."""
        if after.pattern == before.pattern:
            return []
        old = _frame_texts(before, self.texts.surface)
        old_texts = {text for _kind, text in old}
        # A frame the gate already fires on around its own witnesses is the gate's defect
        # (U003), not one the widening adds: the same frame around a new witness is that
        # defect again; so is a frame the gate fires on with its figure spelled its own way.
        flagged_kinds = {kind for kind, text in old if fires(before, text)}
        new = [
            text
            for kind, text in _frame_texts(after, self.texts.surface)
            if text not in old_texts and kind not in flagged_kinds
        ]
        return [
            t for t in new if not any(fires(g, t) for g in self.others) and not flagged_in_another_spelling(before, t)
        ]


def verify(texts: EntryTexts, candidate: Gate) -> Outcome:
    """What putting `candidate` in place of the entry does to its texts: the protected texts
    it loses, the silent ones it fires on, the false positives it silences, the missed sins
    it catches (and the frames of its own new witnesses it fires on, as new hits)."""
    verifier = Verifier(texts)
    return verifier.outcome(candidate, verifier.new_frames(texts.gates[texts.index], candidate))
