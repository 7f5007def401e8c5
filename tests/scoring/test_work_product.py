"""Unit tests: issue matching and components, quotes, redlines and revisions."""

from __future__ import annotations

import pytest

from rubric_tools.scoring import Episode, replay
from rubric_tools.scoring.work_product import ISSUE_FIELDS, REDLINE_FIELDS
from tests.scoring.builders import issue_action, matter, read


def events(outcome):  # type: ignore[no-untyped-def]
    return outcome.result["breakdown"]["reward_events"]


def test_anchor_must_be_cited_and_read() -> None:
    outcome = replay(
        matter(),
        [
            issue_action("a", ["policy §1"]),
            issue_action("b"),
            read("lease", "2.1"),
            issue_action("c", ["policy §1", "lease §2.1"]),
        ],
    )
    kinds = [e["type"] for e in events(outcome)]
    assert kinds == ["unsupported_issue", "unread_anchor_issue", "issue"]
    assert outcome.result["breakdown"]["unsupported_issues"] == ["a", "b"]
    assert events(outcome)[2]["criterion"] == "repairs"  # the label does not matter


def test_full_issue_components() -> None:
    quote = {"citation": "lease §2.1", "text": "bears the cost of every repair"}
    outcome = replay(matter(), [read("lease", "2.1"), issue_action(quotes=[quote])])
    issue = events(outcome)[0]
    assert issue["components"] == {"base": 1.0, "severity": 0.25, "citations": 0.25, "concepts": 0.5, "quotes": 0.25}
    assert issue["points"] == 2.25
    assert issue["quotes"] == [{"citation": "lease §2.1", "status": "verified"}]


def test_invalid_citations_missing_citations_and_wrong_severity() -> None:
    outcome = replay(
        matter(),
        [
            read("lease", "2.1"),
            issue_action(citations=["lease §2.1", "lease §77", "no section sign"], severity="low", analysis="lessor"),
        ],
    )
    issue = events(outcome)[0]
    assert issue["components"]["invalid_citation_penalty"] == -1.5
    assert issue["components"]["severity"] == 0.0
    assert issue["missing_citations"] == ["policy §1"]
    assert issue["components"]["concepts"] == 0.25  # "lessor" only
    assert outcome.result["breakdown"]["invalid_citations"] == ["lease §77", "no section sign"]


def test_first_citation_that_is_an_anchor_decides() -> None:
    outcome = replay(matter(), [read("lease"), issue_action(citations=["lease §1", "lease §2.1"])])
    assert events(outcome)[0]["criterion"] == "rent"


def test_anchor_comparison_is_exact_after_strip() -> None:
    outcome = replay(
        matter(), [read("lease"), issue_action(citations=["lease  §2.1"]), issue_action(citations=["  lease §2.1 "])]
    )
    assert [e["type"] for e in events(outcome)] == ["unsupported_issue", "issue"]


def test_duplicate_issue_costs_a_fifth_without_citation_penalty() -> None:
    outcome = replay(matter(), [read("lease"), issue_action("a"), issue_action("b", ["lease §2.1", "x"])])
    assert events(outcome)[1] == {"type": "duplicate_issue", "criterion": "repairs", "points": -0.2}


def test_quotes_short_fabricated_and_malformed() -> None:
    quotes = [
        {"citation": "lease §2.1", "text": "too short"},
        {"citation": "lease §1", "text": "bears the cost of every repair"},  # wrong section
        "free text that is not anywhere in the lease",
        None,
    ]
    outcome = replay(matter(), [read("lease"), issue_action(quotes=quotes)])
    issue = events(outcome)[0]
    assert [q["status"] for q in issue["quotes"]] == [
        "unverified_too_short",
        "fabricated",
        "fabricated",
        "unverified_too_short",
    ]
    assert issue["components"]["quotes"] == pytest.approx(-2.5)
    assert outcome.result["critical_failure"] is True
    assert outcome.result["breakdown"]["fabricated_quotes"] == [
        "lease §1",
        "free text that is not anywhere in the lease",
    ]


def test_non_iterable_fields_are_scored_as_absent_with_a_warning() -> None:
    episode = Episode(matter())
    episode.step(read("lease"))
    action = issue_action()
    action.update(citations=None, quotes=7)
    record = episode.step(action)
    assert record.events[0]["type"] == "unsupported_issue"
    assert any("'citations'" in w for w in record.warnings)
    record = episode.step(issue_action(quotes=7))
    assert record.events[0]["type"] == "issue" and record.events[0]["components"]["quotes"] == 0.0
    assert any("'quotes'" in w for w in record.warnings)


