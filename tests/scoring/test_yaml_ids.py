"""Ids that YAML 1.1 reads as something other than text, as the reference engine keeps them.

Engine-derived (conformance-edge H08d, H32; engine.md §3, §5): the reference keeps an unquoted
`2024-01-01` issue id as a `datetime.date` and `matter_id: yes` as `True`. The issue's criterion
in events and matched sets is that value; a redline's criterion, from the agent's label or else
the anchor it targets, is that value too, and the issue is then looked up among the ids' text, so
no redline of such an issue is ever scored (H08d: the label's redline on the anchor itself is
unsupported); the result reports the matter id as read. Our JSON outputs
write a date as its ISO 8601 text, which is how the reference's result files show it.
"""

from __future__ import annotations

import datetime
import json
from pathlib import Path
from typing import Any

from rubric_tools.loading.matter import load_matter_source
from rubric_tools.scoring import replay
from rubric_tools.scoring.json_values import json_default, json_default_or_repr
from rubric_tools.scoring.model import Document, FinalSubmission, Issue, Matter, Rubric, sorted_ids
from rubric_tools.scoring.sections import parse_sections

DAY = datetime.date(2024, 1, 1)
CONTRACT = "Preamble.\n\n## 1 Liability\nThe liability cap is one month of fees.\n\n## 2 Term\nOne year.\n"


def _matter(issue_id: Any, *, required: tuple[Any, ...] = (), matter_id: Any = None) -> Matter:
    native = None if isinstance(issue_id, str) else issue_id
    issue = Issue(
        id=str(issue_id),
        native_id=native,
        anchor="msa §1",
        severity="high",
        required_concepts=("liability cap",),
        redline_concepts=("two times",),
    )
    document = Document("msa", "MSA", "documents/msa.md", parse_sections(CONTRACT).sections)
    return Matter(
        matter_id=str(matter_id) if matter_id is not None else "mini",
        native_matter_id=matter_id if matter_id is not None and not isinstance(matter_id, str) else None,
        rubric=Rubric(issues=(issue,), final_submission=FinalSubmission(required_issue_ids=required)),
        documents={"msa": document},
    )


READ = {"type": "read_document", "document_id": "msa"}
SUBMIT = {
    "type": "submit_issue",
    "issue_id": "cap",
    "title": "Low liability cap",
    "severity": "high",
    "citations": ["msa §1"],
    "analysis": "The liability cap is too low.",
    "recommendation": "Raise it.",
}


def _redline(section: str, label: str = "cap") -> dict[str, Any]:
    return {
        "type": "propose_redline",
        "issue_id": label,
        "document_id": "msa",
        "section": section,
        "replacement_text": "two times",
        "rationale": "r",
    }


def _events(result: dict[str, Any]) -> list[tuple[str, Any]]:
    return [(event["type"], event["criterion"]) for event in result["breakdown"]["reward_events"]]


def test_a_date_issue_id_is_the_criterion_and_its_label_leads_no_redline() -> None:
    outcome = replay(_matter(DAY), [READ, SUBMIT, _redline("1")])
    assert _events(outcome.result) == [("issue", DAY), ("unsupported_redline", "cap")]
    assert outcome.result["breakdown"]["matched_issues"] == [DAY]
    assert outcome.result["breakdown"]["matched_redlines"] == []
    assert [step.reward for step in outcome.steps] == [0.0, 2.0, -0.5]


def test_a_text_issue_id_spelt_like_a_date_is_found_through_its_label() -> None:
    outcome = replay(_matter("2024-01-01"), [READ, SUBMIT, _redline("2")])
    assert _events(outcome.result) == [("issue", "2024-01-01"), ("redline", "2024-01-01")]


def test_other_non_text_ids_behave_alike() -> None:
    for issue_id in (7, True, 1.5):
        outcome = replay(_matter(issue_id), [READ, SUBMIT, _redline("1")])
        assert _events(outcome.result) == [("issue", issue_id), ("unsupported_redline", "cap")], issue_id


def test_a_redline_on_the_anchor_under_a_fresh_label_does_not_reach_a_date_issue_either() -> None:
    # "other" is no registered label: the criterion comes from the anchor, the same raw id.
    dated = replay(_matter(DAY), [READ, _redline("1", label="other")])
    assert _events(dated.result) == [("unsupported_redline", "other")]
    text = replay(_matter("2024-01-01"), [READ, _redline("1", label="other")])
    assert _events(text.result) == [("redline", "2024-01-01")]


def test_required_issue_ids_compare_as_yaml_read_them() -> None:
    final = {"type": "submit_final", "summary": "A summary long enough to earn the final points."}
    as_date = replay(_matter(DAY, required=(DAY,)), [READ, SUBMIT, final]).result
    as_text = replay(_matter(DAY, required=("2024-01-01",)), [READ, SUBMIT, final]).result
    assert as_date["breakdown"]["reward_events"][-1]["missing_issues"] == []
    assert as_text["breakdown"]["reward_events"][-1]["missing_issues"] == ["2024-01-01"]


def test_the_result_reports_the_matter_id_as_read() -> None:
    assert replay(_matter("cap", matter_id=True), []).result["matter_id"] is True
    assert replay(_matter("cap"), []).result["matter_id"] == "mini"


def test_ids_sort_as_the_engine_sorts_them_and_mixed_kinds_do_not_fail() -> None:
    assert sorted_ids(["b", "a"]) == ["a", "b"]
    assert sorted_ids([10, 9]) == [9, 10]
    assert sorted_ids(["cap", DAY]) == [DAY, "cap"]  # grouped by kind name where the engine would raise


def test_json_outputs_write_dates_as_iso_text() -> None:
    moment = datetime.datetime(2024, 1, 1, 10, 30)
    assert json.dumps([DAY, moment, True], default=json_default) == '["2024-01-01", "2024-01-01T10:30:00", true]'
    assert json.dumps([DAY, {1}], default=json_default_or_repr) == '["2024-01-01", "{1}"]'


def test_the_loader_keeps_the_yaml_11_values(tmp_path: Path) -> None:
    (tmp_path / "documents").mkdir()
    (tmp_path / "documents" / "msa.md").write_text(CONTRACT, encoding="utf-8")
    (tmp_path / "matter.yaml").write_text(
        "matter_id: yes\ntitle: T\npractice_area: commercial\n"
        "documents:\n  - {id: msa, title: MSA, path: documents/msa.md}\n",
        encoding="utf-8",
    )
    (tmp_path / "rubric.yaml").write_text(
        "issues:\n  - id: 2024-01-01\n    anchor: msa §1\n  - id: cap\n    anchor: msa §2\n"
        "final_submission:\n  required_issue_ids: [2024-01-01, '2024-01-01']\n",
        encoding="utf-8",
    )
    matter = load_matter_source(tmp_path).matter
    assert (matter.matter_id, matter.reported_matter_id) == ("True", True)
    dated, text = matter.rubric.issues
    assert (dated.id, dated.criterion) == ("2024-01-01", DAY)
    assert (text.id, text.criterion, text.native_id) == ("cap", "cap", None)
    assert matter.rubric.final_submission.required_issue_ids == (DAY, "2024-01-01")
