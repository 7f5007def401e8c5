"""The episode state machine: one action at a time, exactly as the reference engine.

`Episode.step` never raises on a malformed action: the field is scored as absent
and the step record carries a warning naming it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from rubric_tools.scoring import dialogue, negotiation, revision, work_product
from rubric_tools.scoring.gates import DEFAULT_SEARCH_TIMEOUT
from rubric_tools.scoring.model import Matter
from rubric_tools.scoring.result import episode_result
from rubric_tools.scoring.state import Event, Observer, StepContext, fresh_state

Handler = Callable[[StepContext, Mapping[str, Any]], float]

HANDLERS: dict[str, Handler] = {
    "read_document": dialogue.read_document,
    "search_matter": dialogue.search_matter,
    "ask_client": dialogue.ask_client,
    "escalate": dialogue.escalate,
    "submit_issue": work_product.submit_issue,
    "propose_redline": work_product.propose_redline,
    "revise_issue": revision.revise_issue,
    "revise_redline": revision.revise_redline,
    "send_markup": negotiation.send_markup,
    "accept_counterparty": negotiation.accept_counterparty,
    "submit_final": dialogue.submit_final,
}
ACTION_TYPES = tuple(HANDLERS)
UNKNOWN_ACTION_PENALTY = -0.5
_new_tuple = tuple.__new__
#: A matter's step records share their `Budgets`: per matter (in `Matter.derived_memo`), one
#: per (steps, client questions, escalations, negotiation rounds) left, kept in rows: (client
#: questions, escalations, negotiation rounds) left → {steps left → Budgets}. The same few
#: values recur in every replay of a matter; the row changes only when a question, escalation
#: or round is counted, and a look-up in it by the steps left costs a third of making the
#: NamedTuple (and of freeing it with its replay). Bounded (rows, and Budgets per row): a long
#: episode runs past the row's limit, and a NaN limit would make keys that never match.
BUDGETS_MEMO_KEY = "budgets"
BUDGETS_ROWS_LIMIT = 64
BUDGETS_ROW_LIMIT = 1024


class EpisodeFinished(RuntimeError):
    """`step` was called on an episode that has terminated or been truncated."""


# Step records are NamedTuples, not frozen dataclasses: as immutable, and a replay makes
# one per step, where a frozen dataclass's __init__ alone cost more than the text work.
class Budgets(NamedTuple):
    """What is left after a step."""

    steps: int
    client_questions: int
    escalations: int
    negotiation_rounds: int


class StepRecord(NamedTuple):
    step: int
    type: Any
    action: Any
    reward: float
    events: tuple[Event, ...]
    raw_score: float
    terminated: bool
    truncated: bool
    budgets: Budgets
    penalty_reason: str | None = None
    warnings: tuple[str, ...] = ()
    gate_timeouts: tuple[str, ...] = ()
    gate_errors: tuple[str, ...] = ()

    @property
    def done(self) -> bool:
        return self.terminated or self.truncated


class Episode:
    def __init__(
        self, matter: Matter, *, gate_timeout: float = DEFAULT_SEARCH_TIMEOUT, observer: Observer | None = None
    ) -> None:
        self.matter = matter
        self.gate_timeout = gate_timeout
        self.observer = observer
        self.state = fresh_state()
        # One context for the whole episode, emptied before each step: building one per
        # step cost as much as a read_document's whole scoring.
        self._ctx = StepContext(matter, self.state, gate_timeout, observer)

    @property
    def done(self) -> bool:
        return self.state.done

    def step(self, action: object) -> StepRecord:
        """Score one action and return what happened."""
        if self.state.terminated or self.state.truncated:
            raise EpisodeFinished("the episode has already ended")
        records: list[StepRecord] = []
        run_steps(self._ctx, (action,), records.append)
        return records[0]

    def budgets(self) -> Budgets:
        limits, state = self.matter.constraints, self.state
        return Budgets(
            steps=limits.maximum_steps - state.steps,
            client_questions=limits.maximum_client_questions - state.questions_asked_total,
            escalations=limits.maximum_escalations - state.escalations_total,
            negotiation_rounds=limits.maximum_negotiation_rounds - state.rounds_used,
        )

    def result(self) -> dict[str, Any]:
        """The engine-shaped result of the episode so far."""
        return episode_result(self.matter, self.state)


def run_steps(ctx: StepContext, actions: Iterable[object], emit: Callable[[StepRecord], object]) -> None:
    """Score actions in order, in the episode of `ctx`, until it ends, passing each step's
    record to `emit`.

    The one implementation of a step, for `Episode.step` (one action) and `replay` (all of
    them): the hot path of every replay, so what each step reads is looked up once per call,
    not once per step, and the body keeps to plain local operations."""
    state, limits = ctx.state, ctx.matter.constraints
    maximum_steps, maximum_questions = limits.maximum_steps, limits.maximum_client_questions
    maximum_escalations, maximum_rounds = limits.maximum_escalations, limits.maximum_negotiation_rounds
    budgets_rows: dict[tuple[Any, ...], dict[Any, Budgets]] = ctx.matter.derived_memo.setdefault(BUDGETS_MEMO_KEY, {})
    # The counts the current row was found for (compared by identity: a count that is another
    # object finds its row again, by value), the row, and the budgets left it is for.
    row_asked = row_escalated = row_rounds = None
    row: dict[Any, Budgets] = {}
    rest: tuple[Any, ...] = ()
    # The notes are emptied before each step: here for the first, after each record for the
    # next (where the record has just read them), so that nothing of a step that raised (an
    # observer's exception) reaches the next call.
    ctx.clear()
    # The context's warnings are one list for its whole life, emptied in place (state.py).
    warnings = ctx.warnings
    # The step count is kept here and written for the handlers, who never change it.
    steps = state.steps
    for action in actions:
        state.steps = steps = steps + 1
        # JSON objects are dicts; the ABC check is only the slow path for other mappings.
        # `dict.get(d, key)` where d is a dict: compiled, a direct C call, where `d.get(key)`
        # looks the method up and calls it on an object of unknown type.
        if type(action) is dict or isinstance(action, Mapping):
            fields: Mapping[str, Any] = action
            action_type: Any = dict.get(action, "type") if type(action) is dict else fields.get("type")
            is_text = type(action_type) is str or isinstance(action_type, str)
            handler = dict.get(HANDLERS, action_type) if is_text else None
            if handler is not None:
                reward = handler(ctx, fields)
            else:
                reward = ctx.penalty(UNKNOWN_ACTION_PENALTY, f"unknown action type {action_type!r}")
        else:
            action_type = None
            warnings.append(f"action is not an object ({type(action).__name__})")
            reward = ctx.penalty(UNKNOWN_ACTION_PENALTY, "action is not an object")
        terminated = state.terminated
        # Only this loop truncates, and it stops at the step that does.
        truncated = steps >= maximum_steps and not terminated
        if truncated:
            state.truncated = True
        # Each note read once, for the record and for emptying the context after it; a penalty
        # reason and gate notes only when the step wrote any. Most steps record one event or
        # none: a fresh list is cheaper than clear().
        new_events = ctx.new_events
        if ctx.noted:
            penalty_reason, gate_timeouts, gate_errors = ctx.penalty_reason, ctx.gate_timeouts, ctx.gate_errors
            ctx.noted = False
        else:
            penalty_reason, gate_timeouts, gate_errors = None, (), ()
        if new_events:
            events: tuple[Event, ...] = tuple(new_events)
            ctx.new_events = []
        else:
            events = ()
        asked, escalated, rounds = state.questions_asked_total, state.escalations_total, state.rounds_used
        if asked is not row_asked or escalated is not row_escalated or rounds is not row_rounds:
            row_asked, row_escalated, row_rounds = asked, escalated, rounds
            rest = (maximum_questions - asked, maximum_escalations - escalated, maximum_rounds - rounds)
            found = dict.get(budgets_rows, rest)
            if found is None:
                found = {}
                if len(budgets_rows) < BUDGETS_ROWS_LIMIT:
                    budgets_rows[rest] = found
            row = found
        steps_left = maximum_steps - steps
        budgets = dict.get(row, steps_left)
        if budgets is None:
            budgets = _new_tuple(Budgets, (steps_left, *rest))
            if len(row) < BUDGETS_ROW_LIMIT:
                row[steps_left] = budgets
        # tuple.__new__ rather than the NamedTuple constructors: the same immutable records
        # without a Python-level __new__ call each. Events are never mutated once recorded,
        # so the record may share them.
        emit(
            _new_tuple(
                StepRecord,
                (
                    steps,
                    action_type,
                    action,
                    reward,
                    events,
                    state.raw_score,
                    terminated,
                    truncated,
                    budgets,
                    penalty_reason,
                    tuple(warnings) if warnings else (),
                    gate_timeouts,
                    gate_errors,
                ),
            )
        )
        # Only the notes this step left are emptied, as `ctx.clear()` would (its new events
        # are taken out above): one step in five has any, and most of those a penalty alone.
        if penalty_reason is not None:
            ctx.penalty_reason = None
        if warnings:
            warnings.clear()
        if gate_timeouts:
            ctx.gate_timeouts = ()
        if gate_errors:
            ctx.gate_errors = ()
        if terminated or truncated:
            return


@dataclass(frozen=True)
class Replay:
    """A whole trajectory replayed: the engine-shaped result and one record per step."""

    result: dict[str, Any]
    steps: tuple[StepRecord, ...] = field(default_factory=tuple)

    @property
    def gate_timeouts(self) -> tuple[str, ...]:
        return tuple(p for step in self.steps for p in step.gate_timeouts)


def replay(
    matter: Matter,
    actions: Iterable[object],
    *,
    gate_timeout: float = DEFAULT_SEARCH_TIMEOUT,
    observer: Observer | None = None,
) -> Replay:
    """Replay actions until the episode terminates or truncates; later ones are ignored.
    `observer`, when given, sees what each matching and gate decision looked at."""
    # No Episode object: its state and context are all a replay needs.
    state = fresh_state()
    records: list[StepRecord] = []
    run_steps(StepContext(matter, state, gate_timeout, observer), actions, records.append)
    return Replay(episode_result(matter, state), tuple(records))
