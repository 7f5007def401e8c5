"""Credit items from what the scorer did: replay each trajectory with an observer and
read its reward events; run each gate probe. A text that merely mentions an item
credits nothing: only an earned, tripped or refused decision does."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from rubric_tools.coverage.items import ItemTable, concept_id, gate_id, variant_id
from rubric_tools.coverage.model import StepView, TrajectoryView
from rubric_tools.coverage.suite import Suite, SuiteTrajectory
from rubric_tools.scoring import Episode
from rubric_tools.scoring.gates import DEFAULT_SEARCH_TIMEOUT, Gate, GateError, GateTimeout, compile_pattern
from rubric_tools.scoring.model import Matter
from rubric_tools.scoring.state import Observation
from rubric_tools.scoring.text import normalize, variant_matches

#: Action fields holding the agent's own words, in the order the report shows them.
TEXT_FIELDS = (
    "question",
    "topic",
    "reason",
    "query",
    "title",
    "analysis",
    "recommendation",
    "replacement_text",
    "rationale",
    "proposed_text",
    "summary",
)
GATE_OBSERVATION = "gates:"


def gate_verdict(gate: Gate, normalized_text: str) -> bool | None:
    """Whether the gate fires on the text; None when its search fails (timeout, bad regex)."""
    try:
        return gate.fires(normalized_text)
    except (GateTimeout, GateError):
        return None


def guard_exercised(gate: Gate, normalized_text: str) -> bool:
    """A silent verdict tests a gate when there was something to refuse: for a guarded
    gate, its pattern matched and a guard suppressed it; a plain gate has no guard, so
    any must-not-fire text on its surface tests it."""
    if not gate.is_structured:
        return True
    try:
        return compile_pattern(gate.pattern).search(normalized_text, timeout=DEFAULT_SEARCH_TIMEOUT) is not None
    except (GateError, TimeoutError):
        return False


def known_verdicts(gates: tuple[Gate, ...], seen: Observation | None) -> dict[int, bool | None]:
    """The scorer's own verdicts, by gate index, where its patterns identify the gate
    (a pattern listed twice, with different guards, is evaluated again instead)."""
    if seen is None:
        return {}
    counts = Counter(gate.pattern for gate in gates)
    verdicts: dict[int, bool | None] = {}
    for index, gate in enumerate(gates):
        if gate.pattern in seen.timed_out:
            verdicts[index] = None  # never searched again: it already cost its time limit
        elif counts[gate.pattern] == 1:
            verdicts[index] = gate.pattern in seen.fired
    return verdicts


def credit_gates(
    table: ItemTable,
    matter: Matter,
    surface: str,
    criterion: str,
    text: str,
    exerciser: str,
    must_not_fire: bool,
    expect_fire: bool = True,
    seen: Observation | None = None,
) -> list[str]:
    """Credit each gate of the list from its verdict on `text` (the scorer's, from `seen`,
    when it has one); return the patterns that fired."""
    issue = matter.rubric.issues_by_id.get(criterion)
    fired: list[str] = []
    if issue is None:
        return fired
    gates = issue.gates(surface)
    known = known_verdicts(gates, seen)
    for index, gate in enumerate(gates):
        verdict = known[index] if index in known else gate_verdict(gate, text)
        if verdict:
            fired.append(gate.pattern)
            if expect_fire:
                table.credit(gate_id(criterion, surface, index, "fires"), exerciser)
        elif verdict is False and must_not_fire and guard_exercised(gate, text):
            table.credit(gate_id(criterion, surface, index, "silent"), exerciser)
    return fired


def _credit_match(table: ItemTable, matter: Matter, observation: Observation, exerciser: str) -> list[str]:
    """The variant of a question or escalation that earned it: the first one matching."""
    section = "questions" if observation.kind == "question" else "escalations"
    items = matter.rubric.questions if section == "questions" else matter.rubric.escalations
    item = next((i for i in items if i.id == observation.criterion), None)
    if item is None:
        return []
    for number, variant in enumerate(item.variants):
        if variant_matches(variant, observation.text):
            table.credit(variant_id(section, item.id, number), exerciser)
            return list(variant)
    return []


def _credit_issue_event(table: ItemTable, event: Mapping[str, Any], exerciser: str) -> None:
    base = f"issues.{event['criterion']}"
    table.credit(f"{base}.matched", exerciser)
    components = event.get("components", {})
    for component in ("severity", "citations"):
        if components.get(component, 0) > 0:
            table.credit(f"{base}.{component}", exerciser)
    if any(q.get("status") == "verified" for q in event.get("quotes", ())):
        table.credit(f"{base}.quotes", exerciser)
    for concept in event.get("matched_concepts", ()):
        table.credit(concept_id(base, "required_concepts", concept), exerciser)


def credit_events(
    table: ItemTable, matter: Matter, events: list[Mapping[str, Any]], summary: str | None, exerciser: str
) -> None:
    """Credit the items the final reward events show earned, tripped or refused."""
    served: dict[str, int] = {}
    for event in events:
        kind, criterion = event.get("type"), str(event.get("criterion"))
        base = f"issues.{criterion}"
        if kind == "issue":
            _credit_issue_event(table, event, exerciser)
        elif (kind == "redline" and event.get("points", 0) > 0) or kind == "unscored_redline":
            table.credit(f"{base}.redline", exerciser)
            for concept in event.get("matched_redline_concepts", ()):
                table.credit(concept_id(base, "redline_concepts", concept), exerciser)
        elif kind == "counterparty_counter":
            table.credit(f"positions.{criterion}.counters[{served.get(criterion, 0)}].countered", exerciser)
            served[criterion] = served.get(criterion, 0) + 1
        elif kind == "counterparty_reject":
            table.credit(f"positions.{criterion}.rejected", exerciser)
        elif kind == "settlement":
            _credit_settlement(table, matter, event, served.get(criterion, 0), exerciser)
        elif kind == "final_submission":
            _credit_final(table, matter, event, summary, exerciser)


def _credit_settlement(table: ItemTable, matter: Matter, event: Mapping[str, Any], served: int, exerciser: str) -> None:
    criterion = str(event["criterion"])
    table.credit(f"issues.{criterion}.settlement", exerciser)
    for concept in event.get("matched_concepts", ()):
        table.credit(concept_id(f"issues.{criterion}", "settlement_concepts", concept), exerciser)
    if event.get("closed_by") == "ours":
        table.credit(f"positions.{criterion}.accepted", exerciser)
    elif served:
        position = matter.positions.get(criterion)
        if position is not None and served <= len(position.counters) and position.counters[served - 1].trap:
            table.credit(f"positions.{criterion}.counters[{served - 1}].trap_accepted", exerciser)
    if event.get("non_negotiable_missing"):
        table.credit(f"positions.{criterion}.non_negotiable_conceded", exerciser)


def _credit_final(
    table: ItemTable, matter: Matter, event: Mapping[str, Any], summary: str | None, exerciser: str
) -> None:
    final = matter.rubric.final_submission
    if summary is not None and len(summary.strip()) >= final.minimum_characters:
        table.credit("final_submission.points", exerciser)
    if event.get("missing_issues"):
        table.credit("final_submission.missing_required_issue_penalty", exerciser)
    for concept in event.get("matched_concepts", ()):
        table.credit(concept_id("final_submission", "required_concepts", concept), exerciser)
    for escalation in (*event.get("missed_escalations", ()), *event.get("missed_critical_escalations", ())):
        table.credit(f"escalations.{escalation}.missed", exerciser)


def agent_text(action: object) -> str:
    if not isinstance(action, Mapping):
        return ""
    parts = [str(action[key]) for key in TEXT_FIELDS if isinstance(action.get(key), str)]
    quotes = action.get("quotes")
    if isinstance(quotes, list):
        parts += [str(q.get("text", "")) if isinstance(q, Mapping) else str(q) for q in quotes]
    return "\n".join(part for part in parts if part)


def exercise_trajectory(table: ItemTable, matter: Matter, trajectory: SuiteTrajectory) -> TrajectoryView:
    """Replay one trajectory, credit what it exercised and keep its per-step view."""
    view = TrajectoryView(trajectory.name, problem=trajectory.problem)
    if trajectory.problem is not None:
        return view
    observations: list[Observation] = []
    episode = Episode(matter, observer=observations.append)
    summary: str | None = None
    for action in trajectory.actions:
        observations.clear()
        record = episode.step(action)
        step = StepView(record.step, str(record.type), record.reward, record.raw_score, agent_text(action))
        for observation in observations:
            if observation.kind.startswith(GATE_OBSERVATION):
                surface = observation.kind[len(GATE_OBSERVATION) :]
                step.gate_patterns += credit_gates(
                    table,
                    matter,
                    surface,
                    observation.criterion,
                    observation.text,
                    trajectory.name,
                    trajectory.must_not_fire,
                    seen=observation,
                )
            else:
                step.concepts += _credit_match(table, matter, observation, trajectory.name)
        for event in record.events:
            step.concepts += [*event.get("matched_concepts", ()), *event.get("matched_redline_concepts", ())]
            step.events.append(f"{event.get('type')} {event.get('criterion')} {event.get('points', 0):+g}")
        if record.type == "submit_final" and isinstance(action, Mapping) and isinstance(action.get("summary"), str):
            summary = action["summary"]
        view.steps.append(step)
        if episode.done:
            break
    result = episode.result()
    credit_events(table, matter, result["breakdown"]["reward_events"], summary, trajectory.name)
    view.normalized_score = result["normalized_score"]
    view.raw_score = result["raw_score"]
    view.critical_failure = result["critical_failure"]
    return view


def exercise_suite(table: ItemTable, matter: Matter, suite: Suite) -> list[TrajectoryView]:
    """Credit every item the suite exercises; return the trajectories' views."""
    views = [exercise_trajectory(table, matter, trajectory) for trajectory in suite.trajectories]
    for probe in suite.probes:
        credit_gates(
            table,
            matter,
            probe.surface,
            probe.criterion,
            normalize(probe.text),
            probe.name,
            must_not_fire=not probe.expect_fire,
            expect_fire=probe.expect_fire,
        )
    return views
