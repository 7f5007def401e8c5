"""Prove a rubric before any model runs: build, from the rubric, the documents and the
counterparty script alone, a trajectory that earns the derived max_score within every
budget, replay it through the scorer, and name every point it could not earn.

    solution = solve(matter)
    solution.replay.result["raw_score"], solution.max_score, solution.shortfalls
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from rubric_tools.prove.dialogue import Analysis, escalation_moves, final_move, final_shortfalls, question_moves
from rubric_tools.prove.issues import anchor_blocker, issue_moves
from rubric_tools.prove.moves import Action, Move
from rubric_tools.prove.settle import negotiation_moves
from rubric_tools.prove.shortfalls import MATTER_FILE, RUBRIC_FILE, UNLOCATED, Places, Reason, Shortfall
from rubric_tools.scoring.episode import Replay, replay
from rubric_tools.scoring.gates import DEFAULT_SEARCH_TIMEOUT
from rubric_tools.scoring.model import Matter, YamlId
from rubric_tools.scoring.result import derived_max_score, effective_max_score
from rubric_tools.scoring.text import split_citation

if TYPE_CHECKING:
    from rubric_tools.loading.elements import MatterModel

#: Float noise allowed when comparing planned and replayed scores.
EPSILON = 1e-6
EXIT_REACHED, EXIT_SHORT = 0, 1


@dataclass(frozen=True)
class Solution:
    """The solver's trajectory, its replay, and every point it could not earn."""

    matter_id: str
    actions: tuple[Action, ...]
    replay: Replay
    max_score: float
    derived_max_score: float
    planned_score: float
    shortfalls: tuple[Shortfall, ...] = field(default_factory=tuple)

    @property
    def result(self) -> dict[str, Any]:
        return self.replay.result

    @property
    def raw_score(self) -> float:
        return float(self.result["raw_score"])

    @property
    def normalized_score(self) -> float:
        return float(self.result["normalized_score"])

    @property
    def critical_failure(self) -> bool:
        return bool(self.result["critical_failure"])

    @property
    def reached(self) -> bool:
        """Max score earned, nothing critical, and nothing left to explain."""
        return not self.shortfalls and not self.critical_failure and self.raw_score >= self.max_score - EPSILON

    @property
    def exit_code(self) -> int:
        return EXIT_REACHED if self.reached else EXIT_SHORT

    def to_json(self) -> dict[str, Any]:
        budgets = self.replay.steps[-1].budgets if self.replay.steps else None
        return {
            "matter_id": self.matter_id,
            "reached": self.reached,
            "raw_score": self.result["raw_score"],
            "max_score": self.max_score,
            "derived_max_score": round(self.derived_max_score, 4),
            "normalized_score": self.normalized_score,
            "critical_failure": self.critical_failure,
            "steps": self.result["steps"],
            "budgets_left": budgets._asdict() if budgets is not None else None,
            "shortfalls": [s.to_json() for s in self.shortfalls],
            "unexplained_points": round(self.unexplained_points, 4),
        }

    @property
    def unexplained_points(self) -> float:
        """Points between the raw score and the max that no shortfall accounts for."""
        explained = sum(s.points for s in self.shortfalls)
        return self.max_score - self.raw_score - explained


def _labels(matter: Matter) -> list[str]:
    """One label per issue: its id, made unique when ids repeat."""
    counts: dict[str, int] = {}
    labels = []
    for index, issue in enumerate(matter.rubric.issues):
        counts[issue.id] = counts.get(issue.id, 0) + 1
        labels.append(issue.id if counts[issue.id] == 1 and issue.id else f"{issue.id or 'issue'}-{index}")
    return labels


