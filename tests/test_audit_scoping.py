"""Guards scoped the way an auditor scopes them: a negator before the predicate governs the
clause, not only one before its subject; a negator inside a short window governs the match;
a restriction and an attribution are correct work; and widened word forms are written as a
word and its endings, so that a widening fits the size budget."""

from __future__ import annotations

import re

import pytest

from rubric_tools.audit.active_voice import widen_voice
from rubric_tools.audit.dodges import passive_voice
from rubric_tools.audit.frames import FRAMES, negated_join
from rubric_tools.audit.guard_key_choice import Keys, own_terms
from rubric_tools.audit.guard_windows import longest_window
from rubric_tools.audit.markers import DISOWNING_NEGATOR, TERMS
from rubric_tools.audit.negations import (
    SUBJECT_LIST,
    negated_clauses,
    negated_object,
    negated_predicate,
    negated_subject,
)
from rubric_tools.audit.pattern_spellings import flattened
from rubric_tools.audit.proposals import EntryProposal, propose_entry
from rubric_tools.audit.scoped_guards import exclusion_for, scoped_exclusions, scopes_for
from rubric_tools.audit.slack import widen_slack
from rubric_tools.audit.stems import completed_stems
from rubric_tools.audit.texts import entry_texts
from rubric_tools.audit.thesaurus import Thesaurus
from rubric_tools.audit.verification import EntryTexts
from rubric_tools.audit.widening import widen_words
from rubric_tools.scoring.gates import Gate, run_gates
from rubric_tools.scoring.text import normalize

STORE = r"provider may store customer data[^.]{0,60}(?:any|other) (?:location|region|country)"


def _fires(gate: Gate, text: str) -> bool:
    return bool(run_gates((gate,), normalize(text), 1.0).fired)


def test_a_negator_before_the_predicate_is_scoped_to_the_latest_key() -> None:
    evidence = ["It is not the case that Provider may store Customer Data in any region."]
    [first, *_rest] = scoped_exclusions(STORE, evidence, scopes_for("redline"))
    guarded = Gate(STORE, exclude_context=first.regex)
    assert not _fires(guarded, evidence[0])
    # The negator stands after the subject, before the object: it governs the clause.
    assert not _fires(guarded, "Provider may store Customer Data in the United States only, and in no other region.")
    # The sin still fires, and so does a negator in a clause of its own.
    assert _fires(guarded, "Provider may store Customer Data in any region it chooses.")
    assert _fires(guarded, "No notice is needed; Provider may store Customer Data in any region.")


def test_a_negator_is_scoped_to_the_whole_match_when_its_words_recur() -> None:
    """A short pattern is a key itself: a negator before the match governs it where it
    stands, not a later mention of its words ("no further inspection")."""
    pattern = r"after\s+(?:\w+\s+)?inspection\b"
    correct = "Tenant pays on signing. The deposit may not be returned until after the inspection of the premises."
    sins = [
        "Landlord shall return the deposit after the inspection, and no further inspection will be required.",
        "Section 4.1 does not apply to keys, but Landlord shall return the deposit after the inspection.",
    ]

    def works(exclusion: str) -> bool:
        guarded = Gate(pattern, exclude_context=exclusion)
        return not _fires(guarded, correct) and all(_fires(guarded, sin) for sin in sins)

    assert any(works(e.regex) for e in scoped_exclusions(pattern, [correct], scopes_for("redline")))


def test_markers_after_the_key_are_scoped_after_it() -> None:
    evidence = ["Provider may store Customer Data in any region it chooses, which the Customer cannot accept."]
    [first, *_rest] = scoped_exclusions(STORE, evidence, scopes_for("issue"))
    guarded = Gate(STORE, exclude_context=first.regex)
    assert not _fires(guarded, evidence[0])
    assert _fires(guarded, "Provider may store Customer Data in any region it chooses.")


def test_a_strike_recital_after_the_key_crosses_a_section_number() -> None:
    pattern = r"\bninety[ -]days?\b"
    evidence = ["The ninety-day notice period in Section 13.1 is replaced with a period of sixty days."]
    found = scoped_exclusions(pattern, evidence, scopes_for("redline"))
    assert found and all(not _fires(Gate(pattern, exclude_context=e.regex), evidence[0]) for e in found)
    # The sentence ends at a period that no figure follows: the next one's strike is not its.
    kept = "Customer shall give notice ninety days before renewal. Section 13.2 is deleted."
    assert all(_fires(Gate(pattern, exclude_context=e.regex), kept) for e in found)


def test_a_rejection_in_the_past_tense_after_the_key_is_scoped() -> None:
    pattern = r"\bfirst-dollar basket\b"
    refused = "Seller's request for a first-dollar basket was refused, and the point remains open."
    found = scoped_exclusions(pattern, [refused], scopes_for("issue"))
    assert found and not _fires(Gate(pattern, exclude_context=found[0].regex), refused)


def test_words_quoted_after_replacing_are_struck_and_words_after_replaced_with_are_not() -> None:
    pattern = r"\bnine months\b"
    struck = 'Delete "nine months" and insert "eighteen months".'
    [*found] = (
        Gate(pattern, exclude_context=e.regex) for e in scoped_exclusions(pattern, [struck], scopes_for("redline"))
    )
    assert found
    replacing = 'Section 10.4 is amended by replacing "nine months" with "eighteen months".'
    inserted = 'Section 10.4 is deleted and replaced with: "the period is nine months".'
    assert any(not _fires(gate, replacing) for gate in found)
    assert all(_fires(gate, inserted) for gate in found)


