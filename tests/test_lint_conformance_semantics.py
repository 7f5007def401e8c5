"""The semantic rule families do not cry wolf on the conformance corpus.

The corpus holds twelve real, published matters. Their only known authoring defect
(`constraints.negotiation_rounds`, a key the engine ignores) belongs to the schema
family, so the load, question, answer, point, negotiation, final, provenance and
review-scope families must report no error on it (document text: see
`test_principles_conformance.py`) — and, today, no warning either: every warning added
here must be one we would defend to the matter's author.

The step and round budgets (P007, P008) are lower bounds; the corpus's perfect
reference trajectories prove they are never above what a real run needed.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rubric_tools.config.lint import LintSection
from rubric_tools.diagnostics import Diagnostic, Severity
from rubric_tools.lint import all_rules, lint_paths
from rubric_tools.lint.plans import round_plan_of, step_plan_of
from rubric_tools.loading import load_matter_source

FAMILIES = (
    "load",
    "questions",
    "answers",
    "points",
    "negotiation",
    "final",
    "provenance",
    "review_scope",  # A008: every issue is anchored on the paper under review
)
NEGOTIATION_ACTIONS = ("send_markup", "accept_counterparty")


def _family_codes() -> tuple[str, ...]:
    return tuple(r.code for r in all_rules() if r.family in FAMILIES)


def _corpus_canary(matters: Path) -> str:
    # Read, not copied: every corpus matter must carry the canary its first matter does.
    first = load_matter_source(sorted(p for p in matters.iterdir() if p.is_dir())[0])
    canary = first.data("matter.yaml").get("canary")
    assert isinstance(canary, str) and canary
    return canary


def _lint(conformance: Path) -> list[Diagnostic]:
    matters = conformance / "matters"
    config = LintSection(select=_family_codes(), canary=_corpus_canary(matters))
    report = lint_paths([matters], config)
    assert not report.usage_errors
    assert len(report.matters) == 12
    return report.diagnostics


def _show(diagnostics: list[Diagnostic]) -> str:
    return "\n".join(f"{d.matter} {d.code} {d.file.name}:{d.line}:{d.column} {d.message}" for d in diagnostics)


def test_families_are_all_registered() -> None:
    families = {r.family for r in all_rules()}
    assert set(FAMILIES) <= families


def test_no_errors_on_the_corpus(conformance: Path) -> None:
    errors = [d for d in _lint(conformance) if d.severity is Severity.ERROR]
    assert not errors, _show(errors)


def test_no_warnings_on_the_corpus(conformance: Path) -> None:
    warnings = [d for d in _lint(conformance) if d.severity is not Severity.ERROR]
    assert not warnings, _show(warnings)


def _perfect_trajectories(conformance: Path) -> list[tuple[str, Path, dict[str, object]]]:
    found = []
    for expected in sorted((conformance / "trajectories").glob("*/*.expected.json")):
        result = json.loads(expected.read_text(encoding="utf-8"))["result"]
        if result["normalized_score"] >= 1.0 and not result["critical_failure"]:
            trajectory = expected.with_name(expected.name.replace(".expected.json", ".jsonl"))
            found.append((expected.parent.name, trajectory, result))
    return found


def test_budget_plans_never_exceed_a_perfect_run(conformance: Path) -> None:
    perfect = _perfect_trajectories(conformance)
    assert perfect, "the corpus should hold perfect reference trajectories"
    for matter_id, trajectory, result in perfect:
        matter = load_matter_source(conformance / "matters" / matter_id).matter
        steps = step_plan_of(matter)
        assert steps.total <= result["steps"], f"{matter_id}: {steps.arithmetic()} > {result['steps']}"
        actions = [json.loads(line) for line in trajectory.read_text(encoding="utf-8").splitlines() if line.strip()][
            : int(result["steps"])
        ]
        rounds = sum(1 for action in actions if action.get("type") in NEGOTIATION_ACTIONS)
        assert round_plan_of(matter).total <= rounds, f"{matter_id}: {round_plan_of(matter).arithmetic()}"


@pytest.mark.parametrize("family", FAMILIES)
def test_every_rule_documents_itself(family: str) -> None:
    for rule in (r for r in all_rules() if r.family == family):
        doc = rule.doc
        assert rule.summary.endswith("."), rule.code
        for section in ("What it catches", "Why it matters", "Bad:", "Good:", "```yaml"):
            assert section in doc, f"{rule.code} docstring lacks {section!r}"
