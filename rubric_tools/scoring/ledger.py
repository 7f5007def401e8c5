"""The ledger of a revision: the latest scoring of each submission, so that a revision can
replay what it cannot change instead of scoring it again (revision.py).

A submission's outcome depends on its action, on whether the anchor it needs was read, and
on what the submissions before it left in the state. So, unless a read since made an
anchor one waited for readable (or one notes warnings or gate trouble, which a re-score
notes again):

- every submission but the revised one scores as its latest scoring did, provided the
  revised one changes the state as its old version did: the revised one is scored on what
  the ones before it left (rebuilt from the ledger's matches), the others replayed;
- else the ones after it still do, provided it changes what they look at (matched issues
  and redlines, issue labels) as before: the ones up to it are scored again through their
  memos, the later ones replayed, and its own part of the lists and count swapped.

Replaying appends their events and adds their exact points in order (what the contract
itself costs), and leaves the state as it was.

The ledger is `EpisodeState.ledger` (a `state.Ledger`), kept once an episode has more than
`REPLAY_MINIMUM` submissions. The n-th work-product event of the episode's events is always
the latest scoring of the n-th submission: a submission records one, and a revision removes
them all and records one per submission in order. So the ledger is brought up to date from
the events recorded since the previous revision, and what each scoring did is read from its
submission's memo, only when a revision needs it.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Mapping
from operator import is_, itemgetter
from typing import Any

from rubric_tools.scoring import work_product
from rubric_tools.scoring.model import Issue, YamlId
from rubric_tools.scoring.state import WORK_PRODUCT_EVENTS, EpisodeState, Event, Ledger, StepContext, Submission

#: Replaying pays only when enough submissions are replayed: keeping the ledger, reading once
#: what each scoring did (about three times a re-score through its memo) and the checks of
#: each revision. With fewer (all but a few of the conformance corpus's episodes, where most
#: revisions also change what later ones see), a revision scores them again through their
#: memos; the result is the same either way.
REPLAY_MINIMUM = 16

# The points score_issue and score_redline record for their branches without text work.
DUPLICATE_POINTS = -0.2
UNSUPPORTED_REDLINE_POINTS = -0.5
UNSUPPORTED_ISSUE_TYPES = ("unsupported_issue", "unread_anchor_issue")

#: (valid citations, invalid citations, unsupported labels, fabricated quotes) a scoring added.
Contribution = tuple[int, tuple[str, ...], tuple[str, ...], tuple[str, ...]]
#: (the exact points a scoring added, whether it set the critical flag, whether it noted
#: warnings or gate trouble, the anchor it found unread).
Outcome = tuple[float, bool, bool, str | None]


def unsupported_issue_points(target: work_product.IssueTarget) -> float:
    return -0.5 - work_product.INVALID_CITATION_PENALTY * len(target.invalid)


_recorded_points = itemgetter("points")


def take_out_work_product(state: EpisodeState, keep: bool) -> None:
    """Remove every work-product event from `state.events` and subtract their recorded points,
    and recompute the critical flag from the events kept. With `keep`, enter those recorded
    since the ledger was last brought up to date in it (starting one if need be)."""
    events, retained, seen = state.events, state.retained_checked, state.ledger_seen
    kept = events[:retained]  # the events the last revision kept come first
    book = state.ledger
    # Without a ledger, the last revision's re-score recorded the events between the kept ones
    # and `ledger_seen` (see forget): work product only, taken whole without a type test each.
    work = events[retained:seen] if book is None else []
    critical = state.retained_critical
    for event in events[seen:]:
        if event["type"] in WORK_PRODUCT_EVENTS:
            work.append(event)
        else:
            kept.append(event)
            # An event that was critical stays critical, and stays kept: only new ones are looked at.
            # Most carry none of the keys that can make one critical: a set test in C first.
            if not critical and not CRITICAL_KEYS.isdisjoint(event) and is_critical(event):
                critical = True
    # The engine subtracts the recorded (rounded) points, not the exact ones: sum() as it does,
    # over the work-product events in their order (the ledger's first, when there is one).
    if keep:
        if book is None:
            book = state.ledger = Ledger()
        first = len(book.events)
        book.events += work
        book.recorded += [event["points"] for event in work]
        book.points += [0.0] * len(work)  # read from the memo when a revision needs them
        book.pending += range(first, first + len(work))
        removed = sum(book.recorded)
        if len(book.events) != len(state.submissions):  # never expected: no replay for now
            book.usable = False
    elif book is not None:
        removed = sum(book.recorded + [event["points"] for event in work])
        state.ledger = None
    else:  # the common case: a short episode, no list of the points needed
        removed = sum(map(_recorded_points, work))
    state.events = kept
    state.raw_score -= removed
    state.retained_checked = len(kept)
    state.retained_critical = state.critical_failure = critical


def forget(state: EpisodeState) -> None:
    """Drop the ledger (after a full re-score it cannot refresh, or one too short to keep it):
    the next revision finds the events of this re-score, all work product, between the kept
    events and `ledger_seen`, and every later work-product event after it."""
    state.ledger = None
    state.ledger_seen = len(state.events)


def refresh(state: EpisodeState, events: list[Event]) -> None:
    """After a full re-score (`events`, one per submission): where a submission recorded the
    very event the ledger has (from its memo: the same branch), what was read about it still
    holds; the others are entered again, to be read when a revision needs them."""
    book = state.ledger
    if book is None or not book.usable or len(book.events) != len(events):
        forget(state)
        return
    entries, recorded = book.events, book.recorded
    changed = [
        index for index, (event, entered) in enumerate(zip(events, entries, strict=True)) if event is not entered
    ]
    for index in changed:
        entries[index] = events[index]
        recorded[index] = events[index]["points"]
        book.critical.discard(index)
        book.noisy.discard(index)
        book.waiting.pop(index, None)
    if changed:
        gone = set(changed)
        for criterion, (index, _) in list(book.issue_matches.items()):
            if index in gone:
                del book.issue_matches[criterion]
        for criterion, index in list(book.redline_matches.items()):
            if index in gone:
                del book.redline_matches[criterion]
        book.pending = sorted(gone.union(book.pending))
    state.ledger_seen = len(state.events)


def replace(state: EpisodeState, book: Ledger, index: int, event: Event) -> None:
    """The revised submission's new scoring, replayed later as the others (after a replay)."""
    state.ledger_seen = len(state.events)
    book.events[index] = event
    book.recorded[index] = event["points"]
    book.critical.discard(index)
    book.noisy.discard(index)
    book.waiting.pop(index, None)
    at = bisect_right(book.pending, index)
    if not at or book.pending[at - 1] != index:
        book.pending.insert(at, index)


