"""Running gates on texts as the scorer runs them (`Gate.fires`, `run_gates`), on text
normalized by the scorer's `normalize`: on the stdlib `re` where `plain_search` proves that
is the same search and needs no time limit, else through the scorer's own matcher; the
must-fire witness texts of one gate entry, with the reason when there are none; and the
rubric's gate lists with positions. Shared by lint rule U001 and `rubric audit`.
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Any

from rubric_tools.catalogue import declare_rule_code
from rubric_tools.diagnostics import Severity
from rubric_tools.gate_analysis.alternatives import Alternative
from rubric_tools.gate_analysis.plain_search import plain_fires, plain_pattern, plain_survives, re_compiled
from rubric_tools.gate_analysis.regex_risk import backtracking_risk
from rubric_tools.gate_analysis.regex_shape import cannot_match, unnormalized_requirement
from rubric_tools.gate_analysis.witness import Witness, iter_witnesses, raw_candidates, witnesses
from rubric_tools.loading.elements import GateElement, MatterModel
from rubric_tools.loading.yaml_source import InstancePath
from rubric_tools.scoring.gates import Gate, GateError, GateTimeout, compile_pattern, refusal, sentence_bounds
from rubric_tools.scoring.model import GATE_SURFACES
from rubric_tools.scoring.text import normalize, show_pattern

#: Lint rule U001 (`rubric_tools.lint.rules.audit`) and `rubric audit` report it alike.
GATE_NEVER_FIRES = declare_rule_code("U001", "gate-never-fires", Severity.ERROR)

#: Neutral surroundings: a gate that fires only on the bare phrase fires on no real text.
CONTEXT = "in our view {t} on these terms."


#: Per-search time limit in the audit: its texts are short, so a search this slow means a
#: backtracking pattern (lint rule G012), which is left out rather than waited on.
AUDIT_SEARCH_TIMEOUT = 0.1


#: The audit runs every gate (and every candidate guard) on the same few thousand texts.
_normalized = lru_cache(maxsize=65536)(normalize)


def fires(gate: Gate, text: str) -> bool:
    """Whether `gate` fires on `text` as the scorer scores it (normalized first)."""
    return _fires_normalized(gate, _normalized(text))


#: Remembered: the audit asks the same gate of the same text again (the list's verdict on
#: a text, then each entry's own; a witness's fire check, then its completion's).
@lru_cache(maxsize=65536)
def _fires_normalized(gate: Gate, text: str) -> bool:
    if cannot_match(gate.pattern, text):
        return False  # two texts in five that the audit asks about: no search
    plain = plain_fires(gate, text)  # `re`, where that is the same search (`plain_search`)
    if plain is not None:
        return plain
    try:
        return gate.fires(text, AUDIT_SEARCH_TIMEOUT)
    except (GateError, GateTimeout):
        return False


def list_fires(gates: Sequence[Gate], text: str) -> bool:
    """Whether a gate list fires on `text`: one of its gates does, as `run_gates` reports it
    (a gate that does not compile or times out does not fire). The gates after the first
    that fires are not run."""
    normalized = _normalized(text)
    return any(_fires_normalized(gate, normalized) for gate in gates)


def first_span(pattern: str, text: str, timeout: float = AUDIT_SEARCH_TIMEOUT) -> tuple[int, int] | None:
    """The span of the first match of `pattern` in `text`, as the scorer's compiled pattern
    finds it; None when there is none, when the pattern does not compile or the search
    times out."""
    plain = plain_pattern(pattern, text)
    try:
        match = plain.search(text) if plain is not None else compile_pattern(pattern).search(text, timeout=timeout)
    except (GateError, TimeoutError):
        return None
    return match.span() if match is not None else None


def matched_sentence(gate: Gate, text: str) -> str:
    """The normalized sentence around the first match of the gate's pattern in `text`."""
    normalized = normalize(text)
    span = first_span(gate.pattern, normalized)
    if span is None:
        return normalized
    start, end = sentence_bounds(normalized, *span)
    return normalized[start:end].strip()


def runnable(gate: Gate) -> bool:
    """Whether the scorer takes every regex of the gate (G003 reports the others) and none
    risks catastrophic backtracking (G012 reports those; running them would only time out).
    Checked short of compiling it on `regex` (`refusal`): most gates are searched only on
    `re` (`plain_search`), and `regex` compiles the others when a search needs them."""
    for text in (gate.pattern, gate.require_context, gate.exclude_context):
        if text:
            if refusal(text) is not None or backtracking_risk(text) is not None:
                return False
            re_compiled(text)  # `re`'s compilation for the scorer's check, while `re` still has it
    return True


@dataclass(frozen=True)
class FireText:
    """A text built from the gate's own pattern on which the gate fires."""

    text: str
    strategy: str
    bare_only: bool = False  # fires on the phrase alone, never inside a sentence
    #: The require_context witness is written beside it ("cannot modify legally"): the
    #: witness alone does not hold the required words.
    requirement_added: bool = False


