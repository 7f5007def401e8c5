"""A fast subset of `benchmarks/audit_recall.py`: seeded defects in our own matters that the
audit must always see, the equivalent-rewrite control it must never report, and the
defect operators themselves."""

from __future__ import annotations

from pathlib import Path

import pytest

from rubric_tools.audit.recall import RecallReport, measure
from rubric_tools.audit.seeding import CONCEPT_OPERATORS, GATE_OPERATORS, narrow_alternation
from rubric_tools.checking.audit_inputs import audit_inputs
from rubric_tools.loading.matter import load_matter_source

MATTERS = Path(__file__).resolve().parent.parent / "matters"
#: Defects whose verdict is certain: the gate can never fire, the concept can never be earned
#: (or is earned by anything, or without work).
ALWAYS_SEEN = (
    "anchor",
    "backspace-b",
    "exclude-everything",
    "regex-concept",
    "two-letter-alias",
    "concept-from-clause",
)


@pytest.fixture(scope="module")
def report() -> RecallReport:
    roots = sorted(p.parent for p in MATTERS.glob("*/matter.yaml"))
    sources = [(load_matter_source(root), audit_inputs(root)) for root in roots]
    gate_ops = [o for o in GATE_OPERATORS if o.name in ALWAYS_SEEN or o.control]
    concept_ops = [o for o in CONCEPT_OPERATORS if o.name in ALWAYS_SEEN]
    return measure(sources, gate_operators=gate_ops, concept_operators=concept_ops, max_sites=2)


@pytest.mark.parametrize("operator", ALWAYS_SEEN)
def test_certain_defects_are_always_detected(report: RecallReport, operator: str) -> None:
    detected, seeded = report.rate(operator)
    assert seeded > 0 and detected == seeded, [s for s in report.seeded if s.operator == operator and not s.detected]


def test_an_equivalent_rewrite_is_never_reported(report: RecallReport) -> None:
    controls = [s for s in report.seeded if s.control]
    assert controls and not any(s.detected for s in controls)


@pytest.mark.parametrize(
    ("pattern", "narrowed"),
    [
        ("a|b|c", "a"),
        ("law (?:prohibits|bars) training", "law (?:prohibits) training"),
        (r"(?<=x)(?:y|z)", r"(?<=x)(?:y)"),
        (r"[a|b] (c|d)", "[a|b] (c)"),  # a `|` inside a class is a literal
        ("plain words", None),
    ],
)
def test_narrowing_an_alternation(pattern: str, narrowed: str | None) -> None:
    assert narrow_alternation(pattern) == narrowed


def test_operators_leave_entries_they_do_not_apply_to_alone() -> None:
    by_name = {o.name: o for o in GATE_OPERATORS}
    assert by_name["drop-negation-guard"].apply({"pattern": "x"}) is None
    assert by_name["unescaped-dollar"].apply({"pattern": r"fees of \$5"}) == {"pattern": "fees of $5"}
    assert by_name["tighten-window"].apply({"pattern": "a[^.]{0,80}b"}) == {"pattern": "a[^.]{0,3}b"}