def replay_parts(
    ctx: StepContext, index: int, old: Submission, new: Submission, event: Event
) -> tuple[Contribution, Contribution] | None:
    """When every submission after `index` scores now as its latest scoring did (given that
    the ones up to it were just scored again, `event` the revised one's), the old and the new
    part of the revised one in the state no submission looks at; None when they must be
    scored again."""
    book = ctx.state.ledger
    if ctx.observer is not None or book is None or not book.usable:
        return None
    old_event = book.events[index]
    if new.kind == "issue":
        old_effects, new_effects = _issue_effects(old, old_event), _issue_effects(new, event)
        # The issue it matched, if any, is what later ones look at: its criterion and label.
        if old_effects is None or new_effects is None or old_effects[0] is not new_effects[0]:
            return None
        parts = old_effects[1], new_effects[1]
    # A redline keeps its key, so its target: after the same state, the same branch.
    elif event["type"] != old_event["type"] or event["criterion"] != old_event["criterion"]:
        return None
    else:
        parts = NOTHING_ELSE, NOTHING_ELSE  # a redline's Scored has no fabricated quotes
    # The ones before it took the branches they took (the same event objects, from their memos).
    if index and not all(map(is_, ctx.new_events[:index], book.events[:index])):
        return None
    if not _read_pending_outcomes(book, ctx.state.submissions, index):
        return None
    if max(book.noisy, default=-1) > index:  # a re-score notes them again
        return None
    read = ctx.state.read_citations
    if any(later > index and anchor in read for later, anchor in book.waiting.items()):
        return None
    return parts


