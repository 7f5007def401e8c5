"""The scorer's floor: the text work no scorer of these rules can skip, on the same corpus.

From each action and the events the engine recorded for it (identical to the
reference's), we list the text operations its scoring needs — assemble the scored text
from the action's fields and normalize it, look the rubric's concepts up in it
(first-wins over question/escalation variants), run the gates of the issue it scored,
check quotes against their sections — once per submission and issue (a revision
re-scores earlier work, which a scorer may remember; a submission first matched during a
re-score, because its anchor has been read since, needs its text work then). The floor is
the time of those operations done with bare built-ins (an f-string of the fields,
`str.split`/`join`, `in`, a compiled pattern's time-limited `search`) plus one dispatch per
step: reading the action's type and looking its handler up. It starts from the same input
as the scorer, the actions, and does none of the bookkeeping (citations, budgets, events,
records) a real scorer does.

Whatever text work the scorer has learned to skip, the floor skips too, with the same
means, so that ours/floor measures bookkeeping and nothing else: first-wins matching
walks the scorer's grouped match tables (`Rubric.question_table`), gate lists run through
the scorer's `GateRunner` (positional regex calls, folding only non-ASCII text), a markup's text is
looked at only once its round count could settle the issue, and the counterparty's own
counter text (matter data) is scored once per matter, not per acceptance.
"""

from __future__ import annotations

import time
from functools import reduce
from operator import add
from typing import Any

from rubric_tools.scoring.dialogue import first_match
from rubric_tools.scoring.gates import DEFAULT_SEARCH_TIMEOUT, Gate, GateRunner
from rubric_tools.scoring.model import Issue, MatchItem, Matter, match_table

Operation = tuple[str, Any, Any]
#: What the floor times for one trajectory: its actions (to dispatch) and its text operations.
Plan = tuple[list[object], list[Operation]]

ISSUE_TEXT = ("title", "analysis", "recommendation")
WORK_PRODUCT = frozenset({"submit_issue", "propose_redline"})
REVISIONS = frozenset({"revise_issue", "revise_redline"})
SCORED_TEXT_EVENTS = frozenset({"issue", "redline", "unscored_redline"})


def _text(action: dict[str, Any], *names: str) -> Operation:
    """Normalize the text the engine scores: these fields, `str()`-ed and joined by spaces,
    read from the action when the floor runs (as the scorer must)."""
    return ("normalize", action, names)


def _gates(gates: tuple[Gate, ...]) -> list[Operation]:
    """Run a gate list the cheapest way the scorer knows: its own `GateRunner` (bound,
    time-limited searches called positionally, the text folded once and only when needed)."""
    return [("gates", GateRunner(gates), None)] if gates else []


def _issue_work(matter: Matter, action: dict[str, Any], issue: Issue) -> list[Operation]:
    work: list[Operation] = [_text(action, *ISSUE_TEXT), ("concepts", issue.required_concepts, None)]
    work.extend(_gates(issue.critical_failure_patterns))
    quotes = action.get("quotes", [])
    for quote in quotes if isinstance(quotes, list) else ():
        if isinstance(quote, dict):
            citation = str(quote.get("citation", ""))
            document_id, _, token = citation.partition("§")
            section = matter.resolve(document_id.strip(), token.strip()) or ""
            work.append(("quote", quote, section))
    return work


def _redline_work(action: dict[str, Any], issue: Issue) -> list[Operation]:
    work = [_text(action, "replacement_text")]
    work.extend(_gates(issue.redline_critical_failure_patterns))
    work.append(("concepts", issue.redline_concepts, None))
    return work


def _criteria(record: Any, *types: str) -> set[str]:
    return {str(event.get("criterion")) for event in record.events if event.get("type") in types}


class _Submissions:
    """The work product of one episode as the floor tracks it: the action of each submission
    (in submission order, a revision replacing its target), and which (submission, action,
    issue) text work has been done, as a scorer's memo would remember it."""

    def __init__(self, matter: Matter) -> None:
        self.matter = matter
        self.actions: list[dict[str, Any]] = []
        self.first_named: dict[tuple[str, object], int] = {}
        self.done: set[tuple[int, int, str]] = set()

    @staticmethod
    def _name(action: dict[str, Any], kind: str) -> tuple[str, object]:
        if kind.endswith("issue"):
            return ("issue", str(action.get("issue_id")))
        return ("redline", tuple(str(action.get(name)) for name in ("issue_id", "document_id", "section")))

    def submit(self, action: dict[str, Any], kind: str) -> None:
        self.first_named.setdefault(self._name(action, kind), len(self.actions))
        self.actions.append(action)

    def revise(self, action: dict[str, Any], kind: str) -> None:
        self.actions[self.first_named[self._name(action, kind)]] = action

    def text_work(self, events: tuple[Any, ...], first_index: int) -> list[Operation]:
        """The text work of the submissions these events (one per submission, in order from
        `first_index`) scored that has not been done for the same action and issue before."""
        work: list[Operation] = []
        issues = self.matter.rubric.issues_by_id
        for index, event in enumerate(events, start=first_index):
            if event.get("type") not in SCORED_TEXT_EVENTS:
                continue
            action, criterion = self.actions[index], str(event.get("criterion"))
            key = (index, id(action), criterion)
            if key in self.done:
                continue
            self.done.add(key)
            issue = issues[criterion]
            work.extend(
                _issue_work(self.matter, action, issue) if event["type"] == "issue" else _redline_work(action, issue)
            )
        return work


