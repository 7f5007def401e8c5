"""The schema stage of the lint engine: its record of errors as data, and of what is reported.

The engine validates a matter once, before the rules; the record says which nodes a
configured schema rule reports, and a semantic rule that re-checks the same shape (A001
for an absent anchor) stays quiet on exactly those nodes.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import get_args

import pytest

from rubric_tools.config.lint import LintSection
from rubric_tools.diagnostics import Severity, Span
from rubric_tools.lint import all_rules, find_rule, lint_source
from rubric_tools.lint.engine import selected_rules
from rubric_tools.lint.schema_stage import SchemaReport, run_schema_stage, schema_kind_of
from rubric_tools.loading import load_matter_source
from rubric_tools.loading.matter import MatterSource
from rubric_tools.loading.schema_check import SchemaError, SchemaErrorKind

BASE_MATTER = Path(__file__).parent / "rule_cases" / "_base"
RUBRIC = "rubric.yaml"

# An issue without `anchor`, with points written as text and an unknown key, a severity
# outside the enum, and a negative final-submission penalty.
BROKEN_RUBRIC = """\
issues:
  - id: uptime_credit
    severity: severe
    base_points: "1.5"
    redline_point: 0.5
    required_concepts: ["service credit"]
final_submission:
  points: 0.5
  missing_required_issue_penalty: -0.25
"""


@pytest.fixture(scope="module")
def broken(tmp_path_factory: pytest.TempPathFactory) -> MatterSource:
    root = tmp_path_factory.mktemp("stage") / "matter"
    shutil.copytree(BASE_MATTER, root)
    (root / RUBRIC).write_text(BROKEN_RUBRIC, encoding="utf-8")
    return load_matter_source(root)


def _stage(source: MatterSource, config: LintSection | None = None) -> SchemaReport:
    return run_schema_stage(source, selected_rules(config or LintSection()))


def _only(report: SchemaReport, kind: SchemaErrorKind) -> SchemaError:
    (error,) = report.of_kind(kind)
    return error


def test_the_record_holds_each_error_as_data(broken: MatterSource) -> None:
    report = _stage(broken)
    missing = _only(report, "required")
    assert (missing.file_name, missing.path, missing.validator, missing.key) == (
        RUBRIC,
        ("issues", 0),
        "required",
        "anchor",
    )
    wrong_type = _only(report, "type")
    assert (wrong_type.path, wrong_type.validator, wrong_type.expected_types) == (
        ("issues", 0, "base_points"),
        "type",
        ("number",),
    )
    unknown = _only(report, "unknown-key")
    assert (unknown.path, unknown.validator, unknown.key, unknown.suggestion) == (
        ("issues", 0, "redline_point"),
        "additionalProperties",
        "redline_point",
        "redline_points",
    )
    enum = _only(report, "enum")
    assert (enum.path, enum.allowed_values) == (("issues", 0, "severity"), ("low", "medium", "high", "critical"))
    negative = _only(report, "minimum")
    assert (negative.path, negative.limit) == (("final_submission", "missing_required_issue_penalty"), 0)


def test_with_every_schema_rule_selected_the_record_reports_those_nodes(broken: MatterSource) -> None:
    report = _stage(broken)
    assert report.reports_missing(RUBRIC, ("issues", 0), "anchor")
    assert not report.reports_missing(RUBRIC, ("issues", 0), "severity")  # present, just wrong
    assert not report.reports_missing("matter.yaml", ("issues", 0), "anchor")
    assert report.reported(RUBRIC, ("issues", 0, "base_points"), "type")
    assert not report.reported(RUBRIC, ("issues", 0, "base_points"), "enum")
    assert report.reported(RUBRIC, ("issues", 0, "base_points"))
    assert report.reported(RUBRIC, ("issues", 0, "redline_point"), "unknown-key")
    assert not report.reported(RUBRIC, ("issues", 0, "required_concepts"))


def test_with_s002_ignored_the_missing_key_is_not_reported_but_still_recorded(broken: MatterSource) -> None:
    report = _stage(broken, LintSection(ignore=("S002",)))
    assert "required" not in report.reported_kinds
    assert not report.reports_missing(RUBRIC, ("issues", 0), "anchor")
    assert not report.reported(RUBRIC, ("issues", 0), "required")
    assert _only(report, "required").key == "anchor"  # Y001 and friends still see every error
    assert report.reported(RUBRIC, ("issues", 0, "base_points"), "type")  # the other kinds are untouched


def test_a_schema_rule_that_is_not_selected_reports_nothing(broken: MatterSource) -> None:
    report = _stage(broken, LintSection(select=("A",)))
    assert report.reported_kinds == frozenset()
    assert report.reported_nodes == frozenset()
    assert len(report.errors) == 5


def test_a_downgraded_schema_rule_still_reports(broken: MatterSource) -> None:
    report = _stage(broken, LintSection(severity={"S002": Severity.INFO}))
    assert report.reports_missing(RUBRIC, ("issues", 0), "anchor")


def test_the_record_never_reads_the_message() -> None:
    """What is reported follows the data fields alone, whatever the message says."""
    error = SchemaError(RUBRIC, ("issues", 3), "required", "-", None, Span.point(1, 1), key="anchor")
    report = SchemaReport((error,), frozenset({"required"}))
    assert report.reports_missing(RUBRIC, ("issues", 3), "anchor")
    assert not report.reports_missing(RUBRIC, ("issues", 3), "-")


@pytest.mark.parametrize(
    ("config", "speaks"),
    [
        (LintSection(), False),
        (LintSection(ignore=("S002",)), True),
        (LintSection(select=("A",)), True),
        (LintSection(ignore=("S001",)), False),
    ],
    ids=["S002-selected", "S002-ignored", "S002-not-selected", "only-S001-ignored"],
)
def test_a_rule_consulting_the_record_stays_quiet_or_speaks(
    broken: MatterSource, config: LintSection, speaks: bool
) -> None:
    missing_anchor = find_rule("A001")
    assert missing_anchor is not None
    report = lint_source(broken, config, [missing_anchor])
    assert [d.code for d in report.diagnostics] == (["A001"] if speaks else [])


def test_each_schema_rule_renders_exactly_the_errors_of_the_kind_it_declares(broken: MatterSource) -> None:
    schema_rules = {rule: kind for rule in all_rules() if (kind := schema_kind_of(rule)) is not None}
    assert sorted(schema_rules.values()) == sorted(get_args(SchemaErrorKind))  # one rule per kind
    record = _stage(broken)
    for rule, kind in schema_rules.items():
        found = lint_source(broken, LintSection(prove_fixes=False), [rule]).diagnostics
        assert [(d.message, d.span) for d in found] == [(e.message, e.span) for e in record.of_kind(kind)], rule.code


def test_a_crashing_stage_is_one_internal_error_and_the_rules_still_run(
    broken: MatterSource, monkeypatch: pytest.MonkeyPatch
) -> None:
    def crash(source: MatterSource) -> list[SchemaError]:
        raise RuntimeError("boom")

    monkeypatch.setattr("rubric_tools.lint.schema_stage.validate_matter", crash)
    missing_anchor = find_rule("A001")
    assert missing_anchor is not None
    report = lint_source(broken, LintSection(), [missing_anchor])
    codes = sorted(d.code for d in report.diagnostics)
    assert codes == ["A001", "I002"]  # no schema rule reports the anchor now, so A001 does
    assert "schema stage crashed" in next(d.message for d in report.diagnostics if d.code == "I002")