def _proposal(pattern: str, sin: str, correct_work: str) -> EntryProposal | None:
    """The proposal for a lone redline entry that catches `sin` and fires on `correct_work`."""
    return propose_entry(EntryTexts((Gate(pattern),), 0, "redline", [sin], [], [correct_work], []))


def test_a_short_window_keeps_negators_out_with_the_guard() -> None:
    pattern = r"(?:customer|licensee)[^.]{0,60}indemnif(?:y|ies) licensor"
    proposal = _proposal(
        pattern,
        "Licensee shall indemnify Licensor against every claim.",
        "It is not the case that licensee shall indemnify licensor.",
    )
    assert proposal is not None and proposal.verified
    # The engine's guard (which sees inside the match) or windows no negator crosses.
    assert {"windows no negator crosses", "negation_guard"} & set(proposal.steps)
    assert not _fires(proposal.after, "Licensee shall have no obligation to indemnify Licensor.")
    assert _fires(proposal.after, "Licensee shall indemnify Licensor against every claim.")


def test_a_long_window_is_not_tempered_without_evidence() -> None:
    pattern = r"target.*sole discretion"
    proposal = _proposal(
        pattern,
        "The Target may act in its sole discretion.",
        "It is not the case that the Target may act in its sole discretion.",
    )
    assert proposal is not None
    assert "windows no negator crosses" not in proposal.steps
    assert proposal.after.pattern == pattern


def test_longest_window() -> None:
    assert longest_window(r"a[^.]{0,60}b") == 60
    assert longest_window(r"a.*b") is None
    assert longest_window(r"ab") == 0


def test_a_restriction_frame_is_correct_work_in_a_contract_only() -> None:
    [restriction] = [f for f in FRAMES if f.kind == "restriction"]
    assert restriction.applies("customer may use provider data", "redline")
    assert not restriction.applies("customer may use provider data", "issue")
    assert not restriction.applies("customer may not use provider data", "settlement")  # already negative
    # A grant is confined "only to the extent …"; an obligation or a state is not.
    assert restriction.applies("landlord retains a perpetual and irrevocable right to enter", "redline")
    assert restriction.applies("tenant hereby assigns to landlord all fixtures", "redline")
    assert restriction.applies("tenant waives any claim for the same outage", "redline")
    for not_a_grant in (
        "tenant shall pay the rent monthly",
        "the deposit is uncapped",
        "landlord accepts all liability",
    ):
        assert not restriction.applies(not_a_grant, "redline"), not_a_grant


def test_a_sin_that_is_itself_negative_is_disowned_by_a_verb_of_saying_under_a_negator() -> None:
    """ "We do not accept that courts will not enforce the lease" disowns the sin, its own
    "not" included: a frame whose negator governs a verb of saying, agreeing or accepting
    wraps a negative sin too; one that negates the clause itself does not."""
    pattern = "courts (?:will|would) not enforce"
    disowning = {f.kind for f in FRAMES if f.applies("courts will not enforce the lease", "issue")}
    assert {"rejection", "negator outside the engine's list", "rejection verb", "hypothetical"} <= disowning
    assert not {"state-then-negate", "no law requires", "restriction"} & disowning
    _fire, silent = entry_texts(Gate(pattern), 0, "issue", Thesaurus())
    evidence = [t.text for t in silent if t.kind == "frame: rejection"]
    assert evidence == ["We do not accept that courts will not enforce this."]
    # A guard scoped from that evidence reads a negator before the sin, not the sin's own
    # (verification refuses any candidate that silences the sin).
    guarded = [
        Gate(pattern, exclude_context=e.regex) for e in scoped_exclusions(pattern, evidence, scopes_for("issue"))
    ]
    sin = "Courts will not enforce the lease, so the risk is theoretical."
    told = "Do not tell the tenant that courts will not enforce the lease."
    assert any(_fires(gate, sin) and not _fires(gate, told) for gate in guarded)


def test_a_stated_position_is_an_attribution() -> None:
    attributed = [t.regex for t in TERMS if t.kind == "attributed"]
    text = "the counterparty's position is that provider must store all data in the united states"
    assert any(re.search(term, text) for term in attributed)
    assert not any(re.search(term, "provider must store all data in the united states") for term in attributed)


def test_verbs_that_report_a_claim_are_one_attribution_term() -> None:
    """A claim reported by any verb of saying or supposing ("proposes that", "has told us
    that", "it might be assumed that") is one term: where the evidence shows one of them,
    the exclusion carries them all."""
    [reporting] = [t.regex for t in TERMS if t.kind == "attributed" and "said" in t.regex]
    for text in (
        "their markup proposes that the tenant may sublet",
        "the landlord's agent has told us that the tenant may sublet",
        "it might be assumed that the tenant may sublet",
    ):
        assert re.search(reporting, text), text
    assert not re.search(reporting, "the tenant may sublet, as the lease says")


