"""The mutable state of one episode, and the per-step context handlers write into."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from rubric_tools.scoring.gates import DEFAULT_SEARCH_TIMEOUT, GateCheck
from rubric_tools.scoring.model import Counter, Matter, YamlId

Event = dict[str, Any]


@dataclass(frozen=True)
class Observation:
    """What a scoring decision looked at, for tools that trace the scorer (coverage).

    `kind` is `question` or `escalation` (an item matched `text`) or `gates:<surface>`
    (the gate list of issue `criterion` ran on `text`; `fired` and `timed_out` are the
    patterns of its verdict). Observations never change a result.
    """

    kind: str
    criterion: str
    text: str
    fired: tuple[str, ...] = ()
    timed_out: tuple[str, ...] = ()


Observer = Callable[[Observation], None]

#: Events that belong to submitted work product; a revision removes and re-derives them.
WORK_PRODUCT_EVENTS = frozenset(
    {
        "issue",
        "unsupported_issue",
        "unread_anchor_issue",
        "duplicate_issue",
        "redline",
        "unsupported_redline",
        "duplicate_redline",
        "unscored_redline",
    }
)


class Submission(NamedTuple):
    """An issue or redline submission, kept so that a revision can re-score it.

    `memo` keeps what scoring it found, keyed by the little state it depends on (was the
    anchor read, is the issue already matched): a revision re-scores every earlier
    submission, and with the memo that costs a look-up, not the text work again, and
    yields the very same event objects, so memory stays flat in episode length.
    (A NamedTuple, made with `tuple.__new__`: one is made per submission and revision.)
    """

    kind: str  # "issue" or "redline"
    action: Mapping[str, Any]
    #: What a revision names it by: the label of an issue, (label, document, section) of a
    #: redline. Worked out once, so a revision finds its submission by a look-up.
    key: object
    memo: dict[Any, Any]


_new_tuple = tuple.__new__


@dataclass(slots=True)
class Ledger:
    """The latest scoring of each submission, in submission order, as of the last revision
    (ledger.py): its work-product event, the rounded points that event carries, and its exact
    points, read from the submission's memo (with the flags below) only when a revision needs
    them: `pending` are the indices (ascending) not read yet."""

    events: list[Event] = field(default_factory=list)
    recorded: list[float] = field(default_factory=list)
    points: list[float] = field(default_factory=list)
    pending: list[int] = field(default_factory=list)
    #: Indices of those whose latest scoring set the critical flag, or noted warnings or gate
    #: timeouts or errors (a re-score notes them again), and the anchor each issue whose latest
    #: scoring found it unread waits for (a read since may change its outcome).
    critical: set[int] = field(default_factory=set)
    noisy: set[int] = field(default_factory=set)
    waiting: dict[int, str] = field(default_factory=dict)
    #: Where its matches are: criterion → (index, label) of the issue that matched it,
    #: criterion → index of the redline that matched it.
    issue_matches: dict[YamlId, tuple[int, str]] = field(default_factory=dict)
    redline_matches: dict[YamlId, int] = field(default_factory=dict)
    #: False once the events did not match the submissions (never expected): no replay until
    #: a full re-score.
    usable: bool = True


@dataclass(slots=True)
class EpisodeState:
    """What an episode has done so far. Issue criteria are `Issue.criterion` values: the id as
    YAML 1.1 read it, as the reference keeps it (a date issue id stays a date)."""

    steps: int = 0
    raw_score: float = 0.0
    critical_failure: bool = False
    terminated: bool = False
    truncated: bool = False
    events: list[Event] = field(default_factory=list)
    read_citations: set[str] = field(default_factory=set)
    asked_questions: set[str] = field(default_factory=set)
    questions_asked_total: int = 0
    raised_escalations: set[str] = field(default_factory=set)
    escalations_total: int = 0
    matched_issues: set[YamlId] = field(default_factory=set)
    matched_redlines: set[YamlId] = field(default_factory=set)
    settled_issues: set[YamlId] = field(default_factory=set)
    issue_labels: dict[str, YamlId] = field(default_factory=dict)
    markup_labels: dict[str, YamlId] = field(default_factory=dict)
    valid_citation_count: int = 0
    invalid_citations: list[str] = field(default_factory=list)
    unsupported_issues: list[str] = field(default_factory=list)
    fabricated_quotes: list[str] = field(default_factory=list)
    submissions: list[Submission] = field(default_factory=list)
    #: (kind, key) → index in `submissions` of the first submission so named.
    submission_index: dict[tuple[str, object], int] = field(default_factory=dict)
    #: How many of the events a revision keeps (the non-work-product ones, only ever appended
    #: to) have been looked at for a critical failure, and whether one of them was critical.
    retained_checked: int = 0
    retained_critical: bool = False
    #: The ledger (ledger.py), kept once an episode has enough submissions for a revision to
    #: replay some, and how many of the events the last revision left (those after the kept
    #: ones are its work product: in the ledger, or, without one, to be taken out whole).
    ledger: Ledger | None = None
    ledger_seen: int = 0
    rounds_used: int = 0
    issue_rounds: dict[YamlId, int] = field(default_factory=dict)
    counters_served: dict[YamlId, int] = field(default_factory=dict)
    outstanding_counters: dict[YamlId, Counter] = field(default_factory=dict)

    @property
    def done(self) -> bool:
        return self.terminated or self.truncated


def fresh_state() -> EpisodeState:
    """`EpisodeState()`, the state every episode starts from, field for field (a test holds
    them equal), without the dataclass's generated `__init__`: that one is interpreted even
    where the scorer is compiled, and calls a default factory per container."""
    state = object.__new__(EpisodeState)
    state.steps = 0
    state.raw_score = 0.0
    state.critical_failure = False
    state.terminated = False
    state.truncated = False
    state.events = []
    state.read_citations = set()
    state.asked_questions = set()
    state.questions_asked_total = 0
    state.raised_escalations = set()
    state.escalations_total = 0
    state.matched_issues = set()
    state.matched_redlines = set()
    state.settled_issues = set()
    state.issue_labels = {}
    state.markup_labels = {}
    state.valid_citation_count = 0
    state.invalid_citations = []
    state.unsupported_issues = []
    state.fabricated_quotes = []
    state.submissions = []
    state.submission_index = {}
    state.retained_checked = 0
    state.retained_critical = False
    state.ledger = None
    state.ledger_seen = 0
    state.rounds_used = 0
    state.issue_rounds = {}
    state.counters_served = {}
    state.outstanding_counters = {}
    return state


#: Points → `round(points, 4)`: events carry a handful of distinct point values, and `round`
#: with digits is as slow as the rest of recording an event. Bounded, as agents' input is not.
_ROUNDED: dict[float, float] = {}
ROUNDED_MEMO_LIMIT = 4096


class StepContext:
    """What one step may touch: the matter, the state, and its own notes.

    A plain class with slots, made once per episode and emptied by the step loop before
    each step: building one per step cost as much as a typical step's text work."""

    __slots__ = (
        "matter",
        "state",
        "gate_timeout",
        "new_events",
        "warnings",
        "gate_timeouts",
        "gate_errors",
        "penalty_reason",
        "observer",
        "noted",
    )

    def __init__(
        self,
        matter: Matter,
        state: EpisodeState,
        gate_timeout: float = DEFAULT_SEARCH_TIMEOUT,
        observer: Observer | None = None,
    ) -> None:
        self.matter = matter
        self.state = state
        self.gate_timeout = gate_timeout
        self.new_events: list[Event] = []
        # One list for the context's whole life, emptied in place (the step loop holds it).
        self.warnings: list[str] = []
        # Tuples, grown only when a gate times out or fails: most steps never touch them.
        self.gate_timeouts: tuple[str, ...] = ()
        self.gate_errors: tuple[str, ...] = ()
        self.penalty_reason: str | None = None
        self.observer = observer
        #: Whether `penalty` or `note_gates` wrote this step's penalty reason or gate notes (the
        #: only ways they are written): the step loop reads those three only then, and one step
        #: in six has any.
        self.noted = False

    def clear(self) -> None:
        """Forget the notes of the previous step (the context is reused for the next)."""
        # A fresh list, not clear(): the previous step's list may still be read by whoever took it.
        self.new_events = []
        self.warnings.clear()
        self.gate_timeouts = ()
        self.gate_errors = ()
        self.penalty_reason = None
        self.noted = False

    def observe(self, kind: str, criterion: str, text: str, check: GateCheck | None = None) -> None:
        """Tell the observer, if any, what a decision looked at (and a gate list's verdict)."""
        if self.observer is not None:
            fired, timed_out = (check.fired, check.timed_out) if check is not None else ((), ())
            self.observer(Observation(kind, criterion, text, fired, timed_out))

    def record(self, event: Event, points: float) -> float:
        """Append an event (its points rounded to 4 places) and add the exact points."""
        if type(points) is float:
            rounded = dict.get(_ROUNDED, points)
            if rounded is None:
                if points == 0.0:
                    # round(±0.0, 4) is the zero itself. Zeros are never remembered: 0.0 and
                    # -0.0 are one key whose rounded values print differently.
                    rounded = points
                else:
                    rounded = round(points, 4)
                    if len(_ROUNDED) < ROUNDED_MEMO_LIMIT:
                        _ROUNDED[points] = rounded
        else:  # an int (1 and 1.0 are one key too, so ints are never remembered either)
            rounded = round(points, 4)
        event["points"] = rounded
        state = self.state
        state.events.append(event)
        state.raw_score += points
        self.new_events.append(event)
        return points

    def record_as_rounded(self, event: Event, points: float) -> float:
        """`record` of points that `round(points, 4)` leaves as they are (-0.2, a float zero, the
        multiples of 0.25 of unsupported and unread submissions): most submissions end with one,
        and rounding costs as much as the rest of recording."""
        event["points"] = points
        state = self.state
        state.events.append(event)
        state.raw_score += points
        self.new_events.append(event)
        return points

    def penalty(self, points: float, reason: str) -> float:
        """An environment penalty: a step reward that records no event."""
        self.penalty_reason = reason
        self.noted = True
        return points

    def note_gates(self, check: GateCheck) -> None:
        if check.timed_out:
            self.gate_timeouts += check.timed_out
            self.noted = True
        if check.errors:
            self.gate_errors += check.errors
            self.noted = True

    def warn_malformed(self, field_name: str, value: object) -> None:
        self.warnings.append(f"field {field_name!r} is malformed ({type(value).__name__}); scored as absent")