@pytest.mark.parametrize("quotes", [None, 0, False, 1.5])
def test_falsy_malformed_quotes_warn_as_any_malformed_value(quotes: object) -> None:
    """Only absent or empty quotes skip quote scoring: a null, zero or false value still warns."""
    episode = Episode(matter())
    episode.step(read("lease"))
    record = episode.step(issue_action(quotes=quotes))
    assert record.events[0]["type"] == "issue" and record.events[0]["components"]["quotes"] == 0.0
    assert record.warnings == (f"field 'quotes' is malformed ({type(quotes).__name__}); scored as absent",)


@pytest.mark.parametrize("quotes", [[], "", {}, ()])
def test_empty_quotes_score_nothing_and_warn_nothing(quotes: object) -> None:
    episode = Episode(matter())
    episode.step(read("lease"))
    record = episode.step(issue_action(quotes=quotes))
    assert record.events[0]["components"]["quotes"] == 0.0 and "quotes" not in record.events[0]
    assert record.warnings == ()


def test_string_citations_are_iterated_character_by_character() -> None:
    outcome = replay(matter(), [read("lease"), issue_action(citations="ab")])
    assert outcome.result["breakdown"]["invalid_citations"] == ["a", "b"]


def test_issue_gates_plain_and_guarded_last_one_wins() -> None:
    outcome = replay(
        matter(),
        [
            read("lease"),
            issue_action(analysis="Repair clauses are void. Under this lease the lessee pays nothing for defects."),
        ],
    )
    issue = events(outcome)[0]
    assert issue["critical_failure_pattern"] == "lessee pays nothing"
    guarded = replay(matter(), [read("lease"), issue_action(analysis="It is not true that the lessee pays nothing.")])
    assert "critical_failure_pattern" not in events(guarded)[0]


@pytest.mark.parametrize("missing", ISSUE_FIELDS)
def test_missing_field_is_an_environment_penalty(missing: str) -> None:
    # Each field of ISSUE_FIELDS, which submit_issue checks written out one by one.
    action = issue_action()
    del action[missing]
    outcome = replay(matter(), [read("lease"), action])
    assert outcome.steps[1].reward == -0.25 and events(outcome) == []
    assert outcome.steps[1].penalty_reason == "submit_issue is missing a required field"


@pytest.mark.parametrize("missing", REDLINE_FIELDS)
def test_a_redline_missing_a_field_is_an_environment_penalty(missing: str) -> None:
    action = redline("repairs")
    del action[missing]
    outcome = replay(matter(), [read("lease"), issue_action("repairs"), action])
    assert outcome.steps[2].reward == -0.25 and len(events(outcome)) == 1
    assert outcome.steps[2].penalty_reason == "propose_redline is missing a required field"


def redline(
    label: str, document: str = "lease", section: str = "2.1", text: str = "The lessor pays for defects."
) -> dict:
    return {
        "type": "propose_redline",
        "issue_id": label,
        "document_id": document,
        "section": section,
        "replacement_text": text,
        "rationale": "policy",
    }


def test_redlines_by_label_by_target_duplicate_unscored_and_unsupported() -> None:
    outcome = replay(
        matter(),
        [
            read("lease"),
            issue_action("mine"),
            redline("mine", section="3"),  # label wins over target
            redline("other"),  # target anchor → same issue → duplicate
            redline("rent-label", section="1"),  # target anchor rent: no redline points → unscored
            redline("nothing", section="3"),  # no label, no anchor
            redline("x", section="99"),  # target missing: env −0.75
        ],
    )
    kinds = [(e["type"], e["criterion"], e["points"]) for e in events(outcome)[1:]]
    assert kinds == [
        ("redline", "repairs", 1.0),
        ("duplicate_redline", "repairs", -0.2),
        ("unscored_redline", "rent", 0.0),
        ("unsupported_redline", "nothing", -0.5),
    ]
    assert outcome.steps[-1].reward == -0.75


def test_reversed_redline_trips_the_gate() -> None:
    outcome = replay(matter(), [redline("r", text="Orchard Farms bears the cost of all defects.")])
    event = events(outcome)[0]
    assert event["critical_failure_pattern"].startswith("orchard farms")
    assert event["points"] == 0.5  # "defects" only
    assert outcome.result["critical_failure"] is True


def test_revision_rescores_everything_and_clears_the_critical_flag() -> None:
    quote = {"citation": "lease §2.1", "text": "words that were never in the lease"}
    episode = Episode(matter())
    episode.step(read("lease"))
    first = episode.step(issue_action("mine", quotes=[quote]))
    assert episode.state.critical_failure is True
    revised = episode.step({**issue_action("mine"), "type": "revise_issue"})
    assert episode.state.critical_failure is False
    assert revised.reward == pytest.approx(2.0 - first.events[0]["points"])
    assert [e["type"] for e in episode.state.events] == ["issue"]
    assert episode.step({**issue_action("unknown"), "type": "revise_issue"}).reward == -0.25


