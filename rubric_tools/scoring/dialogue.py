"""Handlers for reading, searching, asking, escalating and the final submission."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

from rubric_tools.scoring.model import MatchItem, MatchTable, YamlId, sorted_ids
from rubric_tools.scoring.state import StepContext
from rubric_tools.scoring.text import format_citation, normalize

OFF_RUBRIC_CRITERION_LENGTH = 80


def first_match(table: MatchTable, normalized_text: str) -> MatchItem | None:
    """Matching is first-wins in rubric order, over concepts then each alias list (`table` is
    `Rubric.question_table` or `escalation_table`): a non-empty variant matches when every
    one of its concepts is in the text."""
    # Plain loops rather than any()/all() over generators: this runs for every question
    # and escalation, over every variant of every rubric item.
    for first, run in table:
        if first not in normalized_text:
            continue
        for rest, item in run:
            for concept in rest:
                if concept not in normalized_text:
                    break
            else:
                return item
    return None


def read_document(ctx: StepContext, action: Mapping[str, Any]) -> float:
    # The common read (a known document id, a known section token or none) is two look-ups in
    # a per-matter table. Anything else misses it with a KeyError, an unhashable value with a
    # TypeError (exceptions cost nothing when not raised), and takes the path that checks it.
    try:
        # An action is a dict (JSON): dict.get(action, key), compiled, is a direct C call.
        section = dict.get(action, "section") if type(action) is dict else action.get("section")
        read = ctx.matter.read_targets[action["document_id"]][section]
    except (KeyError, TypeError):
        return read_document_checked(ctx, action)
    if type(read) is str:
        set.add(ctx.state.read_citations, read)  # compiled, set.add(s, x) is a direct C call
    else:
        ctx.state.read_citations.update(read)
    return 0.0


def read_document_checked(ctx: StepContext, action: Mapping[str, Any]) -> float:
    """read_document of anything the table does not hold: ids and sections that are not
    text are read as their `str()`, unknown ones are penalised, "" reads `<doc> §`."""
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


# The small handlers below read their text fields as `fields.text_field` does, `str()` of the
# value or "", written out: a call per field cost as much as the rest of their bookkeeping.


def search_matter(ctx: StepContext, action: Mapping[str, Any]) -> float:
    # The engine measures the lowercased query: "İİ" lowercases to four characters.
    if len(normalize(str(action.get("query", "")))) < 3:
        return ctx.penalty(-0.1, "search query shorter than 3 characters")
    return 0.0


def ask_client(ctx: StepContext, action: Mapping[str, Any]) -> float:
    state = ctx.state
    if state.questions_asked_total >= ctx.matter.constraints.maximum_client_questions:
        return ctx.penalty(-0.5, "client question budget exhausted")
    # Normalized first: that strips it, so the blank check needs no strip() of its own.
    question = normalize(str(action.get("question", "")))
    if not question:
        return ctx.penalty(-0.25, "empty question")
    state.questions_asked_total += 1
    return _score_match(ctx, ctx.matter.rubric.question_table, question, state.asked_questions, QUESTION)


def escalate(ctx: StepContext, action: Mapping[str, Any]) -> float:
    state = ctx.state
    if state.escalations_total >= ctx.matter.constraints.maximum_escalations:
        return ctx.penalty(-0.5, "escalation budget exhausted")
    topic, reason = str(action.get("topic", "")), str(action.get("reason", ""))
    if not topic.strip() or not reason.strip():
        return ctx.penalty(-0.25, "escalation without a topic or a reason")
    state.escalations_total += 1
    table = ctx.matter.rubric.escalation_table
    return _score_match(ctx, table, normalize(f"{topic} {reason}"), state.raised_escalations, ESCALATION)


class MatchKind(NamedTuple):
    """What a question or an escalation records (engine.md §3): the kind an observer is told,
    then the event type and points when nothing matches, the redundant and required types."""

    name: str
    off_rubric: str
    off_rubric_points: float
    redundant: str
    required: str


QUESTION = MatchKind("question", "off_rubric_question", -0.1, "redundant_question", "required_question")
ESCALATION = MatchKind("escalation", "off_rubric_escalation", -0.25, "redundant_escalation", "required_escalation")
REDUNDANT_MATCH_POINTS = -0.15


def _score_match(
    ctx: StepContext,
    table: MatchTable,
    text: str,
    already: set[str],
    kind: MatchKind,
) -> float:
    item = first_match(table, text)
    if item is None:
        event_type, criterion = kind.off_rubric, text[:OFF_RUBRIC_CRITERION_LENGTH]
        points = recorded = kind.off_rubric_points  # constants with at most 4 places
    elif (criterion := item.id) in already:  # the id read once: compiled, each read is a look-up
        event_type = kind.redundant
        points = recorded = REDUNDANT_MATCH_POINTS
    else:
        set.add(already, criterion)
        if ctx.observer is not None:
            ctx.observe(kind.name, criterion, text)
        event_type = kind.required
        points, recorded = item.points, item.recorded_points
    # `ctx.record(event, points)` inlined, with the points already rounded: this records an
    # event for every question and escalation, and the call cost a quarter of the bookkeeping.
    event = {"type": event_type, "criterion": criterion, "points": recorded}
    state = ctx.state
    state.events.append(event)
    state.raw_score += points
    ctx.new_events.append(event)
    return points


def submit_final(ctx: StepContext, action: Mapping[str, Any]) -> float:
    """Never rejected; scores the summary, settles escalations up, and terminates."""
    state, rubric = ctx.state, ctx.matter.rubric
    final = rubric.final_submission
    summary = str(action.get("summary", ""))
    points = final.points if len(summary.strip()) >= final.minimum_characters else 0.0
    matched, ordered = state.matched_issues, final.sorted_required_issue_ids
    if ordered is not None:  # text ids: filtering the sorted ids keeps them sorted
        missing: list[YamlId] = [issue_id for issue_id in ordered if issue_id not in matched]
    else:  # a set there; ids compared as YAML 1.1 read them on both sides (a date matches a date)
        missing = sorted_ids({i for i in final.required_issue_ids if i not in matched})
    points -= final.missing_required_issue_penalty * len(missing)
    event: dict[str, Any] = {"type": "final_submission", "criterion": "final", "missing_issues": missing}
    missed: list[str] = []
    missed_critical: list[str] = []
    for escalation_id, critical in rubric.settle_up_escalations:
        if escalation_id in state.raised_escalations:
            continue
        if critical:
            missed_critical.append(escalation_id)
            state.critical_failure = True
        else:
            missed.append(escalation_id)
            points -= final.missed_escalation_penalty
    if missed or missed_critical:
        event["missed_escalations"] = missed
        event["missed_critical_escalations"] = missed_critical
    concepts = final.required_concepts
    if concepts:
        # The found half of `concept_fraction`: the final reports no missing concepts.
        normalized = normalize(summary)
        found = [concept for concept in concepts if concept in normalized]
        concept_points = final.concept_points * len(found) / len(concepts)
        points += concept_points
        event["matched_concepts"] = found
        event["concept_points"] = round(concept_points, 4)
    state.terminated = True
    return ctx.record(event, points)
