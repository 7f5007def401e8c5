"""What a perfect run needs: closing outcomes, negotiation rounds and steps.

The budget rules (P007, P008) must never cry wolf, so they count a *minimal*
trajectory that earns every point — each finding then proves that no trajectory can
reach 1.0 within the budget. Settlement outcomes are decided as the scorer's
`settle()` decides them (engine.md §3), with the scorer's normalization, concept
matching and gates.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from rubric_tools.loading.elements import MatterModel
from rubric_tools.scoring.gates import run_gates
from rubric_tools.scoring.model import Issue, Matter, Position
from rubric_tools.scoring.text import concept_fraction, normalize, split_citation

TOLERANCE = 1e-9


@dataclass(frozen=True)
class ClosingOutcome:
    """What closing an issue on a given text would score."""

    points: float
    missing_concepts: tuple[str, ...]
    gates_fired: tuple[str, ...]
    non_negotiable_missing: tuple[str, ...]
    undecided: bool  # a gate regex is invalid or timed out: no verdict either way

    @property
    def critical(self) -> bool:
        return bool(self.gates_fired or self.non_negotiable_missing)


def closing_outcome(issue: Issue, closing_text: str) -> ClosingOutcome:
    text = normalize(closing_text)
    if issue.settlement_concepts:
        found, missing = concept_fraction(issue.settlement_concepts, text)
        points = issue.settlement_points * len(found) / len(issue.settlement_concepts)
    else:  # the scaffold: any closing text earns full points
        missing, points = [], issue.settlement_points
    check = run_gates(issue.settlement_critical_failure_patterns, text)
    return ClosingOutcome(
        points=points,
        missing_concepts=tuple(missing),
        gates_fired=check.fired,
        non_negotiable_missing=tuple(missing) if issue.non_negotiable else (),
        undecided=bool(check.timed_out or check.errors),
    )


def negotiated_issues(matter: Matter) -> Iterator[tuple[Issue, Position]]:
    """Issues the counterparty negotiates and whose settlement is worth points."""
    for issue_id, position in matter.positions.items():
        issue = matter.rubric.issues_by_id.get(issue_id)
        if issue is not None and issue.settlement_points > 0:
            yield issue, position


@dataclass(frozen=True)
class SettlePlan:
    rounds: int
    how: str


def rounds_to_settle(issue: Issue, position: Position) -> SettlePlan | None:
    """The fewest rounds that close `issue` for its full settlement points.

    Closing on the agent's own language takes `resist_rounds + 1` markups. Accepting
    counter k (1-based) takes k markups (each serves the next counter) plus the
    acceptance, and counts only when that counter earns the full points without a
    critical failure. None when neither way can earn them.
    """
    plans: list[SettlePlan] = []
    if any(position.accept_concepts):
        resist = max(position.resist_rounds, 0)
        plans.append(SettlePlan(resist + 1, f"resist_rounds {resist} + 1"))
    for number, counter in enumerate(position.counters, start=1):
        outcome = closing_outcome(issue, counter.text)
        clean = not outcome.critical and not outcome.undecided
        if clean and outcome.points >= issue.settlement_points - TOLERANCE:
            markups = f"{number} markup{'s' if number > 1 else ''}"
            plans.append(SettlePlan(number + 1, f"{markups} + accepting counter {number}"))
            break  # a later counter needs more markups
    return min(plans, key=lambda plan: plan.rounds) if plans else None


@dataclass(frozen=True)
class Plan:
    """A count with the terms that explain it, e.g. `3 ask_client`."""

    total: int
    terms: tuple[str, ...]

    def arithmetic(self) -> str:
        return f"{' + '.join(self.terms)} = {self.total}"


def round_plan(model: MatterModel) -> Plan:
    """`round_plan_of` the matter the model describes (what rule P007 asks)."""
    return round_plan_of(model.scored)


def step_plan(model: MatterModel) -> Plan:
    """`step_plan_of` the matter the model describes (what rule P008 asks)."""
    return step_plan_of(model.scored)


def round_plan_of(matter: Matter) -> Plan:
    """The fewest negotiation rounds that settle every negotiated issue for full points.

    An issue that can never settle for full points is left out: the negotiation rules
    say why, and counting it would overstate the need.
    """
    terms: list[str] = []
    total = 0
    for issue, position in negotiated_issues(matter):
        needed = rounds_to_settle(issue, position)
        if needed is not None:
            total += needed.rounds
            terms.append(f"{issue.id} {needed.rounds} ({needed.how})")
    return Plan(total, tuple(terms))


def step_plan_of(matter: Matter) -> Plan:
    """The length of the shortest trajectory that earns every point.

    One whole-document read per document holding an anchor (it records every
    section; required citations resolve without being read), one ask per scored
    question, one escalation per scored escalation, one submit_issue per issue worth
    issue points, one propose_redline per issue with earnable redline points (it can
    target the anchor, so no issue must precede it), the rounds of `round_plan_of`, and
    the submit_final.
    """
    rubric = matter.rubric
    # Only the first issue with a given anchor can ever be matched (another rule's finding).
    matchable = list(rubric.anchors.values())
    submitted = [i for i in matchable if i.work_product_points - i.redline_points > 0]
    anchor_documents = sorted(
        {
            parsed[0]
            for issue in submitted
            if (parsed := split_citation(issue.anchor)) is not None and parsed[0] in matter.documents
        }
    )
    redlines = [i for i in matchable if i.redline_points > 0 and i.redline_concepts]
    read_term = "read_document (one whole-document read per document holding an anchor"
    read_term += f": {', '.join(anchor_documents)})" if anchor_documents else ")"
    counts = [
        (len(anchor_documents), read_term),
        (sum(1 for q in rubric.questions if q.points > 0), "ask_client"),
        (sum(1 for e in rubric.escalations if e.points > 0), "escalate"),
        (len(submitted), "submit_issue"),
        (len(redlines), "propose_redline"),
        (round_plan_of(matter).total if matter.negotiation_enabled else 0, "negotiation round"),
        (1, "submit_final"),
    ]
    terms = tuple(
        f"{count} {name}{'s' if name == 'negotiation round' and count > 1 else ''}" for count, name in counts if count
    )
    return Plan(sum(count for count, _ in counts), terms)
