"""Guard proposals, and their verification by re-running the audit's texts.

A proposal is only reported as verified when, with the change applied to the gate
entry, the texts of the finding no longer fire (false positives) or now fire (dodges),
every must-fire text of the gate list still fires, and no correct-work text of the
list that was silent starts firing.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Any

from rubric_tools.audit.findings import Proposal
from rubric_tools.gate_analysis.gate_firing import fires, list_fires
from rubric_tools.scoring.gates import Gate, GateError, compile_pattern

#: Cue words of correct work that states a sin without a negator.
STRIKING_CUES = ("deleted", "struck", "replaced", "rejected", "reject")


@dataclass(frozen=True)
class ListTexts:
    """What verification needs about one gate list."""

    gates: tuple[Gate, ...]
    must_fire: tuple[str, ...]
    silent: tuple[str, ...]  # correct work and frames that the list must not fire on


def _with(texts: ListTexts, index: int, gate: Gate) -> tuple[Gate, ...]:
    return (*texts.gates[:index], gate, *texts.gates[index + 1 :])


def _valid(gate: Gate) -> bool:
    try:
        for text in (gate.pattern, gate.require_context, gate.exclude_context):
            if text:
                compile_pattern(text)
    except GateError:
        return False
    return True


def _verify(
    texts: ListTexts,
    index: int,
    gate: Gate,
    change: dict[str, Any],
    description: str,
    finding_texts: Sequence[str],
    *,
    want_fire: bool,
) -> Proposal:
    gates = _with(texts, index, gate)
    if want_fire:
        removes = all(list_fires(gates, text) for text in finding_texts)
    else:
        removes = not any(fires(gate, text) for text in finding_texts)
    lost = tuple(text for text in texts.must_fire if list_fires(texts.gates, text) and not list_fires(gates, text))
    new_hits = tuple(text for text in texts.silent if not list_fires(texts.gates, text) and list_fires(gates, text))
    return Proposal(change, description, removes and not lost and not new_hits, removes, lost[:3], new_hits[:3])


def _combine(existing: str | None, addition: str) -> str:
    return f"(?:{existing})|{addition}" if existing else addition


def _false_positive_candidates(gate: Gate, finding_texts: Sequence[str]) -> Iterator[tuple[Gate, dict[str, Any], str]]:
    """Guards from the lightest up: a negation guard (span, then before), an exclude_context
    on the striking words the texts use, then both together (frames mix negations and recitals)."""
    guards: list[tuple[Gate, dict[str, Any], str]] = []
    if not gate.negation_guard:
        guards.append(
            (replace(gate, negation_guard=True), {"negation_guard": True}, "drop matches with a negator before them")
        )
    if gate.negation_scope != "before":
        guards.append(
            (
                replace(gate, negation_guard=True, negation_scope="before"),
                {"negation_guard": True, "negation_scope": "before"},
                "drop matches with a negator before their start (not inside the match)",
            )
        )
    yield from guards
    joined = " ".join(finding_texts).lower()
    cues = [cue for cue in STRIKING_CUES if re.search(rf"\b{cue}\b", joined)]
    if not cues:
        return
    exclude = _combine(gate.exclude_context, rf"\b(?:{'|'.join(cues)})\b")
    description = "drop sentences that strike the words"
    yield replace(gate, exclude_context=exclude), {"exclude_context": exclude}, description
    for guarded, change, guard_description in guards:
        yield (
            replace(guarded, exclude_context=exclude),
            {**change, "exclude_context": exclude},
            f"{guard_description}, and {description}",
        )


def propose_for_false_positive(texts: ListTexts, index: int, finding_texts: Sequence[str]) -> Proposal | None:
    """The first verified guard that silences the entry on `finding_texts`; else the first
    that silences them (unverified, with what it loses); None when no guard does."""
    best: Proposal | None = None
    for gate, change, description in _false_positive_candidates(texts.gates[index], finding_texts):
        proposal = _verify(texts, index, gate, change, description, finding_texts, want_fire=False)
        if proposal.verified:
            return proposal
        if best is None and proposal.removes_finding:
            best = proposal
    return best


_APOSTROPHE = re.compile(r"(?<![\[\\])'(?![^\[]*\])")


def _widen(pattern: str, kind: str, original: str, dodge: str) -> str | None:
    """The pattern widened to accept the rewrite `kind` made of `original` into `dodge`."""
    if kind == "typographic apostrophe" and _APOSTROPHE.search(pattern):
        return _APOSTROPHE.sub("['’]", pattern)
    if kind == "typographic quotes" and '"' in pattern:
        return pattern.replace('"', '["“”]')
    if kind == "space to hyphen":
        for pair in re.finditer(r"(?<![\w-])([a-z]+)-([a-z]+)(?![\w-])", dodge):
            spaced = f"{pair.group(1)} {pair.group(2)}"
            if spaced in original and spaced in pattern:
                return pattern.replace(spaced, f"{pair.group(1)}[- ]{pair.group(2)}", 1)
        return None
    if kind.startswith("hyphen"):
        widened = re.sub(r"(?<=\w)-(?=\w)", "[- ]?", pattern, count=1)
        return widened if widened != pattern else None
    if kind == "dotted section reference in a bounded window" and "[^.]" in pattern:
        return pattern.replace("[^.]", r"(?:[^.]|\.(?=\d))")
    if kind == "inflection" and pattern.endswith("s") and pattern[-2:-1].isalpha():
        return pattern + "?"
    if kind.startswith(("inserted", "synonym", "swapped idiom", "nominalization", "inflection (")):
        return _widen_words(pattern, original, dodge)
    return None


def _widen_words(pattern: str, original: str, dodge: str) -> str | None:
    """Replace the first differing word run of `original` by an alternation with `dodge`'s."""
    before, after = original.split(" "), dodge.split(" ")
    start = 0
    while start < min(len(before), len(after)) and before[start] == after[start]:
        start += 1
    end_b, end_a = len(before), len(after)
    while end_b > start and end_a > start and before[end_b - 1] == after[end_a - 1]:
        end_b, end_a = end_b - 1, end_a - 1
    old, new = " ".join(before[start:end_b]), " ".join(after[start:end_a])
    if not old:  # an insertion: allow one optional word after the preceding word
        anchor = before[start - 1] if start > 0 else None
        if anchor is None or not re.search(rf"\b{re.escape(anchor)} ", pattern):
            return None
        return re.sub(rf"\b{re.escape(anchor)} ", lambda m: m.group(0) + r"(?:\w+ )?", pattern, count=1)
    addition = re.escape(new).replace("\\ ", " ")
    if f"(?:{old}|" in pattern:  # widened before: add one more alternative
        return pattern.replace(f"(?:{old}|", f"(?:{old}|{addition}|", 1)
    # The words as a whole literal: not part of a longer word, not under a quantifier ("prohibits?").
    literal = rf"(?<![\w\\]){re.escape(old)}(?![\w?*+{{])"
    if not re.search(literal, pattern):
        return None
    return re.sub(literal, lambda _m: f"(?:{old}|{addition})", pattern, count=1)