def test_revise_redline_targets_label_document_and_section() -> None:
    episode = Episode(matter())
    episode.step(redline("r", text="nothing useful"))
    record = episode.step({**redline("r"), "type": "revise_redline"})
    assert record.reward == pytest.approx(1.0)
    assert episode.step({**redline("r", section="1"), "type": "revise_redline"}).reward == -0.25


def test_citation_lists_of_equal_non_text_values_resolve_each_on_its_own() -> None:
    # 1 == True == 1.0, but the engine cites str() of each: "1", "True", "1.0". Lists are
    # remembered per matter only when all their items are text.
    outcome = replay(
        matter(),
        [
            read("lease"),
            issue_action("a", citations=[1]),
            issue_action("b", citations=[True]),
            issue_action("c", citations=[1.0]),
            issue_action("d", citations=["lease §9"]),
            issue_action("e", citations=["lease §9"]),
        ],
    )
    assert outcome.result["breakdown"]["invalid_citations"] == ["1", "True", "1.0", "lease §9", "lease §9"]


def test_fixed_work_product_points_are_their_own_rounding() -> None:
    """Unsupported, unread and duplicate events are recorded without `round(points, 4)`
    (StepContext.record_as_rounded): that holds only while their points round to themselves."""
    from rubric_tools.scoring.work_product import INVALID_CITATION_PENALTY

    for invalid in range(200):
        points = -0.5 - INVALID_CITATION_PENALTY * invalid
        assert repr(round(points, 4)) == repr(points), invalid
    for points in (-0.2, -0.5, 0.0, -0.0):
        assert repr(round(points, 4)) == repr(points)


def test_equal_citation_lists_keep_each_submissions_own_label() -> None:
    # An issue's target (label and what its citations resolve to) is remembered per matter:
    # the same citations under another label must still report that label.
    outcome = replay(
        matter(),
        [
            issue_action("first", citations=["policy §1", "lease §9"]),
            issue_action("second", citations=["policy §1", "lease §9"]),
            issue_action("first", citations=["policy §1", "lease §9"]),
        ],
    )
    assert [e["criterion"] for e in events(outcome)] == ["first", "second", "first"]
    assert outcome.result["breakdown"]["unsupported_issues"] == ["first", "second", "first"]
    assert outcome.result["breakdown"]["invalid_citations"] == ["lease §9"] * 3


def test_redline_issue_table_agrees_with_redline_issue() -> None:
    import datetime

    from rubric_tools.scoring.model import Issue, Rubric

    dated = Issue(id="2024-01-01", anchor="lease §3", native_id=datetime.date(2024, 1, 1))
    rubric = Rubric(issues=(*matter().rubric.issues, dated, Issue(id="7", anchor="lease §1", native_id=7)))
    criteria: list[object] = [issue.criterion for issue in rubric.issues] + [issue.id for issue in rubric.issues]
    for criterion in [*criteria, None, 7, True, 1.0, float("nan"), "missing"]:
        assert rubric.redline_issues.get(criterion) is rubric.redline_issue(criterion), criterion  # type: ignore[arg-type]


def test_redline_targets_cite_the_documents_as_the_matter_names_them() -> None:
    import dataclasses

    from rubric_tools.scoring.text import format_citation

    base = matter()
    # A document known under another name than its own id: a redline cites the name it used.
    renamed = dataclasses.replace(base, documents={"contract": base.documents["lease"]})
    for case in (base, renamed):
        assert case.redline_targets == {
            name: {token: format_citation(name, token) for token in document.sections}
            for name, document in case.documents.items()
        }
    outcome = replay(renamed, [redline("r", document="contract", section="2.1")])
    assert events(outcome)[0]["type"] == "unsupported_redline"  # "contract §2.1" is no anchor
    assert replay(renamed, [redline("r", section="2.1")]).steps[0].reward == -0.75  # no "lease" any more
    # A revision finds its target the same way: a missing one is the environment penalty.
    revisions = replay(
        renamed,
        [
            redline("r", document="contract", section="2.1"),
            {**redline("r", document="contract", section="2.1"), "type": "revise_redline"},
            {**redline("r", document="contract", section="99"), "type": "revise_redline"},
            {**redline("r", section="2.1"), "type": "revise_redline"},
        ],
    )
    assert [step.reward for step in revisions.steps[2:]] == [-0.75, -0.75]
    assert revisions.steps[1].penalty_reason is None


def test_the_anchor_table_holds_what_anchors_holds_the_first_issue_winning_a_shared_anchor() -> None:
    from rubric_tools.scoring.model import Issue, Rubric

    repairs, rent = matter().rubric.issues
    rubric = Rubric(issues=(repairs, rent, Issue(id="again", anchor=repairs.anchor)))
    assert rubric.anchor_table == dict(rubric.anchors) and type(rubric.anchor_table) is dict
    assert rubric.anchor_table[repairs.anchor] is repairs and rubric.anchor_table.get("lease §9") is None
