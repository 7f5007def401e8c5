"""Moves that close each negotiated issue on language scoring its settlement_points.

The preferred close is on our own markup: a text holding an `accept_concepts` variant
and every settlement concept, sent `resist_rounds + 1` times (the counters served in
between are ignored). Accepting a counter is planned only when no markup of ours can
score fully and that counter does, without tripping a gate.
"""

from __future__ import annotations

from dataclasses import dataclass

from rubric_tools.prove.dialogue import Analysis
from rubric_tools.prove.moves import Action, Move
from rubric_tools.prove.shortfalls import (
    COUNTERPARTY_FILE,
    RUBRIC_FILE,
    UNLOCATED,
    InstancePath,
    Places,
    Reason,
    Shortfall,
)
from rubric_tools.prove.wording import Wording, compose, non_acceptable_text
from rubric_tools.scoring.gates import DEFAULT_SEARCH_TIMEOUT, run_gates
from rubric_tools.scoring.model import Issue, Matter, Position
from rubric_tools.scoring.text import concept_fraction, normalize, split_citation

#: No real script resists longer; the cap keeps an absurd resist_rounds from filling memory.
MAX_PLANNED_ROUNDS = 10_000


@dataclass(frozen=True)
class Close:
    """A way to close the issue: the actions, the rounds they use and the points earned."""

    actions: list[Action]
    points: float
    full: bool


def markup_target(matter: Matter, issue: Issue) -> tuple[str, str, bool]:
    """(document_id, section, via_anchor) for a markup. `via_anchor` is False when the
    target cannot reach the issue on its own and the markup relies on the issue label."""
    anchor = issue.anchor
    split = anchor.find(" §")
    if split >= 0 and matter.rubric.anchors.get(anchor) is issue:
        # format_citation(d, s) == f"{d} §{s}", so this pair rebuilds the anchor exactly.
        return anchor[:split], anchor[split + 2 :], True
    parsed = split_citation(anchor)
    document_id, section = parsed if parsed is not None else (anchor, "")
    return document_id, section, False


def round_limit(matter: Matter) -> tuple[str, int]:
    """The binding limit on one negotiation's rounds: the round budget, or the steps left
    beside the final submission (every round is a step), whichever is smaller."""
    limits = matter.constraints
    steps = max(limits.maximum_steps, 1) - 1
    if min(steps, limits.maximum_negotiation_rounds) > MAX_PLANNED_ROUNDS:
        return "maximum_negotiation_rounds", MAX_PLANNED_ROUNDS
    if steps < limits.maximum_negotiation_rounds:
        return "maximum_steps", steps
    return "maximum_negotiation_rounds", limits.maximum_negotiation_rounds


def _markup(label: str, target: tuple[str, str], text: str) -> Action:
    return {
        "type": "send_markup",
        "issue_id": label,
        "document_id": target[0],
        "section": target[1],
        "proposed_text": text,
    }


def _points(issue: Issue, text: str) -> float:
    if not issue.settlement_concepts:
        return issue.settlement_points  # the scaffold: any closing text scores
    found, _ = concept_fraction(issue.settlement_concepts, normalize(text))
    return issue.settlement_points * len(found) / len(issue.settlement_concepts)


def _our_wordings(issue: Issue, position: Position, timeout: float) -> list[Wording]:
    """For each accept variant, the best text stating it plus the settlement concepts."""
    gates = issue.settlement_critical_failure_patterns
    return [
        compose(issue.settlement_concepts, gates, mandatory=variant, timeout=timeout)
        for variant in position.accept_concepts
        if variant
    ]


def _counter_close(
    issue: Issue, position: Position, label: str, target: tuple[str, str], max_rounds: int, timeout: float
) -> Close | None:
    """Accept the first counter that scores fully and trips no gate, if the rounds allow."""
    filler = non_acceptable_text(position)
    if filler is None:
        return None
    for order, counter in enumerate(position.counters):
        text = normalize(counter.text)
        found, missing = concept_fraction(issue.settlement_concepts, text)
        gated = run_gates(issue.settlement_critical_failure_patterns, text, timeout).last_fired
        if missing or gated is not None or order + 2 > max_rounds:
            continue
        # `order + 1` markups that cannot close serve counters 0..order; the last one stays
        # outstanding and is accepted.
        actions = [_markup(label, target, filler)] * (order + 1)
        actions.append({"type": "accept_counterparty", "issue_id": label})
        return Close(actions, _points(issue, counter.text), True)
    return None


