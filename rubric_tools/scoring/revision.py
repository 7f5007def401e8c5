"""Revisions of issues and redlines (engine.md §3): the submission is replaced, every
work-product event removed, and every submission scored again in order (or replayed from
the ledger where the revision cannot change its outcome, see ledger.py)."""

from __future__ import annotations

from collections.abc import Mapping
from functools import reduce
from operator import add
from typing import Any

from rubric_tools.scoring import ledger, work_product
from rubric_tools.scoring.state import Event, Ledger, StepContext, Submission
from rubric_tools.scoring.work_product import ISSUE_FIELDS, REDLINE_FIELDS

_new_tuple = tuple.__new__  # a NamedTuple without its Python-level __new__, once per revision
# Memos, the submission index, the id sets and the label dict are plain dicts and sets, read
# as `dict.get(d, key)` and `set.add(s, x)`: compiled, a direct C call each, where `d.get(key)`
# looks the method up on an object of unknown type first.
#: An issue submission's target before its first scoring: flagged as noted, so the handler scores it.
_NO_TARGET: tuple[Any, ...] = (None, frozenset(), (), None, ("no target yet",))


def revise_issue(ctx: StepContext, action: Mapping[str, Any]) -> float:
    # The field check (`action.keys() >= ISSUE_FIELD_SET` as membership tests, as submit_issue
    # checks its fields: compiled, a third of the cost) and `label_of` written out.
    for name in ISSUE_FIELDS:
        if name not in action:
            return ctx.penalty(-0.25, "revise_issue is missing a required field")
    label = str(action.get("issue_id"))
    index = dict.get(ctx.state.submission_index, ("issue", label))
    if index is None:
        return ctx.penalty(-0.25, "revise_issue names no earlier submission")
    return _revise(ctx, index, _new_tuple(Submission, ("issue", action, label, {})))


def revise_redline(ctx: StepContext, action: Mapping[str, Any]) -> float:
    # The target and key worked out with each field `str()`-ed once, as propose_redline does.
    for name in REDLINE_FIELDS:
        if name not in action:
            return ctx.penalty(-0.25, "revise_redline is missing a required field")
    document_id, section = str(action.get("document_id")), str(action.get("section"))
    document = ctx.matter.documents.get(document_id)
    if document is None or section not in document.sections:
        return ctx.penalty(-0.75, "redline target document or section not found")
    key = (str(action.get("issue_id")), document_id, section)
    index = dict.get(ctx.state.submission_index, ("redline", key))
    if index is None:
        return ctx.penalty(-0.25, "revise_redline names no earlier redline")
    # A redline's memo target, (label, target citation), is made of its key alone: the revised
    # one has the same key, so the same target.
    memo = {}
    target = dict.get(ctx.state.submissions[index].memo, "target")
    if target is not None:
        memo["target"] = target
    return _revise(ctx, index, _new_tuple(Submission, ("redline", action, key, memo)))


def _revise(ctx: StepContext, index: int, replacement: Submission) -> float:
    """Replace a submission, drop all work-product events and re-score everything. With
    enough submissions, the ledger may show that the revision cannot change the outcomes of
    the others (replayed from it), or of the later ones (the ones before it and itself are
    scored again through their memos and handlers, the later ones replayed)."""
    state = ctx.state
    before = state.raw_score
    submissions = state.submissions
    keep = len(submissions) > ledger.REPLAY_MINIMUM
    ledger.take_out_work_product(state, keep)
    # Read from the memos before the revised one's is replaced by an empty one.
    others_unchanged = keep and ledger.ready_to_replay_all_but(ctx, index)
    old = submissions[index]
    submissions[index] = replacement
    if others_unchanged and _replay_all_but(ctx, index, old, replacement):
        return state.raw_score - before
    if keep and len(submissions) - index - 1 >= ledger.REPLAY_MINIMUM:
        if not _replay_later_ones(ctx, index, old, replacement):
            _rescore_submissions(ctx, submissions[index + 1 :])
            ledger.refresh(state, ctx.new_events)
        return state.raw_score - before
    state.matched_issues.clear()
    state.matched_redlines.clear()
    state.issue_labels.clear()
    state.valid_citation_count = 0
    state.invalid_citations.clear()
    state.unsupported_issues.clear()
    state.fabricated_quotes.clear()
    _rescore_submissions(ctx, submissions)  # the revised one, its memo empty, through its handler
    if keep:
        ledger.refresh(state, ctx.new_events)
    else:
        ledger.forget(state)
    return state.raw_score - before


