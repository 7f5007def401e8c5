"""The gate verdicts of `rubric audit`, each on a fixture with the defect and one without."""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest

from rubric_tools.audit.slack import NEGATOR_FREE_SLACK, SLACK
from rubric_tools.config.audit import AuditSection
from rubric_tools.gate_analysis import gate_firing
from rubric_tools.gate_analysis.gate_firing import never_fires_reason
from rubric_tools.gate_analysis.witness import witnesses
from rubric_tools.scoring.gates import Gate
from rubric_tools.scoring.text import normalize
from tests.audit_support import GUARDED_GATES, audit, codes, make_matter

# ------------------------------------------------------------------ witnesses


def test_witnesses_cover_every_alternative_and_match_the_pattern() -> None:
    pattern = r"law (?:prohibits|bars|forbids) (?:all )?model training"
    texts = [w.text for w in witnesses(pattern)]
    assert texts[0] == "law prohibits model training"
    assert {"law bars model training", "law forbids model training"} <= set(texts)
    assert any("all model training" in t for t in texts)


def test_the_typical_witness_writes_an_optional_article_or_preposition() -> None:
    """ "vests (?:in )?tenant": the author marks "in" optional so that its omission still
    fires; the plainest statement of the sin writes it ("title vests in tenant"). The short
    witness leaves it out, and an optional content word stays out of the typical one."""
    texts = [w.text for w in witnesses(r"title vests (?:in )?(?:the )?tenant")]
    assert texts[0] == "title vests in the tenant" and "title vests tenant" in texts
    assert witnesses(r"tenant (consents|agrees)( to)? the sublease")[0].text == "tenant consents to the sublease"
    assert witnesses(r"rent of\s+(?:all\s+)?units")[0].text == "rent of units"


def test_every_witness_writes_a_possessives_optional_apostrophe() -> None:
    """ "landlord'?s deposit": without its apostrophe the possessive reads as a plural
    ("landlords deposit"), which no drafter writes; an optional letter is still the short
    witness's to leave out ("months?" -> "month")."""
    for pattern in (r"tenant pays landlord'?s deposit", r"tenant pays landlord['’]?s deposit"):
        assert {w.text for w in witnesses(pattern)} == {"tenant pays landlord's deposit"}
    assert {w.text for w in witnesses(r"rent of (?:two )?months?")} >= {"rent of months", "rent of month"}


def test_a_figure_is_written_against_its_percent_sign() -> None:
    """`5\\s*%` reads "5%", as drafters write it; a pattern that needs the space keeps it."""
    assert witnesses(r"rent rises (?:by )?5\s*(?:%|percent)")[0].text == "rent rises by 5%"
    assert witnesses(r"rent rises by 5 %")[0].text == "rent rises by 5 %"


def test_a_window_is_filled_with_words_and_bounded() -> None:
    texts = [w.text for w in witnesses(r"license[^.]{0,30}irrevocable")]
    assert all(len(t) <= len("license") + 30 + len("irrevocable") for t in texts)
    assert "license irrevocable" in texts and any(len(t) > 40 for t in texts)


@pytest.mark.parametrize("slack", [SLACK, NEGATOR_FREE_SLACK])
def test_the_slack_the_audit_writes_is_filled_with_prose(slack: str) -> None:
    """A window of a group of classes, tempered or not, ends between words: a letter there
    would fail the `\\b` after it, and the gate `rubric audit --fix` wrote would be
    reported as never firing (U001) by the next lint."""
    pattern = rf"provider (?:may|is entitled to){slack}terminate"
    texts = [w.text for w in witnesses(pattern)]
    assert "provider may terminate" in texts
    assert all(re.search(pattern, text) for text in texts)


# ------------------------------------------------------------------ U001 never fires


@pytest.mark.parametrize(
    ("gate", "reason"),
    [
        (Gate("fees of $5 million"), "unescaped `$`"),
        (Gate("^void$"), "exactly the match"),
        (Gate("\buncapped\b"), "control character U+0008"),
        (Gate("no cap on liability", negation_guard=True), "contains a negator"),
        (Gate("liability", exclude_context="liab"), "`exclude_context` matches every match"),
    ],
)
def test_gates_that_can_never_fire(gate: Gate, reason: str) -> None:
    found = never_fires_reason(gate)
    assert found is not None and reason in found[0]