def _action_work(matter: Matter, record: Any, rounds: dict[str, int], submissions: _Submissions) -> list[Operation]:
    """The text work of one step; `rounds` counts each issue's markups so far in the episode."""
    action, kind, rubric = record.action, record.type, matter.rubric
    if not isinstance(action, dict):
        return []
    if kind in ("ask_client", "escalate"):
        text = _text(action, "question") if kind == "ask_client" else _text(action, "topic", "reason")
        table = rubric.question_table if kind == "ask_client" else rubric.escalation_table
        return [text, ("first_match", table, None)]
    if kind in WORK_PRODUCT or kind in REVISIONS:
        if not record.events:  # a penalty: nothing submitted, nothing scored
            return []
        if kind in WORK_PRODUCT:
            submissions.submit(action, kind)
            return submissions.text_work(record.events, len(submissions.actions) - 1)
        submissions.revise(action, kind)
        # A revision re-scores every submission: the events are theirs, in order (engine.md §3).
        return submissions.text_work(record.events, 0)
    if kind == "send_markup":
        # Whether a markup's text is acceptable decides something only once the issue's round
        # count passes the counterparty's `resist_rounds`: before that no scorer needs the text.
        work: list[Operation] = []
        for issue_id in _criteria(record, "counterparty_counter", "counterparty_reject", "settlement"):
            position, issue = matter.positions[issue_id], rubric.issues_by_id[issue_id]
            rounds[issue_id] = rounds.get(issue_id, 0) + 1
            if rounds[issue_id] <= position.resist_rounds:
                continue
            work.append(_text(action, "proposed_text"))
            work.append(("first_match", match_table((MatchItem(issue_id, 0.0, (), position.accept_concepts),)), None))
            if _criteria(record, "settlement"):
                work.append(("concepts", issue.settlement_concepts, None))
                work.extend(_gates(issue.settlement_critical_failure_patterns))
        return work
    # accept_counterparty closes on the counterparty's own text, from the matter: how that
    # text scores is worked out once per matter, not per step (the scorer remembers it).
    if kind == "submit_final":
        return [_text(action, "summary"), ("concepts", rubric.final_submission.required_concepts, None)]
    return []


def plan_text_work(work: list[tuple[Matter, list[object]]], replay: Any) -> list[Plan]:
    """Per trajectory: the actions to dispatch (those the episode scored) and the text operations."""
    plans = []
    for matter, actions in work:
        steps = replay(matter, actions).steps
        rounds: dict[str, int] = {}
        submissions = _Submissions(matter)
        operations = [op for record in steps for op in _action_work(matter, record, rounds, submissions)]
        plans.append(([record.action for record in steps], operations))
    return plans


def floor_seconds(plans: list[Plan], handlers: dict[str, Any]) -> float:
    """CPU seconds of one pass of the floor's work over every trajectory. Each concept list is looked up
    in the most recently normalized text, as the scorer does."""
    start = time.process_time()
    for actions, operations in plans:
        for action in actions:  # dispatch: the action's type, then its handler
            action_type = action.get("type") if type(action) is dict else None
            handlers.get(action_type) if type(action_type) is str else None
        text = ""
        for name, first, second in operations:
            if name == "normalize":  # the fields str()-ed and joined, as the engine defines the text
                field = first.get
                if len(second) == 1:
                    raw = str(field(second[0], ""))
                elif len(second) == 2:
                    raw = f"{field(second[0], '')} {field(second[1], '')}"
                else:
                    raw = f"{field(second[0], '')} {field(second[1], '')} {field(second[2], '')}"
                text = " ".join(raw.lower().split())
            elif name == "concepts":
                [concept for concept in first if concept in text]
            elif name == "first_match":
                first_match(first, text)
            elif name == "gates":  # time-limited, as any search of an untrusted pattern must be
                first.run(text, DEFAULT_SEARCH_TIMEOUT)
            else:  # quote: its text normalized, then found in its section
                found = " ".join(str(first.get("text", "")).lower().split()) in second  # noqa: F841  the work
    return time.process_time() - start


def revision_floor_seconds(episodes: list[list[Any]], work_product_events: frozenset[str]) -> float:
    """CPU seconds of the work a revision's contract itself demands, over whole episodes (their
    step records): what no scorer of engine.md §3 can skip, however it remembers text work.

    A revision removes every work-product event, subtracts their recorded points with one
    `sum()`, then re-scores every submission in order, appending its event and adding its
    exact points to `raw_score` one by one. Float addition is not associative, so the
    identical `raw_score` (and step reward) needs those n additions in that order, from the
    new starting value: Θ(n) per revision for n submissions, whatever is remembered. The
    same holds for the event list, whose order (work product moved behind the other events)
    the result reports. Done the cheapest way, as the scorer's ledger does it: the points
    kept in a list (read from each event once, when it is recorded), `sum()`, `list.extend`
    and `functools.reduce(operator.add, …)` in C, the kept and the work-product events in
    two lists. Each event's recorded points stand in for its exact points (the same number
    of additions)."""
    points_of = {id(record): [event["points"] for event in record.events] for records in episodes for record in records}
    start = time.process_time()
    for records in episodes:
        kept: list[dict[str, Any]] = []
        work: list[dict[str, Any]] = []
        work_points: list[float] = []
        raw = 0.0
        for record in records:
            events = record.events
            if record.type in REVISIONS and events:
                raw -= sum(work_points)
                work, work_points = list(events), points_of[id(record)]
                timeline = kept + work  # noqa: F841  the episode's events: the kept ones, then the work product
                raw = reduce(add, work_points, raw)
                continue
            for event in events:
                if event["type"] in work_product_events:
                    work.append(event)
                    work_points.append(event["points"])
                else:
                    kept.append(event)
                raw += event["points"]
    return time.process_time() - start
