"""Handlers for issues and redlines, and their scoring (engine.md §3); `revision` revises them."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

from rubric_tools.scoring.fields import iterable_field, label_of
from rubric_tools.scoring.gates import NOTHING_FOUND, GateCheck
from rubric_tools.scoring.model import Issue, Matter
from rubric_tools.scoring.state import StepContext, Submission
from rubric_tools.scoring.text import format_citation, normalize, split_citation

ISSUE_FIELDS = ("issue_id", "title", "severity", "citations", "analysis", "recommendation")
REDLINE_FIELDS = ("issue_id", "document_id", "section", "replacement_text", "rationale")
ISSUE_FIELD_SET = frozenset(ISSUE_FIELDS)
REDLINE_FIELD_SET = frozenset(REDLINE_FIELDS)

INVALID_CITATION_PENALTY = 0.75
MINIMUM_QUOTE_LENGTH = 15
REASON_NO_ANCHOR = "no cited provision matches a scored issue's operative anchor"
REASON_UNREAD_ANCHOR = "the operative anchor must be read before issue credit is awarded"
REASON_NO_REDLINE_TARGET = "redline matches no submitted issue label and no operative anchor"


# ----------------------------------------------------------------- submissions


def submit_issue(ctx: StepContext, action: Mapping[str, Any]) -> float:
    # The field check, `label_of` and the submission's bookkeeping written out: on the two hottest handlers, each
    # call costs as much as the line it runs. The check is `action.keys() >= ISSUE_FIELD_SET` as membership tests,
    # which cost half as much as building the keys view and iterating the set.
    if not (
        "issue_id" in action
        and "title" in action
        and "severity" in action
        and "citations" in action
        and "analysis" in action
        and "recommendation" in action
    ):
        return ctx.penalty(-0.25, "submit_issue is missing a required field")
    label = str(action.get("issue_id"))
    target = _issue_target(ctx, action, label)
    # The memo starts with the target `score_issue` would work out from the same action.
    memo: dict[Any, Any] = {"target": target}
    # Kept for later re-scoring; a revision finds the first submission of its name (a
    # revision keeps the name, so the index never goes stale).
    state = ctx.state
    submissions = state.submissions  # read once (compiled, each read is an attribute look-up)
    state.submission_index.setdefault(("issue", label), len(submissions))
    submissions.append(_new_tuple(Submission, ("issue", action, label, memo)))
    return _score_issue_target(ctx, action, memo, target)


def propose_redline(ctx: StepContext, action: Mapping[str, Any]) -> float:
    # Written out as submit_issue is, the field check too, each field `str()`-ed once (revise_redline finds its
    # target and key the same way).
    if not (
        "issue_id" in action
        and "document_id" in action
        and "section" in action
        and "replacement_text" in action
        and "rationale" in action
    ):
        return ctx.penalty(-0.25, "propose_redline is missing a required field")
    document_id, section = str(action.get("document_id")), str(action.get("section"))
    # The section's citation, if the section exists: what `score_redline` would format.
    sections = ctx.matter.redline_targets.get(document_id)
    target = sections.get(section) if sections is not None else None
    if target is None:
        return ctx.penalty(-0.75, "redline target document or section not found")
    label = str(action.get("issue_id"))
    key = (label, document_id, section)
    # The memo starts with the target `score_redline` would work out from the same fields.
    memo: dict[Any, Any] = {"target": (label, target)}
    state = ctx.state
    submissions = state.submissions  # read once (compiled, each read is an attribute look-up)
    state.submission_index.setdefault(("redline", key), len(submissions))
    submissions.append(_new_tuple(Submission, ("redline", action, key, memo)))
    return _score_redline_target(ctx, action, memo, label, target)


# ----------------------------------------------------------------- scoring


class IssueTarget(NamedTuple):
    """What an issue submission's citations resolve to: no state involved."""

    label: Any
    valid: frozenset[str]
    invalid: tuple[str, ...]
    issue: Issue | None
    warnings: tuple[str, ...]


class Scored(NamedTuple):
    """The outcome of scoring a submission's text, replayed as is on a re-score."""

    event: dict[str, Any]
    points: float
    critical: bool
    gates: GateCheck
    surface: str  # the gate list that ran, for the observer: gates:issue or gates:redline
    text: str  # the normalized text it ran on
    fabricated_quotes: tuple[str, ...] = ()
    warnings: tuple[str, ...] = ()


CITATION_MEMO_LIMIT = 4096
_ABSENT = object()  # an absent field, told apart from any value an action may hold
_new_tuple = tuple.__new__  # a NamedTuple without its Python-level __new__, once per submission