def negotiation_moves(
    matter: Matter,
    index: int,
    label: str,
    issue_matchable: bool,
    timeout: float = DEFAULT_SEARCH_TIMEOUT,
    places: Places = UNLOCATED,
) -> Analysis:
    """The markups (and, only if unavoidable, the acceptance) that settle issue `index`."""
    analysis = Analysis()
    issue = matter.rubric.issues[index]
    position = matter.positions.get(issue.id)
    if position is None or issue.settlement_points <= 0:
        return analysis
    where = places.position(issue.id)
    what = f"the settlement of issue {issue.id!r}"
    document_id, section, via_anchor = markup_target(matter, issue)
    if not via_anchor and not issue_matchable:
        analysis.shortfalls.append(
            Shortfall(
                Reason.MISSING_ANCHOR,
                issue.settlement_points,
                f"{what}: no markup can reach it: its anchor {issue.anchor!r} is not a '<doc> §<section>' "
                "target of this issue and the issue itself can never be matched",
                RUBRIC_FILE,
                places.entry("issues", index, "anchor"),
            )
        )
        return analysis
    target = (document_id, section)
    budget, max_rounds = round_limit(matter)
    rounds = max(position.resist_rounds, 0) + 1
    wordings = _our_wordings(issue, position, timeout)
    full = next((w for w in wordings if w.usable and not w.blocked), None)
    close: Close | None = None
    if full is not None and rounds <= max_rounds:
        close = Close([_markup(label, target, full.text)] * rounds, _points(issue, full.text), True)
    if close is None:
        close = _counter_close(issue, position, label, target, max_rounds, timeout)
    if close is None and full is not None:
        analysis.shortfalls.append(
            Shortfall(
                Reason.BUDGET,
                issue.settlement_points,
                f"{what}: resist_rounds {position.resist_rounds} needs {rounds} rounds, more than "
                f"constraints.{budget} allows ({max_rounds})",
                COUNTERPARTY_FILE,
                (*where, "resist_rounds"),
                detail={"budget": budget},
            )
        )
        return analysis
    if close is None:
        close = _partial_close(matter, index, label, target, wordings, rounds, analysis, where)
    if close is None:
        return analysis
    analysis.moves.append(
        Move(
            "negotiation",
            close.actions,
            close.points,
            close.points,
            what,
            COUNTERPARTY_FILE,
            where,
            rounds=len(close.actions),
            issue_index=index,
            requires_issue=not via_anchor,
        )
    )
    return analysis


def _partial_close(
    matter: Matter,
    index: int,
    label: str,
    target: tuple[str, str],
    wordings: list[Wording],
    rounds: int,
    analysis: Analysis,
    where: InstancePath,
) -> Close | None:
    """Settle on our best partial text; or explain why the point can never close fully."""
    issue = matter.rubric.issues[index]
    position = matter.positions[issue.id]
    what = f"the settlement of issue {issue.id!r}"
    usable = [w for w in wordings if w.usable]
    if not position.accept_concepts or not any(position.accept_concepts):
        why = "the position has no accept_concepts variant, so our markup never closes"
    elif not usable:
        gates = sorted({w.frame_gate for w in wordings if w.frame_gate})
        why = f"every accept_concepts variant trips settlement gate(s) {', '.join(map(repr, gates))}"
    else:
        blocked = sorted({f"{b.concept!r} (gate {b.gate!r})" for w in usable for b in w.blocked})
        why = f"no acceptable text can also carry settlement concept(s) {', '.join(blocked)}"
    counters = "no counter scores fully without a gate" if position.counters else "it makes no counter"
    message = f"{what}: {why}, and {counters}"
    best = max(usable, key=lambda w: _points(issue, w.text), default=None)
    if best is None or issue.non_negotiable or rounds > round_limit(matter)[1]:
        # A non-negotiable point closed short of a concept is a critical failure: leave it open.
        analysis.shortfalls.append(
            Shortfall(
                Reason.SETTLEMENT_NEVER_ACCEPTED,
                issue.settlement_points,
                message,
                COUNTERPARTY_FILE,
                where,
            )
        )
        return None
    points = _points(issue, best.text)
    analysis.shortfalls.append(
        Shortfall(
            Reason.SETTLEMENT_NEVER_ACCEPTED,
            issue.settlement_points - points,
            message,
            COUNTERPARTY_FILE,
            where,
        )
    )
    return Close([_markup(label, target, best.text)] * rounds, points, False)
