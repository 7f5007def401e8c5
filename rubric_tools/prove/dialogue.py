"""Moves for questions, escalations and the final submission, with the shortfalls of
whatever no text can earn."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from rubric_tools.prove.moves import Move
from rubric_tools.prove.shortfalls import RUBRIC_FILE, UNLOCATED, Places, Reason, Shortfall
from rubric_tools.prove.wording import summary_text, winning_escalation, winning_question
from rubric_tools.scoring.model import MatchItem, Matter, YamlId
from rubric_tools.scoring.text import concept_fraction, normalize

#: Beyond this many characters a summary minimum is treated as unattainable rather than
#: padded: a trajectory line of megabytes proves nothing an author needs.
MAX_SUMMARY_CHARACTERS = 1_000_000


@dataclass
class Analysis:
    """Moves that earn points, and shortfalls for points no move can earn."""

    moves: list[Move] = field(default_factory=list)
    shortfalls: list[Shortfall] = field(default_factory=list)

    def extend(self, other: Analysis) -> None:
        self.moves += other.moves
        self.shortfalls += other.shortfalls


def _unmatchable(
    items: Sequence[MatchItem],
    index: int,
    list_name: str,
    kind: str,
    asked: dict[str, int],
    text_found: bool,
    shadow: int | None,
    points: float,
    critical: bool,
    places: Places,
) -> Shortfall | None:
    """Why item `index` cannot be matched for points, or None when it can."""
    item = items[index]
    path = places.entry(list_name, index)
    name = f"{kind} {item.id!r}"
    suffix = "; never raising it is a critical failure" if critical else ""
    if item.id in asked:
        return Shortfall(
            Reason.UNREACHABLE_COMPONENT,
            points,
            f"{name} shares its id with {places.label(list_name, asked[item.id])}: matching it scores as redundant"
            f"{suffix}",
            RUBRIC_FILE,
            (*path, "id"),
            critical,
        )
    if not any(item.variants):
        return Shortfall(
            Reason.UNREACHABLE_COMPONENT,
            points,
            f"{name} has no concept to match on, so no text can earn its points{suffix}",
            RUBRIC_FILE,
            (*path, "concepts"),
            critical,
        )
    if not text_found:
        winner = items[shadow].id if shadow is not None else "another item"
        return Shortfall(
            Reason.SHADOWED_VARIANT,
            points,
            f"every variant of {name} is matched first by {places.label(list_name, shadow)} ({winner!r}), "
            f"which comes earlier in first-wins order{suffix}",
            RUBRIC_FILE,
            path,
            critical,
            detail={"shadowed_by": winner},
        )
    return None


def question_moves(matter: Matter, places: Places = UNLOCATED) -> Analysis:
    """One `ask_client` per scored question, worded from a variant that question wins."""
    analysis = Analysis()
    items = matter.rubric.questions
    asked: dict[str, int] = {}
    for index, item in enumerate(items):
        if item.points <= 0:
            continue  # nothing to earn; asking would only spend budget
        text, shadow = winning_question(items, index)
        problem = _unmatchable(
            items, index, "questions", "question", asked, text is not None, shadow, item.points, False, places
        )
        if problem is not None or text is None:
            analysis.shortfalls.append(problem)  # type: ignore[arg-type]
            continue
        asked[item.id] = index
        analysis.moves.append(
            Move(
                "question",
                [{"type": "ask_client", "question": text}],
                item.points,
                item.points,
                f"question {item.id!r}",
                RUBRIC_FILE,
                places.entry("questions", index),
                questions=1,
            )
        )
    return analysis


def escalation_moves(matter: Matter, places: Places = UNLOCATED) -> Analysis:
    """One `escalate` per escalation that scores, is required or is critical if missed."""
    analysis = Analysis()
    items = matter.rubric.escalations
    penalty = matter.rubric.final_submission.missed_escalation_penalty
    raised: dict[str, int] = {}
    for index, item in enumerate(items):
        # Raising it earns its points and avoids the settle-up at submit_final.
        avoided = penalty if item.required and not item.critical_if_missed else 0.0
        value = max(item.points, 0.0) + avoided
        if value <= 0 and not item.critical_if_missed:
            continue
        if item.id in raised:  # the settle-up counts the id as raised already
            value, avoided = max(item.points, 0.0), 0.0
        words, shadow = winning_escalation(items, index)
        problem = _unmatchable(
            items,
            index,
            "escalations",
            "escalation",
            raised,
            words is not None,
            shadow,
            value,
            item.critical_if_missed and item.id not in raised,
            places,
        )
        if problem is not None or words is None:
            analysis.shortfalls.append(problem)  # type: ignore[arg-type]
            continue
        raised[item.id] = index
        topic, reason = words
        analysis.moves.append(
            Move(
                "escalation",
                [{"type": "escalate", "topic": topic, "reason": reason}],
                item.points,
                value,
                f"escalation {item.id!r}",
                RUBRIC_FILE,
                places.entry("escalations", index),
                escalations=1,
                critical=item.critical_if_missed,
                raises=item.id,
            )
        )
    return analysis


def final_shortfalls(matter: Matter) -> list[Shortfall]:
    """What the final submission can never earn, whatever the trajectory."""
    final = matter.rubric.final_submission
    shortfalls: list[Shortfall] = []
    if final.concept_points > 0 and not final.required_concepts:
        shortfalls.append(
            Shortfall(
                Reason.UNREACHABLE_COMPONENT,
                final.concept_points,
                "final_submission.concept_points enters max_score but required_concepts is empty, "
                "so the summary can earn none of it",
                RUBRIC_FILE,
                ("final_submission", "concept_points"),
            )
        )
    if final.points > 0 and final.minimum_characters > MAX_SUMMARY_CHARACTERS:
        shortfalls.append(
            Shortfall(
                Reason.UNREACHABLE_COMPONENT,
                final.points,
                f"final_submission.minimum_characters is {final.minimum_characters}: no real summary is that long",
                RUBRIC_FILE,
                ("final_submission", "minimum_characters"),
            )
        )
    known = {issue.criterion for issue in matter.rubric.issues}  # required ids compare as YAML read them
    for index, issue_id in enumerate(final.required_issue_ids):
        if issue_id not in known and final.missing_required_issue_penalty > 0:
            shortfalls.append(
                Shortfall(
                    Reason.UNKNOWN_REQUIRED_ISSUE,
                    final.missing_required_issue_penalty,
                    f"final_submission.required_issue_ids names {issue_id!r}, which is no issue of the "
                    "rubric: every trajectory pays missing_required_issue_penalty for it",
                    RUBRIC_FILE,
                    ("final_submission", "required_issue_ids", index),
                )
            )
    return shortfalls


def final_move(
    matter: Matter, matched_issues: set[YamlId], raised_escalations: set[str], labels: Sequence[str]
) -> Move:
    """The closing summary, and the points the engine will award for it given what the
    rest of the plan matches and raises."""
    rubric = matter.rubric
    final = rubric.final_submission
    minimum = final.minimum_characters if final.minimum_characters <= MAX_SUMMARY_CHARACTERS else 0
    summary = summary_text(final.required_concepts, labels, minimum)
    points = final.points if len(summary.strip()) >= final.minimum_characters else 0.0
    points -= final.missing_required_issue_penalty * sum(
        1 for issue_id in final.required_issue_ids if issue_id not in matched_issues
    )
    for escalation in rubric.escalations:
        if escalation.id not in raised_escalations and escalation.required and not escalation.critical_if_missed:
            points -= final.missed_escalation_penalty
    if final.required_concepts:
        found, _ = concept_fraction(final.required_concepts, normalize(summary))
        points += final.concept_points * len(found) / len(final.required_concepts)
    return Move(
        "final",
        [{"type": "submit_final", "summary": summary}],
        points,
        points,
        "the final submission",
        RUBRIC_FILE,
        ("final_submission",),
    )