@pytest.mark.parametrize(
    "gate",
    [
        Gate(r"fees of \$5 million"),
        Gate(r"\bvoid\b"),
        Gate("uncapped liability", negation_guard=True),
        Gate("liability", exclude_context="indemnity"),
        Gate("liability", require_context=r"\bunlimited\b"),
    ],
)
def test_gates_that_can_fire(gate: Gate) -> None:
    assert never_fires_reason(gate) is None


def test_never_fires_is_reported_at_the_gate_entry(tmp_path: Path) -> None:
    root = make_matter(tmp_path / "m", "    critical_failure_patterns:\n      - 'fees of $5 million'\n")
    [finding] = codes(audit(root), "U001")
    assert (finding.file.name, finding.line, finding.column) == ("rubric.yaml", 17, 9)
    assert finding.severity.value == "error"


# ------------------------------------------------------------------ U002 correct work

DEFECTIVE = "    critical_failure_patterns:\n      - 'uptime commitments are unenforceable'\n"
NEGATED_GUIDE = "Never agree that uptime commitments are unenforceable; the credit is the remedy."


def test_gate_firing_on_the_playbook_position_is_an_error_with_a_verified_guard(tmp_path: Path) -> None:
    root = make_matter(
        tmp_path / "m",
        "    critical_failure_patterns:\n      - 'uptime commitments are unenforceable'\n",
        guide=NEGATED_GUIDE,
    )
    [finding] = codes(audit(root), "U002")
    assert finding.severity.value == "error"
    evidence = finding.extra["evidence"][0]  # type: ignore[index]
    assert evidence["source"] == "guide §2" and evidence["kind"] == "document"
    assert "Never agree that uptime commitments are unenforceable" in evidence["sentence"]  # as written
    proposal = finding.extra["proposal"]
    # The engine's guard would also silence "Without limiting Section 9.2, <the sin>": the
    # guard is a compact exclusion scoped to the gate's key words by the negator it saw.
    assert set(proposal["change"]) >= {"exclude_context"} and proposal["verified"] is True  # type: ignore[index]
    assert proposal["steps"][0].startswith("guard scoped by meaning (negated")  # type: ignore[index]
    # Not the engine's guard, which would drop the sin after a limiting idiom.
    assert "negation_guard" not in proposal["change"]  # type: ignore[operator]
    guarded = Gate("uptime commitments are unenforceable", exclude_context=proposal["change"]["exclude_context"])  # type: ignore[index]
    assert guarded.fires("without limiting section 9.2, uptime commitments are unenforceable.")
    from rubric_tools.audit.scoped_guards import EXCLUSION_BUDGET, budget_length

    exclusion = proposal["change"]["exclude_context"]  # type: ignore[index]
    # Keyed to a word of the gate, of the subject or the predicate the negator governs.
    assert "never" in exclusion and any(word in exclusion for word in ("unenforceable", "uptime", "commitments"))
    assert budget_length(exclusion) <= EXCLUSION_BUDGET  # the limit-idiom lookahead not counted


def test_guarded_gate_stays_silent_on_the_playbook_position(tmp_path: Path) -> None:
    gates = (
        "    critical_failure_patterns:\n      - pattern: 'uptime commitments are unenforceable'\n"
        "        negation_guard: true\n"
    )
    root = make_matter(tmp_path / "m", gates, guide=NEGATED_GUIDE)
    assert codes(audit(root), "U002") == []


def test_hidden_answers_and_reference_trajectories_are_correct_work(tmp_path: Path) -> None:
    trajectory = (
        '{"type": "submit_issue", "issue_id": "a", "title": "Credit", "severity": "medium", '
        '"citations": ["hosting §3.1"], "analysis": "Backups must stay in the same region.", '
        '"recommendation": "Ask for a credit."}\n'
    )
    root = make_matter(
        tmp_path / "m",
        "    critical_failure_patterns:\n      - 'same region'\n",
        files={"trajectories/good.jsonl": trajectory},
    )
    [finding] = codes(audit(root), "U002")
    kinds = {e["kind"] for e in finding.extra["evidence"]}  # type: ignore[attr-defined]
    assert kinds == {"hidden-answer", "reference-trajectory"}