@pytest.mark.parametrize(
    ("pattern", "written"),
    [
        (r"law prohibits model training", "prohibit(?:s|ed|ing)?"),
        # After its subject no "be" or "been": "customer been obliged to" is no English.
        (r"customer is obliged to pay", "(?:is|are|was|were) (?:obliged|obligated|required|bound|going) to"),
    ],
)
def test_widened_words_are_written_as_a_word_and_its_endings(pattern: str, written: str) -> None:
    widened = widen_words(pattern, Thesaurus()) or ""
    assert written in widened
    compiled = re.compile(widened)
    for form in ("law prohibited model training", "laws forbid model training", "law bars model training"):
        if "prohibit" in written:
            assert compiled.search(form), form
    assert not re.search(r"\b(?:prohibits|permits)\|(?:prohibited|permitted)\|", widened)


@pytest.mark.parametrize(
    ("clause", "negated"),
    [
        ("Provider shall own all rights in the data.", "Provider shall not own all rights in the data."),
        ("Provider owns the Employee Data.", "Provider does not own the Employee Data."),
        (
            "Provider has the right to re-identify the data.",
            "Provider does not have the right to re-identify the data.",
        ),
        ("Client Materials are owned by Consultant.", "Client Materials are not owned by Consultant."),
        ("Customer can use Provider Data.", "Customer cannot use Provider Data."),
        ("Provider has granted a license.", "Provider has not granted a license."),
        ("Provider may not use it.", None),  # already negative
        ("for the avoidance of doubt", None),  # no finite verb
        # A noun in -s before the modal is the subject's, not the predicate ("does not claim will").
        (
            "Liability for repair claims will exceed the deposit.",
            "Liability for repair claims will not exceed the deposit.",
        ),
        ("Liability for repair claims will not exceed the deposit.", None),  # a limit idiom
        # A subject opened by "either" or "any" takes the negation on its determiner.
        ("Either party gives notice of renewal.", "Neither party gives notice of renewal."),
        ("Any fines will be levied on the tenant.", "No fines will be levied on the tenant."),
    ],
)
def test_a_clause_negated_on_its_predicate(clause: str, negated: str | None) -> None:
    assert negated_predicate(clause) == negated


@pytest.mark.parametrize(
    ("clause", "sin", "negated"),
    [
        # The sin in a later clause with its own subject and verb: that clause is negated;
        # negating the condition ("does not fail") would leave the sin asserted.
        (
            "If Landlord fails to make the repair, Tenant will pay the cost.",
            "tenant will pay",
            "If Landlord fails to make the repair, Tenant will not pay the cost.",
        ),
        (
            "Tenant is responsible for its own fixtures, and Tenant is responsible for every roof repair.",
            "tenant is responsible for every",
            "Tenant is responsible for its own fixtures, and Tenant is not responsible for every roof repair.",
        ),
        # The sin's clause opens right after the comma, with the match.
        (
            "The roof is old, all of the tenant's fixtures must be removed.",
            "all of the tenant's fixtures must be removed",
            "The roof is old, all of the tenant's fixtures must not be removed.",
        ),
        # A comma before a phrase or before a verb whose subject came first opens no clause.
        ("Tenant shall, in each case, pay the cost.", "pay the cost", "Tenant shall not, in each case, pay the cost."),
        (
            "Tenant, at its option, may sublet the premises.",
            "may sublet",
            "Tenant, at its option, may not sublet the premises.",
        ),
        # Nor does a list of verbs.
        (
            "Landlord may enter, inspect, and repair the premises.",
            "repair the premises",
            "Landlord may not enter, inspect, and repair the premises.",
        ),
    ],
)
def test_the_predicate_negated_is_the_one_of_the_sins_own_clause(clause: str, sin: str, negated: str) -> None:
    found = re.search(sin, clause, re.IGNORECASE)
    assert found is not None
    assert negated_predicate(clause, found.span()) == negated


def test_no_predicate_is_negated_when_the_sins_clause_has_a_subject_and_no_verb_known() -> None:
    # "seeps" is no verb the grammar knows: the sin's clause cannot be negated, and negating
    # the first clause ("is not cracked") would leave the sin asserted.
    clause = "The roof membrane is cracked, rainwater seeps into every unit."
    found = re.search("seeps into every", clause, re.IGNORECASE)
    assert found is not None
    assert negated_predicate(clause) == "The roof membrane is not cracked, rainwater seeps into every unit."
    assert negated_predicate(clause, found.span()) is None


@pytest.mark.parametrize(
    "clause",
    [
        "Tenant shall repair the roof no later than 30 days after notice.",
        "Landlord will return the deposit in no event later than 60 days after the lease ends.",
        "The tenant's liability for repairs shall not exceed the deposit, and tenant shall pay it.",
        "Tenant may sublet any unit for a term that cannot exceed two years.",
    ],
)
def test_a_clause_that_states_a_limit_is_not_negated_again(clause: str) -> None:
    # "Tenant shall not repair the roof no later than 30 days …" is no sentence a lawyer writes.
    sin = re.search(r"repair the roof|return the deposit|tenant shall pay|may sublet", clause, re.IGNORECASE)
    assert sin is not None
    assert list(negated_clauses(clause, sin.span())) == []


def test_no_subject_list_is_made_of_the_subject_of_another_clause() -> None:
    clause = "Landlord has consented, and Tenant may sublet the premises."
    found = re.search("tenant may sublet", clause, re.IGNORECASE)
    assert found is not None
    assert negated_subject(clause) is not None  # the first clause's subject, read without the match
    assert negated_subject(clause, found.span()) is None