def analyse(matter: Matter, timeout: float = DEFAULT_SEARCH_TIMEOUT, places: Places = UNLOCATED) -> Analysis:
    """Every move that earns points, before any budget is applied."""
    analysis = question_moves(matter, places)
    analysis.extend(escalation_moves(matter, places))
    for index, label in enumerate(_labels(matter)):
        analysis.extend(issue_moves(matter, index, label, timeout, places))
        matchable = anchor_blocker(matter, index) is None
        analysis.extend(negotiation_moves(matter, index, label, matchable, timeout, places))
    analysis.shortfalls += final_shortfalls(matter)
    return analysis


# --------------------------------------------------------------------------- budgets


def _keep_best(moves: list[Move], capacity: int, cost: str, budget: str, dropped: list[Shortfall]) -> list[Move]:
    """Keep the most valuable moves whose `cost` attribute fits in `capacity`."""
    ranked = sorted(moves, key=lambda m: (not m.critical, -m.value / max(getattr(m, cost), 1)))
    kept, used = [], 0
    for move in ranked:
        need = getattr(move, cost)
        if need and used + need > capacity:
            dropped += move.dropped(budget)
            continue
        used += need
        kept.append(move)
    return [m for m in moves if any(m is k for k in kept)]


def _reads(moves: list[Move]) -> list[str]:
    return list(dict.fromkeys(m.document for m in moves if m.document is not None))


def _fit_steps(moves: list[Move], slots: int, dropped: list[Shortfall]) -> list[Move]:
    """Drop the least valuable moves per step until reads + actions fit in `slots`."""
    moves = list(moves)
    while len(_reads(moves)) + sum(m.steps for m in moves) > slots and moves:

        def cost(move: Move) -> int:
            shares_read = any(o is not move and o.document == move.document for o in moves)
            return move.steps + (1 if move.document is not None and not shares_read else 0)

        victim = min(moves, key=lambda m: (m.critical, m.value / max(cost(m), 1)))
        moves.remove(victim)
        dropped += victim.dropped("maximum_steps")
        if victim.kind == "issue":  # markups that reach the issue only through its label go too
            for orphan in [m for m in moves if m.requires_issue and m.issue_index == victim.issue_index]:
                moves.remove(orphan)
                dropped += orphan.dropped("maximum_steps")
    return moves


def fit_budgets(matter: Matter, moves: list[Move]) -> tuple[list[Move], list[Shortfall]]:
    """The moves that fit every budget, and a budget shortfall for each one left out."""
    limits = matter.constraints
    dropped: list[Shortfall] = []
    moves = _keep_best(moves, max(limits.maximum_client_questions, 0), "questions", "maximum_client_questions", dropped)
    moves = _keep_best(moves, max(limits.maximum_escalations, 0), "escalations", "maximum_escalations", dropped)
    moves = _keep_best(
        moves, max(limits.maximum_negotiation_rounds, 0), "rounds", "maximum_negotiation_rounds", dropped
    )
    # The final submission always fits: it terminates, so it is never truncated.
    moves = _fit_steps(moves, max(limits.maximum_steps, 1) - 1, dropped)
    return moves, dropped


def _read_action(document_id: str) -> Action:
    # section null records every token of the document in one step.
    return {"type": "read_document", "document_id": document_id, "section": None}


def _courtesy_reads(matter: Matter, moves: list[Move], slots: int) -> list[str]:
    """Documents of required citations, read too when steps are spare (scores nothing,
    but a trajectory that cites a playbook should have read it)."""
    wanted = []
    for issue in matter.rubric.issues:
        for citation in issue.required_citations:
            parsed = split_citation(citation)
            if parsed is not None and parsed[0] in matter.documents:
                wanted.append(parsed[0])
    already = set(_reads(moves))
    spare = slots - len(already) - sum(m.steps for m in moves)
    extra = [d for d in dict.fromkeys(wanted) if d not in already]
    return extra[: max(spare, 0)]


# --------------------------------------------------------------------------- solve


