"""The scorer's floor: the text work no scorer of these rules can skip, on the same corpus.

From each action and the events the engine recorded for it (identical to the
reference's), we list the text operations its scoring needs — normalize the scored text,
look the rubric's concepts up in it (first-wins over question/escalation variants),
run the gates of the issue it scored, check quotes against their sections — once per
action (a revision re-scores earlier work, which a scorer may remember). The floor is
the time of those operations done with bare built-ins (`str.split`/`join`, `in`, a
compiled pattern's time-limited `search`) plus one handler look-up per step for the dispatch. It
does none of the bookkeeping (citations, budgets, events, records) a real scorer does.

Whatever text work the scorer has learned to skip, the floor skips too, with the same
means, so that ours/floor measures bookkeeping and nothing else: first-wins matching
walks the scorer's grouped match tables (`Rubric.question_table`), a markup's text is
looked at only once its round count could settle the issue, and the counterparty's own
counter text (matter data) is scored once per matter, not per acceptance.
"""

from __future__ import annotations

import time
from typing import Any

from rubric_tools.scoring.dialogue import first_match
from rubric_tools.scoring.gates import DEFAULT_SEARCH_TIMEOUT, Gate, compile_pattern
from rubric_tools.scoring.model import Issue, MatchItem, Matter, match_table

Operation = tuple[str, Any, Any]


def _text(action: dict[str, Any], *names: str) -> str:
    return " ".join(str(action.get(name, "")) for name in names)


def _gates(gates: tuple[Gate, ...]) -> list[Operation]:
    return [
        ("structured_gate", gate, None) if gate.is_structured else ("gate", compile_pattern(gate.pattern), None)
        for gate in gates
    ]


def _issue_work(matter: Matter, action: dict[str, Any], issue: Issue) -> list[Operation]:
    work: list[Operation] = [("normalize", _text(action, "title", "analysis", "recommendation"), None)]
    work.append(("concepts", issue.required_concepts, None))
    work.extend(_gates(issue.critical_failure_patterns))
    quotes = action.get("quotes", [])
    for quote in quotes if isinstance(quotes, list) else ():
        if isinstance(quote, dict):
            citation = str(quote.get("citation", ""))
            document_id, _, token = citation.partition("§")
            section = matter.resolve(document_id.strip(), token.strip()) or ""
            work.append(("quote", str(quote.get("text", "")), section))
    return work


def _criteria(record: Any, *types: str) -> set[str]:
    return {str(event.get("criterion")) for event in record.events if event.get("type") in types}


def _action_work(matter: Matter, record: Any, rounds: dict[str, int]) -> list[Operation]:
    """The text work of one step; `rounds` counts each issue's markups so far in the episode."""
    action, kind, rubric = record.action, record.type, matter.rubric
    if not isinstance(action, dict):
        return []
    if kind in ("ask_client", "escalate"):
        text = _text(action, "question") if kind == "ask_client" else _text(action, "topic", "reason")
        table = rubric.question_table if kind == "ask_client" else rubric.escalation_table
        return [("normalize", text, None), ("first_match", table, None)]
    if kind in ("submit_issue", "revise_issue"):
        matched = _criteria(record, "issue")
        citations = action.get("citations", [])
        anchored = [rubric.anchors.get(str(c).strip()) for c in citations] if isinstance(citations, list) else []
        issue = next((i for i in anchored if i is not None and i.id in matched), None)
        return _issue_work(matter, action, issue) if issue is not None else []
    if kind in ("propose_redline", "revise_redline"):
        work: list[Operation] = []
        for issue_id in _criteria(record, "redline", "unscored_redline"):
            issue = rubric.issues_by_id[issue_id]
            work = [("normalize", _text(action, "replacement_text"), None)]
            work.extend(_gates(issue.redline_critical_failure_patterns))
            work.append(("concepts", issue.redline_concepts, None))
            break  # one redline's text per action
        return work
    if kind == "send_markup":
        # Whether a markup's text is acceptable decides something only once the issue's round
        # count passes the counterparty's `resist_rounds`: before that no scorer needs the text.
        work = []
        for issue_id in _criteria(record, "counterparty_counter", "counterparty_reject", "settlement"):
            position, issue = matter.positions[issue_id], rubric.issues_by_id[issue_id]
            rounds[issue_id] = rounds.get(issue_id, 0) + 1
            if rounds[issue_id] <= position.resist_rounds:
                continue
            work.append(("normalize", _text(action, "proposed_text"), None))
            work.append(("first_match", match_table((MatchItem(issue_id, 0.0, (), position.accept_concepts),)), None))
            if _criteria(record, "settlement"):
                work.append(("concepts", issue.settlement_concepts, None))
                work.extend(_gates(issue.settlement_critical_failure_patterns))
        return work
    # accept_counterparty closes on the counterparty's own text, from the matter: how that
    # text scores is worked out once per matter, not per step (the scorer remembers it).
    if kind == "submit_final":
        concepts = rubric.final_submission.required_concepts
        return [("normalize", _text(action, "summary"), None), ("concepts", concepts, None)]
    return []