def propose_for_dodges(texts: ListTexts, index: int, dodged: Sequence[tuple[str, str, str]]) -> Proposal | None:
    """A widened pattern accepting every rewrite in `dodged` ((kind, original, dodge) triples)."""
    gate = texts.gates[index]
    pattern = gate.pattern
    covered: list[tuple[str, str]] = []
    for kind, original, dodge in dodged:
        widened = _widen(pattern, kind, original, dodge)
        if widened is not None and _valid(replace(gate, pattern=widened)):
            pattern = widened
            covered.append((kind, dodge))
    if pattern == gate.pattern:
        return None
    # Rewrites no widening expresses (a clause split in two sentences) are left to the author.
    uncovered = tuple(dict.fromkeys(kind for kind, _o, _d in dodged if kind not in {k for k, _ in covered}))
    kinds = f" ({', '.join(kind for kind, _ in covered)})" if uncovered else ""
    proposal = _verify(
        texts,
        index,
        replace(gate, pattern=pattern),
        {"pattern": pattern},
        f"widen the pattern to accept the rewrites{kinds}",
        [dodge for _kind, dodge in covered],
        want_fire=True,
    )
    if not uncovered:
        return proposal
    # The finding stays until the author adds an entry for the rest: not verified (the contract).
    return dataclasses.replace(proposal, verified=False, removes_finding=False, uncovered=uncovered)
