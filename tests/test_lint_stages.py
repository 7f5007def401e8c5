"""Each stage of `lint_source` (`rubric_tools.lint.stages`) on its own, and the pipeline
being exactly those stages in order."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from rubric_tools.config.lint import LintSection
from rubric_tools.diagnostics import Applicability, Diagnostic, Edit, Fix, Severity, Span
from rubric_tools.internal_codes import RULE_CRASHED
from rubric_tools.lint import stages
from rubric_tools.lint.context import Finding, LintContext
from rubric_tools.lint.engine import lint_source, selected_rules
from rubric_tools.lint.registry import RULES, Rule
from rubric_tools.lint.schema_stage import SchemaReport
from rubric_tools.loading.matter import MatterSource, load_matter_source

BASE_MATTER = Path(__file__).parent / "rule_cases" / "_base"


@pytest.fixture
def source(tmp_path: Path) -> MatterSource:
    shutil.copytree(BASE_MATTER, tmp_path / "m")
    return load_matter_source(tmp_path / "m")


def _first_issue(ctx: LintContext) -> Iterator[Finding]:
    """Test-only: a finding at the first issue's id."""
    yield ctx.report(ctx.model.issues[0].at("id"), "found")


def _crashes(ctx: LintContext) -> Iterator[Finding]:
    """Test-only: a rule with a bug."""
    raise ValueError("boom")


FINDS = Rule("Z901", "stage-test-finds", Severity.WARNING, "stage_test", _first_issue)
CRASHES = Rule("Z902", "stage-test-crashes", Severity.ERROR, "stage_test", _crashes)


def test_validate_schema_records_the_errors_and_reports_a_crash(
    source: MatterSource, monkeypatch: pytest.MonkeyPatch
) -> None:
    report, crashed = stages.validate_schema(source, selected_rules(LintSection()))
    assert isinstance(report, SchemaReport) and crashed == []

    def crash(*_: object) -> None:
        raise RuntimeError("validator bug")

    monkeypatch.setattr("rubric_tools.lint.schema_stage.validate_matter", crash)
    report, crashed = stages.validate_schema(source, selected_rules(LintSection()))
    assert report == SchemaReport()
    assert [d.code for d in crashed] == [RULE_CRASHED.code]
    assert "the schema stage crashed" in crashed[0].message


def test_run_rules_gives_each_finding_its_rule_and_configured_severity(source: MatterSource) -> None:
    config = LintSection(severity={"Z901": Severity.INFO})
    context = LintContext(source, config, SchemaReport())
    found = stages.run_rules(context, [CRASHES, FINDS], config)
    assert [(d.code, d.severity) for d in found] == [(RULE_CRASHED.code, Severity.ERROR), ("Z901", Severity.INFO)]
    assert "rule Z902 (stage-test-crashes) crashed: ValueError('boom')" in found[0].message
    assert found[1].name == "stage-test-finds" and found[1].matter == source.matter_id


def _at(source: MatterSource, line: int, code: str = "A006") -> Diagnostic:
    return Diagnostic(
        code, "anchor-on-preamble", Severity.WARNING, "m", source.root / "rubric.yaml", Span(line, 5, line, 9)
    )


def test_apply_suppressions_drops_what_is_silenced_and_reports_unused_ones(source: MatterSource) -> None:
    rubric = source.root / "rubric.yaml"
    lines = rubric.read_text(encoding="utf-8").splitlines()
    lines[15] += "  # rubric: ignore[A006,A004] -- the test says so"  # the issue's anchor, line 16
    rubric.write_text("\n".join(lines) + "\n", encoding="utf-8")
    reloaded = load_matter_source(source.root)
    found = [_at(reloaded, 16), _at(reloaded, 17)]
    rules = [RULES["A006"]]
    assert stages.apply_suppressions(reloaded, LintSection(), rules, list(found)) == [found[1]]
    # A006 silenced something and A004 did not run: nothing to report as unused.
    assert stages.apply_suppressions(reloaded, LintSection(), [*rules, RULES["X103"]], list(found)) == [found[1]]
    unused = stages.apply_suppressions(reloaded, LintSection(), [RULES["A004"], RULES["X103"]], [])
    assert [d.message for d in unused] == ["unused suppression of A004: nothing here is reported"]


def test_prove_fixes_downgrades_what_it_cannot_prove(source: MatterSource, monkeypatch: pytest.MonkeyPatch) -> None:
    edit = Edit(source.root / "rubric.yaml", Span(16, 13, 16, 27), "hosting §3.1", "hosting §3.2")
    safe = Fix("change it", (edit,), Applicability.SAFE)
    found = [replace(_at(source, 16), fix=safe)]

    def crash(*_: object, **__: object) -> None:
        raise RuntimeError("cannot replay")

    monkeypatch.setattr("rubric_tools.lint.fix_proof.prove_safe_fixes", crash)
    [proven] = stages.prove_fixes(source, found, None)
    assert proven.fix is not None and not proven.fix.safe
    assert "could not be proven safe: RuntimeError('cannot replay')" in (proven.fix.downgraded or "")


def test_in_order_drops_duplicates_and_sorts(source: MatterSource) -> None:
    late, early = _at(source, 20), _at(source, 3)
    assert stages.in_order([late, early, late]) == [early, late]


def test_lint_source_is_the_stages_in_order(source: MatterSource) -> None:
    config = LintSection()
    configured = selected_rules(config)
    schema, found = stages.validate_schema(source, configured)
    found += stages.run_rules(LintContext(source, config, schema), configured, config)
    found = stages.apply_suppressions(source, config, configured, found)
    found = stages.prove_fixes(source, found, None)
    assert lint_source(source, config).diagnostics == stages.in_order(found)
