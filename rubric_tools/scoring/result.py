"""The derived max_score and the episode result, in the reference engine's shape (§5)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rubric_tools.scoring.model import Matter, Rubric, sorted_ids
from rubric_tools.scoring.state import EpisodeState

ISSUE_COMPONENTS = (
    "base_points",
    "severity_points",
    "citation_points",
    "concept_points",
    "quote_points",
    "redline_points",
)


@dataclass(frozen=True)
class MaxScoreItem:
    """One term of the derived max_score: which rubric item, which component, how much."""

    section: str  # questions | escalations | issues | final_submission
    item: str
    component: str
    points: float


def max_score_items(rubric: Rubric, positions: object = ()) -> list[MaxScoreItem]:
    """The derived max_score term by term, in rubric order (it sums to derived_max_score)."""
    items = [MaxScoreItem("questions", q.id, "points", q.points) for q in rubric.questions]
    items += [MaxScoreItem("escalations", e.id, "points", e.points) for e in rubric.escalations]
    for issue in rubric.issues:
        for component in ISSUE_COMPONENTS:
            items.append(MaxScoreItem("issues", issue.id, component, getattr(issue, component)))
        if issue.id in positions:  # type: ignore[operator]
            items.append(MaxScoreItem("issues", issue.id, "settlement_points", issue.settlement_points))
    final = rubric.final_submission
    items.append(MaxScoreItem("final_submission", "final", "points", final.points))
    items.append(MaxScoreItem("final_submission", "final", "concept_points", final.concept_points))
    return items


def derived_max_score(rubric: Rubric, positions: object = ()) -> float:
    """Every point the rubric can award: questions, escalations, six components per
    issue, settlement points of issues the counterparty negotiates, and the final."""
    total = sum(q.points for q in rubric.questions)
    total += sum(e.points for e in rubric.escalations)
    for issue in rubric.issues:
        total += issue.work_product_points
        if issue.id in positions:  # type: ignore[operator]
            total += issue.settlement_points
    total += rubric.final_submission.points + rubric.final_submission.concept_points
    return total


def effective_max_score(matter: Matter) -> float:
    """What the engine divides by: the declared value when present (it is trusted)."""
    if matter.rubric.max_score is not None:
        return matter.rubric.max_score
    memo = matter.derived_memo
    derived: float | None = memo.get("max_score")
    if derived is None:  # the same for every episode of the matter
        derived = memo["max_score"] = derived_max_score(matter.rubric, matter.positions)
    return derived


def normalized_score(raw: float, maximum: float, critical: bool, cap: float) -> float:
    # The engine clamps as max(0, min(1, x)): with infinite points x is NaN, and that order gives 1.0.
    score = 0.0 if maximum == 0 else max(0.0, min(1.0, raw / maximum))
    if critical:
        score = min(score, cap)
    if score == 0.0 and type(score) is float:
        # round(±0.0, 4) is the zero itself: two episodes in three score nothing, and round()
        # with digits costs as much as the rest of the result's numbers.
        return score
    return round(score, 4)


def episode_result(matter: Matter, state: EpisodeState) -> dict[str, Any]:
    maximum = effective_max_score(matter)
    # Sets and lists that are often empty (most episodes raise no escalation, settle nothing)
    # are sorted or copied only when they hold something: a new empty list either way.
    asked, raised, read = state.asked_questions, state.raised_escalations, state.read_citations
    invalid, unsupported, fabricated = state.invalid_citations, state.unsupported_issues, state.fabricated_quotes
    issues, redlines, settled = state.matched_issues, state.matched_redlines, state.settled_issues
    try:  # one try for the three id sets; sorted_ids only when ids of two kinds cannot be ordered
        matched_issues, matched_redlines, settled_issues = (
            sorted(issues) if issues else [],
            sorted(redlines) if redlines else [],
            sorted(settled) if settled else [],
        )
    except TypeError:
        matched_issues, matched_redlines, settled_issues = sorted_ids(issues), sorted_ids(redlines), sorted_ids(settled)
    raw_score = state.raw_score
    return {
        "matter_id": matter.reported_matter_id,
        "raw_score": round(raw_score, 4),
        "max_score": maximum,
        "normalized_score": normalized_score(
            raw_score, maximum, state.critical_failure, matter.rubric.critical_failure_score_cap
        ),
        "critical_failure": state.critical_failure,
        "terminated": state.terminated,
        "truncated": state.truncated,
        "steps": state.steps,
        "breakdown": {
            "asked_questions": sorted(asked) if asked else [],
            "questions_asked_total": state.questions_asked_total,
            "raised_escalations": sorted(raised) if raised else [],
            "escalations_total": state.escalations_total,
            "matched_issues": matched_issues,
            "matched_redlines": matched_redlines,
            "settled_issues": settled_issues,
            "valid_citation_count": state.valid_citation_count,
            "invalid_citations": list(invalid) if invalid else [],
            "unsupported_issues": list(unsupported) if unsupported else [],
            "fabricated_quotes": list(fabricated) if fabricated else [],
            "read_citations": sorted(read) if read else [],
            # Copies: a result never aliases the records. Events are plain dicts, and
            # dict.copy() is a third cheaper than dict(event) (compiled, dict.copy(event) is a
            # direct C call, where event.copy() looks the method up first).
            "reward_events": [dict.copy(event) for event in state.events],
        },
    }
