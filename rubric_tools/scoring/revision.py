"""Revisions of issues and redlines (engine.md §3): the submission is replaced, every
work-product event removed, and every submission scored again in order."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rubric_tools.scoring import work_product
from rubric_tools.scoring.fields import has_fields, label_of
from rubric_tools.scoring.state import WORK_PRODUCT_EVENTS, Event, StepContext, Submission, new_submission


def revise_issue(ctx: StepContext, action: Mapping[str, Any]) -> float:
    if not has_fields(action, work_product.ISSUE_FIELD_SET):
        return ctx.penalty(-0.25, "revise_issue is missing a required field")
    label = label_of(action)
    index = ctx.state.submission_index.get(("issue", label))
    if index is None:
        return ctx.penalty(-0.25, "revise_issue names no earlier submission")
    return _revise(ctx, index, new_submission("issue", action, label))


def revise_redline(ctx: StepContext, action: Mapping[str, Any]) -> float:
    if not has_fields(action, work_product.REDLINE_FIELD_SET):
        return ctx.penalty(-0.25, "revise_redline is missing a required field")
    if not work_product.target_exists(ctx, action):
        return ctx.penalty(-0.75, "redline target document or section not found")
    key = work_product.redline_key(action)
    index = ctx.state.submission_index.get(("redline", key))
    if index is None:
        return ctx.penalty(-0.25, "revise_redline names no earlier redline")
    return _revise(ctx, index, new_submission("redline", action, key))


def _revise(ctx: StepContext, index: int, replacement: Submission) -> float:
    """Replace a submission, drop all work-product events and re-score everything."""
    state = ctx.state
    before = state.raw_score
    state.submissions[index] = replacement
    kept: list[Event] = []
    removed_points: list[float] = []
    for event in state.events:  # one pass, where two list comprehensions walked the events twice
        if event["type"] in WORK_PRODUCT_EVENTS:
            removed_points.append(event["points"])
        else:
            kept.append(event)
    state.events = kept
    # The engine subtracts the recorded (rounded) points, not the exact ones; sum() as it does.
    state.raw_score -= sum(removed_points)
    state.matched_issues.clear()
    state.matched_redlines.clear()
    state.issue_labels.clear()
    state.valid_citation_count = 0
    state.invalid_citations.clear()
    state.unsupported_issues.clear()
    state.fabricated_quotes.clear()
    # The critical flag is recomputed from the kept events. They are the same events, in the
    # same order, as the previous revision kept, plus those recorded since: only those are new
    # to look at (an event that was critical stays critical, and stays kept).
    critical = state.retained_critical
    if not critical:
        for event in kept[state.retained_checked :]:
            if _is_critical(event):
                critical = True
                break
    state.retained_checked = len(kept)
    state.retained_critical = state.critical_failure = critical
    _rescore_submissions(ctx)
    return state.raw_score - before


def _rescore_submissions(ctx: StepContext) -> None:
    """Score every submission again, in order, as `score_issue` / `score_redline` would.

    A revision re-scores all n earlier submissions (engine semantics), so this loop is the
    hot path of long episodes. A submission scored before has its target and the event of
    each branch it took in its memo: when the branch it takes now has its event there, the
    loop records it in place, with the same state changes and the same float additions in
    the same order as the handlers; anything else (a branch not taken before, warnings, gate
    timeouts or errors, an observer) goes through the handlers themselves. A memoized event
    already carries its rounded points: its points never change (they depend on the
    submission alone), so they are not rounded and stored again. The score and the citation
    count are kept in locals, and written back around each handler call and at the end."""
    state = ctx.state
    read, matched_issues, matched_redlines = state.read_citations, state.matched_issues, state.matched_redlines
    issue_labels, unsupported = state.issue_labels, state.unsupported_issues
    append_event, append_new = state.events.append, ctx.new_events.append
    anchors, redline_issue = ctx.matter.rubric.anchors, ctx.matter.rubric.redline_issue
    delegate_all = ctx.observer is not None
    raw, valid_count = state.raw_score, state.valid_citation_count
    for kind, action, _, memo in state.submissions:  # unpacked: cheaper than four attribute loads
        event: Event | None = None
        scored: work_product.Scored | None = None
        if delegate_all:
            pass
        elif kind == "issue":
            target: work_product.IssueTarget | None = memo.get("target")
            if target is not None and not target.warnings:
                label, valid, invalid, issue, _ = target
                if issue is None or issue.anchor not in read:
                    event = memo.get("unsupported_issue" if issue is None else "unread_anchor_issue")
                    points = -0.5 - work_product.INVALID_CITATION_PENALTY * len(invalid)
                    if event is not None:
                        unsupported.append(label)
                elif issue.criterion in matched_issues:
                    event, points = memo.get("duplicate_issue"), -0.2
                else:
                    scored = memo.get("issue")
                    if scored is not None and not (scored.warnings or scored.gates.timed_out or scored.gates.errors):
                        event, points = scored.event, scored.points
                        matched_issues.add(issue.criterion)
                        issue_labels[label] = issue.criterion
                if event is not None:
                    valid_count += len(valid)
                    if invalid:
                        state.invalid_citations.extend(invalid)
        else:
            named: tuple[str, str] | None = memo.get("target")
            if named is not None:
                labelled = issue_labels.get(named[0])
                if labelled is None:  # only a label no matched issue registered falls back to the target
                    anchored = anchors.get(named[1])
                    labelled = anchored.criterion if anchored is not None else None
                redline = redline_issue(labelled) if labelled is not None else None
                if redline is None:
                    event, points = memo.get("unsupported_redline"), -0.5
                elif redline.criterion in matched_redlines:
                    event, points = memo.get(("duplicate", redline.id)), -0.2
                else:
                    scored = memo.get(("redline", redline.id))
                    if scored is not None and not (scored.gates.timed_out or scored.gates.errors):
                        event, points = scored.event, scored.points
                        matched_redlines.add(redline.criterion)
        if event is None:  # through the handler, which reads and writes the state itself
            state.raw_score, state.valid_citation_count = raw, valid_count
            score = work_product.score_issue if kind == "issue" else work_product.score_redline
            score(ctx, action, memo)
            raw, valid_count = state.raw_score, state.valid_citation_count
            continue
        if scored is not None:
            if scored.critical:
                state.critical_failure = True
            if scored.fabricated_quotes:
                state.fabricated_quotes.extend(scored.fabricated_quotes)
        append_event(event)
        raw += points
        append_new(event)
    state.raw_score, state.valid_citation_count = raw, valid_count


def _is_critical(event: Mapping[str, Any]) -> bool:
    # Truthiness, as in the engine: a gate whose pattern is "" fires but is recorded as "".
    return bool(
        event.get("critical_failure_pattern")
        or event.get("non_negotiable_missing")
        or event.get("missed_critical_escalations")
        or any(q.get("status") == "fabricated" for q in event.get("quotes", ()))
    )