def _replay_all_but(ctx: StepContext, index: int, old: Submission, replacement: Submission) -> bool:
    """Replay every submission but the revised one from the ledger, and score the revised one
    on what the ones before it left (from the ledger too). If its new scoring changed the
    state unlike its old one, undo all that and return False."""
    state = ctx.state
    book = state.ledger
    if book is None:  # never here: ready_to_replay_all_but found it
        return False
    marks = (len(state.events), len(ctx.new_events), len(ctx.warnings), ctx.gate_timeouts, ctx.gate_errors)
    raw, critical = state.raw_score, state.critical_failure
    saved = ledger.swap_derived(state, (*ledger.state_before(book, index), 0, [], [], []))
    _replay(ctx, book, 0, index)
    score = work_product.score_issue if replacement.kind == "issue" else work_product.score_redline
    score(ctx, replacement.action, replacement.memo)
    event: Event = ctx.new_events[-1]
    unchanged = ledger.same_effects(old, book.events[index], replacement, event)
    ledger.swap_derived(state, saved)  # unchanged: the state it was (and the state to undo to)
    if not unchanged:
        del state.events[marks[0] :], ctx.new_events[marks[1] :], ctx.warnings[marks[2] :]
        ctx.gate_timeouts, ctx.gate_errors = marks[3], marks[4]
        state.raw_score, state.critical_failure = raw, critical
        return False
    _replay(ctx, book, index + 1, len(state.submissions))
    if not state.critical_failure:  # the others' flags; the revised one's own was set by its scoring
        state.critical_failure = len(book.critical) > (index in book.critical)
    ledger.replace(state, book, index, event)
    return True


def _replay_later_ones(ctx: StepContext, index: int, old: Submission, replacement: Submission) -> bool:
    """Score the submissions up to the revised one again, then replay the later ones from the
    ledger if it shows the revision cannot change their outcomes; False if it can (the state
    is then the one the submissions up to the revised one left, to score the later ones on)."""
    state = ctx.state
    # The derived state is rebuilt in new containers: the current ones are the outcome when
    # the later submissions are replayed (with the revised one's own part replaced).
    saved = ledger.swap_derived(state, (set(), set(), {}, 0, [], [], []))
    if index:
        _rescore_submissions(ctx, state.submissions[:index])
    score = work_product.score_issue if replacement.kind == "issue" else work_product.score_redline
    score(ctx, replacement.action, replacement.memo)
    event: Event = ctx.new_events[-1]
    parts = ledger.replay_parts(ctx, index, old, replacement, event)
    book = state.ledger
    if parts is None or book is None:
        return False
    _replay(ctx, book, index + 1, len(state.submissions))
    if not state.critical_failure:
        state.critical_failure = max(book.critical, default=-1) > index
    ledger.restore(state, saved, *parts)
    ledger.replace(state, book, index, event)
    return True


def _replay(ctx: StepContext, book: Ledger, start: int, stop: int) -> None:
    """Record the ledger's events of submissions start..stop-1 again, adding their exact points."""
    state = ctx.state
    events = book.events[start:stop]
    state.events += events
    ctx.new_events += events
    # reduce(add) makes the float additions of a loop, in order, without its bytecode per item.
    state.raw_score = reduce(add, book.points[start:stop], state.raw_score)