def _resolve_citation(matter: Matter, citation: str) -> tuple[bool, Issue | None]:
    """Whether `citation` names an existing section, and the issue it is the anchor of."""
    memo = matter.citation_memo
    known: tuple[bool, Issue | None] | None = memo.get(citation)
    if known is None:
        parsed = split_citation(citation)
        resolves = parsed is not None and matter.resolve(*parsed) is not None
        known = (resolves, matter.rubric.anchors.get(citation.strip()) if resolves else None)
        if len(memo) >= CITATION_MEMO_LIMIT:  # agents' citations are unbounded; the memo is not
            memo.clear()
        memo[citation] = known
    return known


def _cited_section(matter: Matter, citation: str) -> tuple[str | None]:
    """The normalized text of the section `citation` names (None when it names none),
    remembered per matter: quotes cite the same few sections."""
    parsed = split_citation(citation)
    known = (matter.resolve(*parsed) if parsed else None,)
    memo = matter.cited_section_memo
    if len(memo) >= CITATION_MEMO_LIMIT:  # agents' citations are unbounded; the memo is not
        memo.clear()
    memo[citation] = known
    return known


def _issue_target(ctx: StepContext, action: Mapping[str, Any], label: str) -> IssueTarget:
    """What the action's citations resolve to, under its `label` (`label_of(action)`)."""
    citations = action.get("citations", _ABSENT)
    if type(citations) is list:
        # A list of text only is remembered whole (it is hashable, and no other JSON or YAML
        # value equals a string, so no other list finds its entry); anything else is resolved.
        # The entry is the target last built for the list: the same label (as a resubmission
        # or a revision has) takes it as is; another label, its resolution.
        key = tuple(citations)
        memo = ctx.matter.issue_target_memo
        try:
            known: IssueTarget | None = memo.get(key)
        except TypeError:  # an unhashable item (a list, a mapping)
            known = None
        if known is not None:
            if known.label == label:
                return known
            # The other fields unpacked, not `(label, *known[1:])` (a slice and a starred tuple cost two objects
            # more), nor indexed: compiled, a NamedTuple's items are read through its Python-level __getitem__.
            _, valid, invalid, issue, warnings = known
            target: IssueTarget = _new_tuple(IssueTarget, (label, valid, invalid, issue, warnings))
        else:
            resolved, plain = _resolve_citations(ctx, citations)
            target = _new_tuple(IssueTarget, (label, *resolved, ()))
            if not plain:
                return target
            if len(memo) >= CITATION_MEMO_LIMIT:  # agents' lists are unbounded; the memo is not
                memo.clear()
        memo[key] = target
        return target
    warned = len(ctx.warnings)
    resolved, _ = _resolve_citations(ctx, iterable_field(ctx, action, "citations"))
    warnings = tuple(ctx.warnings[warned:]) if len(ctx.warnings) > warned else ()
    return _new_tuple(IssueTarget, (label, *resolved, warnings))


def _resolve_citations(
    ctx: StepContext, citations: list[Any]
) -> tuple[tuple[frozenset[str], tuple[str, ...], Issue | None], bool]:
    """(valid citations, invalid ones in order, the issue of the first valid anchor), and
    whether every item was text."""
    valid: set[str] = set()
    invalid: list[str] = []
    issue: Issue | None = None
    plain = True
    known_citations = ctx.matter.citation_memo
    for item in citations:
        if type(item) is str:
            citation = item
        else:
            citation, plain = str(item), False
        known = known_citations.get(citation)
        resolves, anchored = known if known is not None else _resolve_citation(ctx.matter, citation)
        if resolves:
            valid.add(citation)
            if issue is None:
                issue = anchored  # the first valid citation that is an anchor decides
        else:
            invalid.append(citation)
    return (frozenset(valid), tuple(invalid), issue), plain


def score_issue(ctx: StepContext, action: Mapping[str, Any], memo: dict[Any, Any] | None = None) -> float:
    """Score an issue submission; `memo` is its Submission's memo (a fresh one when None).

    The memo keeps what depends on the action alone (its target, the scored text) and the
    event of each branch taken, so that a re-score records the very same event object."""
    if memo is None:
        memo = {}
    target: IssueTarget | None = memo.get("target")
    if target is None:
        target = memo["target"] = _issue_target(ctx, action, str(action.get("issue_id")))
    elif target.warnings:
        ctx.warnings.extend(target.warnings)
    return _score_issue_target(ctx, action, memo, target)


