"""Handlers for the counterparty negotiation: markups, acceptances, settlements."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

from rubric_tools.scoring.gates import GateCheck
from rubric_tools.scoring.model import Issue, Variant, YamlId
from rubric_tools.scoring.state import StepContext
from rubric_tools.scoring.text import concept_fraction, format_citation, normalize

MARKUP_FIELDS = frozenset(("issue_id", "document_id", "section", "proposed_text"))
REASON_NO_MARKUP_TARGET = "markup matches no submitted issue label and no operative anchor"
REASON_NO_POSITION = "the counterparty holds no position on that provision"


def send_markup(ctx: StepContext, action: Mapping[str, Any]) -> float:
    state, matter = ctx.state, ctx.matter
    positions = matter.position_table
    if not positions:
        return ctx.penalty(0.0, "this matter has no counterparty")
    if state.rounds_used >= matter.constraints.maximum_negotiation_rounds:
        return ctx.penalty(-0.5, "negotiation round budget exhausted")
    # The field check (`action.keys() >= MARKUP_FIELDS` as membership tests, as submit_issue
    # makes it) and `fields.label_of` written out (the label `str()`-ed): the calls cost as much
    # as the rest of a rejected markup's bookkeeping.
    if not ("issue_id" in action and "document_id" in action and "section" in action and "proposed_text" in action):
        return ctx.penalty(-0.25, "send_markup is missing a required field")
    label = str(action.get("issue_id"))
    # Markup labels are not consulted here: only a matched issue's label, else the anchor.
    issue_id = state.issue_labels.get(label)
    if issue_id is None:
        target = format_citation(str(action.get("document_id")), str(action.get("section")))
        anchored = matter.rubric.anchor_table.get(target)
        issue_id = anchored.criterion if anchored else None
    state.rounds_used += 1
    if issue_id is None:
        unanchored = {"type": "unsupported_markup", "criterion": label, "reason": REASON_NO_MARKUP_TARGET}
        return ctx.record(unanchored, -0.5)
    # Positions are keyed by the text of the issue id, as an issue's `id` is: no conformance
    # case shows the reference negotiating over an issue id that is not text.
    position = positions.get(str(issue_id))
    if position is None:
        unheld: dict[str, Any] = {"type": "unsupported_markup", "criterion": issue_id, "reason": REASON_NO_POSITION}
        return ctx.record(unheld, -0.5)
    state.markup_labels[label] = issue_id
    if issue_id in state.settled_issues:
        return ctx.record({"type": "duplicate_settlement", "criterion": issue_id}, -0.2)
    rounds = state.issue_rounds.get(issue_id, 0) + 1
    state.issue_rounds[issue_id] = rounds
    # While the counterparty still resists, whether the text is acceptable decides nothing:
    # it is normalized and looked at only once it could close the issue.
    if rounds > position.resist_rounds:
        normalized = normalize(str(action.get("proposed_text", "")))  # as fields.text_field reads it
        if _acceptable(position.accept_concepts, normalized):
            return settle(ctx, issue_id, normalized, closed_by="ours")
    served = state.counters_served.get(issue_id, 0)
    if served < len(position.counters):
        state.outstanding_counters[issue_id] = position.counters[served]
        state.counters_served[issue_id] = served + 1
        return ctx.record({"type": "counterparty_counter", "criterion": issue_id}, 0.0)
    return ctx.record({"type": "counterparty_reject", "criterion": issue_id}, 0.0)


def _acceptable(variants: tuple[Variant, ...], normalized_text: str) -> bool:
    """Whether every concept of some non-empty variant is in the text."""
    # Plain loops rather than any()/all() over generators, as in `dialogue.first_match`.
    for variant in variants:
        if not variant:
            continue
        for concept in variant:
            if concept not in normalized_text:
                break
        else:
            return True
    return False


def accept_counterparty(ctx: StepContext, action: Mapping[str, Any]) -> float:
    state, matter = ctx.state, ctx.matter
    positions = matter.position_table
    if not positions:
        return ctx.penalty(0.0, "this matter has no counterparty")
    if state.rounds_used >= matter.constraints.maximum_negotiation_rounds:
        return ctx.penalty(-0.5, "negotiation round budget exhausted")
    label = str(action.get("issue_id"))  # as fields.label_of reads it
    # Markup labels win; an issue id may be "" (falsy), so no `or` chain.
    issue_id = state.markup_labels.get(label)
    if issue_id is None:
        issue_id = state.issue_labels.get(label)
    if issue_id is None or str(issue_id) not in positions:  # keyed by text, as in send_markup
        return ctx.penalty(-0.25, "no negotiation is open under that label")
    if issue_id in state.settled_issues:
        return ctx.penalty(-0.25, "that point is already closed")
    counter = state.outstanding_counters.get(issue_id)
    if counter is None or not counter.text:  # the engine keeps the text: an empty one is no counter
        return ctx.penalty(-0.25, "the counterparty has no outstanding counter on that point")
    state.rounds_used += 1
    return settle(ctx, issue_id, counter.normalized_text, closed_by="theirs")


class SettlementScore(NamedTuple):
    """What the language an issue closed on earns: concepts found and missing, points, gates."""

    found: list[str]
    missing: list[str]
    points: float
    check: GateCheck


_new_tuple = tuple.__new__


def _score_settlement(issue: Issue, text: str, gate_timeout: float) -> SettlementScore:
    concepts = issue.settlement_concepts
    if concepts:
        found, missing = concept_fraction(concepts, text)
        points = issue.settlement_points * len(found) / len(concepts)
    else:  # the scaffold: any closing text earns full points
        found, missing, points = [], [], issue.settlement_points
    # The issue's own runner (built once per matter, not per settlement), and the tuple made without
    # the NamedTuple's Python-level __new__.
    check = issue.settlement_gate_runner.run(text, gate_timeout)
    return _new_tuple(SettlementScore, (found, missing, points, check))


def _score_counter_settlement(ctx: StepContext, issue: Issue, text: str) -> SettlementScore:
    """A counter is the matter's own text, so how closing on it scores is remembered per matter
    (a search that timed out is not: it is run again, as it would be without the memo)."""
    memo = ctx.matter.counter_settlement_memo
    key = (issue.id, text, ctx.gate_timeout)
    score: SettlementScore | None = memo.get(key)
    if score is None:
        score = _score_settlement(issue, text, ctx.gate_timeout)
        if not score.check.timed_out:
            memo[key] = score
    return score


def settle(ctx: StepContext, issue_id: YamlId, text: str, closed_by: str) -> float:
    """Score the language an issue closed on (`text`, normalized), once per issue: ours, or
    the counterparty's counter (`closed_by` "theirs")."""
    state = ctx.state
    issue = ctx.matter.rubric.issues_by_id[str(issue_id)]
    if closed_by == "theirs":
        found, missing, points, check = _score_counter_settlement(ctx, issue, text)
    else:
        found, missing, points, check = _score_settlement(issue, text, ctx.gate_timeout)
    # Copies: a remembered score is shared by every settlement on the same counter.
    found, missing = list(found), list(missing)
    event: dict[str, Any] = {
        "type": "settlement",
        "criterion": issue_id,
        "closed_by": closed_by,
        "matched_concepts": found,
        "missing_concepts": missing,
    }
    ctx.note_gates(check)
    if ctx.observer is not None:
        ctx.observe("gates:settlement", issue.id, text, check)
    if check.last_fired is not None:
        state.critical_failure = True
        event["critical_failure_pattern"] = check.last_fired
    if issue.non_negotiable and missing:
        state.critical_failure = True
        event["non_negotiable_missing"] = missing
    state.settled_issues.add(issue_id)
    return ctx.record(event, points)
