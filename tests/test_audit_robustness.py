"""The robustness figure per gate list — sins caught and correct work left silent, before
and after the proposals (or the fix) — in `rubric audit`'s text, JSON and SARIF output."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from rubric_tools.audit.robustness import list_robustness
from rubric_tools.audit.texts import Robustness
from rubric_tools.cli import main
from rubric_tools.commands.audit import audit_matter
from rubric_tools.config.audit import AuditSection
from rubric_tools.schemas import load_schema
from tests.audit_support import GUARDED_GATES, make_matter

#: Dodged by its synonyms and fired by its negated frames: the proposals improve both shares.
#: A list that misses paraphrases and still fires on some correct work (its author's guards
#: are in place, so the audit can both widen and guard it within its budgets).
WEAK_GATES = GUARDED_GATES
#: The same entry with no guard at all.
BARE_GATES = "    critical_failure_patterns:\n      - 'uptime commitments are unenforceable'\n"
#: A second list on another surface, which the audit finds nothing wrong with.
SOUND_GATES = (
    "    redline_critical_failure_patterns:\n"
    "      - pattern: 'no service credit'\n        negation_guard: true\n        negation_scope: before\n"
)
FIGURE = re.compile(r"robustness: sins caught (\d+)/(\d+) → (\d+)/(\d+), correct work silent (\d+)/(\d+) → (\d+)/(\d+)")


@pytest.fixture
def weak(tmp_path: Path) -> Path:
    return make_matter(tmp_path / "weak", WEAK_GATES)


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    code = main(list(argv))
    return code, capsys.readouterr().out


def test_each_gate_list_has_a_figure_and_the_proposals_improve_it(weak: Path) -> None:
    [figure] = audit_matter(weak, AuditSection()).robustness
    assert (figure.issue_id, figure.surface, figure.key) == ("uptime_credit", "issue", "critical_failure_patterns")
    assert figure.file.name == "rubric.yaml" and figure.line == 17 and figure.entries == 1
    assert figure.after_is == "proposal" and figure.changed == (0,)
    before, after = figure.before, figure.after
    assert before.must_fire == after.must_fire > 0 and before.must_not_fire == after.must_not_fire > 0
    assert after.caught > before.caught and after.silent > before.silent
    # A verified proposal fires on no correct work it was silent on; within its size budget
    # it need not silence every frame at once (the fix loop adds the rest round by round).
    assert after.silent > before.silent


def test_a_list_without_a_verified_proposal_keeps_its_figure(weak: Path) -> None:
    from rubric_tools.audit.runner import AuditReport, MatterAudit
    from rubric_tools.gate_analysis.gate_firing import gate_lists
    from rubric_tools.loading.matter import load_matter_source
    from rubric_tools.reporting.audit import render_text

    [gate_list] = list(gate_lists(load_matter_source(weak).model))
    figure = list_robustness(gate_list, [], [], {})
    assert figure.changed == () and figure.before == figure.after == Robustness(0, 0, 0, 0)
    assert figure.before.share_caught == figure.before.share_silent == 1.0  # nothing to miss
    matter = MatterAudit(weak, "m", robustness=[figure])
    text = render_text(AuditReport(matters=[matter]), weak.parent)
    assert "weak/rubric.yaml:17 uptime_credit/issue: robustness: sins caught 0/0 → 0/0" in text
    assert text.splitlines()[2].endswith("(unchanged)")


def test_the_regex_own_witnesses_are_not_counted_as_sins(tmp_path: Path) -> None:
    """The entry fires on its own witnesses by construction: counting them would flatter it."""
    bare = make_matter(tmp_path / "bare", BARE_GATES)
    from rubric_tools.audit.texts import VerdictText
    from rubric_tools.gate_analysis.gate_firing import gate_lists
    from rubric_tools.loading.matter import load_matter_source

    [gate_list] = list(gate_lists(load_matter_source(bare).model))
    witness = VerdictText("uptime commitments are unenforceable", True, "witness", "generated from entry 0", True, 0)
    habitat = VerdictText("Without limiting Section 9.2, uptime commitments are void.", True, "habitat: x", "", True, 0)
    frame = VerdictText("It is not the case that uptime commitments are unenforceable.", False, "frame: x", "", True)
    figure = list_robustness(gate_list, [witness, habitat], [frame], {})
    assert figure.before == figure.after == Robustness(0, 1, 0, 1)
    assert figure.describe() == "sins caught 0/1 → 0/1, correct work silent 0/1 → 0/1"


def test_text_output_has_one_line_per_gate_list(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    root = make_matter(tmp_path / "m", WEAK_GATES + SOUND_GATES)
    _code, out = _run(capsys, "audit", "--unsafe-fixes", str(root))
    assert "robustness of each gate list (before → after the proposals):" in out
    lines = [line for line in out.splitlines() if FIGURE.search(line)]
    assert len(lines) == 2
    assert "rubric.yaml:17 uptime_credit/issue: robustness: sins caught" in lines[0]
    caught = FIGURE.search(lines[0])
    assert caught is not None and int(caught.group(3)) > int(caught.group(1))
    assert "rubric.yaml:21 uptime_credit/redline: robustness" in lines[1]


def test_json_output_carries_the_figure_and_validates(capsys: pytest.CaptureFixture[str], weak: Path) -> None:
    _code, out = _run(capsys, "audit", "--output-format", "json", "--unsafe-fixes", str(weak))
    document = json.loads(out)
    Draft202012Validator(load_schema("audit-output")).validate(document)
    [figure] = document["matters"][0]["robustness"]
    assert figure["issue"] == "uptime_credit" and figure["key"] == "critical_failure_patterns"
    assert figure["after_is"] == "proposal" and figure["changed_entries"] == [0]
    before, after = figure["before"], figure["after"]
    assert after["sins_caught"] > before["sins_caught"] and after["sins"] == before["sins"]
    assert before["share_caught"] == round(before["sins_caught"] / before["sins"], 4)
    assert (
        after["correct_work_silent"] > before["correct_work_silent"] and after["share_silent"] > before["share_silent"]
    )


def test_sarif_output_carries_the_figure_per_run_and_per_gate_finding(
    capsys: pytest.CaptureFixture[str], weak: Path
) -> None:
    _code, out = _run(capsys, "audit", "--output-format", "sarif", str(weak))
    run = json.loads(out)["runs"][0]
    [figure] = run["properties"]["robustness"]
    assert figure["matter"] == "rule_case_base" or figure["matter"]  # the matter's id
    assert figure["issue"] == "uptime_credit" and figure["before"]["sins"] > 0
    gate_results = [r for r in run["results"] if r["ruleId"] in ("U003", "U004")]
    assert gate_results and all(r["properties"]["robustness"]["issue"] == "uptime_credit" for r in gate_results)
    concept_results = [r for r in run["results"] if r["ruleId"] in ("U006", "U008")]
    assert all("robustness" not in r["properties"] for r in concept_results)


def test_after_fix_the_figure_compares_the_fixed_list_on_the_first_texts(
    capsys: pytest.CaptureFixture[str], weak: Path
) -> None:
    first = audit_matter(weak, AuditSection()).robustness[0]
    code, out = _run(capsys, "audit", "--fix", "--unsafe-fixes", "--output-format", "json", str(weak))
    [figure] = json.loads(out)["matters"][0]["robustness"]
    assert figure["after_is"] == "fix" and figure["changed_entries"] == [0]
    assert figure["before"]["sins_caught"] == first.before.caught and figure["before"]["sins"] == first.before.must_fire
    assert figure["after"]["sins"] == first.before.must_fire  # the same texts
    assert figure["after"]["sins_caught"] >= first.after.caught  # the loop does at least one round's work
    assert figure["after"]["correct_work_silent"] >= first.after.silent > first.before.silent
    assert code in (0, 1)
