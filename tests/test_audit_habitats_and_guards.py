"""Issue 22, items 2 and 4: verification never loses a catch, and guards scoped by meaning.

Each habitat and each false-positive frame is tested with a gate that has the defect and
one that does not.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from rubric_tools.audit.exclusion_writing import LIST_COMMA
from rubric_tools.audit.guard_windows import (
    _EARLIER_ENGINE_STOPS,
    _EARLIER_LEAD_INS,
    _ENGINE_STOPS,
    has_lead_in,
    windows_without_negators,
    with_lead_in,
    without_lead_in,
    without_window_stops,
)
from rubric_tools.audit.habitats import habitat_texts, recital_section
from rubric_tools.audit.proposals import propose_entry
from rubric_tools.audit.scoped_guards import budget_length, exclusion_for, is_written_part, scopes_for, written_length
from rubric_tools.audit.slack import SLACK
from rubric_tools.audit.texts import entry_texts, gate_list_texts
from rubric_tools.audit.thesaurus import Thesaurus
from rubric_tools.audit.verification import EntryTexts, out_of_bounds, over_budget, verify
from rubric_tools.config.audit import AuditSection
from rubric_tools.loading.matter import load_matter_source
from rubric_tools.scoring.dialect import check_cost, parse
from rubric_tools.scoring.gates import Gate
from rubric_tools.scoring.text import normalize
from tests.audit_support import GUARDED_GATES, audit, codes, make_matter

SIN = "customer may use provider data"


def _fires(gate: Gate, text: str) -> bool:
    return gate.fires(normalize(text))


def _scoped(pattern: str, surface: str) -> Gate:
    """The gate guarded against every kind of marker of its surface, strictly scoped."""
    exclusion = exclusion_for(pattern, scopes_for(surface))
    assert exclusion is not None
    return Gate(pattern, exclude_context=exclusion)


# ------------------------------------------------------------------ habitats (must fire)

HABITAT_KINDS = [
    "replacement recital",
    "amendment recital",
    "insertion recital",
    "limiting idiom before",
    "deadline idiom before",
    "negation in another clause",
    "negation before a contrasting clause",
    "negation in a concessive clause before",
    "citation before",
    "proviso after",
]


@pytest.mark.parametrize("kind", HABITAT_KINDS)
def test_each_habitat_is_caught_by_a_scoped_gate_and_lost_by_a_careless_guard(kind: str) -> None:
    [text] = [t for k, t in habitat_texts(SIN, "redline") if k == kind]
    assert _fires(Gate(SIN), text) and _fires(_scoped(SIN, "redline"), text)
    careless = [
        Gate(SIN, negation_guard=True),
        Gate(SIN, exclude_context=r"\b(?:deleted|struck|replaced|amended|insert|provided|subject)\b"),
    ]
    assert any(not _fires(gate, text) for gate in careless), text


def test_a_recital_cites_the_clause_under_review(tmp_path: Path) -> None:
    """The recitals that put the sin in cite the section of the issue's anchor ("hosting
    §3.1": the clause the sin replaces), not a section the matter may not have; a citation
    that names no section number leaves them at Section 9.2."""
    gates = "    redline_critical_failure_patterns:\n      - 'provider may suspend the service'\n"
    source = load_matter_source(make_matter(tmp_path / "m", gates))
    texts = gate_list_texts(source, "uptime_credit", "redline")
    recitals = [t.text for t in texts.must_fire if t.kind.startswith("habitat:") and "recital" in t.kind]
    assert recitals and all("Section 3.1" in text for text in recitals), recitals
    assert any(text.startswith("Section 3.1 is deleted and replaced with: ") for text in recitals), recitals
    assert recital_section("7.3(b)") == "7.3(b)"
    assert recital_section("Schedule B") == recital_section(None) == "9.2"
    [recital] = [t for k, t in habitat_texts(SIN, "redline", section="4.2") if k == "insertion recital"]
    assert recital == "Insert the following at the end of Section 4.2: customer may use provider data."


@pytest.mark.parametrize(
    ("witness", "kind"),
    [
        ("five percent", "limit idiom: shall not exceed"),
        ("five percent", "limit idiom: not more than"),
        ("48 hours after the incident", "limit idiom: no more than"),
        ("after provider confirms", "limit idiom: in no event later than"),
    ],
)
def test_limit_idioms_negate_nothing(witness: str, kind: str) -> None:
    [text] = [t for k, t in habitat_texts(witness, "settlement") if k == kind]
    pattern = witness.replace(" ", r"\s+")
    assert _fires(_scoped(pattern, "settlement"), text), text
    assert not _fires(Gate(pattern, negation_guard=True), text), text


def test_more_limit_idioms_negate_nothing_and_a_negated_figure_is_denied() -> None:
    scoped = _scoped("five percent", "settlement")
    for text in (
        "The increase shall not be in excess of five percent.",
        "At no time later than the renewal date shall the increase exceed five percent.",
    ):
        assert _fires(scoped, text), text
    assert not _fires(scoped, "The increase is not five percent.")
    deadline = _scoped(r"\b72 hours after", "settlement")
    assert _fires(deadline, "At no time later than 72 hours after discovery shall Provider fail to notify.")


def test_a_deadline_after_the_sin_is_a_habitat_a_loose_negator_after_the_key_loses() -> None:
    witness = "the tenant may sublet the premises"
    for surface in ("issue", "redline", "settlement"):
        [text] = [t for k, t in habitat_texts(witness, surface) if k == "deadline idiom after"]
        assert text == "The tenant may sublet the premises no later than thirty (30) days after the Effective Date."
    pattern = r"tenant may sublet"
    careless = Gate(pattern, exclude_context=r"tenant(?:[^.;,]){0,80}?\b(?:not?|never)\b")
    assert not _fires(careless, text) and _fires(_scoped(pattern, "issue"), text)
    # Not after a figure or a time that already limits the sin.
    assert not [k for k, _t in habitat_texts("within five days", "issue") if k == "deadline idiom after"]
    assert not [k for k, _t in habitat_texts("after the tenant confirms", "issue") if k == "deadline idiom after"]
    # Nor after a state, which a deadline does not time: only an act a party shall or may do.
    for state in (
        "the deposit is capped at one month's rent",
        "the landlord shall be responsible for repairs",
        "the landlord shall not be responsible for repairs",
    ):
        assert not [k for k, _t in habitat_texts(state, "redline") if k == "deadline idiom after"], state
        # Nor before it: "No later than thirty (30) days after …, the deposit is capped …".
        assert not [k for k, _t in habitat_texts(state, "redline") if k == "deadline idiom before"], state
    assert [k for k, _t in habitat_texts(witness, "redline") if k == "deadline idiom before"]


def test_a_negator_after_a_state_that_negates_nothing_is_a_habitat_a_loose_negator_after_the_key_loses() -> None:
    """A state as well as an act is said without condition by a negator after it ("the
    landlord owns the fixtures with no limitation"): a guard reading any "no"
    after the key in the clause would silence the sin, and verification refuses it."""
    for witness in ("the landlord owns the fixtures", "the tenant may sublet the premises"):
        for surface in ("issue", "redline", "settlement"):
            [text] = [t for k, t in habitat_texts(witness, surface) if k == "negator after that negates nothing"]
            assert text.endswith(" with no limitation.") and text.startswith(witness.capitalize())
    text = "The landlord owns the fixtures with no limitation."
    careless = Gate("landlord owns", exclude_context=r"landlord(?:[^.;,]){0,80}?\b(?:not?|never)\b")
    assert not _fires(careless, text) and _fires(_scoped("landlord owns", "redline"), text)
    # Not after a clause whose completion already holds a negator: it would say it twice.
    negated_already = habitat_texts("the landlord owns", "redline", after=" the fixtures without charge")
    assert not [k for k, _t in negated_already if "nothing" in k]


def test_a_limit_idiom_after_a_noun_phrase_is_a_habitat_a_loose_negator_after_the_key_loses() -> None:
    """Drafting caps an obligation with a limit idiom after it: its "not" limits the noun
    phrase and denies nothing, so a guard reading any "not" after the key loses the sin."""
    witness = "tenant's repair obligations"
    [text] = [t for k, t in habitat_texts(witness, "redline", noun_phrase=witness) if k == "limit idiom after"]
    assert text == "Tenant's repair obligations shall not exceed the amount stated in Section 9.2."
    careless = Gate(witness, exclude_context=r"tenant(?:[^.;,]){0,80}?\b(?:not?|never)\b")
    assert not _fires(careless, text) and _fires(_scoped(witness, "redline"), text)
    # Generated for a noun phrase the audit carries as what a clause provides for, with its "the".
    fire, _silent = entry_texts(Gate("security deposit"), 0, "redline", Thesaurus())
    assert "The security deposit shall not exceed the amount stated in Section 9.2." in {t.text for t in fire}
    # Not for a clause, nor a figure (which has its own idiom), nor a phrase ending in a verb.
    assert not [k for k, _t in habitat_texts("the tenant may sublet", "redline") if k == "limit idiom after"]
    for phrase in ("five percent", "two times the rent", "the right to sublet"):
        found = [k for k, _t in habitat_texts(phrase, "redline", noun_phrase=phrase) if k == "limit idiom after"]
        assert not found, phrase


def test_the_limit_idiom_names_what_its_figure_measures() -> None:
    def limited(witness: str) -> str:
        [text] = [t for k, t in habitat_texts(witness, "redline") if k == "limit idiom: shall not exceed"]
        return text

    assert limited("90 days") == "The period shall not exceed 90 days."
    assert limited("five percent") == "The rate shall not exceed five percent."
    assert limited("two times the fees") == "The amount shall not exceed two times the fees."


def test_a_negation_of_the_sins_last_noun_after_it_is_a_habitat() -> None:
    """The sin, then a clause negating its last noun: a guard keyed to that noun would reach
    past the sin into the next clause and silence it."""
    [text] = [t for k, t in habitat_texts(SIN, "redline") if k == "noun negated in a clause after"]
    assert text == "Customer may use provider data, and no further data will be required."
    assert _fires(Gate(SIN), text)
    assert not _fires(Gate(SIN, exclude_context=r"\bno\b[^.;,:]{0,80}?\bdata"), text)
    assert _fires(Gate(SIN, exclude_context=r"\bno\b[^.;,:]{0,80}?\bmay use"), text)
    # A last word read as a verb has no such clause.
    assert not [k for k, _t in habitat_texts("provider may terminate", "redline") if k.startswith("noun")]
    # Nor one joined to a verb ("repair and paint": not "no further paint").
    assert not [k for k, _t in habitat_texts("tenant may repair and paint", "redline") if k.startswith("noun")]
    assert [k for k, _t in habitat_texts("tenant may keep fixtures and fittings", "redline") if k.startswith("noun")]
    # Nor a name: "…indemnify Falcon, and no further Falcon will be required" is no clause.
    assert not [k for k, _t in habitat_texts("tenant shall indemnify Falcon", "redline") if k.startswith("noun")]
    # Nor the unit of a figure: "the term is 9 months, and no further months will be required" says nothing.
    for figure in ("the term is 9 months", "the increase is five percent", "the deposit is $1.5 million"):
        assert not [k for k, _t in habitat_texts(figure, "redline") if k.startswith("noun")], figure


def test_a_negated_relative_clause_on_the_sins_last_noun_is_a_habitat() -> None:
    """A relative clause on the sin's last noun negates what the noun names, not the sin ("the
    landlord may keep any deposit that the tenant has not already claimed"): a guard reading a
    "not" after the noun would silence a real sin."""
    [text] = [t for k, t in habitat_texts(SIN, "issue") if k == "negated relative clause after"]
    assert text == "Customer may use provider data that Schedule A does not already cover."
    assert _fires(Gate(SIN), text)
    assert not _fires(Gate(SIN, exclude_context=r"\bdata[^.;]{0,40}?\bnot\b"), text)
    # Not where the clause goes on after the witness, nor after a last word read as a verb.
    assert not [k for k, _t in habitat_texts(SIN, "issue", after=" for billing") if k.startswith("negated relative")]
    assert not [k for k, _t in habitat_texts("provider may terminate", "issue") if k.startswith("negated relative")]


def _entry_texts(gate: Gate, protected: list[str], false_positives: list[str]) -> EntryTexts:
    return EntryTexts((gate,), 0, "redline", protected, [], false_positives, [])


def test_a_guard_silencing_a_replacement_recital_sin_is_refused() -> None:
    recital = f"Section 4.2 is deleted and replaced with: {SIN} to train its models."
    strike = f'The words "{SIN}" are deleted.'
    bare = Gate(SIN, exclude_context=r"\b(?:deleted|struck|replaced)\b")
    outcome = verify(_entry_texts(Gate(SIN), [recital], [strike]), bare)
    assert outcome.lost == (recital,) and not outcome.safe
    scoped = verify(_entry_texts(Gate(SIN), [recital], [strike]), _scoped(SIN, "redline"))
    assert scoped.safe and scoped.silenced == (strike,)


def test_a_guard_silencing_a_shall_not_exceed_sin_is_refused() -> None:
    sin = "the increase shall not exceed five percent per year."
    framed = "it is not the case that five percent applies."
    refused = verify(_entry_texts(Gate("five percent"), [sin], [framed]), Gate("five percent", negation_guard=True))
    assert refused.lost == (sin,)
    proposal = propose_entry(_entry_texts(Gate("five percent"), [sin], [framed]))
    assert proposal is not None and proposal.verified
    assert proposal.after.negation_guard is False and proposal.after.exclude_context
    assert any(t.startswith("negation_guard: loses a catch") for t in proposal.tried)


def test_a_negator_reaches_across_a_lists_commas_but_not_out_of_an_opening_clause() -> None:
    """The comma that closes "Although …" ends the negator's clause; the commas of a list
    ("copy, store or use") do not."""
    concessive = "Although Section 9.3 does not apply, the customer may use provider data."
    listed = "Under Section 9.2 the customer may not copy, store or use provider data."
    texts = _entry_texts(Gate("use provider data"), [concessive], [listed])
    assert not verify(texts, Gate("use provider data", negation_guard=True)).safe
    proposal = propose_entry(texts)
    assert proposal is not None and proposal.verified, proposal
    assert _fires(proposal.after, concessive) and not _fires(proposal.after, listed)
    assert not _fires(proposal.after, "The customer may not copy, store, or use provider data.")
    # A later round of --fix knows a part whose gap takes only a list's commas as its own:
    # it counts against the total budget over every round.
    assert LIST_COMMA in (proposal.after.exclude_context or "")
    listed_only = rf"\bnot?\b(?:[^.;,]|{LIST_COMMA}){{0,80}}?\bdata"
    assert is_written_part(listed_only) and written_length(listed_only) == budget_length(listed_only)


def test_the_audit_refuses_a_bare_negation_guard_and_proposes_the_scoped_one(tmp_path: Path) -> None:
    gates = "    redline_critical_failure_patterns:\n      - 'customer may use provider data'\n"
    [finding] = codes(audit(make_matter(tmp_path / "m", gates), AuditSection(max_evidence=100)), "U003")
    proposal = finding.extra["proposal"]
    assert proposal["verified"] and proposal["steps"][0].startswith("guard scoped by meaning")  # type: ignore[index]
    assert any("negation_guard: loses a catch" in r for r in proposal["refused"])  # type: ignore[index]


# ------------------------------------------------------------------ correct work (must not fire)

FALSE_POSITIVES = {
    "negator beyond the engine's list": "Nobody has agreed that customer may use provider data.",
    "rejection verb": "The client declines to accept that customer may use provider data.",
    "rejected proposal": "We reject the proposal that customer may use provider data.",
    "attribution": "The vendor's draft says that customer may use provider data.",
    "attribution then rejection": "Their markup proposes that customer may use provider data; we reject that.",
    "reported claim": "Their negotiator told us that customer may use provider data.",
    "wrong to say": "It is wrong to say that customer may use provider data.",
    "hypothetical": "If we accepted that customer may use provider data, the client would carry the risk.",
    "later rejection": "Customer may use provider data, which the client cannot accept.",
    "anaphoric denial": "One might think customer may use provider data; it does not.",
    # A later clause rejecting it, whoever rejects and however they point back.
    "later clause rejecting it": "One might think customer may use provider data; the client opposes this position.",
    "later clause denying acceptance": "The vendor wants customer may use provider data; we cannot possibly accept it.",
    "later clause refusing": "Under their markup customer may use provider data; the client will not agree to this.",
    "later verdict": "Under their markup customer may use provider data; this remains a non-starter.",
    "restriction": "Customer may use provider data only to report defects.",
    "contrast": "The client keeps its rights in lieu of a clause by which customer may use provider data.",
    "strike": 'The words "customer may use provider data" are deleted.',
    "strike then insert": 'Delete "customer may use provider data" and insert "customer may not use provider data".',
    "struck and replaced": 'In Section 4.2 "customer may use provider data" is replaced with the agreed wording.',
    "negated predicate": "Customer may use provider data does not appear in the final draft.",
    "stated position": "The vendor's position is that customer may use provider data.",
    "supposition": "Hypothetically customer may use provider data under their reading of Section 4.",
    "counterfactual": "If the vendor demanded that customer may use provider data, the client would walk away.",
}


@pytest.mark.parametrize(("kind", "text"), sorted(FALSE_POSITIVES.items()))
def test_each_false_positive_frame_fires_a_bare_gate_and_not_a_scoped_one(kind: str, text: str) -> None:
    assert _fires(Gate(SIN), text), kind
    assert not _fires(_scoped(SIN, "issue"), text), kind


def test_a_negator_in_another_clause_or_inside_the_sin_does_not_silence_it() -> None:
    scoped = _scoped(SIN, "issue")
    for text in (
        "Provider shall not share data, but customer may use provider data.",
        "No fee applies; customer may use provider data.",
        "Nothing in Section 9 changes this, provided that customer may use provider data.",
        "Under the Agreement, customer may use provider data.",
        "The customer's team confirmed that customer may use provider data.",
        # "And" opening a clause of its own: its negator denies something else.
        "Customer may use provider data and a court would not stop it.",
        "Customer may use provider data for training and must not be asked to stop.",
        # A later clause that rejects something else does not point back at the sin.
        "Customer may use provider data; the client rejected an earlier version of Section 9.",
    ):
        assert _fires(scoped, text), text
    limit = _scoped("notify (?:no|not) later than 72 hours", "settlement")
    assert _fires(limit, "provider shall notify no later than 72 hours after discovery")


def test_a_negator_after_the_key_crosses_and_only_in_a_compound_subject() -> None:
    scoped = _scoped("landlord", "redline")
    assert not _fires(scoped, "Landlord and its agents shall not enter the premises.")
    assert not _fires(scoped, "Landlord shall not enter the premises.")
    assert _fires(scoped, "Landlord may enter the premises and Tenant shall not object.")
    assert _fires(scoped, "Landlord may enter at will and a court would not stop it.")


def test_windows_no_negator_crosses() -> None:
    pattern = r"client materials[^.]{0,60}owned by consultant"
    tempered = windows_without_negators(pattern)
    assert tempered is not None
    assert _fires(Gate(pattern), "client materials are not owned by consultant")
    assert not _fires(Gate(tempered), "client materials are not owned by consultant")
    assert _fires(Gate(tempered), "client materials are from now on owned by consultant")
    # A limit idiom inside the window is not a negator.
    deadline = windows_without_negators(r"notify[^.]{0,60}72 hours")
    assert deadline is not None and _fires(Gate(deadline), "notify customer no later than 72 hours")
    assert windows_without_negators("customer may use provider data") is None


def test_the_exclusion_holds_the_key_words_not_the_pattern_and_stays_within_lint_bounds() -> None:
    from rubric_tools.audit.guard_keys import keys
    from rubric_tools.audit.guard_windows import bounded

    assert keys(SIN)[0] == SIN and "provider data" in keys(SIN)
    assert keys(r"\b4\.2 (?:is|would be) (?:void|invalid)\b")[0] == r"4\.2 (?:is|would be) (?:void|invalid)"
    exclusion = exclusion_for(r"\b(?:provider|vendor)\b[^.]{0,40}\bmay train\b", scopes_for("issue"))
    assert exclusion is not None and "[^.]{0,40}" not in exclusion and bounded(exclusion) is None
    kept = exclusion_for(SIN, scopes_for("redline"), existing=r"\bfor the avoidance of doubt\b")
    assert kept is not None and kept.startswith(r"\bfor the avoidance of doubt\b|")
    assert not _fires(Gate(SIN, exclude_context=kept), "for the avoidance of doubt, customer may use provider data")


# ------------------------------------------------------------------ the texts of a gate list


def test_gate_list_texts_and_the_robustness_figure(tmp_path: Path) -> None:
    from rubric_tools.audit.texts import gate_list_texts, robustness
    from rubric_tools.checking.audit_inputs import audit_inputs
    from rubric_tools.loading.matter import load_matter_source

    gates = "    redline_critical_failure_patterns:\n      - 'customer may use provider data'\n"
    root = make_matter(tmp_path / "m", gates)
    source = load_matter_source(root)
    texts = gate_list_texts(source, "uptime_credit", "redline", audit_inputs(root))
    kinds = {t.kind.split(":")[0] for t in texts.must_fire} | {t.kind.split(":")[0] for t in texts.must_not_fire}
    assert {"witness", "habitat", "rewrite", "frame"} <= kinds
    assert all(t.expect_fire for t in texts.must_fire) and not any(t.expect_fire for t in texts.must_not_fire)
    assert all(t.generated and t.entry == 0 for t in texts.must_fire if t.kind != "probe")
    bare = robustness((Gate(SIN),), texts)
    scoped = robustness((_scoped(SIN, "redline"),), texts)
    assert bare.share_silent < scoped.share_silent == 1.0
    assert scoped.caught == bare.caught and 0 < bare.share_caught <= 1  # scoped by meaning: no catch lost


def test_each_top_level_alternative_has_a_framed_witness() -> None:
    """A gate of two alternatives is two sins: the witnesses framed, placed in habitats and
    rewritten include one of each (the first three of the pattern's own order would all be
    the first alternative's figure written three ways)."""
    from rubric_tools.audit.texts import entry_texts, framed
    from rubric_tools.audit.thesaurus import Thesaurus
    from rubric_tools.gate_analysis.gate_firing import fire_texts

    gate = Gate(r"\b(?:twelve|12) weeks|\b(?:informal|exploratory) talks")
    chosen = [t.text for t in framed(fire_texts(gate), gate.pattern)]
    assert len(chosen) == 3 and any("weeks" in t for t in chosen) and any("talks" in t for t in chosen)
    assert [t.text for t in framed(fire_texts(Gate(SIN)), SIN)] == [t.text for t in framed(fire_texts(Gate(SIN)))]
    silent = entry_texts(gate, 0, "redline", Thesaurus())[1]
    assert any("talks" in t.text and t.kind.startswith("frame") for t in silent)


# ------------------------------------------------------------------ a lead-in the guard does not read

LEASE_SIN = "tenant may sublet the premises"
LEAD_INS = {
    "deadline idiom": "No later than ten days after notice, Tenant may sublet the premises.",
    "limiting idiom": "Without limiting clause 4, Tenant may sublet the premises.",
    "contrasting clause": "Clause 9 does not apply to parking, but Tenant may sublet the premises.",
    "another clause": "No other term changes; Tenant may sublet the premises.",
    "clause before a colon": "No other term changes: Tenant may sublet the premises.",
    "coordinated clause": "Clause 9 does not apply to parking, and Tenant may sublet the premises.",
    "clause of reason": "Consent is not needed, because Tenant may sublet the premises.",
    "proviso": "Tenant shall not assign the lease, provided that Tenant may sublet the premises.",
    "concessive clause": "Although clause 9 does not apply, Tenant may sublet the premises.",
}
GOVERNING_NEGATIONS = (
    "It is not the case that Tenant may sublet the premises.",
    "Landlord does not agree that Tenant may sublet the premises.",
    "No later than ten days after notice, it is not true that Tenant may sublet the premises.",
    "Never has the lease said that Tenant may sublet the premises.",
)


def _led(pattern: str) -> Gate:
    """The gate `pattern` led in, its guard scoped `before` the match, as the fix writes it."""
    return Gate(with_lead_in(pattern), negation_guard=True, negation_scope="before")


@pytest.mark.parametrize(("kind", "text"), sorted(LEAD_INS.items()))
def test_a_lead_in_takes_in_a_negator_that_governs_another_clause(kind: str, text: str) -> None:
    guarded = Gate(LEASE_SIN, negation_guard=True)
    led = _led(LEASE_SIN)
    assert not _fires(guarded, text) and not _fires(replace(guarded, negation_scope="before"), text), kind
    assert _fires(led, text), kind
    for negated in GOVERNING_NEGATIONS:  # a negator of the sin's own clause still silences it
        assert not _fires(led, negated), negated
    assert out_of_bounds(led) is None and has_lead_in(led.pattern)


@pytest.mark.parametrize(
    "negated",
    [
        "Landlord does not agree, on any reading, that Tenant may sublet the premises.",
        "No consent is given, Tenant may sublet the premises.",
        "Nothing in clause 9, as amended, means that Tenant may sublet the premises.",
    ],
)
def test_a_negator_before_a_comma_alone_still_governs_the_clause(negated: str) -> None:
    # A comma sets off an aside inside the clause as often as it ends one: only a comma with
    # a conjunction after it, or a concessive clause before it, ends the negator's clause.
    assert not _fires(_led(LEASE_SIN), negated)


def test_a_gate_led_in_with_several_windows_stays_within_the_scorers_compile_bound() -> None:
    # Each window's negator stop is tried at every character of it: written out, a stop with
    # a bounded gap of its own multiplied the two lengths, and a pattern with a window or two
    # led in went over the size the scorer compiles (`scoring.dialect.MAX_EXPANDED_SIZE`).
    pattern = r"tenant\b[^.;]{0,80}?\bmay\b[^.;]{0,80}?\bsublet\b[^.;]{0,80}?\bpremises"
    led = _led(pattern)
    check_cost(parse(led.pattern))  # raises when refused
    assert out_of_bounds(led) is None
    assert _fires(led, "No other term changes: Tenant may from now on sublet the whole of the premises.")


def test_a_lead_in_an_earlier_version_wrote_is_still_read_as_one() -> None:
    for earlier in _EARLIER_LEAD_INS:
        pattern = f"{earlier}(?:{LEASE_SIN})"
        assert has_lead_in(pattern) and without_lead_in(pattern) == LEASE_SIN
    # Its windows' stops are read as the windows they were, as today's are.
    windowed = r"tenant\b[^.;]{0,30}?\bsublet"
    stopped_now = windows_without_negators(windowed, _ENGINE_STOPS)
    assert stopped_now is not None
    stopped_then = stopped_now.replace(_ENGINE_STOPS, _EARLIER_ENGINE_STOPS[0])
    assert stopped_then != stopped_now
    assert (
        without_window_stops(stopped_then) == without_window_stops(stopped_now) == r"tenant\b(?:[^.;]){0,30}?\bsublet"
    )


def test_a_lead_in_takes_in_a_limit_idiom_after_the_subject() -> None:
    led = _led("sublet the premises")
    assert _fires(led, "Tenant may, no later than ten days after notice, sublet the premises.")
    assert _fires(led, "Rent is due monthly; Tenant may, without limiting clause 4, sublet the premises.")
    assert not _fires(led, "Tenant will never, without limiting clause 4, sublet the premises.")
    assert not _fires(led, "Tenant does not, no later than ten days after notice, sublet the premises.")


def test_a_lead_in_takes_in_the_words_of_the_sins_own_clause_ahead_of_the_gates() -> None:
    # The gate's words open no clause: the subject and the modal stand between the
    # negator of another clause and the match, and hold no negator of their own.
    led = _led("sublet the premises")
    for text in (
        "No other term changes; Tenant may at any time sublet the premises.",
        "Without limiting clause 4, Tenant may at any time sublet the premises.",
        "Clause 9 does not apply to parking, but Tenant may freely sublet the premises.",
        # a full stop before a digit ends no sentence, nor any part of the lead-in
        "Without limiting Section 9.2, Tenant may at any time sublet the premises.",
        "Rent under Section 4.1 is not reduced; Tenant may under Section 7.3 sublet the premises.",
    ):
        assert not _fires(Gate("sublet the premises", negation_guard=True), text)
        assert _fires(led, text), text
    for negated in (
        "No other term changes; Tenant may not sublet the premises.",
        "Without limiting clause 4, Tenant cannot sublet the premises.",
        "Clause 9 applies, but Tenant may never, without consent, sublet the premises.",
        "It is not the case that Tenant may sublet the premises.",
    ):
        assert not _fires(led, negated), negated


def test_a_lead_in_is_within_budget_whatever_its_windows_negator_stops_spell() -> None:
    # The stop that keeps negators out of each window is one fixed construct, as the lead-in
    # is: a reviewer reads the window, and the budget counts what a reviewer reads.
    pattern = r"tenant\b[^.;]{0,30}?\bmay\b[^.;]{0,30}?\bsublet\b[^.;]{0,30}?\bpremises"
    led = _led(pattern)
    assert len(led.pattern) > 3 * len(pattern)
    assert over_budget(Gate(pattern, negation_guard=True), led) is None


def test_a_windowed_gate_led_in_keeps_every_engine_negator_out_of_its_windows() -> None:
    pattern = r"tenant\b[^.;]{0,30}?\bsublet"
    led = _led(pattern)
    assert _fires(led, "No other term changes; Tenant may from now on sublet the premises.")
    for negated in ("may not ever", "cannot", "has nothing to", "without consent may", "won't"):
        text = f"No other term changes; Tenant {negated} sublet the premises."
        assert not _fires(Gate(pattern, negation_guard=True), text)  # the scope `span` sees it
        assert not _fires(led, text), negated


def test_a_widened_gate_led_in_keeps_negators_out_of_its_slack_as_out_of_its_windows() -> None:
    # The widening writes slack while the guard reads the whole match (`span`); once the
    # lead-in scopes the guard `before` the match, a negator in the slack is not seen.
    pattern = rf"tenant (?:may|shall){SLACK}sublet the premises"
    led = _led(pattern)
    assert _fires(led, "Tenant may, under Section 6.2, sublet the premises.")
    assert _fires(led, "No other term changes; Tenant may also sublet the premises.")
    for negated in ("may not", "shall never", "shall, as agreed, not", "may not, under Section 6.2,"):
        text = f"Tenant {negated} sublet the premises."
        assert not _fires(Gate(pattern, negation_guard=True), text)  # the scope `span` sees it
        assert not _fires(led, text), negated
    # A limit idiom is no negator here either: the slack keeps it as the windows do.
    limit = _led(rf"increase (?:shall|will){SLACK}exceed five percent")
    assert _fires(limit, "Each annual increase shall, under Section 6.2, not exceed five percent.")


def test_the_proposal_takes_a_lead_in_only_when_the_guard_drops_a_sin_ahead_of_the_match() -> None:
    guarded = Gate(LEASE_SIN, negation_guard=True)
    correct = list(GOVERNING_NEGATIONS)
    missed = [LEAD_INS["contrasting clause"], LEAD_INS["another clause"]]
    proposal = propose_entry(EntryTexts((guarded,), 0, "redline", [], correct, [], missed))
    assert proposal is not None and proposal.verified
    assert has_lead_in(proposal.after.pattern) and proposal.after.negation_scope == "before"
    assert proposal.after.negation_guard
    assert set(proposal.outcome.caught) == set(missed)
    # In a later round the lead-in stays as it is, in front of what else changes.
    sublease = ["Tenant may sublease the premises."]
    again = propose_entry(EntryTexts((proposal.after,), 0, "redline", missed, correct, [], sublease))
    assert again is not None and has_lead_in(again.after.pattern) and again.after.negation_scope == "before"
    # A sin the guard drops for a negator inside its own words is no reason for a lead-in:
    # the scope `before` is what saves it.
    windowed = Gate(r"tenant may\b[^.]{0,40}\bsublet", negation_guard=True)
    own = ["Tenant may, with no further consent, sublet the premises."]
    inside = propose_entry(EntryTexts((windowed,), 0, "redline", [], correct, [], own))
    assert inside is not None and inside.outcome.caught == tuple(own)
    assert inside.after.negation_scope == "before" and not has_lead_in(inside.after.pattern)


def test_a_proposal_too_costly_to_search_is_out_of_bounds() -> None:
    # A guarded gate whose pattern matches ordinary prose at nearly every character runs its
    # guards on every match: lint refuses it (G017), so no proposal may write it.
    assert "G017" in (out_of_bounds(Gate(r"\w+", negation_guard=True)) or "")
    assert out_of_bounds(Gate(r"\w+")) is None  # a plain gate is one search
    assert out_of_bounds(_led(LEASE_SIN)) is None


def test_a_proposal_is_measured_on_the_matters_prose_as_lint_measures_it() -> None:
    """Lint measures G017 on the matter's documents: a guarded gate cheap on neutral prose
    but dense in the matter's own words is refused as lint would refuse it after the fix."""
    from rubric_tools.gate_analysis.search_cost import prose_sample

    dense = Gate(r"\blessee\b", negation_guard=True)
    assert out_of_bounds(dense) is None
    assert "G017" in (out_of_bounds(dense, prose_sample(["The lessee and the lessee's lessee pay. " * 200])) or "")


def test_the_audit_verifies_proposals_on_the_matters_prose(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from rubric_tools.audit import proposals
    from rubric_tools.gate_analysis.search_cost import matter_prose
    from rubric_tools.loading.matter import load_matter_source

    root = make_matter(tmp_path / "weak", GUARDED_GATES)
    seen: list[str] = []
    original = proposals.propose_entry
    monkeypatch.setattr(proposals, "propose_entry", lambda texts: seen.append(texts.prose) or original(texts))
    audit(root)
    assert seen and set(seen) == {matter_prose(load_matter_source(root).model)}


def test_the_limit_idiom_lookahead_costs_nothing_against_the_budget() -> None:
    """A guard that keeps "no later than" from counting as a negator costs no more than one
    that does not: the stricter guard, which loses no deadline, is not refused for its size."""
    from rubric_tools.audit.markers import LIMIT_IDIOM
    from rubric_tools.audit.scoped_guards import EXCLUSION_BUDGET, budget_length
    from rubric_tools.audit.verification import over_budget

    strict = rf"\bnot?\b{LIMIT_IDIOM}[^.;,]{{0,80}}?\btenant may sublet"
    loose = r"\bnot?\b[^.;,]{0,80}?\btenant may sublet"
    assert budget_length(strict) == len(loose)
    guard = "|".join([strict, strict.replace("sublet", "assign"), strict.replace("sublet", "let")])
    assert len(guard) > EXCLUSION_BUDGET >= budget_length(guard)
    gate = Gate("tenant may (?:sublet|assign|let)")
    assert over_budget(gate, replace(gate, exclude_context=guard)) is None
    assert _fires(
        replace(gate, exclude_context=guard), "The tenant may sublet no later than thirty (30) days after notice."
    )
    # The lookahead alone, as earlier versions wrote it, costs nothing either.
    from rubric_tools.audit.markers import NOT_A_LIMIT

    assert budget_length(rf"\bnot?\b{NOT_A_LIMIT}[^.;,]{{0,80}}?\btenant may sublet") == len(loose)


def test_a_refusal_shows_a_sentence_when_one_is_lost() -> None:
    from rubric_tools.audit.verification import Outcome, why

    lost = ("tenant may sublet", "Without limiting Section 9.2, the tenant may sublet the premises.")
    assert why(Outcome(lost, (), (), ())) == f"loses a catch: {lost[1]!r}"
    assert why(Outcome(lost[:1], (), (), ())) == f"loses a catch: {lost[0]!r}"


def test_an_and_after_a_key_that_ends_the_sin_opens_another_conjunct() -> None:
    # "the premises" closes the sin: "… the premises and Tenant shall not object" is a
    # clause of its own, whose negator does not deny the sin (no compound subject there).
    scoped = _scoped("(?:landlord|owner) (?:may|can) (?:enter|inspect) the premises", "redline")
    assert _fires(scoped, "Landlord may enter the premises and Tenant shall not object.")
    assert not _fires(scoped, "Landlord may enter the premises not at all.")  # its own clause's negator


def test_an_inverted_limit_idiom_is_a_habitat_and_negates_nothing() -> None:
    """ "In no event shall the period be less than ten days" states the figure, its negator
    words away from it: a habitat a scoped gate still fires on and a bare guard loses; "in no
    event shall the tenant sublet" stays a denial."""
    texts = dict(habitat_texts("ten business days", "settlement"))
    floor = texts["limit idiom inverted: in no event shall be less than"]
    ceiling = texts["limit idiom inverted: in no event shall exceed"]
    assert floor == "In no event shall the period be less than ten business days."
    assert ceiling == "In no event shall the period exceed ten business days."
    pattern = r"\bten business days"
    for text in (floor, ceiling, "In no event will the notice period be shorter than ten business days."):
        assert _fires(_scoped(pattern, "settlement"), text), text
        assert not _fires(Gate(pattern, negation_guard=True), text), text
    assert not _fires(_scoped(r"tenant (?:may|shall) sublet", "issue"), "In no event shall the tenant sublet.")


def test_a_negator_denying_an_act_until_a_period_has_run_does_not_deny_the_period() -> None:
    """ "No party may terminate until ten business days after the notice" denies the act, not
    the period it waits: a habitat of a duration, and a clause barrier ("until") that the
    strictest exclusion does not cross."""
    [text] = [t for k, t in habitat_texts("ten business days", "settlement") if k == "limit idiom: not until"]
    assert text == "No party may terminate until ten business days after the notice."
    assert not [k for k, _t in habitat_texts("five percent", "settlement") if k == "limit idiom: not until"]
    pattern = r"\b(?:ten|10) business days"
    negated = "The cure period is not ten business days."
    assert not verify(_entry_texts(Gate(pattern), [text], [negated]), Gate(pattern, negation_guard=True)).safe
    proposal = propose_entry(_entry_texts(Gate(pattern), [text], [negated]))
    assert proposal is not None and proposal.verified, proposal
    assert _fires(proposal.after, text) and not _fires(proposal.after, negated)
    assert _fires(proposal.after, "The tenant may not sublet until ten business days after the notice.")