def _bases(witness: str, requirement: str | None) -> list[str]:
    """The texts to try for a witness, in order: the witness alone first, for it may hold
    the required context itself ("cannot legally modify" needs no "legally" added), then
    with the require_context witness after it and before it."""
    if requirement is None:
        return [witness]
    return [witness, f"{witness} {requirement}", f"{requirement} {witness}"]


def fire_texts(gate: Gate) -> list[FireText]:
    """Must-fire texts of one entry: its typeable witnesses (with a require_context
    witness beside them when it has one) that the entry fires on."""
    return list(_fire_texts(gate))


@lru_cache(maxsize=1024)
def _fire_texts(gate: Gate) -> tuple[FireText, ...]:
    return tuple(_iter_fire_texts(gate, witnesses(gate.pattern)))


def _iter_fire_texts(gate: Gate, found: Iterable[Witness]) -> Iterator[FireText]:
    """`fire_texts` of the witnesses `found`, one at a time."""
    requirement = None
    if gate.require_context:
        required = [w for w in witnesses(gate.require_context) if w.typeable]
        requirement = required[0].text if required else None
    for witness in found:
        if not witness.typeable:
            continue
        for base in _bases(witness.text, requirement):
            added = base != witness.text
            if fires(gate, CONTEXT.format(t=base)):
                yield FireText(base, witness.strategy, requirement_added=added)
                break
            if fires(gate, base):
                yield FireText(base, witness.strategy, bare_only=True, requirement_added=added)
                break


def _fires_in_context(gate: Gate) -> bool:
    """Whether some witness of the gate fires inside a sentence: `fire_texts` has a text
    that is not bare-only. Witnesses are built one at a time, up to the first that does."""
    return any(not text.bare_only for text in _iter_fire_texts(gate, iter_witnesses(gate.pattern)))


def fires_in_context(gate: Gate, texts: Iterable[str]) -> bool:
    """Whether `gate` fires on one of `texts` inside the neutral sentence (`CONTEXT`). Such a
    text shows that it can fire; `never_fires_reason` shows the same with witnesses built from
    the gate's own pattern, and could say otherwise only where every one of those missed
    (tests/test_audit_alternatives.py: never on the corpora's gates)."""
    return any(fires(gate, CONTEXT.format(t=text)) for text in texts)


#: A reference to a group, which a marker group (`_marked`) would renumber.
_GROUP_REFERENCE = re.compile(r"\\[1-9]|\\g<|\(\?P=|\(\?\(")


def alternatives_firing_in_context(gate: Gate, found: Sequence[Alternative], texts: Iterable[str]) -> set[int]:
    """The indices of `found` (alternatives of the gate's pattern) that one search of the whole
    pattern per text shows to fire on one of `texts` inside the neutral sentence, as
    `fires_in_context` of each would: the first match, when it went through every branch an
    alternative keeps and survives the guards, is that alternative's first match too (where
    the whole pattern matches nowhere, neither does a part of it; from the match's start,
    the alternative tries its ways in the pattern's order). Only where the pattern is searched
    on `re` (`plain_search`), as the alternative then is, under the pattern's bound
    (`cut_from`). The rest is `fires_in_context`'s, which compiles each alternative."""
    starts = sorted({start for alternative in found for start in alternative.starts})
    marked = _marked(gate.pattern, starts) if starts else None
    if marked is None:
        return set()
    shown: set[int] = set()
    for text in texts:
        normalized = _normalized(CONTEXT.format(t=text))
        if plain_pattern(gate.pattern, normalized, normalized=True) is None:
            continue
        match = marked.search(normalized)
        if match is None or not plain_survives(gate, normalized, [match]):
            continue
        went = {start for start in starts if match.start(f"m{start}") >= 0}
        shown.update(index for index, alternative in enumerate(found) if went.issuperset(alternative.starts))
    return shown


def _marked(pattern: str, starts: Sequence[int]) -> re.Pattern[str] | None:
    """`pattern` as `re` compiles it, an empty group `m<position>` added where each branch at
    `starts` begins: the same search, that tells which of those branches a match went
    through. None for a pattern with a group reference, or one that does not compile so."""
    if _GROUP_REFERENCE.search(pattern):
        return None
    for start in reversed(starts):
        pattern = f"{pattern[:start]}(?P<m{start}>){pattern[start:]}"
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # FutureWarnings about possible set syntax, as `plain_search`'s
            return re.compile(pattern, re.IGNORECASE)
    except (re.error, RecursionError, OverflowError, ValueError):
        return None


_MISPLACED_END = re.compile(r"(?<!\\)\$(?![\s)|]*(?:\||$))")