def test_a_guard_that_would_lose_must_fire_text_is_not_verified(tmp_path: Path) -> None:
    # "Never mind the draft" carries a negator in the sin's sentence: every guard drops it.
    probes = (
        "probes:\n  - surface: issue\n    criterion: uptime_credit\n"
        '    text: "Never mind the draft: uptime commitments are unenforceable."\n    expect_fire: true\n'
    )
    root = make_matter(
        tmp_path / "m",
        "    critical_failure_patterns:\n      - 'uptime commitments are unenforceable'\n",
        guide=NEGATED_GUIDE,
        files={"probes.yaml": probes},
    )
    [finding] = codes(audit(root), "U002")
    proposal = finding.extra["proposal"]
    assert proposal["verified"] is False  # type: ignore[index]
    probe = "Never mind the draft: uptime commitments are unenforceable."
    assert any(probe in reason for reason in proposal["refused"])  # type: ignore[index]
    # What is proposed either loses the probe, says so and is never applied, or is a safe
    # guard that fixes none of this finding's texts (every guard that would loses the probe).
    if proposal["safe"]:  # type: ignore[index]
        assert proposal["fixed"] == 0 and proposal["lost_must_fire"] == []  # type: ignore[index]
    else:
        assert probe in proposal["lost_must_fire"]  # type: ignore[index]
        assert finding.fix is None  # an unsafe proposal is shown, never applied


def test_a_trajectory_expected_to_trip_the_gate_is_must_fire_text(tmp_path: Path) -> None:
    submission = (
        '{"type": "submit_issue", "issue_id": "a", "title": "Credit", "severity": "medium", '
        '"citations": ["hosting §3.1"], "analysis": "Never mind the draft: uptime commitments are unenforceable.", '
        '"recommendation": "Walk away."}\n'
    )
    root = make_matter(
        tmp_path / "m", DEFECTIVE, guide=NEGATED_GUIDE, files={"trajectories/bad_critical_overclaim.jsonl": submission}
    )
    [finding] = codes(audit(root), "U002")
    proposal = finding.extra["proposal"]
    assert proposal["verified"] is False  # type: ignore[index]
    assert any("Credit Never mind the draft" in reason for reason in proposal["refused"])  # type: ignore[index]


def test_a_titles_words_do_not_run_on_into_the_analysis(tmp_path: Path) -> None:
    """The scorer reads an issue's title, analysis and recommendation joined by spaces; a
    clause is completed from each apart: a title with no full stop is a sentence of its own."""
    submission = (
        '{"type": "submit_issue", "issue_id": "a", "title": "Uptime commitments are unenforceable", '
        '"severity": "high", "citations": ["hosting §3.1"], '
        '"analysis": "Engineering found the hosting logs incomplete.", "recommendation": "Walk away."}\n'
    )
    root = make_matter(
        tmp_path / "m",
        "    critical_failure_patterns:\n      - 'uptime commitments are unenforceable'\n",
        files={"trajectories/bad_critical_overclaim.jsonl": submission},
    )
    every = AuditSection(max_evidence=1000)
    sentences = [e["sentence"] for d in codes(audit(root, every), "U003") for e in d.extra["evidence"]]  # type: ignore[attr-defined]
    assert "it is not the case that uptime commitments are unenforceable." in [s.lower() for s in sentences]
    assert not any("Engineering" in sentence for sentence in sentences)


# ------------------------------------------------------------------ U003 frames


def test_unguarded_gate_fires_on_negated_frames(tmp_path: Path) -> None:
    root = make_matter(
        tmp_path / "m", "    critical_failure_patterns:\n      - 'uptime commitments are unenforceable'\n"
    )
    [finding] = codes(audit(root), "U003")
    assert finding.severity.value == "warning"
    kinds = {e["kind"] for e in finding.extra["evidence"]}  # type: ignore[attr-defined]
    assert "state-then-negate" in kinds and "deletion recital" not in kinds  # recitals are redline work


def test_a_gate_of_a_graded_adjective_is_framed_as_a_clause_and_a_guard_proposed(tmp_path: Path) -> None:
    """A graded adjective ("manifestly void") is what a clause is ("the clause is manifestly
    void"), so the frames negate it, the unguarded gate is seen to fire on them, and a guard
    is proposed, where no evidence was built for it and no guard proposed when it was read
    as a thing a clause provides for ("the manifestly void applies")."""
    root = make_matter(tmp_path / "m", "    critical_failure_patterns:\n      - 'manifestly (?:void|unenforceable)'\n")
    [finding] = codes(audit(root, AuditSection(max_evidence=100)), "U003")
    sentences = [e["sentence"].lower() for e in finding.extra["evidence"]]  # type: ignore[attr-defined]
    assert "it is not the case that the clause is manifestly void." in sentences
    proposal = finding.extra["proposal"]
    assert proposal["safe"] is True and "exclude_context" in proposal["change"]  # type: ignore[index]
    after = Gate(**proposal["after"])  # type: ignore[index]
    assert not after.fires(normalize("The lease is not manifestly unenforceable."))
    assert not after.fires(normalize("Nobody says the sublease is manifestly void."))
    assert after.fires(normalize("The sublease is manifestly unenforceable."))