def solve(
    matter: Matter, *, gate_timeout: float = DEFAULT_SEARCH_TIMEOUT, model: MatterModel | None = None
) -> Solution:
    """Plan, replay and explain: the trajectory closest to max_score within every budget.

    With the matter's `model`, every shortfall sits at the node as written in the file."""
    analysis = analyse(matter, gate_timeout, Places(model))
    kept, dropped = fit_budgets(matter, analysis.moves)
    kept.sort(key=Move.sort_key)
    reads = _reads(kept) + _courtesy_reads(matter, kept, max(matter.constraints.maximum_steps, 1) - 1)
    issue_indices = [m.issue_index for m in kept if m.kind == "issue" and m.issue_index is not None]
    matched: set[YamlId] = {matter.rubric.issues[index].criterion for index in issue_indices}
    raised = {m.raises for m in kept if m.raises is not None}
    labels = [m.actions[0]["issue_id"] for m in kept if m.kind == "issue"]
    final = final_move(matter, matched, raised, labels)
    actions: list[Action] = [_read_action(d) for d in reads]
    for move in kept:
        actions += move.actions
    actions += final.actions
    outcome = replay(matter, actions, gate_timeout=gate_timeout)
    planned = sum(m.points for m in kept) + final.points
    shortfalls = [*analysis.shortfalls, *dropped, *_declared_max(matter)]
    shortfalls += _mismatch(outcome, planned, effective_max_score(matter), shortfalls)
    return Solution(
        matter_id=matter.matter_id,
        actions=tuple(actions),
        replay=outcome,
        max_score=effective_max_score(matter),
        derived_max_score=derived_max_score(matter.rubric, matter.positions),
        planned_score=planned,
        shortfalls=tuple(shortfalls),
    )


def solve_model(model: MatterModel, *, gate_timeout: float = DEFAULT_SEARCH_TIMEOUT) -> Solution:
    """`solve` the matter a located model describes (its scorer's `Matter`), every shortfall
    at the node as written: what lint rule P100 asks, from the model alone."""
    return solve(model.scored, gate_timeout=gate_timeout, model=model)


def _declared_max(matter: Matter) -> list[Shortfall]:
    declared = matter.rubric.max_score
    derived = derived_max_score(matter.rubric, matter.positions)
    if declared is None or math.isclose(declared, derived, abs_tol=EPSILON):
        return []
    effect = (
        "no trajectory can reach it"
        if declared > derived
        else "normalized scores saturate before the rubric is fully earned"
    )
    return [
        Shortfall(
            Reason.DECLARED_MAX_MISMATCH,
            declared - derived,
            f"declared max_score {declared:g} differs from the derived {derived:g}: {effect}",
            RUBRIC_FILE,
            ("max_score",),
            detail={"declared": declared, "derived": derived},
        )
    ]


def _mismatch(outcome: Replay, planned: float, maximum: float, shortfalls: list[Shortfall]) -> list[Shortfall]:
    """A shortfall when the replay disagrees with the plan, or leaves points unexplained."""
    raw = float(outcome.result["raw_score"])
    problems = []
    # A non-finite rubric number (`points: .nan`, `.inf`: S007) makes both sides NaN or
    # infinite, and NaN never equals itself: no plan can be checked against such a score.
    comparable = math.isfinite(raw) and math.isfinite(planned)
    if comparable and not math.isclose(raw, round(planned, 4), abs_tol=EPSILON):
        problems.append(f"the plan expected {planned:.4f} but the replay scored {raw:.4f}")
    if outcome.result["critical_failure"] and not any(s.critical for s in shortfalls):
        problems.append("the replay ended in an unplanned critical failure")
    if outcome.result["truncated"]:
        problems.append("the replay was truncated before the final submission")
    if not problems:
        return []
    lost = maximum - raw - sum(s.points for s in shortfalls)
    return [
        Shortfall(
            Reason.REPLAY_MISMATCH,
            max(lost, 0.0),
            "; ".join(problems) + " (a solver defect: please report it)",
            MATTER_FILE,
            (),
        )
    ]