def _read_pending_outcomes(book: Ledger, submissions: list[Submission], index: int) -> bool:
    """Read from the memos what the latest scorings after `index` did, where not read yet."""
    pending = book.pending
    at = bisect_right(pending, index)
    for later in pending[at:]:
        event = book.events[later]
        outcome = _outcome(submissions[later], event)
        if outcome is None:  # an event its memo does not explain (never expected)
            book.usable = False
            return False
        book.points[later], critical, noisy, anchor = outcome
        if critical:
            book.critical.add(later)
        if noisy:
            book.noisy.add(later)
        if anchor is not None:
            book.waiting[later] = anchor
        event_type = event["type"]
        if event_type == "issue":  # the first match of its criterion; its label then names it
            book.issue_matches[event["criterion"]] = (later, submissions[later].memo["target"].label)
        elif event_type == "redline" or event_type == "unscored_redline":
            book.redline_matches[event["criterion"]] = later
    del pending[at:]
    return True


def ready_to_replay_all_but(ctx: StepContext, index: int) -> bool:
    """Whether every submission but the one at `index` scores now as its latest scoring did,
    whatever the revision does: no anchor one waited for was read since, none notes anything
    (a re-score notes it again), and no observer watches."""
    book = ctx.state.ledger
    if ctx.observer is not None or book is None or not book.usable:
        return False
    if not _read_pending_outcomes(book, ctx.state.submissions, -1):
        return False
    if len(book.noisy) > (index in book.noisy):
        return False
    read = ctx.state.read_citations
    return not any(anchor in read and waiting != index for waiting, anchor in book.waiting.items())


def state_before(book: Ledger, index: int) -> tuple[set[YamlId], set[YamlId], dict[str, YamlId]]:
    """What the submissions before `index` left for it to look at, from the ledger: matched
    issues, matched redlines, and the issue each label names (the last match under it)."""
    matched: set[YamlId] = set()
    labels: dict[str, tuple[int, YamlId]] = {}
    for criterion, (at, label) in book.issue_matches.items():
        if at < index:
            matched.add(criterion)
            if label not in labels or labels[label][0] < at:
                labels[label] = (at, criterion)
    redlines = {criterion for criterion, at in book.redline_matches.items() if at < index}
    return matched, redlines, {label: criterion for label, (_, criterion) in labels.items()}


def same_effects(old: Submission, old_event: Event, new: Submission, event: Event) -> bool:
    """Whether two scorings of a submission changed the state alike: the same matched issue
    and the same parts of the lists and count (an issue), the same branch (a redline)."""
    if new.kind == "issue":
        old_effects, new_effects = _issue_effects(old, old_event), _issue_effects(new, event)
        return (
            old_effects is not None
            and new_effects is not None
            and old_effects[0] is new_effects[0]
            and old_effects[1] == new_effects[1]
        )
    return bool(event["type"] == old_event["type"] and event["criterion"] == old_event["criterion"])