def test_a_sin_of_a_participle_negated_by_its_own_not_is_framed_and_guarded(tmp_path: Path) -> None:
    """A participle negated by the sin's own "not" ("not required by law to insure") is a
    predicate ("the other party is not required by law to insure"), not a thing ("the not
    required … applies", which no frame could disown): the frames disown it, and the
    proposed guard keeps the sin's own "not"."""
    gates = "    critical_failure_patterns:\n      - 'not required by law to (?:insure|repair)'\n"
    [finding] = codes(audit(make_matter(tmp_path / "m", gates), AuditSection(max_evidence=100)), "U003")
    sentences = [e["sentence"].lower() for e in finding.extra["evidence"]]  # type: ignore[attr-defined]
    assert "we do not accept that the other party is not required by law to insure." in sentences
    proposal = finding.extra["proposal"]
    assert proposal["safe"] is True  # type: ignore[index]
    after = Gate(**proposal["after"])  # type: ignore[index]
    assert after.fires(normalize("The tenant is not required by law to insure the premises."))
    assert not after.fires(normalize("We do not accept that the tenant is not required by law to insure."))


def test_redline_gate_fires_on_a_deletion_recital_and_an_exclude_context_is_verified(tmp_path: Path) -> None:
    gates = (
        "    redline_critical_failure_patterns:\n      - pattern: 'no credit is owed'\n"
        "        negation_guard: true\n        negation_scope: before\n"
    )
    root = make_matter(tmp_path / "m", gates)
    [finding] = codes(audit(root, AuditSection(max_evidence=100)), "U003")
    kinds = {e["kind"] for e in finding.extra["evidence"]}  # type: ignore[attr-defined]
    assert {"deletion recital", "replacement recital", "deletion and insertion"} <= kinds
    proposal = finding.extra["proposal"]
    assert "exclude_context" in proposal["change"] and proposal["verified"] is True  # type: ignore[index]


def test_guarded_gates_are_silent_on_frames(tmp_path: Path) -> None:
    from rubric_tools.audit.scoped_guards import exclusion_for, scopes_for

    exclusion = exclusion_for("uptime commitments are unenforceable", scopes_for("issue"))
    gates = (
        "    critical_failure_patterns:\n      - pattern: 'uptime commitments are unenforceable'\n"
        f"        exclude_context: '{exclusion.replace(chr(39), chr(39) * 2)}'\n"
    )
    root = make_matter(tmp_path / "m", gates)
    assert codes(audit(root), "U003") == []


def test_a_bare_negation_guard_still_fires_on_frames_beyond_the_engine_negators(tmp_path: Path) -> None:
    gates = (
        "    critical_failure_patterns:\n      - pattern: 'uptime commitments are unenforceable'\n"
        "        negation_guard: true\n"
    )
    [finding] = codes(audit(make_matter(tmp_path / "m", gates), AuditSection(max_evidence=100)), "U003")
    kinds = {e["kind"] for e in finding.extra["evidence"]}  # type: ignore[attr-defined]
    assert {"negator outside the engine's list", "hypothetical", "attribution to the counterparty"} <= kinds
    assert "state-then-negate" not in kinds


# ------------------------------------------------------------------ U004 dodges


def test_synonym_dodge_with_a_verified_widened_pattern(tmp_path: Path) -> None:
    root = make_matter(tmp_path / "m", GUARDED_GATES)
    [finding] = codes(audit(root), "U004")
    sentences = {e["sentence"] for e in finding.extra["evidence"]}  # type: ignore[attr-defined]
    assert "uptime commitments are void" in sentences or finding.extra["evidence_total"] > 3  # type: ignore[operator]
    proposal = finding.extra["proposal"]
    # Whole or one phrase at a time, within the size budget; and without the members that
    # hold a negator ("not enforceable"), which this gate's guard would drop (dead text).
    assert proposal["safe"] is True  # type: ignore[index]
    assert any(step.startswith("words") for step in proposal["steps"])  # type: ignore[index]
    widened = Gate(proposal["change"]["pattern"])  # type: ignore[index]
    assert "not enforceable" not in widened.pattern and "of no effect" not in widened.pattern
    from rubric_tools.audit.guard_windows import without_lead_in, without_window_stops
    from rubric_tools.audit.verification import pattern_budget

    # The lead-in and its negator stops, fixed constructs, are not counted (`verification.over_budget`).
    assert len(without_window_stops(without_lead_in(widened.pattern))) <= pattern_budget(
        "uptime commitments are unenforceable"
    )
    assert proposal["fixed"] > 0  # type: ignore[index]