@pytest.mark.parametrize(
    ("clause", "negated"),
    [
        (
            "The other party may re-identify the data.",
            f"Neither the other party nor {SUBJECT_LIST} may re-identify the data.",
        ),
        ("Provider owns the data.", f"Neither Provider nor {SUBJECT_LIST} own the data."),  # the nearer plural agrees
        ("Vendor is entitled to audit.", f"Neither Vendor nor {SUBJECT_LIST} are entitled to audit."),
        ("Notice is due within 72 hours.", None),  # not a party: it has no affiliates
        ("Client hereby assigns the rights.", None),  # not a bare subject
        ("In our view Provider may use it.", None),
        ("Provider may not use it.", None),  # already negative
    ],
)
def test_a_clause_negated_on_its_subject_in_a_list(clause: str, negated: str | None) -> None:
    assert negated_subject(clause) == negated


def test_neither_crosses_the_commas_of_its_list_where_other_negators_may_not() -> None:
    gate = "(?:may|has the right to) (?:re-?identify|undertake re-?identification)"
    listed = "Neither the other party nor any affiliate, agent, or permitted transferee may re-identify the data."
    limit = "No later than thirty (30) days after the Effective Date, the other party may re-identify the data."
    limiting = "Without limiting Section 9.2, the other party may re-identify the data."
    evidence = [
        f"Neither the other party nor {SUBJECT_LIST} may re-identify the data.",
        "We do not accept that it may re-identify.",
    ]
    found = scoped_exclusions(gate, evidence, scopes_for("redline"))
    strict = [e for e in found if "|\\bneither\\b" in e.regex]  # commas barred but for "neither"
    assert strict
    for exclusion in strict:
        guarded = Gate(gate, exclude_context=exclusion.regex)
        assert not _fires(guarded, listed), exclusion.regex
        assert _fires(guarded, limit) and _fires(guarded, limiting), exclusion.regex
    # Without the list, the strict exclusion leaves the list's subject flagged (the defect).
    bare = [e for e in scoped_exclusions(gate, evidence[1:], scopes_for("redline")) if "[^.;,]{0,80}?(?:may" in e.regex]
    assert bare and all(_fires(Gate(gate, exclude_context=e.regex), listed) for e in bare)


def test_a_clause_negated_on_its_object() -> None:
    clause = "Provider shall own all rights in the data."
    assert negated_object(clause, (0, len("Provider shall own"))) == "Provider shall own no rights in the data."
    assert negated_object("Provider shall own.", (0, len("Provider shall own"))) is None
    assert negated_object("Provider shall not own the data.", (0, 10)) is None
    # The neutral object a witness ending on its verb was given is negated as "nothing",
    # never "bars no this".
    assert negated_object("The statute bars this.", (0, len("The statute bars"))) == "The statute bars nothing."
    # Only the sin's own verb's object: not a trigger's, not a determiner further on.
    trigger = "Notify the customer no later than two days after Provider confirms an incident."
    assert negated_object(trigger, (trigger.index("Provider"), trigger.index(" an incident"))) is None
    further = "Provider may use Customer Data to train and improve the models."
    assert negated_object(further, (0, further.index(" and improve"))) is None
    # After the verb's recipient, and wherever the match ends.
    assigns = "Client hereby assigns to Consultant all right, title and interest in the Work Product."
    negated = "Client hereby assigns to Consultant no right, title and interest in the Work Product."
    assert negated_object(assigns, (0, len("Client hereby assigns to Consultant"))) == negated
    assert negated_object(assigns, (0, assigns.index(" title"))) == negated
    grants = "Client grants Consultant a licence to the Work Product."
    assert negated_object(grants, (0, len(grants) - 1)) == "Client grants Consultant no licence to the Work Product."


def test_a_bare_noun_object_is_negated_by_no_before_it() -> None:
    """An object with no determiner takes "no" before it when it is a common noun and
    nothing else (after a recipient, named or a party's role); never an adjective, a verb
    form or a name."""
    grants = "Client grants Consultant ownership of the Work Product."
    negated = "Client grants Consultant no ownership of the Work Product."
    assert negated_object(grants, (0, len("Client grants Consultant ownership"))) == negated
    lowered = "licensor grants licensee ownership"
    assert negated_object(lowered, (0, len(lowered))) == "licensor grants licensee no ownership"
    pays = "Licensee shall pay royalties on each sale."
    assert (
        negated_object(pays, (0, len("Licensee shall pay royalties")))
        == "Licensee shall pay no royalties on each sale."
    )
    assert negated_object("Client grants Consultant exclusive rights.", (0, 40)) is None  # an adjective
    assert negated_object("Customer may use Provider Data.", (0, 30)) is None  # a name
    # Only when the match holds the verb: the object must be the sin's own.
    assert negated_object("Licensee shall pay royalties.", (0, len("Licensee shall"))) is None


def test_a_window_a_negated_object_stands_in_is_tempered_from_the_audits_own_texts() -> None:
    """The audit writes the sin with its bare object negated ("licensor grants licensee no
    ownership"): correct work a long window lets the gate fire on. A fix keeps negators out
    of the window, losing no catch."""
    gate = Gate(r"licensor (?:hereby )?grants licensee[^.]{0,80}(?:ownership|title)")
    _fire, silent = entry_texts(gate, 0, "redline", Thesaurus())
    negated = [t.text for t in silent if t.kind == "frame: negated object"]
    assert negated and all("licensee no ownership" in text.lower() for text in negated), negated
    sin = "Licensor hereby grants Licensee ownership of the source code."
    proposal = propose_entry(EntryTexts((gate,), 0, "redline", [sin], [], negated, []))
    assert proposal is not None and proposal.verified
    assert not _fires(proposal.after, "Licensor hereby grants Licensee no ownership of, and no title to, the code.")
    assert _fires(proposal.after, sin)
    assert _fires(proposal.after, "Licensor grants Licensee ownership, and no further assignment is needed.")


