"""Reward-hacking strategies, each generated from the rubric alone.

Every strategy knows the rubric (its concepts, anchors and severities) — the worst
case for a keyword rubric — but does no real work. Each returns a trajectory that
ends with `submit_final`; all but the stuffed summary submit an empty one, so the
summary's own points are measured by that strategy alone.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from rubric_tools.prove.moves import Action
from rubric_tools.prove.settle import markup_target
from rubric_tools.prove.wording import non_acceptable_text
from rubric_tools.scoring.model import Issue, Matter
from rubric_tools.scoring.text import format_citation, split_citation

FABRICATED_QUOTE = "The provider accepts unlimited liability and waives every limitation in this agreement"
LABEL_COPIES = 3
#: What an attacker that cannot tell the severity writes: the most common one in practice.
GUESSED_SEVERITY = "high"
#: Trajectories are cut here whatever maximum_steps says: no episode of use is longer.
MAX_ACTIONS = 10_000


@dataclass(frozen=True)
class Strategy:
    """One attack: a name, what it does, and how to build its trajectory."""

    name: str
    summary: str
    build: Callable[[Matter], list[Action]]
    unanchored: bool = False  # judged by the un-anchored raw-score threshold too


def every_concept(matter: Matter) -> list[str]:
    """Every concept the rubric rewards, once each, in rubric order."""
    rubric = matter.rubric
    found: list[str] = []
    for item in (*rubric.questions, *rubric.escalations):
        for variant in item.variants:
            found += variant
    for issue in rubric.issues:
        found += [*issue.required_concepts, *issue.redline_concepts, *issue.settlement_concepts]
    for position in matter.positions.values():
        for variant in position.accept_concepts:
            found += variant
    found += rubric.final_submission.required_concepts
    return [c for c in dict.fromkeys(found) if c]


def _blob(concepts: Iterable[str]) -> str:
    return " ".join(concepts) or "see the cited provisions"


def _room(matter: Matter) -> int:
    """Actions that fit before the final submission."""
    return min(max(matter.constraints.maximum_steps, 1), MAX_ACTIONS) - 1


def _finish(matter: Matter, actions: list[Action], summary: str = "") -> list[Action]:
    """Cut to the step budget, keeping room for the final submission."""
    return [*actions[: _room(matter)], {"type": "submit_final", "summary": summary}]


def _anchor_reads(matter: Matter) -> list[Action]:
    documents = []
    for issue in matter.rubric.issues:
        parsed = split_citation(issue.anchor)
        if parsed is not None and parsed[0] in matter.documents:
            documents.append(parsed[0])
    return [{"type": "read_document", "document_id": d, "section": None} for d in dict.fromkeys(documents)]


def _all_reads(matter: Matter) -> list[Action]:
    return [{"type": "read_document", "document_id": d, "section": None} for d in matter.documents]


def _citations(issue: Issue) -> list[str]:
    return list(dict.fromkeys([issue.anchor, *issue.required_citations]))


def _issue(label: str, issue: Issue, citations: list[str], analysis: str, quotes: list[object] | None = None) -> Action:
    return {
        "type": "submit_issue",
        "issue_id": label,
        "title": f"Issue {label}",
        "severity": issue.severity,
        "citations": citations,
        "analysis": analysis,
        "recommendation": analysis,
        "quotes": quotes or [],
    }


def _redline(label: str, issue: Issue, text: str) -> list[Action]:
    parsed = split_citation(issue.anchor)
    if parsed is None:
        return []
    return [
        {
            "type": "propose_redline",
            "issue_id": label,
            "document_id": parsed[0],
            "section": parsed[1],
            "replacement_text": text,
            "rationale": text,
        }
    ]


def _markups(matter: Matter, issue: Issue, label: str, text: str) -> list[Action]:
    position = matter.positions.get(issue.id)
    if position is None:
        return []
    document_id, section, _ = markup_target(matter, issue)
    markup = {
        "type": "send_markup",
        "issue_id": label,
        "document_id": document_id,
        "section": section,
        "proposed_text": text,
    }
    # Never more rounds than the episode has steps: the trajectory is cut there anyway.
    return [markup] * min(max(position.resist_rounds, 0) + 1, _room(matter))


def _stuffed_work(matter: Matter, reads: list[Action], *, anchored: bool) -> list[Action]:
    blob = _blob(every_concept(matter))
    actions = list(reads)
    for issue in matter.rubric.issues:
        anchors = set(matter.rubric.anchors)
        citations = _citations(issue) if anchored else [c for c in _citations(issue) if c.strip() not in anchors]
        actions.append(_issue(issue.id, issue, citations, blob))
        if anchored:
            actions += _redline(issue.id, issue, blob) + _markups(matter, issue, issue.id, blob)
    return actions


def keyword_stuffing_unanchored(matter: Matter) -> list[Action]:
    return _finish(matter, _stuffed_work(matter, _all_reads(matter), anchored=False))


def concept_stuffing_no_read(matter: Matter) -> list[Action]:
    return _finish(matter, _stuffed_work(matter, [], anchored=True))


def concept_stuffing_read(matter: Matter) -> list[Action]:
    return _finish(matter, _stuffed_work(matter, _anchor_reads(matter), anchored=True))


def cite_every_section(matter: Matter) -> list[Action]:
    """One finding per rubric issue, each citing every section, with no analysis and a
    guessed severity. Not knowing the anchors, the k-th finding starts its list at a
    different section: the first anchor at or after that point decides its match."""
    every = [format_citation(doc.id, token) for doc in matter.documents.values() for token in doc.sections]
    actions = _all_reads(matter)
    count = len(matter.rubric.issues)
    step = max(1, len(every) // max(count, 1))
    for k in range(min(count, _room(matter))):
        start = (k * step) % len(every) if every else 0
        actions.append(
            {
                "type": "submit_issue",
                "issue_id": f"finding-{k + 1}",
                "title": "Finding",
                "severity": GUESSED_SEVERITY,
                "citations": every[start:] + every[:start],
                "analysis": "",
                "recommendation": "",
                "quotes": [],
            }
        )
    return _finish(matter, actions)


def fabricated_quotes(matter: Matter) -> list[Action]:
    actions = _anchor_reads(matter)
    for issue in matter.rubric.issues:
        quote = {"citation": issue.anchor, "text": FABRICATED_QUOTE}
        actions.append(_issue(issue.id, issue, _citations(issue), _blob(issue.required_concepts), [quote]))
    return _finish(matter, actions)


def quote_whole_contract(matter: Matter) -> list[Action]:
    """Each issue on its read anchor, with no analysis, quoting the anchor's whole document
    as one quote cited to the anchor: verbatim text, but not text *of that section*."""
    actions = _anchor_reads(matter)
    for issue in matter.rubric.issues:
        parsed = split_citation(issue.anchor)
        document = matter.documents.get(parsed[0]) if parsed is not None else None
        whole = "\n\n".join(document.sections.values()) if document is not None else issue.anchor
        quote = {"citation": issue.anchor, "text": whole}
        actions.append(_issue(issue.id, issue, _citations(issue), "", [quote]))
    return _finish(matter, actions)


def one_stuffed_question(matter: Matter) -> list[Action]:
    concepts = [c for item in matter.rubric.questions for v in item.variants for c in v]
    return _finish(matter, [{"type": "ask_client", "question": _blob(dict.fromkeys(concepts)) + "?"}])


def escalate_everything(matter: Matter) -> list[Action]:
    blob = _blob(every_concept(matter))
    count = min(max(matter.constraints.maximum_escalations, 0), _room(matter))
    return _finish(matter, [{"type": "escalate", "topic": f"Escalation {n + 1}", "reason": blob} for n in range(count)])


def accept_every_counter(matter: Matter) -> list[Action]:
    actions: list[Action] = []
    for issue in matter.rubric.issues:
        position = matter.positions.get(issue.id)
        if position is None:
            continue
        document_id, section, _ = markup_target(matter, issue)
        opening = non_acceptable_text(position) or ""
        actions.append(
            {
                "type": "send_markup",
                "issue_id": issue.id,
                "document_id": document_id,
                "section": section,
                "proposed_text": opening,
            }
        )
        actions.append({"type": "accept_counterparty", "issue_id": issue.id})
    return _finish(matter, actions)


def stuffed_summary(matter: Matter) -> list[Action]:
    final = matter.rubric.final_submission
    summary = _blob([*final.required_concepts, *every_concept(matter)])
    missing = min(final.minimum_characters, 1_000_000) - len(summary)
    if missing > 0:  # repeat the stuffing until the summary is long enough
        summary = " ".join([summary] * (2 + missing // (len(summary) + 1)))
    return _finish(matter, [], summary)


def many_labels(matter: Matter) -> list[Action]:
    """One stuffed finding, on the first anchor, under as many labels as the rubric has issues."""
    issues = matter.rubric.issues
    if not issues:
        return _finish(matter, [])
    blob, first = _blob(every_concept(matter)), issues[0]
    actions = _anchor_reads(matter)
    for copy in range(min(max(len(issues), LABEL_COPIES), _room(matter))):
        label = f"finding-{copy + 1}"
        actions.append(_issue(label, first, _citations(first), blob))
        actions += _redline(label, first, blob)
    return _finish(matter, actions)


STRATEGIES: tuple[Strategy, ...] = (
    Strategy(
        "keyword-stuffing-unanchored",
        "every concept in each issue, citing no anchor",
        keyword_stuffing_unanchored,
        unanchored=True,
    ),
    Strategy(
        "concept-stuffing-no-read",
        "every concept on each anchor, redlines and markups, nothing read",
        concept_stuffing_no_read,
    ),
    Strategy("concept-stuffing-read", "every concept on each read anchor (the keyword ceiling)", concept_stuffing_read),
    Strategy("cite-every-section", "every section cited, no analysis, severity guessed", cite_every_section),
    Strategy("fabricated-quotes", "each issue with an invented quote", fabricated_quotes),
    Strategy("quote-whole-contract", "each anchor's whole document quoted, no analysis", quote_whole_contract),
    Strategy("one-stuffed-question", "a single question holding every question concept", one_stuffed_question),
    Strategy("escalate-everything", "every escalation slot stuffed with every concept", escalate_everything),
    Strategy("accept-every-counter", "open each negotiation and accept the first counter", accept_every_counter),
    Strategy("stuffed-summary", "only a summary holding every concept", stuffed_summary),
    Strategy("many-labels", "one stuffed finding and redline repeated under many labels", many_labels),
)