def test_typographic_apostrophe_and_dotted_window_dodges(tmp_path: Path) -> None:
    gates = (
        '    critical_failure_patterns:\n      - pattern: "host\'s credit[^.]{0,40}waived"\n'
        "        negation_guard: true\n"
    )
    root = make_matter(tmp_path / "m", gates)
    [finding] = codes(audit(root, AuditSection(max_evidence=100)), "U004")
    kinds = {e["kind"] for e in finding.extra["evidence"]}  # type: ignore[attr-defined]
    assert {"typographic apostrophe", "dotted section reference in a bounded window"} <= kinds


def test_the_widened_pattern_catches_the_rewrites_it_was_dodged_by(tmp_path: Path) -> None:
    root = make_matter(tmp_path / "m", GUARDED_GATES)
    [finding] = codes(audit(root, AuditSection(max_evidence=100)), "U004")
    proposal = finding.extra["proposal"]
    after = proposal["after"]  # type: ignore[index]
    widened = Gate(
        after["pattern"],
        negation_guard=after.get("negation_guard", False),
        negation_scope=after.get("negation_scope", "span"),
        exclude_context=after.get("exclude_context"),
    )
    caught = [e["sentence"] for e in finding.extra["evidence"] if widened.fires(e["sentence"].lower())]  # type: ignore[attr-defined]
    assert proposal["fixed"] == len(caught) > 0  # type: ignore[index]


def test_the_thesaurus_is_extended_from_the_settings(tmp_path: Path) -> None:
    gates = "    critical_failure_patterns:\n      - pattern: 'uptime commitments are unenforceable'\n"
    root = make_matter(tmp_path / "m", gates)
    settings = AuditSection(synonym_groups=(("uptime commitments", "availability promises"),))
    [finding] = codes(audit(root, settings), "U004")
    sentences = {e["sentence"] for e in finding.extra["evidence"]}  # type: ignore[attr-defined]
    from rubric_tools.audit.thesaurus import build
    from rubric_tools.audit.widening import word_pieces

    pieces = word_pieces("uptime commitments are unenforceable", build(settings.synonym_groups))
    assert any(Gate(piece).fires("availability promises are unenforceable") for piece in pieces)
    one_way = AuditSection(thesaurus={"uptime": ("availability",)})
    [finding] = codes(audit(root, one_way), "U004")
    assert (
        any(
            e["sentence"].startswith("availability commitments")
            for e in finding.extra["evidence"]  # type: ignore[attr-defined]
        )
        or sentences
    )


def test_the_words_step_one_phrase_at_a_time_tries_the_phrase_that_catches_a_missed_sin_first() -> None:
    from rubric_tools.audit.thesaurus import build
    from rubric_tools.audit.widening import word_pieces
    from rubric_tools.audit.widening_proposal import _by_gain

    pattern = "the statute prohibits subletting"
    pieces = word_pieces(pattern, build())
    # "statute" takes its noun group ("law", "legislation", ...): a piece that catches none
    # of the missed sins, tried after the verb's, which catches one.
    assert any("legislation" in piece for piece in pieces)
    ordered = _by_gain(pieces, pattern, ["The statute forbids subletting."])
    assert Gate(ordered[0]).fires("the statute forbids subletting"), ordered[0]
    assert not Gate(ordered[-1]).fires("the statute forbids subletting")


def test_a_backtracking_gate_is_left_to_lint_and_the_audit_stays_fast(tmp_path: Path) -> None:
    gates = (
        "    critical_failure_patterns:\n      - '(\\w+\\s?)*unenforceable!'\n"
        "      - 'uptime commitments are unenforceable'\n"
    )
    long_guide = "Never agree that uptime commitments are unenforceable " + "and so on " * 40 + "today."
    root = make_matter(tmp_path / "m", gates, guide=long_guide)
    started = time.perf_counter()
    found = audit(root)
    assert time.perf_counter() - started < 5
    assert all(d.extra["subject"]["entry"] == 1 for d in found if "entry" in d.extra["subject"])  # type: ignore[index,operator]
    assert codes(found, "U004") == []  # the list as scored holds an entry the audit did not run