def _rescore_submissions(ctx: StepContext, submissions: list[Submission]) -> None:
    """Score these submissions again, in order, as `score_issue` / `score_redline` would.

    A submission scored before has its target and the event of
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
    # The lists themselves, not their bound append methods: compiled, `events.append(event)` on
    # a list is a direct C call, a bound method is called as an object.
    events, new_events = state.events, ctx.new_events
    # Rubric.redline_issue written out (a look-up of text criteria only): once per redline.
    anchors, issues_by_id = ctx.matter.rubric.anchors, ctx.matter.rubric.issues_by_id
    invalid_penalty = work_product.INVALID_CITATION_PENALTY
    delegate_all = ctx.observer is not None
    raw, valid_count = state.raw_score, state.valid_citation_count
    # Targets and Scored tuples are unpacked whole (their 5 and 8 fields), as `score_issue` and
    # `_apply` do: one step where each field read by name is a descriptor call.
    for kind, action, _, memo in submissions:
        event: Event | None = None
        if delegate_all:
            pass
        elif kind == "issue":
            target: work_product.IssueTarget | None = dict.get(memo, "target")
            label, valid, invalid, issue, noted = target if target is not None else _NO_TARGET
            if noted:  # warnings (or no target yet): the handler notes them
                pass
            elif issue is None or issue.anchor not in read:  # the most frequent branch first
                event = dict.get(memo, "unsupported_issue" if issue is None else "unread_anchor_issue")
                points = -0.5 - invalid_penalty * len(invalid)
                if event is not None:
                    unsupported.append(label)
            elif issue.criterion in matched_issues:
                event, points = dict.get(memo, "duplicate_issue"), ledger.DUPLICATE_POINTS
            else:
                scored: work_product.Scored | None = dict.get(memo, "issue")
                if scored is not None:
                    scored_event, scored_points, critical, gates, _, _, fabricated, warned = scored
                    if not (warned or gates.timed_out or gates.errors):
                        event, points = scored_event, scored_points
                        set.add(matched_issues, issue.criterion)
                        issue_labels[label] = issue.criterion
                        if critical:
                            state.critical_failure = True
                        if fabricated:
                            state.fabricated_quotes.extend(fabricated)
            if event is not None:
                valid_count += len(valid)
                if invalid:
                    state.invalid_citations.extend(invalid)
        else:
            named: tuple[str, str] | None = dict.get(memo, "target")
            if named is not None:
                labelled = dict.get(issue_labels, named[0])
                if labelled is None:  # only a label no matched issue registered falls back to the target
                    anchored = anchors.get(named[1])
                    labelled = anchored.criterion if anchored is not None else None
                redline = issues_by_id.get(labelled) if isinstance(labelled, str) else None
                if redline is None:
                    event, points = dict.get(memo, "unsupported_redline"), ledger.UNSUPPORTED_REDLINE_POINTS
                elif redline.criterion in matched_redlines:
                    event, points = dict.get(memo, ("duplicate", redline.id)), ledger.DUPLICATE_POINTS
                else:
                    scored = dict.get(memo, ("redline", redline.id))
                    if scored is not None:
                        scored_event, scored_points, critical, gates, _, _, fabricated, _ = scored
                        if not (gates.timed_out or gates.errors):
                            event, points = scored_event, scored_points
                            set.add(matched_redlines, redline.criterion)
                            if critical:
                                state.critical_failure = True
                            if fabricated:  # never for a redline today; kept as the handler's _apply does
                                state.fabricated_quotes.extend(fabricated)
        if event is None:  # through the handler, which reads and writes the state itself
            state.raw_score, state.valid_citation_count = raw, valid_count
            score = work_product.score_issue if kind == "issue" else work_product.score_redline
            score(ctx, action, memo)
            raw, valid_count = state.raw_score, state.valid_citation_count
            continue
        events.append(event)
        raw += points
        new_events.append(event)
    state.raw_score, state.valid_citation_count = raw, valid_count
