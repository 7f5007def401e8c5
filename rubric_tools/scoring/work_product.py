"""Handlers for issues and redlines, and their scoring (engine.md §3); `revision` revises them."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

from rubric_tools.scoring.fields import has_fields, iterable_field, label_of, text_field
from rubric_tools.scoring.gates import NOTHING_FOUND, GateCheck, run_gates
from rubric_tools.scoring.model import Issue, Matter
from rubric_tools.scoring.state import (
    EpisodeState,
    StepContext,
    Submission,
)
from rubric_tools.scoring.text import concept_fraction, format_citation, normalize, split_citation

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
    if not has_fields(action, ISSUE_FIELD_SET):
        return ctx.penalty(-0.25, "submit_issue is missing a required field")
    submission = _submit(ctx.state, "issue", action, label_of(action))
    return score_issue(ctx, action, submission.memo)


def propose_redline(ctx: StepContext, action: Mapping[str, Any]) -> float:
    if not has_fields(action, REDLINE_FIELD_SET):
        return ctx.penalty(-0.25, "propose_redline is missing a required field")
    if not target_exists(ctx, action):
        return ctx.penalty(-0.75, "redline target document or section not found")
    submission = _submit(ctx.state, "redline", action, redline_key(action))
    return score_redline(ctx, action, submission.memo)


def _submit(state: EpisodeState, kind: str, action: Mapping[str, Any], key: object) -> Submission:
    """Keep a submission for later re-scoring; a revision finds the first one of its name
    (a revision keeps the name, so the index never goes stale)."""
    submission = _new_tuple(Submission, (kind, action, key, {}))  # new_submission, without its call
    state.submission_index.setdefault((kind, key), len(state.submissions))
    state.submissions.append(submission)
    return submission


def redline_key(action: Mapping[str, Any]) -> tuple[str, str, str]:
    return (str(action.get("issue_id")), str(action.get("document_id")), str(action.get("section")))


def target_exists(ctx: StepContext, action: Mapping[str, Any]) -> bool:
    document = ctx.matter.documents.get(str(action.get("document_id")))
    return document is not None and str(action.get("section")) in document.sections


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


def _issue_target(ctx: StepContext, action: Mapping[str, Any]) -> IssueTarget:
    citations = action.get("citations", [])
    if type(citations) is list:
        # A list of text only is remembered whole (it is hashable, and no other JSON or YAML
        # value equals a string, so no other list finds its entry); anything else is resolved.
        key = tuple(citations)
        memo = ctx.matter.citation_list_memo
        try:
            known: tuple[frozenset[str], tuple[str, ...], Issue | None] | None = memo.get(key)
        except TypeError:  # an unhashable item (a list, a mapping)
            known = None
        if known is None:
            known, plain = _resolve_citations(ctx, citations)
            if plain:
                if len(memo) >= CITATION_MEMO_LIMIT:  # agents' lists are unbounded; the memo is not
                    memo.clear()
                memo[key] = known
        return _new_tuple(IssueTarget, (label_of(action), *known, ()))
    warned = len(ctx.warnings)
    known, _ = _resolve_citations(ctx, iterable_field(ctx, action, "citations"))
    warnings = tuple(ctx.warnings[warned:]) if len(ctx.warnings) > warned else ()
    return _new_tuple(IssueTarget, (label_of(action), *known, warnings))


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
    state = ctx.state
    memo = {} if memo is None else memo
    target: IssueTarget | None = memo.get("target")
    if target is None:
        target = memo["target"] = _issue_target(ctx, action)
    elif target.warnings:
        ctx.warnings.extend(target.warnings)
    label, issue, invalid = target.label, target.issue, target.invalid
    penalty = INVALID_CITATION_PENALTY * len(invalid)
    state.valid_citation_count += len(target.valid)
    if invalid:
        state.invalid_citations.extend(invalid)
    if issue is None or issue.anchor not in state.read_citations:
        state.unsupported_issues.append(label)
        kind = "unsupported_issue" if issue is None else "unread_anchor_issue"
        event = memo.get(kind)
        if event is None:
            reason = REASON_NO_ANCHOR if issue is None else REASON_UNREAD_ANCHOR
            event = memo[kind] = {"type": kind, "criterion": label, "reason": reason}
        return ctx.record(event, -0.5 - penalty)
    criterion = issue.criterion
    if criterion in state.matched_issues:
        event = memo.get("duplicate_issue")
        if event is None:
            event = memo["duplicate_issue"] = {"type": "duplicate_issue", "criterion": criterion}
        return ctx.record(event, -0.2)
    state.matched_issues.add(criterion)
    state.issue_labels[label] = criterion
    scored: Scored | None = memo.get("issue")
    if scored is None:
        scored = memo["issue"] = _score_matched_issue(ctx, action, issue, target.valid, penalty)
    elif scored.warnings:
        ctx.warnings.extend(scored.warnings)
    return _apply(ctx, scored)


def _apply(ctx: StepContext, scored: Scored) -> float:
    gates = scored.gates
    if gates is not NOTHING_FOUND:
        ctx.note_gates(gates)
    if ctx.observer is not None:
        ctx.observe(scored.surface, str(scored.event["criterion"]), scored.text, gates)
    if scored.critical:
        ctx.state.critical_failure = True
    if scored.fabricated_quotes:
        ctx.state.fabricated_quotes.extend(scored.fabricated_quotes)
    return ctx.record(scored.event, scored.points)


def _score_matched_issue(
    ctx: StepContext, action: Mapping[str, Any], issue: Issue, valid: frozenset[str], penalty: float
) -> Scored:
    warned = len(ctx.warnings)
    components: dict[str, float] = {"base": issue.base_points}
    severity_ok = action.get("severity") == issue.severity
    components["severity"] = issue.severity_points if severity_ok else 0.0
    # The engine lists each missing citation once, however often the rubric repeats it.
    missing_citations = sorted({c for c in issue.required_citations if c not in valid})
    components["citations"] = 0.0 if missing_citations else issue.citation_points
    if penalty:
        components["invalid_citation_penalty"] = -penalty
    field = action.get  # formatting a value in an f-string is str() of it, as text_field does
    text = normalize(f"{field('title', '')} {field('analysis', '')} {field('recommendation', '')}")
    found, _ = concept_fraction(issue.required_concepts, text)
    components["concepts"] = (
        issue.concept_points * len(found) / len(issue.required_concepts) if issue.required_concepts else 0.0
    )
    quote_statuses, quote_points, fabricated = _score_quotes(ctx, action, issue)
    components["quotes"] = quote_points
    event: dict[str, Any] = {"type": "issue", "criterion": issue.criterion, "components": components}
    if missing_citations:
        event["missing_citations"] = missing_citations
    event["matched_concepts"] = found
    if quote_statuses:
        event["quotes"] = quote_statuses
    check = run_gates(issue.critical_failure_patterns, text, ctx.gate_timeout)
    if check.last_fired is not None:
        event["critical_failure_pattern"] = check.last_fired
    critical = bool(fabricated) or check.last_fired is not None
    points = sum(components.values())
    warnings = tuple(ctx.warnings[warned:]) if len(ctx.warnings) > warned else ()
    return _new_tuple(Scored, (event, points, critical, check, "gates:issue", text, tuple(fabricated), warnings))


def _score_quotes(
    ctx: StepContext, action: Mapping[str, Any], issue: Issue
) -> tuple[list[dict[str, str]], float, list[str]]:
    """Quote statuses, their points, and the fabricated quotes (each a critical failure)."""
    statuses: list[dict[str, str]] = []
    fabricated: list[str] = []
    points = 0.0
    verified = False
    for quote in iterable_field(ctx, action, "quotes"):
        if isinstance(quote, dict) or isinstance(quote, Mapping):
            citation, text = str(quote.get("citation", "")), str(quote.get("text", ""))
        else:
            citation, text = "", str(quote)
        normalized = normalize(text)
        if len(normalized) < MINIMUM_QUOTE_LENGTH:
            points -= 0.25
            status = "unverified_too_short"
        else:
            parsed = split_citation(citation)
            section = ctx.matter.resolve(*parsed) if parsed else None
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
    return statuses, points, fabricated


def score_redline(ctx: StepContext, action: Mapping[str, Any], memo: dict[Any, Any] | None = None) -> float:
    """Score a redline submission; `memo` is its Submission's memo (a fresh one when None)."""
    state, rubric = ctx.state, ctx.matter.rubric
    memo = {} if memo is None else memo
    named: tuple[str, str] | None = memo.get("target")
    if named is None:
        named = memo["target"] = (
            label_of(action),
            format_citation(str(action.get("document_id")), str(action.get("section"))),
        )
    label, target = named
    criterion = state.issue_labels.get(label)
    if criterion is None:  # only a label no matched issue registered falls back to the target
        anchored = rubric.anchors.get(target)
        criterion = anchored.criterion if anchored is not None else None
    issue = rubric.redline_issue(criterion) if criterion is not None else None
    if issue is None:
        event = memo.get("unsupported_redline")
        if event is None:
            event = memo["unsupported_redline"] = {
                "type": "unsupported_redline",
                "criterion": label,
                "reason": REASON_NO_REDLINE_TARGET,
            }
        return ctx.record(event, -0.5)
    if issue.criterion in state.matched_redlines:
        duplicate_key = ("duplicate", issue.id)
        event = memo.get(duplicate_key)
        if event is None:
            event = memo[duplicate_key] = {"type": "duplicate_redline", "criterion": issue.criterion}
        return ctx.record(event, -0.2)
    state.matched_redlines.add(issue.criterion)
    scored_key = ("redline", issue.id)  # a tuple: an issue id may be any text, "target" too
    scored: Scored | None = memo.get(scored_key)
    if scored is None:
        scored = memo[scored_key] = _score_redline_text(ctx, action, issue)
    return _apply(ctx, scored)


def _score_redline_text(ctx: StepContext, action: Mapping[str, Any], issue: Issue) -> Scored:
    text = normalize(text_field(action, "replacement_text"))
    check = run_gates(issue.redline_critical_failure_patterns, text, ctx.gate_timeout)
    critical = check.last_fired is not None
    scored = bool(issue.redline_concepts) and bool(issue.redline_points)
    event: dict[str, Any] = {"type": "redline" if scored else "unscored_redline", "criterion": issue.criterion}
    # An unscored redline still records the gate that fired, as the engine does.
    if check.last_fired is not None:
        event["critical_failure_pattern"] = check.last_fired
    if not scored:
        return _new_tuple(Scored, (event, 0.0, critical, check, "gates:redline", text, (), ()))
    found, _ = concept_fraction(issue.redline_concepts, text)
    event["matched_redline_concepts"] = found
    points = issue.redline_points * len(found) / len(issue.redline_concepts)
    return _new_tuple(Scored, (event, points, critical, check, "gates:redline", text, (), ()))