def test_accept_concepts_and_concept_combinations_are_correct_work(tmp_path: Path) -> None:
    counterparty = (
        "positions:\n  uptime_credit:\n    resist_rounds: 0\n    accept_concepts:\n"
        '      - ["ten percent credit"]\n    counters:\n      - message: Smaller.\n'
        "        text: Host will provide a five percent service credit.\n    reject_message: Final.\n"
    )
    gates = "    settlement_critical_failure_patterns:\n      - 'ten percent credit'\n      - 'service credit, 99'\n"
    concepts = (
        '    required_concepts: ["service credit", "99.9"]\n    redline_concepts: ["service credit"]\n'
        '    settlement_concepts: ["service credit", "99.9"]\n'
    )
    root = make_matter(tmp_path / "m", gates, concepts=concepts, files={"counterparty.yaml": counterparty})
    found = {d.extra["subject"]["entry"]: d for d in codes(audit(root), "U002")}  # type: ignore[index]
    assert found[0].extra["evidence"][0]["source"] == "uptime_credit accept_concepts variant 1"  # type: ignore[index]
    assert found[1].extra["evidence"][0]["source"] == "uptime_credit settlement_concepts"  # type: ignore[index]


def test_witness_generation_is_bounded_for_nested_repeats() -> None:
    started = time.perf_counter()
    assert witnesses("(?:(?:ab{1000}){1000}){1000}") == []
    assert witnesses("x{100000000}") == []
    assert time.perf_counter() - started < 2


def test_a_position_document_sentence_the_issue_does_not_cite_is_a_warning(tmp_path: Path) -> None:
    guide = "Pair the target with a credit.\n\n## 5 Positions\n\n" + NEGATED_GUIDE
    root = make_matter(tmp_path / "m", DEFECTIVE, guide=guide)
    [finding] = codes(audit(root), "U002")
    assert finding.severity.value == "warning" and "does not cite" in finding.message
    assert finding.extra["evidence"][0]["source"] == "guide §5"  # type: ignore[index]


def test_space_to_hyphen_dodge_with_a_verified_widening(tmp_path: Path) -> None:
    gates = "    redline_critical_failure_patterns:\n      - pattern: 'covers losses from the first dollar'\n"
    [finding] = codes(audit(make_matter(tmp_path / "m", gates), AuditSection(max_evidence=100)), "U004")
    kinds = {e["kind"] for e in finding.extra["evidence"]}  # type: ignore[attr-defined]
    assert "space to hyphen" in kinds
    proposal = finding.extra["proposal"]
    widened = Gate(proposal["change"]["pattern"])  # type: ignore[index]
    # The cheapest step first: the hyphen is not crowded out of the size budget by the thesaurus.
    assert widened.fires("covers losses from the first-dollar")
    assert proposal["safe"] is True  # type: ignore[index]


def test_a_proposal_lists_the_first_refusal_of_each_reason() -> None:
    """Many scoped exclusions are refused for the same text: the few refusals a finding shows
    each say something new (the engine's own guard is not hidden behind them)."""
    from rubric_tools.audit.findings import Proposal

    same = "loses a catch: 'No later than thirty days after the Effective Date, customer may use it.'"
    refused = tuple(f"guard scoped by meaning ({n}): {same}" for n in range(6)) + (
        "negation_guard: loses a catch: 'Without limiting Section 9.2, customer may use it.'",
    )
    shown = Proposal({}, "", False, False, refused=refused).to_json()["refused"]
    assert shown == [refused[0], refused[-1]]


def test_a_gate_list_fires_when_one_gate_does_and_runs_none_after_it(monkeypatch: pytest.MonkeyPatch) -> None:
    ran: list[str] = []
    run = gate_firing._fires_normalized

    def recorded(gate: Gate, text: str) -> bool:
        ran.append(gate.pattern)
        return run(gate, text)

    monkeypatch.setattr(gate_firing, "_fires_normalized", recorded)
    gates = [Gate("uncapped"), Gate("unlimited liability"), Gate("no cap")]
    assert gate_firing.list_fires(gates, "Liability is unlimited liability here.") is True
    assert ran == ["uncapped", "unlimited liability"]
    assert gate_firing.list_fires(gates, "Liability is capped.") is False