def _outcome(submission: Submission, event: Event) -> Outcome | None:
    """What the scoring that recorded `event` for `submission` did, read from its memo; None
    if the memo does not explain the event."""
    memo, event_type = submission.memo, event["type"]
    if submission.kind == "issue":
        target: work_product.IssueTarget | None = memo.get("target")
        if target is None:
            return None
        noted = bool(target.warnings)  # noted again by every scoring, whatever its branch
        if event_type == "issue":
            scored: work_product.Scored | None = memo.get("issue")
            if scored is None or scored.event is not event:
                return None
            gates = scored.gates
            return (
                scored.points,
                scored.critical,
                noted or bool(scored.warnings or gates.timed_out or gates.errors),
                None,
            )
        if memo.get(event_type) is not event:
            return None
        if event_type == "duplicate_issue":
            return DUPLICATE_POINTS, False, noted, None
        unread = target.issue.anchor if target.issue is not None and event_type == "unread_anchor_issue" else None
        return unsupported_issue_points(target), False, noted, unread
    for value in memo.values():  # a redline's events are kept under keys naming their issue
        if value is event:
            points = DUPLICATE_POINTS if event_type == "duplicate_redline" else UNSUPPORTED_REDLINE_POINTS
            return points, False, False, None
        if type(value) is work_product.Scored and value.event is event:
            gates = value.gates
            return value.points, value.critical, bool(gates.timed_out or gates.errors), None
    return None


NOTHING_ELSE: Contribution = (0, (), (), ())


def _issue_effects(submission: Submission, event: Event) -> tuple[Issue | None, Contribution] | None:
    """The issue the scoring that recorded `event` matched (None for another branch), and what
    it added to the state no submission looks at; None if the memo does not explain it."""
    memo = submission.memo
    target: work_product.IssueTarget | None = memo.get("target")
    if target is None:
        return None
    event_type = event["type"]
    if event_type == "issue":
        scored: work_product.Scored | None = memo.get("issue")
        if scored is None or scored.event is not event:
            return None
        return target.issue, (len(target.valid), target.invalid, (), scored.fabricated_quotes)
    unsupported = (target.label,) if event_type in UNSUPPORTED_ISSUE_TYPES else ()
    return None, (len(target.valid), target.invalid, unsupported, ())


#: The state a submission's scoring changes: matched issues, matched redlines, issue labels,
#: valid citation count, invalid citations, unsupported labels, fabricated quotes.
Derived = tuple[set[YamlId], set[YamlId], dict[str, YamlId], int, list[str], list[str], list[str]]


def swap_derived(state: EpisodeState, derived: Derived) -> Derived:
    """Install `derived` as the state scorings change, and return the one it replaces."""
    current = (
        state.matched_issues,
        state.matched_redlines,
        state.issue_labels,
        state.valid_citation_count,
        state.invalid_citations,
        state.unsupported_issues,
        state.fabricated_quotes,
    )
    (
        state.matched_issues,
        state.matched_redlines,
        state.issue_labels,
        state.valid_citation_count,
        state.invalid_citations,
        state.unsupported_issues,
        state.fabricated_quotes,
    ) = derived
    return current


def restore(state: EpisodeState, saved: Derived, old: Contribution, new: Contribution) -> None:
    """Put back the state from before the revision (`saved`), with the revised submission's
    part of the accumulated lists and count replaced by its new one. The rebuilt lists hold
    what the submissions up to it added, so its part ends where they end."""
    _, _, _, _, *rebuilt = swap_derived(state, saved)
    state.valid_citation_count += new[0] - old[0]
    accumulated = (state.invalid_citations, state.unsupported_issues, state.fabricated_quotes)
    for items, rebuilt_items, old_part, new_part in zip(accumulated, rebuilt, old[1:], new[1:], strict=True):
        if old_part or new_part:
            start = len(rebuilt_items) - len(new_part)
            items[start : start + len(old_part)] = new_part


CRITICAL_KEYS = frozenset(
    {"critical_failure_pattern", "non_negotiable_missing", "missed_critical_escalations", "quotes"}
)


def is_critical(event: Mapping[str, Any]) -> bool:
    # Truthiness, as in the engine: a gate whose pattern is "" fires but is recorded as "".
    return bool(
        event.get("critical_failure_pattern")
        or event.get("non_negotiable_missing")
        or event.get("missed_critical_escalations")
        or any(q.get("status") == "fabricated" for q in event.get("quotes", ()))
    )