def never_fires_reason(gate: Gate) -> tuple[str, list[str]] | None:
    """Why the entry can never fire on any agent text, with the texts tried; None when it can
    (or when lint rules G007/G008 already say everything: it matches any text, or it needs
    whitespace that normalization removes)."""
    found = _never_fires_reason(gate)
    return None if found is None else (found[0], list(found[1]))


@lru_cache(maxsize=4096)  # `rubric check` asks it of every gate twice: lint rule U001, then the audit
def _never_fires_reason(gate: Gate) -> tuple[str, tuple[str, ...]] | None:
    reason = _reason(gate)
    return None if reason is None else (reason[0], tuple(reason[1]))


def _reason(gate: Gate) -> tuple[str, list[str]] | None:
    # Any one of these says None; the one that usually holds (a gate fires inside a sentence,
    # which `fire_texts` below would find, found here without building every witness) first.
    if _fires_in_context(gate) or unnormalized_requirement(gate.pattern) is not None or fires(Gate(gate.pattern), ""):
        return None
    found = witnesses(gate.pattern)
    if not found:
        tried = raw_candidates(gate.pattern)[:2]
        if _MISPLACED_END.search(gate.pattern):
            return (
                "an unescaped `$` (end of text) is followed by more pattern, so nothing can match "
                "(write `\\$` for a dollar sign)",
                tried,
            )
        return "no text built from the pattern matches it (a misplaced anchor or a contradictory lookaround)", tried
    typeable = [w for w in found if w.typeable]
    if not typeable:
        control = next(c for c in found[0].text if ord(c) < 32 or ord(c) == 127)
        hint = (
            ' (YAML turns "\\b" in a double-quoted string into a backspace; quote regexes with \')'
            if control == "\b"
            else ""
        )
        return (
            f"every match needs the control character U+{ord(control):04X}, which no agent text contains{hint}",
            [w.text for w in found[:2]],
        )
    texts = fire_texts(gate)
    if any(not t.bare_only for t in texts):
        return None
    if texts:
        return (
            "it fires only when the whole scored text is exactly the match (a `^`/`$` anchor): "
            "scored text always has more around it",
            [t.text for t in texts[:2]],
        )
    return _guard_reason(gate, [w.text for w in typeable]), [w.text for w in typeable[:2]]


def _guard_reason(gate: Gate, texts: list[str]) -> str:
    plain = Gate(gate.pattern)
    if gate.negation_guard and not any(
        fires(replace(plain, negation_guard=True, negation_scope=gate.negation_scope), t) for t in texts
    ):
        return "every match contains a negator itself, and `negation_guard` drops every match with a negator"
    if gate.exclude_context and not any(fires(replace(plain, exclude_context=gate.exclude_context), t) for t in texts):
        return "`exclude_context` matches every match of the pattern itself, so every match is dropped"
    if gate.require_context:
        return "no sentence holding a match can also satisfy `require_context`"
    return "no match survives the gate's guards"


# ------------------------------------------------------------------ gate lists


@dataclass(frozen=True)
class AuditedEntry:
    """One runnable entry of a gate list, with where it sits in rubric.yaml."""

    issue_index: int
    issue_id: str
    surface: str
    entry_index: int
    gate: Gate
    #: The entry in the matter's model.
    element: GateElement = field(compare=False)

    @property
    def path(self) -> InstancePath:
        return ("issues", self.issue_index, GATE_SURFACES[self.surface], self.entry_index)

    def subject(self) -> dict[str, Any]:
        return {
            "issue": self.issue_id,
            "surface": self.surface,
            "entry": self.entry_index,
            "pattern": self.gate.pattern,
        }


@dataclass
class GateList:
    """One gate list of one issue: its runnable entries, positions kept."""

    issue_index: int
    issue_id: str
    surface: str
    entries: list[AuditedEntry]
    #: An entry was left out (it does not compile, or it backtracks): the list as scored may
    #: catch what the audited entries miss, so dodges are not reported on it.
    partial: bool = False

    @property
    def gates(self) -> tuple[Gate, ...]:
        return tuple(entry.gate for entry in self.entries)


def gate_lists(model: MatterModel) -> Iterator[GateList]:
    """Every non-empty gate list of the matter's rubric, each entry with its position."""
    for issue in model.issues:
        for surface in GATE_SURFACES:
            entries, partial = [], False
            for element in issue.gate_list(surface):
                if element.gate is not None and runnable(element.gate):
                    entries.append(
                        AuditedEntry(issue.index, str(issue.id), surface, element.index, element.gate, element)
                    )
                else:
                    partial = True
            if entries:
                yield GateList(issue.index, str(issue.id), surface, entries, partial)


def never_fires_message(entry: AuditedEntry, reason: str) -> str:
    """U001's message, for the lint rule and `rubric audit` alike."""
    return f"gate {show_pattern(entry.gate.pattern)} on {entry.issue_id}/{entry.surface} can never fire: {reason}"