def plan_text_work(work: list[tuple[Matter, list[object]]], replay: Any) -> list[tuple[list[Any], list[Operation]]]:
    """Per trajectory: the step types to dispatch and the text operations to perform."""
    plans = []
    for matter, actions in work:
        steps = replay(matter, actions).steps
        rounds: dict[str, int] = {}
        operations = [operation for record in steps for operation in _action_work(matter, record, rounds)]
        plans.append(([record.type for record in steps], operations))
    return plans


def floor_seconds(plans: list[tuple[list[Any], list[Operation]]], handlers: dict[str, Any]) -> float:
    """CPU seconds of one pass of the floor's work over every trajectory. Each concept list is looked up
    in the most recently normalized text, as the scorer does."""
    start = time.process_time()
    for types, operations in plans:
        for action_type in types:
            handlers.get(action_type) if isinstance(action_type, str) else None
        text = ""
        for name, first, second in operations:
            if name == "normalize":
                text = " ".join(first.lower().split())
            elif name == "concepts":
                [concept for concept in first if concept in text]
            elif name == "first_match":
                first_match(first, text)
            elif name == "gate":  # time-limited, as any search of an untrusted pattern must be
                first.search(text, timeout=DEFAULT_SEARCH_TIMEOUT)
            elif name == "structured_gate":
                first.fires(text)
            else:  # quote: normalize it, then find it in its section
                found = " ".join(first.lower().split()) in second  # noqa: F841  the work is the point
    return time.process_time() - start


REVISIONS = frozenset({"revise_issue", "revise_redline"})


def revision_floor_seconds(episodes: list[list[Any]], work_product_events: frozenset[str]) -> float:
    """CPU seconds of the work a revision's contract itself demands, over whole episodes (their
    step records): what no scorer of engine.md §3 can skip, however it remembers text work.

    A revision removes every work-product event, subtracts their recorded points with one
    `sum()`, then re-scores every submission in order, appending its event and adding its
    exact points to `raw_score` one by one. Float addition is not associative, so the
    identical `raw_score` (and step reward) needs those n additions in that order, from the
    new starting value: Θ(n) per revision for n submissions, whatever is remembered. The
    same holds for the event list, whose order (work product moved behind the other events)
    the result reports. Here each event's recorded points stand in for its exact points
    (the same number of additions). Other steps append their events and add their points."""
    start = time.process_time()
    for records in episodes:
        events: list[dict[str, Any]] = []
        raw = 0.0
        for record in records:
            if record.type in REVISIONS and record.events:
                kept = [event for event in events if event["type"] not in work_product_events]
                raw -= sum([event["points"] for event in events if event["type"] in work_product_events])
                events = kept
            for event in record.events:
                events.append(event)
                raw += event["points"]
    return time.process_time() - start
