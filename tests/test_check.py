"""`rubric check`: lint, expectations (declared or by convention), probes, outputs."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from xml.etree import ElementTree

import pytest

from rubric_tools.checking import check_paths
from rubric_tools.cli import main
from rubric_tools.config.resolve import resolve_config
from rubric_tools.lint.vocabulary import CONFIG_VOCABULARY
from tests.conftest import require_conformance

BASE = Path(__file__).parent / "rule_cases" / "_base"

READ = {"type": "read_document", "document_id": "hosting", "section": "3.1"}
ISSUE = {
    "type": "submit_issue",
    "issue_id": "sla",
    "title": "No service credit",
    "severity": "medium",
    "citations": ["hosting §3.1", "guide §2"],
    "analysis": "99.9 target, no service credit.",
    "recommendation": "Add a service credit.",
}
ASK = {"type": "ask_client", "question": "Which region holds the backups?"}
MARKUP = {
    "type": "send_markup",
    "issue_id": "sla",
    "document_id": "hosting",
    "section": "3.1",
    "proposed_text": "Host grants a ten percent service credit for each month below 99.9 percent.",
}
QUOTE = [{"citation": "hosting §3.1", "text": "No credit is owed for downtime."}]
ESCALATE = {"type": "escalate", "topic": "service credit", "reason": "needs partner sign-off"}
FINAL = {"type": "submit_final", "summary": "Asked for a service credit on the 99.9 percent target. " * 2}
FABRICATED = dict(ISSUE, quotes=[{"citation": "hosting §3.1", "text": "Host owes a full refund."}])


def write_jsonl(path: Path, actions: list[dict]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(a) + "\n" for a in actions), encoding="utf-8")


@pytest.fixture
def matter(tmp_path: Path) -> Path:
    root = tmp_path / "matters" / "base_fixture"
    shutil.copytree(BASE, root)
    # 0.5 question + 0.5 escalation + 2.25 issue + 1.0 settlement + 0.5 final = 4.75 of 5.75
    write_jsonl(
        root / "trajectories" / "reference.jsonl", [READ, ASK, ESCALATE, dict(ISSUE, quotes=QUOTE), MARKUP, FINAL]
    )
    write_jsonl(root / "trajectories" / "bad_fabricated.jsonl", [READ, FABRICATED, FINAL])
    return root


def rows(report):  # type: ignore[no-untyped-def]
    return {(row.kind, row.name): row for row in report.rows}


def test_convention_applies_without_expectations(matter: Path) -> None:
    report = check_paths([matter])
    found = rows(report)
    assert found[("trajectory", "reference.jsonl")].passed
    assert found[("trajectory", "bad_fabricated.jsonl")].passed  # critical and below the reference
    assert report.exit_code == 0


def test_declared_expectations_report_expected_versus_got(matter: Path) -> None:
    (matter / "expectations.yaml").write_text(
        "trajectories:\n"
        "  reference:\n    min_normalized: 0.99\n    critical_failure: false\n"
        "  bad_fabricated:\n    critical_failure: true\n    cause: {kind: missed_critical_escalation}\n"
        "  ghost:\n    max_raw: 0\n",
        encoding="utf-8",
    )
    report = check_paths([matter])
    found = rows(report)
    reference = found[("trajectory", "reference.jsonl")]
    assert not reference.passed
    assert reference.expected == "normalized ≥ 0.99, no critical failure"
    assert reference.detail == "normalized 0.8261 < 0.99"
    fabricated = found[("trajectory", "bad_fabricated.jsonl")]
    assert not fabricated.passed
    assert "no recorded cause matches the expected one (kind: missed_critical_escalation)" in fabricated.detail
    assert "fabricated quote on uptime_credit" in fabricated.detail
    ghost = found[("trajectory", "ghost")]
    assert not ghost.passed and ghost.line == 8
    assert report.exit_code == 1


def test_invalid_expectations_file_is_a_failing_row(matter: Path) -> None:
    (matter / "expectations.yaml").write_text("trajectories:\n  reference:\n    min_normalised: 1\n", encoding="utf-8")
    found = rows(check_paths([matter]))
    problem = found[("trajectory", "expectations.yaml")]
    assert not problem.passed and "min_normalised" in problem.detail and problem.line == 3


def test_probes_and_lint_rows(matter: Path) -> None:
    (matter / "probes.yaml").write_text(
        "probes:\n"
        "  - {surface: issue, criterion: uptime_credit, text: 'Uptime commitments are unenforceable.',"
        " expect_fire: true}\n"
        "  - {surface: issue, criterion: uptime_credit, text: 'Uptime commitments are enforceable.',"
        " expect_fire: true}\n",
        encoding="utf-8",
    )
    rubric = matter / "rubric.yaml"
    rubric.write_text(rubric.read_text(encoding="utf-8") + "max_score: 3\n", encoding="utf-8")
    found = rows(check_paths([matter]))
    probes = found[("probes", "probes.yaml")]
    assert not probes.passed and probes.got == "1/2 behave" and probes.line == 3
    lint = found[("lint", "rubric lint")]
    assert not lint.passed and "max_score" in lint.detail


def test_a_file_stands_for_its_whole_matter(matter: Path) -> None:
    report = check_paths([matter / "documents" / "guide.md"])
    assert [m.matter_id for m in report.matters] == ["base_fixture"]
    kinds = [row.kind for row in report.rows if row.kind not in ("attack", "audit")]
    assert kinds == ["lint", "trajectory", "trajectory"]


def test_json_and_junit_outputs(matter: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "--output-format", "json", str(matter)]) == 0
    document = json.loads(capsys.readouterr().out)
    assert document["passed"] is True and document["matters"][0]["matter_id"] == "base_fixture"
    assert {c["kind"] for c in document["matters"][0]["checks"]} == {"lint", "trajectory", "attack", "audit"}
    junit = tmp_path / "check.xml"
    write_jsonl(matter / "trajectories" / "bad_critical_nothing.jsonl", [READ, FINAL])
    assert main(["check", "--output-format", "junit", "--output", str(junit), str(matter)]) == 1
    root = ElementTree.parse(junit).getroot()
    assert root.tag == "testsuites" and root.get("failures") == "1"
    failure = root.find(".//testcase[@name='bad_critical_nothing.jsonl']/failure")
    assert failure is not None and "critical failure" in failure.get("message", "")


def test_text_output_and_usage_errors(matter: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "--no-color", str(matter)]) == 0
    assert "checks passed in 1 matter" in capsys.readouterr().out
    assert main(["check", str(tmp_path / "nowhere")]) == 2


#: The corpus's known authoring defects, all lint rows: `constraints.negotiation_rounds`
#: (S005) in two matters, and redline concepts the clause under review already holds
#: (U007, issue 24's third principle) in ten.
KNOWN_LINT_DEFECTS = ("negotiation_rounds", "already in the clause under review")
MATTERS_WITH_REDLINE_CONCEPTS_IN_THE_CLAUSE = {
    "ai_saas_001",
    "cloud_msa_002",
    "fintech_vendor_007",
    "health_saas_006",
    "ml_services_005",
    "msa_provider_004",
    "private_acquisition_buyer_012",
    "public_merger_target_011",
    "saas_renewal_003",
    "source_license_008",
}


def test_conformance_corpus_is_green_but_for_its_known_defects() -> None:
    corpus = require_conformance()
    report = check_paths([corpus])
    assert len(report.matters) == 12
    failing = [(m.matter_id, row.kind) for m in report.matters for row in m.rows if not row.passed]
    expected = MATTERS_WITH_REDLINE_CONCEPTS_IN_THE_CLAUSE | {
        "private_acquisition_buyer_012",
        "public_merger_target_011",
    }
    assert sorted(failing) == sorted((matter_id, "lint") for matter_id in expected)
    for matter in report.matters:
        for row in matter.rows:
            if not row.passed:
                lines = row.detail.splitlines()
                assert lines and all(any(known in line for known in KNOWN_LINT_DEFECTS) for line in lines), row.detail
    trajectories = [row for row in report.rows if row.kind == "trajectory"]
    probes = [row for row in report.rows if row.kind == "probes"]
    assert len(trajectories) == 517 and len(probes) == 11
    assert {row.name for row in report.rows if row.kind == "attack"} >= {"keyword-stuffing-unanchored"}


def test_attack_thresholds_fail_check_on_an_exploitable_rubric(matter: Path) -> None:
    rubric = matter / "rubric.yaml"
    text = rubric.read_text(encoding="utf-8").replace(
        "  required_issue_ids: [uptime_credit]\n", "  required_concepts: [service credit]\n  concept_points: 20\n"
    )
    rubric.write_text(text, encoding="utf-8")
    report = check_paths([matter])
    failing = [(row.kind, row.name) for row in report.rows if not row.passed]
    assert ("attack", "stuffed-summary") in failing
    assert report.exit_code == 1
    (matter / "rubric.toml").write_text('[attack]\nexempt = ["stuffed-summary"]\n', encoding="utf-8")
    config = resolve_config([matter], CONFIG_VOCABULARY)  # as `rubric check MATTER` finds it
    assert ("attack", "stuffed-summary") not in [
        (r.kind, r.name) for r in check_paths([matter], config).rows if not r.passed
    ]


def test_probe_files_are_checked_against_their_schema(matter: Path) -> None:
    (matter / "probes.yaml").write_text(
        "probes:\n"
        "  - {surface: issue, criterion: uptime_credit, text: 'Uptime commitments are unenforceable.',"
        " expect_fire: true, note: extra}\n",
        encoding="utf-8",
    )
    probes = rows(check_paths([matter]))[("probes", "probes.yaml")]
    assert not probes.passed and probes.got == "1/1 behave"
    assert probes.detail.startswith("line 2:") and "note" in probes.detail