def test_the_sins_clause_negated_is_correct_work_the_audit_generates() -> None:
    gate = Gate(r"provider (?:shall|may) use customer data[^.]{0,40}to train")
    _fire, silent = entry_texts(gate, 0, "redline", Thesaurus())
    kinds = {t.kind for t in silent}
    assert "frame: negated predicate" in kinds
    negated = [t.text for t in silent if t.kind == "frame: negated predicate"]
    assert all(" not " in text for text in negated)


def test_a_negator_governs_from_either_side_of_the_key() -> None:
    pattern = r"provider owns (?:the|all) (?:employee|customer) data"
    evidence = ["It is not the case that provider owns the employee data."]
    found = scoped_exclusions(pattern, evidence, scopes_for("redline"))
    # The evidence shows the negator before the key; the family on the other side comes too
    # (when the budget allows), "provider owns no …" style, and never past a comma.
    mirrored = [e for e in found if re.search(r"\(\?:\\b\(\?:not\?\|none\|nothing\|never\)", e.added)]
    assert mirrored, [e.added for e in found]
    guard = Gate(pattern, exclude_context=mirrored[0].regex)
    assert not _fires(guard, "Provider owns the employee data under no circumstances.")
    assert _fires(guard, "Provider owns the employee data, and the customer shall not object.")
    # A negator in a clause of its own after "and" governs that clause, not the sin.
    assert _fires(guard, "Provider owns the employee data and none of it may be sold.")


def test_a_counterfactual_is_a_supposition() -> None:
    supposed = [t.regex for t in TERMS if t.kind == "supposed"]
    assert any(re.search(term, "if new york law required notice within 24 hours") for term in supposed)
    assert not any(re.search(term, "new york law requires notice within 24 hours") for term in supposed)
    # an inverted condition supposes too; a past fact does not
    for supposition in (
        "should the tenant accept a waiver of the deposit",
        "had we agreed to waive the deposit",
        "were the tenant to concede the deposit",
    ):
        assert any(re.search(term, supposition) for term in supposed), supposition
    assert not any(re.search(term, "the tenant had previously agreed to waive the deposit") for term in supposed)


def test_an_inverted_condition_supposes_whatever_its_verb() -> None:
    supposed = [t.regex for t in TERMS if t.kind == "supposed"]
    for supposition in (
        "had the lease said that the deposit is forfeited, the tenant would lose it",
        "the tenant would lose the deposit, were the landlord to keep it",
        "should the court read the clause as a waiver, the deposit is lost",
    ):
        assert any(re.search(term, supposition) for term in supposed), supposition
    # Inside a clause "had", "were" and "should" state a fact or advice, not a supposition.
    for statement in (
        "the landlord had the right to keep the deposit",
        "the tenant should accept the forfeiture of the deposit",
        "the deposits were forfeited on termination",
    ):
        assert not any(re.search(term, statement) for term in supposed), statement
    # Written into a gate's exclusion, it governs its own clause only.
    pattern = "landlord (?:may|shall) keep the deposit"
    guard = Gate(pattern, exclude_context=exclusion_for(pattern, ["supposed"]))
    assert not _fires(guard, "Had the lease said that the landlord may keep the deposit, we would object.")
    assert _fires(guard, "Should the tenant leave early, the landlord may keep the deposit.")


def test_slack_after_a_modal_is_a_step_of_its_own() -> None:
    widened = widen_slack(r"(provider|kestrel) (may|is entitled to) terminate", Thesaurus()) or ""
    compiled = re.compile(widened)
    assert compiled.search("provider may, at its option, terminate the order form")
    assert compiled.search("kestrel is entitled to, on notice, terminate")
    assert not compiled.search("provider may. terminate")  # not across a sentence
    # Only after a modal or "to": the subject and the verb stay as written.
    assert widen_slack("law prohibits model training", Thesaurus()) is None
    # Not beside a negator: "may not" stays as written.
    assert widen_slack("provider may not terminate", Thesaurus()) is None


@pytest.mark.parametrize(
    ("pattern", "written"),
    [
        ("(?:may|(?:(?:may|can)|is entitled to)) use", "(?:may|can|is entitled to) use"),
        ("((?:unlawful|illegal)|prohibited|illegal)", "(unlawful|illegal|prohibited)"),
        ("categorically (?:(?:unlawful|illegal))", "categorically (?:unlawful|illegal)"),
        ("(?:a|b)? c", "(?:a|b)? c"),  # a quantified group keeps its parentheses
    ],
)
def test_nested_groups_an_edit_leaves_are_flattened(pattern: str, written: str) -> None:
    assert flattened(pattern) == written
    texts = ["may use", "can use", "is entitled to use", "unlawful", "prohibited", "categorically illegal", "c", "a c"]
    for text in texts:
        assert bool(re.search(pattern, text)) == bool(re.search(written, text)), text