def _score_issue_target(
    ctx: StepContext, action: Mapping[str, Any], memo: dict[Any, Any], target: IssueTarget
) -> float:
    """`score_issue` once the target is known (as `submit_issue` knows it, with its memo)."""
    state = ctx.state
    label, valid, invalid, issue, _ = target
    state.valid_citation_count += len(valid)
    if invalid:
        state.invalid_citations.extend(invalid)
    if issue is None or issue.anchor not in state.read_citations:
        state.unsupported_issues.append(label)
        kind = "unsupported_issue" if issue is None else "unread_anchor_issue"
        event = memo.get(kind)
        if event is None:
            reason = REASON_NO_ANCHOR if issue is None else REASON_UNREAD_ANCHOR
            event = memo[kind] = {"type": kind, "criterion": label, "reason": reason}
        # Most cite nothing invalid: -0.5 is what the sum gives then (-0.5 - 0.0).
        points = -0.5 - INVALID_CITATION_PENALTY * len(invalid) if invalid else -0.5
    elif (criterion := issue.criterion) in state.matched_issues:  # read once: compiled, each read is a look-up
        event = memo.get("duplicate_issue")
        if event is None:
            event = memo["duplicate_issue"] = {"type": "duplicate_issue", "criterion": criterion}
        points = -0.2
    else:
        state.matched_issues.add(criterion)
        state.issue_labels[label] = criterion
        scored: Scored | None = memo.get("issue")
        if scored is None:
            penalty = INVALID_CITATION_PENALTY * len(invalid)
            scored = memo["issue"] = _score_matched_issue(ctx, action, issue, valid, penalty)
        elif scored.warnings:
            ctx.warnings.extend(scored.warnings)
        return _apply(ctx, scored)
    # `ctx.record_as_rounded`, in line: three submissions in four end in one of the branches above.
    event["points"] = points
    state.events.append(event)
    state.raw_score += points
    ctx.new_events.append(event)
    return points


def _apply(ctx: StepContext, scored: Scored) -> float:
    event, points, critical, gates, surface, text, fabricated_quotes, _ = scored  # one unpacking, not 7 look-ups
    if gates is not NOTHING_FOUND:
        ctx.note_gates(gates)
    if ctx.observer is not None:
        ctx.observe(surface, str(event["criterion"]), text, gates)
    if critical:
        ctx.state.critical_failure = True
    if fabricated_quotes:
        ctx.state.fabricated_quotes.extend(fabricated_quotes)
    if not points and type(points) is float:  # a float zero (an unscored redline) rounds to itself
        return ctx.record_as_rounded(event, points)
    return ctx.record(event, points)


def _score_matched_issue(
    ctx: StepContext, action: Mapping[str, Any], issue: Issue, valid: frozenset[str], penalty: float
) -> Scored:
    warned = len(ctx.warnings)
    field = action.get
    # Built in the engine's order: the points are their sum in insertion order.
    components: dict[str, float] = {
        "base": issue.base_points,
        "severity": issue.severity_points if field("severity") == issue.severity else 0.0,
    }
    # The engine lists each missing citation once, sorted, however often the rubric repeats it.
    missing_citations = [c for c in issue.distinct_required_citations if c not in valid]
    components["citations"] = 0.0 if missing_citations else issue.citation_points
    if penalty:
        components["invalid_citation_penalty"] = -penalty
    # Formatting a value in an f-string is str() of it, as text_field does.
    text = normalize(f"{field('title', '')} {field('analysis', '')} {field('recommendation', '')}")
    concepts = issue.required_concepts
    found = [c for c in concepts if c in text]  # concept_fraction's found, without the missing list
    components["concepts"] = issue.concept_points * len(found) / len(concepts) if concepts else 0.0
    quotes = field("quotes", _ABSENT)
    # Absent or empty, as a third of them are, they need no scoring (and give no warning).
    quote_statuses: Sequence[dict[str, str]]
    if quotes is not _ABSENT and (type(quotes) is not list or quotes):
        # A list as is (what `iterable_field` returns for one); anything else through it, for its warning.
        items = quotes if type(quotes) is list else iterable_field(ctx, action, "quotes")
        quote_statuses, quote_points, fabricated = _score_quotes(ctx, items, issue)
    else:
        quote_statuses, quote_points, fabricated = NO_QUOTES
    components["quotes"] = quote_points
    event: dict[str, Any] = {"type": "issue", "criterion": issue.criterion, "components": components}
    if missing_citations:
        event["missing_citations"] = missing_citations
    event["matched_concepts"] = found
    if quote_statuses:
        event["quotes"] = quote_statuses
    check = issue.issue_gate_runner.run(text, ctx.gate_timeout)
    fired = check.fired  # `last_fired` is its last item: read the field, not the property, twice
    if fired:
        event["critical_failure_pattern"] = fired[-1]
    critical = bool(fabricated or fired)
    points = sum(components.values())
    warnings = tuple(ctx.warnings[warned:]) if len(ctx.warnings) > warned else ()
    return _new_tuple(Scored, (event, points, critical, check, "gates:issue", text, fabricated, warnings))


