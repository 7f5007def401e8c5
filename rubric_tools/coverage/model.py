"""The coverage data model, like coverage.py's: items with ids and YAML positions, and
what exercised them. Plain data, so a worker process can send it back by pickling."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class CoverageItem:
    """One scorable item of a matter: a component that can be earned, tripped or refused."""

    id: str  # stable, dotted: issues.data_training.critical_failure_patterns[1].fires
    kind: str  # question-variant, escalation-variant, escalation-missed, issue, component, concept, ...
    description: str
    file: str  # file name inside the matter folder (rubric.yaml, counterparty.yaml)
    line: int
    end_line: int
    exercised_by: list[str] = field(default_factory=list)  # trajectory files, probes.yaml:LINE

    @property
    def covered(self) -> bool:
        return bool(self.exercised_by)

    def credit(self, exerciser: str) -> None:
        if exerciser not in self.exercised_by:
            self.exercised_by.append(exerciser)


@dataclass
class Mutant:
    """One in-memory alteration of the matter, and which check (if any) noticed it."""

    id: str
    operator: str
    description: str
    file: str
    line: int
    killed_by: str | None = None  # the first check that failed; None = survived

    @property
    def survived(self) -> bool:
        return self.killed_by is None


@dataclass
class MutationResult:
    mutants: list[Mutant] = field(default_factory=list)
    not_run: int = 0  # mutants skipped by the cap or the time budget
    baseline_failures: list[str] = field(default_factory=list)  # checks failing before any mutation

    @property
    def killed(self) -> int:
        return sum(1 for m in self.mutants if not m.survived)

    @property
    def score(self) -> float | None:
        """Killed mutants as a percentage of those run; None when none ran."""
        return 100.0 * self.killed / len(self.mutants) if self.mutants else None

    @property
    def survivors(self) -> list[Mutant]:
        return [m for m in self.mutants if m.survived]


@dataclass
class StepView:
    """One replayed step, as the HTML report shows it."""

    step: int
    type: str
    reward: float
    raw_score: float
    text: str  # the agent's free text in this action
    concepts: list[str] = field(default_factory=list)  # concepts the scorer matched on this step
    gate_patterns: list[str] = field(default_factory=list)  # gate regexes that fired on this step
    events: list[str] = field(default_factory=list)  # "type criterion points" per event


@dataclass
class TrajectoryView:
    name: str
    normalized_score: float | None = None
    raw_score: float | None = None
    critical_failure: bool = False
    steps: list[StepView] = field(default_factory=list)
    problem: str | None = None  # why it did not replay


@dataclass
class SourceFile:
    """A YAML file of the matter, kept for the HTML report's annotated listing."""

    name: str
    lines: list[str]


@dataclass
class GateListFigure:
    """One gate list's robustness (`rubric_tools.audit.robustness`): the share of its sins it
    catches and of correct work it leaves silent, before and after the audit's proposals."""

    name: str  # issue/surface
    key: str  # the list's key in rubric.yaml
    file: str  # file name inside the matter folder
    line: int | None
    entries: int
    sins: int
    caught_before: int
    caught_after: int
    correct_work: int
    silent_before: int
    silent_after: int
    changed: list[int] = field(default_factory=list)  # entries a verified proposal changes

    @staticmethod
    def percent(part: int, whole: int) -> float:
        return 100.0 * part / whole if whole else 100.0


@dataclass
class MatterCoverage:
    matter_id: str
    root: str
    items: list[CoverageItem] = field(default_factory=list)
    trajectories: list[TrajectoryView] = field(default_factory=list)
    probe_count: int = 0
    sources: list[SourceFile] = field(default_factory=list)
    mutation: MutationResult | None = None
    problems: list[str] = field(default_factory=list)  # why coverage could not be measured
    #: Per gate list, its robustness (measured for the HTML report); None: not measured.
    robustness: list[GateListFigure] | None = None

    @property
    def covered(self) -> int:
        return sum(1 for item in self.items if item.covered)

    @property
    def percent(self) -> float:
        """Covered items as a percentage; an empty matter is fully covered, as in coverage.py."""
        return 100.0 * self.covered / len(self.items) if self.items else 100.0

    @property
    def missing(self) -> list[CoverageItem]:
        return [item for item in self.items if not item.covered]


def printable(text: str) -> str:
    """User text as UTF-8 can take it: a lone surrogate (valid in JSON, not in UTF-8) becomes U+FFFD."""
    return text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")


def overall_percent(matters: list[MatterCoverage]) -> float:
    total = sum(len(m.items) for m in matters)
    return 100.0 * sum(m.covered for m in matters) / total if total else 100.0
