"""Engine-derived unit tests for the odd inputs of issue 15 (the conformance-edge corpus
holds the reference's own results for them; these pin the rules down without it)."""

from __future__ import annotations

import dataclasses
import math
from types import MappingProxyType
from typing import Any

from rubric_tools.scoring import replay
from rubric_tools.scoring.gates import Gate
from rubric_tools.scoring.model import Counter, Document, FinalSubmission, Position
from rubric_tools.scoring.result import normalized_score
from tests.scoring.builders import REPAIRS, documents, issue_action, matter, read


def _events(outcome: Any) -> list[dict[str, Any]]:
    return outcome.result["breakdown"]["reward_events"]  # type: ignore[no-any-return]


def test_issue_labels_are_str_ed_as_python_does() -> None:
    """7 and "7" are one label; true is "True", not 1."""
    outcome = replay(
        matter(),
        [
            read("lease", "2.1"),
            issue_action(7),
            {
                "type": "propose_redline",
                "issue_id": "7",
                "document_id": "policy",
                "section": "1",
                "replacement_text": "the lessor pays for defects",
                "rationale": "r",
            },
        ],
    )
    assert [e["type"] for e in _events(outcome)] == ["issue", "redline"]
    outcome = replay(
        matter(), [issue_action(1, ["lease §9"]), issue_action(True, ["lease §2.1"]) | {"type": "revise_issue"}]
    )
    assert outcome.steps[1].reward == -0.25  # "True" names no earlier submission ("1" does not match)
    assert _events(outcome)[0]["criterion"] == "1"


def test_document_ids_are_str_ed() -> None:
    docs = dict(documents())
    docs["2024"] = dataclasses.replace(docs["lease"], id="2024")
    outcome = replay(matter(documents=MappingProxyType(docs)), [{"type": "read_document", "document_id": 2024}])
    assert outcome.steps[0].reward == 0.0 and "2024 §2.1" in outcome.result["breakdown"]["read_citations"]


def test_duplicates_count_once() -> None:
    repairs = dataclasses.replace(REPAIRS, required_citations=("policy §1", "policy §1"))
    final = FinalSubmission(points=0.5, minimum_characters=0, required_issue_ids=("repairs", "repairs"))
    rubric = dataclasses.replace(matter().rubric, issues=(repairs,), final_submission=final)
    outcome = replay(
        matter(rubric=rubric),
        [read("lease", "2.1"), issue_action(citations=["lease §2.1"]), {"type": "submit_final", "summary": ""}],
    )
    assert _events(outcome)[0]["missing_citations"] == ["policy §1"]
    outcome = replay(matter(rubric=rubric), [{"type": "submit_final", "summary": ""}])
    # 0.5 for the summary, -0.25 once for the missing issue, -0.5 for the required escalation
    assert _events(outcome)[0]["missing_issues"] == ["repairs"] and outcome.steps[0].reward == -0.25


def test_unscored_redline_records_the_gate_that_fired() -> None:
    repairs = dataclasses.replace(REPAIRS, redline_points=0.0)
    rubric = dataclasses.replace(matter().rubric, issues=(repairs,))
    outcome = replay(
        matter(rubric=rubric),
        [
            read("lease", "2.1"),
            issue_action(),
            {
                "type": "propose_redline",
                "issue_id": "my-label",
                "document_id": "lease",
                "section": "2.1",
                "replacement_text": "Orchard Farms bears all defects.",
                "rationale": "r",
            },
        ],
    )
    event = _events(outcome)[1]
    assert event["type"] == "unscored_redline" and event["critical_failure_pattern"].startswith("orchard")
    assert outcome.result["critical_failure"]


def test_search_length_is_measured_after_lowercasing() -> None:
    outcome = replay(matter(), [{"type": "search_matter", "query": "İİ"}, {"type": "search_matter", "query": "ab"}])
    assert [s.reward for s in outcome.steps] == [0.0, -0.1]


def test_a_counter_without_text_cannot_be_accepted() -> None:
    position = Position(resist_rounds=5, accept_concepts=(("lessor",),), counters=(Counter("We offer less."),))
    steps = [
        read("lease", "2.1"),
        issue_action(),
        {
            "type": "send_markup",
            "issue_id": "my-label",
            "document_id": "lease",
            "section": "2.1",
            "proposed_text": "nothing",
        },
        {"type": "accept_counterparty", "issue_id": "my-label"},
    ]
    outcome = replay(matter(positions=MappingProxyType({"repairs": position})), steps)
    assert outcome.steps[3].reward == -0.25 and outcome.steps[3].penalty_reason is not None


def test_an_empty_gate_pattern_fires_but_does_not_count_as_critical_after_a_revision() -> None:
    repairs = dataclasses.replace(REPAIRS, settlement_critical_failure_patterns=(Gate(""),))
    rubric = dataclasses.replace(matter().rubric, issues=(repairs,))
    position = Position(resist_rounds=0, accept_concepts=(("lessor",),))
    steps = [
        read("lease", "2.1"),
        issue_action(),
        {
            "type": "send_markup",
            "issue_id": "my-label",
            "document_id": "lease",
            "section": "2.1",
            "proposed_text": "the lessor pays",
        },
        issue_action() | {"type": "revise_issue"},
    ]
    outcome = replay(matter(rubric=rubric, positions=MappingProxyType({"repairs": position})), steps)
    assert _events(outcome)[0]["critical_failure_pattern"] == ""
    assert not outcome.result["critical_failure"]


def test_infinite_points_normalize_as_the_engine_clamps() -> None:
    assert normalized_score(math.inf, math.inf, False, 0.25) == 1.0
    assert normalized_score(-math.inf, 5.0, False, 0.25) == 0.0
    assert normalized_score(math.nan, 5.0, True, 0.25) == 0.25


def test_the_last_document_with_an_id_wins(tmp_path: Any) -> None:
    from rubric_tools.loading.matter import load_matter_source

    (tmp_path / "documents").mkdir()
    (tmp_path / "documents" / "a.md").write_text("## 1 First\nfirst\n", encoding="utf-8")
    (tmp_path / "documents" / "b.md").write_text("## 1 Second\nsecond\n## 2 More\n", encoding="utf-8")
    (tmp_path / "matter.yaml").write_text(
        "matter_id: m\ndocuments:\n  - {id: msa, title: A, path: documents/a.md}\n"
        "  - {id: msa, title: B, path: documents/b.md}\n",
        encoding="utf-8",
    )
    (tmp_path / "rubric.yaml").write_text("issues: []\n", encoding="utf-8")
    document: Document = load_matter_source(tmp_path).matter.documents["msa"]
    assert set(document.sections) == {"full", "1", "2"} and "second" in document.sections["1"]