#: What `_score_quotes` finds for no quotes: no statuses, no points, nothing fabricated (shared,
#: so that the submissions without quotes build none of it).
NO_QUOTES: tuple[Sequence[dict[str, str]], float, tuple[str, ...]] = ((), 0.0, ())


def _score_quotes(
    ctx: StepContext, quotes: list[Any], issue: Issue
) -> tuple[list[dict[str, str]], float, tuple[str, ...]]:
    """Quote statuses, their points, and the fabricated quotes (each a critical failure)."""
    statuses: list[dict[str, str]] = []
    fabricated: list[str] = []
    points = 0.0
    verified = False
    cited_sections = ctx.matter.cited_section_memo
    for quote in quotes:
        if type(quote) is dict or isinstance(quote, Mapping):
            citation, text = str(quote.get("citation", "")), str(quote.get("text", ""))
        else:
            citation, text = "", str(quote)
        normalized = normalize(text)
        if len(normalized) < MINIMUM_QUOTE_LENGTH:
            points -= 0.25
            status = "unverified_too_short"
        else:
            known = cited_sections.get(citation)
            section = (known if known is not None else _cited_section(ctx.matter, citation))[0]
            if section is not None and normalized in section:
                verified = True
                status = "verified"
            else:
                points -= 1.0
                status = "fabricated"
                fabricated.append(citation or normalized[:60])
        statuses.append({"citation": citation, "status": status})
    if verified:
        points += issue.quote_points
    return statuses, points, tuple(fabricated) if fabricated else ()


def score_redline(ctx: StepContext, action: Mapping[str, Any], memo: dict[Any, Any] | None = None) -> float:
    """Score a redline submission; `memo` is its Submission's memo (a fresh one when None)."""
    memo = {} if memo is None else memo
    named: tuple[str, str] | None = memo.get("target")
    if named is None:
        named = memo["target"] = (
            label_of(action),
            format_citation(str(action.get("document_id")), str(action.get("section"))),
        )
    return _score_redline_target(ctx, action, memo, *named)


def _score_redline_target(
    ctx: StepContext, action: Mapping[str, Any], memo: dict[Any, Any], label: str, target: str
) -> float:
    """`score_redline` once the label and target citation are known (as `propose_redline` knows them)."""
    state, rubric = ctx.state, ctx.matter.rubric
    criterion = state.issue_labels.get(label)
    if criterion is None:  # only a label no matched issue registered falls back to the target
        anchored = rubric.anchor_table.get(target)
        criterion = anchored.criterion if anchored is not None else None
    issue = rubric.redline_issues.get(criterion)  # rubric.redline_issue(criterion), None for None
    if issue is None:
        event = memo.get("unsupported_redline")
        if event is None:
            event = memo["unsupported_redline"] = {
                "type": "unsupported_redline",
                "criterion": label,
                "reason": REASON_NO_REDLINE_TARGET,
            }
        return ctx.record_as_rounded(event, -0.5)
    # The issue's own criterion (its id as YAML read it) and the matched set, each read once.
    criterion, matched_redlines = issue.criterion, state.matched_redlines
    if criterion in matched_redlines:
        duplicate_key = ("duplicate", issue.id)
        event = memo.get(duplicate_key)
        if event is None:
            event = memo[duplicate_key] = {"type": "duplicate_redline", "criterion": criterion}
        return ctx.record_as_rounded(event, -0.2)
    matched_redlines.add(criterion)
    scored_key = ("redline", issue.id)  # a tuple: an issue id may be any text, "target" too
    scored: Scored | None = memo.get(scored_key)
    if scored is None:
        scored = memo[scored_key] = _score_redline_text(ctx, action, issue)
    return _apply(ctx, scored)


def _score_redline_text(ctx: StepContext, action: Mapping[str, Any], issue: Issue) -> Scored:
    text = normalize(str(action.get("replacement_text", "")))  # text_field, in line
    check = issue.redline_gate_runner.run(text, ctx.gate_timeout)
    fired = check.fired  # `last_fired` is its last item: read the field, not the property, twice
    concepts = issue.redline_concepts
    scored = bool(concepts and issue.redline_points)
    event: dict[str, Any] = {"type": "redline" if scored else "unscored_redline", "criterion": issue.criterion}
    # An unscored redline still records the gate that fired, as the engine does.
    critical = bool(fired)
    if critical:
        event["critical_failure_pattern"] = fired[-1]
    if not scored:
        return _new_tuple(Scored, (event, 0.0, critical, check, "gates:redline", text, (), ()))
    found = [c for c in concepts if c in text]  # concept_fraction's found, without the missing list
    event["matched_redline_concepts"] = found
    points = issue.redline_points * len(found) / len(concepts)
    return _new_tuple(Scored, (event, points, critical, check, "gates:redline", text, (), ()))