def test_a_present_tense_clause_is_rewritten_and_widened_in_the_passive() -> None:
    [dodge] = [d.text for d in passive_voice("law prohibits all model training")]
    assert dodge == "all model training is prohibited by law"
    assert [d.text for d in passive_voice("the msa already permits termination")] == [
        "termination is already permitted by the msa"
    ]
    # The copula and the auxiliaries have no passive ("property is been by data").
    assert list(passive_voice("de-identified data is provider's property")) == []
    assert list(passive_voice("customer may be entitled to provider data")) == []
    assert list(passive_voice("provider has all right in the data")) == []
    # Nor a verb that links its subject to a complement ("deposit is become by the fund").
    assert list(passive_voice("the deposit becomes the property of the landlord")) == []
    assert list(passive_voice("the tenant may remain the occupier")) == []
    assert widen_voice("the deposit becomes the property of the landlord", Thesaurus()) is None
    widened = widen_voice("law (?:prohibits|forbids) all model training", Thesaurus()) or ""
    assert re.search(widened, dodge)
    assert re.search(widened, "law forbids all model training")


def test_a_verb_in_a_modal_s_place_agrees_with_its_subject() -> None:
    from rubric_tools.audit.dodges import dodges

    one = [d.text for d in dodges("the tenant shall repair the roof", "tenant shall repair", Thesaurus())]
    assert "the tenant commits to repair the roof" in one and "the tenant commit to repair the roof" not in one
    many = [d.text for d in dodges("the tenants shall repair the roof", "tenants shall repair", Thesaurus())]
    assert "the tenants commit to repair the roof" in many


def test_a_witness_with_a_doubled_or_trailing_space_is_read_word_by_word() -> None:
    from rubric_tools.audit.dodges import dodges
    from rubric_tools.audit.thesaurus import build

    for witness in ("the landlord  may terminate the lease", "the landlord may terminate the lease ", " the landlord"):
        rewrites = [d.text for d in dodges(witness, "landlord may terminate", build())]
        assert all("  " not in text and text == text.strip() for text in rewrites)
    assert any("lease" in d.text for d in dodges("the landlord  may terminate the lease", "landlord", build()))


def test_a_synonym_of_be_is_no_rewrite() -> None:
    from rubric_tools.audit.dodges import dodges

    witness = "renewal clauses are unenforceable"
    rewrites = [d.text for d in dodges(witness, witness, Thesaurus())]
    assert "renewal clauses is unenforceable" not in rewrites
    assert any("unenforceable" not in text for text in rewrites)  # its other words are swapped


def test_a_regex_stem_in_evidence_is_completed_into_a_word() -> None:
    gate = Gate(r"(customer|licensee)[^.]{0,60}indemnif[a-z]* (licensor|vendor)")
    assert completed_stems("licensee indemnif licensor", gate) == "licensee indemnify licensor"
    # A name is written whole, and a word the gate would no longer fire on is not written.
    assert completed_stems("sablewing shall pay", Gate("sablewing shall pay")) == "sablewing shall pay"
    assert completed_stems("licensee indemnif licensor", Gate("licensee indemnif licensor")) == (
        "licensee indemnif licensor"
    )
    _fire, silent = entry_texts(gate, 0, "redline", Thesaurus())
    assert not any(re.search(r"\bindemnif\b", t.text) for t in silent)


def test_a_stem_is_found_cut_in_a_pattern_as_its_own_search_finds_it() -> None:
    """An ASCII pattern's cut words are read in one search (`stems._cut_words`): on every
    gate of the bundled and conformance matters, and on every word of those gates and of
    their witnesses, they say what a search for each stem says."""
    from rubric_tools.audit.stems import _cut_in, _stem_opening
    from rubric_tools.gate_analysis.gate_firing import gate_lists
    from rubric_tools.gate_analysis.witness import witnesses
    from rubric_tools.loading.matter import load_matter_source
    from tests.conftest import MATTERS_DIR, require_conformance

    roots = sorted(
        {p.parent for p in [*MATTERS_DIR.glob("*/matter.yaml"), *require_conformance().glob("matters/*/matter.yaml")]}
    )
    patterns = [r"indemnif[a-z]* (?:licensor|vendor)", r"Regulat\w* (?:fine|penal)", r"x(?:abc|abcd)(?:ab)?"]
    for root in roots:
        patterns += [e.gate.pattern for g in gate_lists(load_matter_source(root).model) for e in g.entries]
    compared = 0
    for pattern in patterns:
        stems = set(re.findall(r"[a-z]{3,}", pattern.lower()))
        stems |= {w for witness in witnesses(pattern) for w in re.findall(r"[a-z]{3,}", witness.text)}
        for stem in stems:
            assert _cut_in(pattern, stem) == (_stem_opening(stem).search(pattern) is not None), (pattern, stem)
            compared += 1
    assert compared > 1000


def test_past_a_long_window_a_negator_after_the_subject_is_not_scoped() -> None:
    evidence = ["The Target shall not act in its sole discretion."]
    found = scoped_exclusions("target.*sole discretion", evidence, scopes_for("redline"))
    assert found  # the negator before the key still is
    for exclusion in found:
        after_subject = [part for part in exclusion.added.split("|") if part.startswith("target")]
        # "The Target shall not take the action without consent, which Northline may withhold
        # in its sole discretion": the negator governs "take", not the clause the sin ends in
        assert not any("not?" in part or "none" in part for part in after_subject), exclusion.added


