"""A robustness figure per gate list: the share of its sins it catches and of correct work it
leaves silent, before and after the audit's proposals.

    figure = list_robustness(gate_list, must_fire, must_not_fire, proposals)
    figure.describe()  # "sins caught 12/20 → 19/20, correct work silent 30/34 → 34/34"

- *sins* are the list's must-fire texts (`texts`): the sin in its habitats, its
  meaning-preserving rewrites, the matter's must-fire probes and the texts of trajectories
  that trip a gate. The regex's own witnesses are left out: its own entry fires on each by
  construction;
- *correct work* is its must-not-fire texts: the matter's own correct work and the frames
  that negate, disown or strike the sin.

"Before" runs the list as written; "after" runs it with every entry's verified proposal
applied (what one round of `rubric audit --fix --unsafe-fixes` writes), on the same texts.
After `--fix`, `refigured` measures the fixed list on the texts of the first audit, so the
two numbers compare the rubric before and after the whole fix loop.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rubric_tools.audit.texts import GateListTexts, Robustness, VerdictText, robustness
from rubric_tools.gate_analysis.gate_firing import GateList
from rubric_tools.scoring.gates import Gate
from rubric_tools.scoring.model import GATE_SURFACES

if TYPE_CHECKING:  # a plain audit makes no proposal, and does not import them
    from rubric_tools.audit.proposals import EntryProposal


@dataclass(frozen=True)
class ListRobustness:
    """The robustness of one gate list, before and after its proposals (or the fix)."""

    issue_id: str
    surface: str
    key: str  # the list's key in rubric.yaml: critical_failure_patterns, …
    file: Path
    line: int | None  # the list's first entry
    entries: int
    before: Robustness
    after: Robustness
    #: The entries whose proposal "after" applies (entry indices in the YAML list).
    changed: tuple[int, ...] = ()
    #: "proposal": one round of verified proposals; "fix": the list after `--fix`; "none":
    #: no proposals were made (`rubric audit` without `--unsafe-fixes`), `after` is `before`.
    after_is: str = "proposal"
    #: The texts measured (kept so that a fixed list can be measured on the same ones).
    sins: tuple[str, ...] = field(default=(), repr=False, compare=False)
    correct_work: tuple[str, ...] = field(default=(), repr=False, compare=False)
    #: The entries as audited: (entry index, gate).
    gates: tuple[tuple[int, Gate], ...] = field(default=(), repr=False, compare=False)

    @property
    def name(self) -> str:
        return f"{self.issue_id}/{self.surface}"

    def describe(self) -> str:
        before, after = self.before, self.after
        if self.after_is == "none":
            return (
                f"sins caught {before.caught}/{before.must_fire}, "
                f"correct work silent {before.silent}/{before.must_not_fire}"
            )
        return (
            f"sins caught {before.caught}/{before.must_fire} → {after.caught}/{after.must_fire}, "
            f"correct work silent {before.silent}/{before.must_not_fire} → {after.silent}/{after.must_not_fire}"
        )

    def to_json(self, file: str | None = None) -> dict[str, Any]:
        return {
            "issue": self.issue_id,
            "surface": self.surface,
            "key": self.key,
            "file": file if file is not None else str(self.file),
            "line": self.line,
            "entries": self.entries,
            "after_is": self.after_is,
            "changed_entries": list(self.changed),
            "before": _figure(self.before),
            "after": _figure(self.after),
        }


def _figure(figure: Robustness) -> dict[str, Any]:
    return {
        "sins_caught": figure.caught,
        "sins": figure.must_fire,
        "share_caught": round(figure.share_caught, 4),
        "correct_work_silent": figure.silent,
        "correct_work": figure.must_not_fire,
        "share_silent": round(figure.share_silent, 4),
    }


def _texts(issue_id: str, surface: str, sins: Sequence[str], correct: Sequence[str]) -> GateListTexts:
    def records(texts: Sequence[str], expect: bool) -> tuple[VerdictText, ...]:
        return tuple(VerdictText(text, expect, "", "", False) for text in texts)

    return GateListTexts(issue_id, surface, records(sins, True), records(correct, False))


def list_robustness(
    gate_list: GateList,
    must_fire: Sequence[VerdictText],
    must_not_fire: Sequence[VerdictText],
    proposals: Mapping[int, EntryProposal],
    fired: Mapping[str, bool] | None = None,
    *,
    proposed: bool = True,
) -> ListRobustness:
    """The figure of one list on its texts, before and after its verified proposals.
    `fired`, when given, says for each of the texts whether the list as written fires on it
    (the audit has run the list on all of them already). Without `proposed` (no proposals
    were made) the figure has no "after": `after_is` is "none" and `after` repeats `before`."""
    sins = tuple(dict.fromkeys(t.text for t in must_fire if t.kind != "witness"))
    correct = tuple(dict.fromkeys(t.text for t in must_not_fire))
    changed = {index: p.after for index, p in proposals.items() if p.verified}
    after_gates = tuple(changed.get(entry.entry_index, entry.gate) for entry in gate_list.entries)

    def run(gates: Sequence[Gate]) -> Robustness:
        # The texts as records only for a figure the gates are run for (the audit's "before"
        # comes from `fired`, and without a proposal there is no "after" to run).
        return robustness(gates, _texts(gate_list.issue_id, gate_list.surface, sins, correct))

    before = _counted(sins, correct, fired) if fired is not None else run(gate_list.gates)
    first = gate_list.entries[0].element.location
    return ListRobustness(
        gate_list.issue_id,
        gate_list.surface,
        GATE_SURFACES[gate_list.surface],
        first.file,
        first.span.line if first.span else None,
        len(gate_list.entries),
        before,
        run(after_gates) if changed else before,
        tuple(sorted(changed)),
        after_is="proposal" if proposed else "none",
        sins=sins,
        correct_work=correct,
        gates=tuple((entry.entry_index, entry.gate) for entry in gate_list.entries),
    )


def _counted(sins: Sequence[str], correct: Sequence[str], fired: Mapping[str, bool]) -> Robustness:
    """`texts.robustness` from verdicts already known."""
    caught = sum(1 for text in sins if fired[text])
    silent = sum(1 for text in correct if not fired[text])
    return Robustness(caught, len(sins), silent, len(correct))


def refigured(figure: ListRobustness, fixed: GateList) -> ListRobustness:
    """The figure with "after" measured for the list after `--fix` (`fixed`) on the same texts."""
    texts = _texts(figure.issue_id, figure.surface, figure.sins, figure.correct_work)
    audited = dict(figure.gates)
    changed = tuple(e.entry_index for e in fixed.entries if audited.get(e.entry_index) != e.gate)
    return replace(figure, after=robustness(fixed.gates, texts), after_is="fix", changed=changed)
