"""`rubric audit` end to end: output formats, schema, exit codes, --write-probes, and the
audit row of `rubric check` with its thresholds."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from rubric_tools.checking import check_paths
from rubric_tools.cli import main
from rubric_tools.config.audit import AuditSection
from rubric_tools.config.project import ProjectConfig
from rubric_tools.loading.yaml_source import load_yaml
from rubric_tools.schemas import load_schema
from tests.audit_support import make_matter

DEFECTIVE_GATES = "    critical_failure_patterns:\n      - 'uptime commitments are unenforceable'\n"
NEGATED_GUIDE = "Never agree that uptime commitments are unenforceable; the credit is the remedy."
PROBES = """\
# Probes written by hand: this comment and the layout must survive --write-probes.
probes:
  - surface: issue
    criterion: uptime_credit
    text: "Uptime commitments are unenforceable."
    expect_fire: true
"""


@pytest.fixture
def defective(tmp_path: Path) -> Path:
    return make_matter(tmp_path / "defective", DEFECTIVE_GATES, guide=NEGATED_GUIDE, files={"probes.yaml": PROBES})


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_text_report_per_matter_and_gate(capsys: pytest.CaptureFixture[str], defective: Path) -> None:
    code, out, _ = _run(capsys, "audit", "--unsafe-fixes", str(defective))
    assert code == 1  # U002 is an error
    assert "rubric.yaml:17:9 U002 [error] gate-fires-on-correct-work" in out
    assert "[document · guide §2]" in out and "fix: proposed change: guard scoped by meaning" in out
    assert "paste-ready entry" in out and "      - pattern: '" in out and "        exclude_context: '" in out
    assert out.rstrip().endswith("warnings (U002 1, U003 1, U004 1).")


def test_json_output_validates_against_the_schema(capsys: pytest.CaptureFixture[str], defective: Path) -> None:
    code, out, _ = _run(capsys, "audit", "--format", "json", "--unsafe-fixes", str(defective))
    document = json.loads(out)
    Draft202012Validator(load_schema("audit-output")).validate(document)
    finding = next(f for f in document["matters"][0]["findings"] if f["code"] == "U002")
    assert (finding["line"], finding["column"], finding["severity"]) == (17, 9, "error")
    assert finding["evidence"][0]["source"] == "guide §2" and finding["proposal"]["verified"] is True
    assert document["summary"]["by_code"] == {"U002": 1, "U003": 1, "U004": 1} and code == 1


def test_sarif_output(capsys: pytest.CaptureFixture[str], defective: Path) -> None:
    code, out, _ = _run(capsys, "audit", "--output-format", "sarif", str(defective))
    log = json.loads(out)
    run = log["runs"][0]
    assert log["version"] == "2.1.0" and code == 1
    assert {r["ruleId"] for r in run["results"]} == {"U002", "U003", "U004"}
    assert all(run["tool"]["driver"]["rules"][r["ruleIndex"]]["id"] == r["ruleId"] for r in run["results"])


def test_clean_matter_exits_zero_and_bad_settings_exit_two(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    clean = make_matter(tmp_path / "clean")
    assert _run(capsys, "audit", str(clean))[0] == 0
    (clean / "rubric.toml").write_text("[audit]\nmax-evidence = 0\n", encoding="utf-8")
    code, _, err = _run(capsys, "audit", str(clean))
    assert code == 2 and "audit.max-evidence must be a positive integer" in err


def test_write_probes_appends_without_destroying(capsys: pytest.CaptureFixture[str], defective: Path) -> None:
    before = (defective / "probes.yaml").read_text(encoding="utf-8")
    code, _, err = _run(capsys, "audit", "--write-probes", str(defective))
    after = (defective / "probes.yaml").read_text(encoding="utf-8")
    assert after.startswith(before) and "appended" in err
    entries = load_yaml(defective / "probes.yaml").data["probes"]
    added = entries[1:]
    assert added and all(e["review"].startswith("rubric audit U00") for e in added)
    assert {e["expect_fire"] for e in added if "U004" in e["review"]} == {True}
    assert {e["expect_fire"] for e in added if "U002" in e["review"] or "U003" in e["review"]} == {False}
    # Running again adds nothing: the evidence is already there.
    _run(capsys, "audit", "--write-probes", str(defective))
    assert (defective / "probes.yaml").read_text(encoding="utf-8") == after
    # And `rubric check` reads the extended probe file against its schema.
    check = check_paths([defective])
    probes_row = next(r for r in check.rows if r.kind == "probes")
    assert "schema" not in probes_row.detail


def test_write_probes_creates_a_probe_file_and_refuses_a_flow_list(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    fresh = make_matter(tmp_path / "fresh", DEFECTIVE_GATES, guide=NEGATED_GUIDE)
    _run(capsys, "audit", "--write-probes", str(fresh))
    assert len(load_yaml(fresh / "probes.yaml").data["probes"]) >= 2
    flow = make_matter(tmp_path / "flow", DEFECTIVE_GATES, guide=NEGATED_GUIDE, files={"probes.yaml": "probes: []\n"})
    code, _, err = _run(capsys, "audit", "--write-probes", str(flow))
    assert code == 2 and "flow style" in err
    assert (flow / "probes.yaml").read_text(encoding="utf-8") == "probes: []\n"


def test_check_runs_the_audit_with_thresholds(tmp_path: Path) -> None:
    defective = make_matter(tmp_path / "defective", DEFECTIVE_GATES, guide=NEGATED_GUIDE)
    [row] = [r for r in check_paths([defective]).rows if r.kind == "audit"]
    assert not row.passed and "U002" in row.detail and row.line == 17
    relaxed = ProjectConfig(audit=AuditSection(fail_on=("U001",)))
    [row] = [r for r in check_paths([defective], relaxed).rows if r.kind == "audit"]
    assert row.passed and "U002 1" in row.got


def test_check_stops_on_a_bad_audit_table(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    # The configuration is validated when it is read: a broken [audit] table is a usage
    # error of `rubric check` at its file and line, no longer a failing "thresholds" row.
    defective = make_matter(tmp_path / "defective", DEFECTIVE_GATES, guide=NEGATED_GUIDE)
    (tmp_path / "rubric.toml").write_text('[audit]\nfail-on = "U002"\n', encoding="utf-8")
    code, out, err = _run(capsys, "check", str(defective))
    assert (code, out) == (2, "")
    message = "".join(err.split())  # rich wraps the line at the console width
    assert "".join(f"{tmp_path / 'rubric.toml'}:2: audit.fail-on must be a list of audit codes".split()) in message


def test_audit_codes_are_explained(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(capsys, "explain", "U002")
    assert code == 0 and "gate-fires-on-correct-work" in out
    code, out, _ = _run(capsys, "explain", "gate-never-fires")
    assert code == 0 and "U001" in out


def test_a_broken_matter_is_reported_and_the_others_still_audited(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    make_matter(
        tmp_path / "all" / "good",
        DEFECTIVE_GATES,
        guide=NEGATED_GUIDE,
        files={"probes.yaml": "probes: [unclosed\n", "trajectories/good.jsonl": "{not json\n"},
    )
    broken = make_matter(tmp_path / "all" / "broken")
    (broken / "rubric.yaml").write_text("issues: [\n", encoding="utf-8")
    code, out, _ = _run(capsys, "audit", "--format", "json", str(tmp_path / "all"))
    document = json.loads(out)
    by_id = {m["path"].rsplit("/", 1)[-1]: m for m in document["matters"]}
    assert code == 2 and by_id["broken"]["problems"] and not by_id["broken"]["findings"]
    assert any(f["code"] == "U002" for f in by_id["good"]["findings"])


def test_a_proposal_prints_its_pattern_as_written_in_yaml() -> None:
    from rubric_tools.audit.findings import Proposal

    proposal = Proposal({"pattern": r"\bit's (?:void|invalid)\b", "negation_guard": True}, "", True, True)
    described = proposal.describe()
    assert r"pattern: '\bit''s (?:void|invalid)\b'" in described
    assert "negation_guard: true" in described and "\\\\b" not in described