def test_a_negator_among_the_sins_own_words_is_not_evidence() -> None:
    """ "without" is part of `without limitation as to amount`: the negator that governs the
    correct work is the "not" before the match, and the guard keeps the bare sin."""
    pattern = r"without (?:any )?limitation as to (?:type or )?amount"
    correct_work = "Provider does not agree that its liability shall be without limitation as to amount."
    proposal = _proposal(pattern, "Its liability applies without limitation as to amount.", correct_work)
    assert proposal is not None and proposal.verified
    assert not _fires(proposal.after, correct_work)
    assert _fires(proposal.after, "Its liability applies without any limitation as to type or amount.")
    # A limit idiom's "no" is no negator: it stays a marker before the key.
    limit = own_terms(["in no event later than 72 hours after provider confirms"], Keys("confirms", "confirms"))
    assert not [term for term in limit if term.kind == "negated" and term.regex != DISOWNING_NEGATOR]
    # A negator in a window of the match is not the sin's own word: it still governs.
    window = r"provider[^.]{0,40}store customer data"
    [first, *_rest] = scoped_exclusions(window, ["Provider may not store customer data."], scopes_for("redline"))
    assert not _fires(Gate(window, exclude_context=first.regex), "Provider shall not store customer data abroad.")
    assert _fires(Gate(window, exclude_context=first.regex), "Provider may store customer data abroad.")


def test_on_a_tie_the_engines_guard_is_kept() -> None:
    """Evidence of one kind (a deletion recital) is silenced as well with the engine's guard
    as without it; with it, so are the negations the evidence does not show."""
    pattern = r"(?:provider|kestrel) (?:is|shall) not (?:be )?liable for"
    proposal = _proposal(
        pattern,
        "Provider is not liable for the acts of its Subcontractors.",
        'The words "provider is not liable for" are deleted.',
    )
    assert proposal is not None and proposal.verified
    assert proposal.after.negation_guard and proposal.after.negation_scope == "before"
    assert not _fires(
        proposal.after, "No provision shall be construed to mean that Provider is not liable for its Subcontractors."
    )
    assert _fires(proposal.after, "Provider is not liable for the acts of its Subcontractors.")


def test_a_negator_right_after_a_long_windowed_match_governs_its_object() -> None:
    pattern = r"client (?:hereby )?assigns[^.]{0,80}consultant"
    correct_work = "Client hereby assigns to Consultant no right, title or interest in the Work Product."
    sin = "Client hereby assigns to Consultant all right, title and interest in the Work Product."
    proposal = _proposal(pattern, sin, correct_work)
    assert proposal is not None and proposal.verified
    assert not _fires(proposal.after, correct_work)
    assert _fires(proposal.after, sin)


@pytest.mark.parametrize(
    ("text", "negates"),
    [
        ("The lessee shall pay in no event after the landlord invoices the repair.", False),
        ("Payment is due in no event later than 30 days after the landlord invoices it.", False),
        ("The amount shall not exceed five percent.", False),
        # an inverted limit whose subject is a long noun phrase is still a limit
        (
            "In no event shall the aggregate liability of the Landlord for all claims arising under this Lease"
            " and the Guaranty exceed five percent of the annual rent.",
            False,
        ),
        ("Payment may not be withheld until after the landlord invoices the repair.", True),
        ("The clock starts at delivery and not at any point after the buyer inspects.", True),
        ("No payment is made after the landlord invoices.", True),
    ],
)
def test_a_deadline_after_no_is_a_limit_not_a_denial(text: str, negates: bool) -> None:
    """ "In no event after …" sets a deadline, as "in no event later than …" does: the strict
    negator of a scoped exclusion does not read it as a denial of what follows."""
    strict = next(t.strict for t in TERMS if t.kind == "negated" and t.loose == r"\bnot?\b")
    assert bool(re.search(strict, normalize(text), re.IGNORECASE)) is negates


@pytest.mark.parametrize(
    "text",
    [
        "The lessee shall pay under no circumstances later than 30 days after the landlord invoices.",
        "The lessee shall pay no sooner than 10 days and not earlier than the Commencement Date.",
    ],
)
def test_every_comparative_after_no_is_a_limit(text: str) -> None:
    strict = next(t.strict for t in TERMS if t.kind == "negated" and t.loose == r"\bnot?\b")
    assert re.search(strict, normalize(text), re.IGNORECASE) is None
    assert re.search(strict, normalize("Under no circumstances may the lessee withhold payment."), re.IGNORECASE)


