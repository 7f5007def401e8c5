"""Handlers for reading, searching, asking, escalating and the final submission."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rubric_tools.scoring.fields import text_field
from rubric_tools.scoring.model import MatchItem, sorted_ids
from rubric_tools.scoring.state import StepContext
from rubric_tools.scoring.text import concept_fraction, format_citation, normalize

OFF_RUBRIC_CRITERION_LENGTH = 80


def first_match(items: tuple[MatchItem, ...], normalized_text: str) -> MatchItem | None:
    """Matching is first-wins in rubric order, over concepts then each alias list."""
    # Plain loops rather than any()/all() over generators: this runs for every question
    # and escalation, over every variant of every rubric item.
    for item in items:
        for variant in item.variants:
            if not variant:
                continue
            for concept in variant:
                if concept not in normalized_text:
                    break
            else:
                return item
    return None


def read_document(ctx: StepContext, action: Mapping[str, Any]) -> float:
    document_id = action.get("document_id")
    document = ctx.matter.documents.get(document_id if type(document_id) is str else str(document_id))
    if document is None:
        return ctx.penalty(-0.2, f"unknown document {str(document_id)!r}")
    section = action.get("section")
    if section is None:
        ctx.state.read_citations.update(document.citations)
        return 0.0
    token = section if type(section) is str else str(section)
    citation = document.section_citations.get(token)
    if citation is None:  # not a token of the document
        if section:
            return ctx.penalty(-0.1, f"document {document.id!r} has no section {token!r}")
        citation = format_citation(document.id, token)  # "" (or 0, false) is recorded as it is
    ctx.state.read_citations.add(citation)
    return 0.0


def search_matter(ctx: StepContext, action: Mapping[str, Any]) -> float:
    # The engine measures the lowercased query: "İİ" lowercases to four characters.
    if len(normalize(text_field(action, "query"))) < 3:
        return ctx.penalty(-0.1, "search query shorter than 3 characters")
    return 0.0


def ask_client(ctx: StepContext, action: Mapping[str, Any]) -> float:
    state = ctx.state
    if state.questions_asked_total >= ctx.matter.constraints.maximum_client_questions:
        return ctx.penalty(-0.5, "client question budget exhausted")
    question = text_field(action, "question")
    if not question.strip():
        return ctx.penalty(-0.25, "empty question")
    state.questions_asked_total += 1
    return _score_match(ctx, ctx.matter.rubric.questions, normalize(question), state.asked_questions, kind="question")


def escalate(ctx: StepContext, action: Mapping[str, Any]) -> float:
    state = ctx.state
    if state.escalations_total >= ctx.matter.constraints.maximum_escalations:
        return ctx.penalty(-0.5, "escalation budget exhausted")
    topic, reason = text_field(action, "topic"), text_field(action, "reason")
    if not topic.strip() or not reason.strip():
        return ctx.penalty(-0.25, "escalation without a topic or a reason")
    state.escalations_total += 1
    return _score_match(
        ctx, ctx.matter.rubric.escalations, normalize(f"{topic} {reason}"), state.raised_escalations, kind="escalation"
    )


#: Event types by kind of match: (off rubric, redundant, required).
_MATCH_EVENTS = {
    kind: (f"off_rubric_{kind}", f"redundant_{kind}", f"required_{kind}") for kind in ("question", "escalation")
}


def _score_match(ctx: StepContext, items: tuple[MatchItem, ...], text: str, already: set[str], kind: str) -> float:
    off_rubric, redundant, required = _MATCH_EVENTS[kind]
    item = first_match(items, text)
    if item is None:
        points = -0.1 if kind == "question" else -0.25
        return ctx.record({"type": off_rubric, "criterion": text[:OFF_RUBRIC_CRITERION_LENGTH]}, points)
    if item.id in already:
        return ctx.record({"type": redundant, "criterion": item.id}, -0.15)
    already.add(item.id)
    if ctx.observer is not None:
        ctx.observe(kind, item.id, text)
    return ctx.record({"type": required, "criterion": item.id}, item.points)


def submit_final(ctx: StepContext, action: Mapping[str, Any]) -> float:
    """Never rejected; scores the summary, settles escalations up, and terminates."""
    state, rubric = ctx.state, ctx.matter.rubric
    final = rubric.final_submission
    summary = text_field(action, "summary", "")
    points = final.points if len(summary.strip()) >= final.minimum_characters else 0.0
    # A set there; ids compared as YAML 1.1 read them on both sides (a date matches a date).
    missing = sorted_ids({i for i in final.required_issue_ids if i not in state.matched_issues})
    points -= final.missing_required_issue_penalty * len(missing)
    event: dict[str, Any] = {"type": "final_submission", "criterion": "final", "missing_issues": missing}
    if rubric.escalations:
        missed: list[str] = []
        missed_critical: list[str] = []
        for escalation in rubric.escalations:
            if escalation.id in state.raised_escalations:
                continue
            if escalation.critical_if_missed:
                missed_critical.append(escalation.id)
                state.critical_failure = True
            elif escalation.required:
                missed.append(escalation.id)
                points -= final.missed_escalation_penalty
        if missed or missed_critical:
            event["missed_escalations"] = missed
            event["missed_critical_escalations"] = missed_critical
    if final.required_concepts:
        found, _ = concept_fraction(final.required_concepts, normalize(summary))
        concept_points = final.concept_points * len(found) / len(final.required_concepts)
        points += concept_points
        event["matched_concepts"] = found
        event["concept_points"] = round(concept_points, 4)
    state.terminated = True
    return ctx.record(event, points)