@pytest.mark.parametrize(
    ("surface", "gate", "correct_work", "asserted"),
    [
        # A supposition governs its own clause, not the one after its comma.
        pytest.param(
            "issue",
            "regulators will fine (?:the vendor|ledgersync)",
            "If we accepted that regulators will fine the vendor, the client would carry that risk.",
            "If the reconciliation service fails, regulators will fine the vendor directly.",
            id="supposition-comma",
        ),
        # The key that explains the most stands last ("tenant"); a sin with its own condition
        # after it names the tenant again ("… if the tenant misses …"): keyed there, "if" would
        # silence the sin. Keyed to the opening words, it governs only a clause it opens.
        pytest.param(
            "issue",
            "the landlord will evict (?:the tenant|the lodger)",
            "If we accepted that the landlord will evict the tenant, the client would lose its leverage.",
            "The landlord will evict the tenant if the tenant misses a single payment.",
            id="supposition-opening",
        ),
        # A restriction after the whole grant confines it; one before the grant's last words
        # confines it to the sin ("solely to a competitor"): keyed to the words that close the
        # match, "only" and "solely" silence the first and never the second.
        pytest.param(
            "redline",
            "tenant may (?:sublet|assign)[^.]{0,80}(?:a competitor|an affiliate)",
            "Tenant may sublet the premises to a competitor only to the extent this Lease expressly permits.",
            "Tenant may sublet the premises solely to a competitor of the Landlord.",
            id="restriction-closing",
        ),
        pytest.param(
            "redline",
            "(?:the tenant|lessee) may (?:keep|retain) the deposit[^.]{0,60}after (?:termination|expiry)",
            "The tenant may keep the deposit for a month after termination only to the extent repairs are unpaid.",
            "The tenant may keep the deposit only until the keys are returned after termination.",
            id="restriction-closing-window",
        ),
    ],
)
def test_a_marker_governs_only_what_it_reaches(surface: str, gate: str, correct_work: str, asserted: str) -> None:
    found = scoped_exclusions(gate, [correct_work], scopes_for(surface))
    assert found
    for exclusion in found:
        guarded = Gate(gate, exclude_context=exclusion.regex)
        assert not _fires(guarded, correct_work), exclusion.regex
        assert _fires(guarded, asserted), exclusion.regex


@pytest.mark.parametrize(
    ("subject", "predicate", "negated"),
    [
        ("tenant may", "sublet the premises", "tenant may not sublet the premises"),
        ("tenant", "shall repair the roof", "tenant shall not repair the roof"),
        ("the fixtures", "owned by landlord", "the fixtures are not owned by landlord"),  # agrees
        ("landlord", "liable for repairs", "landlord is not liable for repairs"),
        ("landlord", "owns the fixtures", "landlord does not own the fixtures"),
        ("the tenants", "own the fixtures", "the tenants do not own the fixtures"),
        ("landlord", "sole discretion", None),  # no predicate: no place for a "not"
    ],
)
def test_a_negator_inside_the_clause_stands_where_english_puts_it(
    subject: str, predicate: str, negated: str | None
) -> None:
    assert negated_join(subject, predicate) == negated


def test_a_settlement_reports_a_negotiation_and_a_redline_drafts_the_contract() -> None:
    """A settlement text reports what was proposed, rejected or supposed ("the landlord proposed
    that the tenant waives the deposit; we rejected that"): its gates are framed and guarded as
    an analysis's are. A redline is the contract's own wording, whose "if" and "which" are
    drafting: no attribution, rejection or supposition frame, and no guard of those kinds."""
    reported = ("attributed", "disowned", "rejected", "supposed")
    assert set(reported) <= set(scopes_for("settlement")) and set(reported) <= set(scopes_for("issue"))
    assert not set(reported) & set(scopes_for("redline"))
    kinds = {
        surface: {t.kind for t in entry_texts(Gate("tenant waives the deposit"), 0, surface, Thesaurus())[1]}
        for surface in ("issue", "settlement", "redline")
    }
    for frame in (
        "frame: attribution then rejection",
        "frame: hypothetical",
        "frame: later rejection",
        "frame: contrast with the clause",
    ):
        assert frame in kinds["settlement"] and frame in kinds["issue"], (frame, kinds)
        assert frame not in kinds["redline"], (frame, kinds["redline"])
    # The later clause rejecting a settlement's reported proposal is evidence for a guard.
    evidence = "The landlord proposed that the tenant waives the deposit; we rejected that."

    def silenced(surface: str) -> bool:
        found = scoped_exclusions("tenant waives the deposit", [evidence], scopes_for(surface))
        guarded = (Gate("tenant waives the deposit", exclude_context=e.regex) for e in found)
        return any(not run_gates((gate,), normalize(evidence), 1.0).fired for gate in guarded)

    assert silenced("settlement") and silenced("issue") and not silenced("redline")


def test_slack_reads_a_gates_white_space_as_a_space() -> None:
    """Authors write "\\s+" between words as often as a space: the slack goes there too, before
    an optional adverb ("(?:promptly\\s+)?"), and never beside a negator written so."""
    pattern = r"(landlord|tenant)\s+(shall|must)\s+(?:promptly\s+)?notify\s+the tenant"
    widened = widen_slack(pattern, Thesaurus()) or ""
    compiled = re.compile(widened)
    assert compiled.search("the landlord must, upon receipt of the notice, notify the tenant")
    assert compiled.search("the landlord shall promptly notify the tenant")
    assert widen_slack(r"landlord\s+must\s+not\s+notify", Thesaurus()) is None


def test_no_other_voice_reads_a_noun_after_a_possessive_phrase_as_the_verb() -> None:
    """ "(?:inspect|audit)\\s+(?:landlord['’]s|its)\\s+records" opens with its verb: "records"
    after the possessive is its object, no verb whose passive ("… is recorded by inspect its")
    the proposal would write."""
    assert widen_voice(r"(?:inspect|audit)\s+(?:landlord['’]s|its)\s+records", Thesaurus()) is None
    widened = widen_voice(r"(?:landlord|lessor) (?:may|can) (?:keep|retain) the deposit", Thesaurus()) or ""
    assert re.search(widened, "the deposit may be retained by the landlord")
