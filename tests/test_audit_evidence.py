"""Evidence a lawyer would write: sentence assembly, a fragment's shape and its carrier, the
smallest clause of the matter's own texts around a gate's match, the well-formedness checks
and the order evidence is shown in. Matters and sentences are our own."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from rubric_tools.audit.clause_bounds import smallest_clause
from rubric_tools.audit.clauses import ClauseFinder, MatterSentence
from rubric_tools.audit.completion import carrier, complete_alone, repair_recipient
from rubric_tools.audit.grammar import shape
from rubric_tools.audit.naturalness import problems, rank, text_score
from rubric_tools.audit.noun_phrases import bare_roles, has_bare_role, with_determiners
from rubric_tools.audit.texts import entry_texts
from rubric_tools.audit.thesaurus import Thesaurus
from rubric_tools.audit.wording import article, as_sentence, fill
from rubric_tools.config.audit import AuditSection
from rubric_tools.scoring.gates import Gate
from tests.audit_support import audit, codes, make_matter

# ------------------------------------------------------------------ assembly


def test_a_frame_wraps_a_clause_as_one_sentence() -> None:
    assert fill("it is not the case that {w}.", "The Provider may use Customer Data.") == (
        "It is not the case that the Provider may use Customer Data."
    )
    assert fill("we reject the proposal that {w}.", "that fees rise by five percent") == (
        "We reject the proposal that fees rise by five percent."
    )
    assert fill('the words "{w}" are deleted.', "Provider may use Customer Data.") == (
        'The words "Provider may use Customer Data" are deleted.'
    )
    assert fill("the counterparty's draft says that {w}.", "I recommend a cap") == (
        "The counterparty's draft says that I recommend a cap."
    )


@pytest.mark.parametrize(
    ("word", "expected"),
    [("indemnity", "an"), ("unilateral", "a"), ("uninsured", "an"), ("hour", "an"), ("MSA", "an"),
     ("DPA", "a"), ("18-month", "an"), ("8", "an"), ("one-time", "a"), ("European", "a"), ("cap", "a")],
)  # fmt: skip
def test_a_or_an_by_sound(word: str, expected: str) -> None:
    assert article(word) == expected
    assert fill("the parties agree {w}.", f"a {word} term").startswith(f"The parties agree {expected} {word}")


def test_a_sentence_has_a_capital_and_one_final_stop() -> None:
    assert as_sentence("uncapped liability. that is unenforceable") == "Uncapped liability. That is unenforceable."
    assert as_sentence('"provider may use data";') == '"Provider may use data";.'.replace(";.", ".")
    assert as_sentence("is it void?") == "Is it void?"


# ------------------------------------------------------------------ shapes and carriers


@pytest.mark.parametrize(
    ("fragment", "kind", "completed"),
    [
        ("provider may use customer data", "clause", "provider may use customer data"),
        ("shall defend any claim", "modal phrase", "the other party shall defend any claim"),
        ("in provider's sole discretion", "prepositional phrase", "this applies in provider's sole discretion"),
        ("after provider confirms", "prepositional phrase", "notice is due after provider confirms"),
        (
            "permits provider to use customer data",
            "verb phrase",
            "this agreement permits provider to use customer data",
        ),
        # A finite auxiliary opens a verb phrase, its subject agreeing: never "the is void applies".
        ("is void under the act", "verb phrase", "this agreement is void under the act"),
        ("are void under the act", "verb phrase", "these terms are void under the act"),
        ("barred by law from subletting", "verb phrase", "the other party is barred by law from subletting"),
        ("excluded from the deposit", "verb phrase", "the other party is excluded from the deposit"),
        ("release the source code", "infinitive phrase", "the other party may release the source code"),
        ("unenforceable as a matter of law", "adjective phrase", "the clause is unenforceable as a matter of law"),
        ("illegal and void", "adjective phrase", "the clause is illegal and void"),
        # An adverb that grades the adjective after it: what a clause is, not a thing it names.
        ("manifestly unenforceable", "adjective phrase", "the clause is manifestly unenforceable"),
        ("wholly unenforceable", "adjective phrase", "the clause is wholly unenforceable"),
        # A predicate negated by the sin's own "not": the carrier's subject before the "not".
        ("not required by law to insure", "verb phrase", "the other party is not required by law to insure"),
        ("not void", "adjective phrase", "the clause is not void"),
        # Adjectives before their noun are a noun phrase: not "the clause is uncapped indemnity".
        # A clause provides for it: "the clause does not provide for uncapped indemnity".
        ("uncapped indemnity", "noun phrase", "the clause provides for uncapped indemnity"),
        (
            "perpetual and irrevocable licence",
            "noun phrase",
            "the clause provides for perpetual and irrevocable licence",
        ),
        # A noun after the adjectives, whatever follows it: "the clause is reasonable efforts
        # to repair" is no English.
        (
            "reasonable efforts to repair the roof",
            "noun phrase",
            "the clause provides for reasonable efforts to repair the roof",
        ),
        ("nine months", "quantity", "the period is nine months"),
        ("five percent of fees", "quantity", "the rate is five percent of fees"),
        ("customer liability supercap", "noun phrase", "the clause provides for the customer liability supercap"),
        ("unrestricted accesses", "noun phrase", "the clause provides for unrestricted accesses"),
        # "The first" picks one out; a negative noun phrase states its own predicate.
        ("first month's rent", "noun phrase", "the clause provides for the first month's rent"),
        ("no security deposit", "noun phrase", "no security deposit applies"),
        ("de-identified data is provider property", "clause", "de-identified data is provider property"),
        ("fines imposed on vendor", "noun phrase", "the clause provides for fines imposed on vendor"),
        ("selling the data is illegal", "clause", "selling the data is illegal"),
        (
            "once losses exceed the cap, all losses are recoverable",
            "clause",
            "once losses exceed the cap, all losses are recoverable",
        ),
    ],
)
def test_a_fragment_is_completed_by_the_carrier_of_its_shape(fragment: str, kind: str, completed: str) -> None:
    assert shape(fragment) == kind
    assert carrier(fragment).text == completed
    assert not problems(as_sentence(completed))


def test_a_figure_is_completed_from_the_matters_clause_stating_the_figure_it_alters() -> None:
    """No sentence of the matter holds the sin's figure ("within 45 days"), one holds the
    figure it alters: the witness completes that clause, the figure swapped, not a carrier.
    Not from a figure of another kind (a rate for a duration), nor for a gate of a bare
    figure, which tells nothing of which figure of the matter it alters."""
    finder = ClauseFinder(
        [
            MatterSentence("Rent rises by 3 percent each year.", "lease §4", False),
            MatterSentence(
                "The landlord shall return the deposit within 30 days after the lease ends.", "lease §8", False
            ),
        ]
    )
    gate = Gate(r"return the deposit within (?:3[1-9]|[4-9]\d) days")
    completed = finder.complete("return the deposit within 45 days", gate)
    assert completed.how == "matter clause" and completed.source == "lease §8"
    assert completed.text == "the landlord shall return the deposit within 45 days after the lease ends"
    bare = finder.complete("45 days", Gate(r"(?:3[1-9]|[4-9]\d) days"))
    assert bare.how.startswith("carrier"), bare
    rate = finder.complete("return the deposit within 45 percent", Gate(r"return the deposit within 45 percent"))
    assert rate.how != "matter clause", rate


def test_a_verb_that_takes_an_object_is_given_one() -> None:
    """A regex that ends on its verb ("courts will not enforce") writes a witness with no
    object; completed, it takes a neutral one. A passive, or a verb that needs none, stays."""
    assert complete_alone("courts will not enforce", Gate("courts will not enforce")).text == (
        "courts will not enforce this"
    )
    assert complete_alone("the statute bars", Gate("statute bars")).text == "the statute bars this"
    assert complete_alone("subletting is not permitted", Gate("is not permitted")).text == (
        "subletting is not permitted"
    )
    assert complete_alone("the tenant may terminate", Gate("may terminate")).text == "the tenant may terminate"


def test_a_witness_is_left_a_fragment_when_the_gate_misses_its_carrier() -> None:
    gate = Gate(r"^customer liability supercap$")  # anchored: no carrier keeps it firing
    assert complete_alone("customer liability supercap", gate).how == "fragment"


def test_a_defined_term_is_not_reworded() -> None:
    from rubric_tools.audit.completion import Completion

    clause = Completion("", "Customer's liability for Data Breach Claims is capped", "", "matter clause")
    assert clause.renames("customer's liability for data contravene claims is capped")
    assert not clause.renames("customer’s liability for data breach claims is limited")


def test_a_participle_before_to_is_carried_as_a_passive() -> None:
    # "the other party permitted to re-identify" is no clause; its negation "did not permit
    # to re-identify" no English.
    assert carrier("permitted to re-identify").text == "the other party is permitted to re-identify"
    assert carrier("terminated the agreement").text == "the other party terminated the agreement"


def test_a_lone_compound_modifier_gets_no_carrier() -> None:
    assert carrier("twelve-month").how == "fragment"


def test_agreement_is_repaired_before_completion() -> None:
    completion = complete_alone("laws prohibits training", Gate(r"laws? prohibits? training"))
    assert completion.text == "laws prohibit training"


def test_a_noun_after_a_word_that_is_only_an_adjective_is_no_verb_to_agree() -> None:
    # "unrestricted access" is a noun phrase, not a subject and its verb ("accesses").
    completion = complete_alone("unrestricted access", Gate("unrestricted access"))
    assert completion.text == "the clause provides for unrestricted access"
    assert not problems("The tenant has unrestricted access to the roof.")


def test_a_transfer_that_ends_with_its_recipient_gets_its_to_and_an_object() -> None:
    gate = Gate(r"client (hereby )?assigns[^.]{0,80}consultant")
    assert complete_alone("client assigns consultant", gate).text == "client assigns to consultant all rights"
    # Only where the gate still fires, and never after a transfer that already has them.
    assert complete_alone("client assigns consultant", Gate("client assigns consultant")).text == (
        "client assigns consultant"
    )
    assert repair_recipient("client assigns to consultant all rights") == "client assigns to consultant all rights"
    assert repair_recipient("provider assigns all") == "provider assigns all"


# ------------------------------------------------------------------ clauses of the matter


@pytest.mark.parametrize(
    ("sentence", "match", "clause"),
    [
        (
            "Federal privacy law prohibits model training on member data, so Section 4 must go.",
            "law prohibits model training",
            "Federal privacy law prohibits model training on member data",
        ),
        (
            "It is not the case that the law forbids all model training; the risk is commercial.",
            "law forbids",
            "the law forbids all model training",
        ),
        (
            "Provider shall notify Customer of any outage without undue delay after it confirms the outage.",
            "without undue delay after it confirms",
            "Provider shall notify Customer of any outage without undue delay after it confirms the outage.",
        ),
        ("In our view, Section 4.2 is void because nobody agreed to it.", "4.2 is void", "Section 4.2 is void"),
        (
            "Client grants Consultant all right, title, and interest in the Work Product, and Consultant may use it.",
            "grants Consultant all right",
            "Client grants Consultant all right, title, and interest in the Work Product",
        ),
        # A cut before "that" leaves no "and" dangling at the clause's end.
        (
            "Tell the landlord that courts will not enforce the cap and that the risk is remote.",
            "courts will not enforce",
            "courts will not enforce the cap",
        ),
        # A "that" after a verb opens its object: no cut there ("the tenant agrees."), one
        # after a noun opens a relative clause, which may be cut.
        (
            "The tenant agrees that the landlord may enter the premises.",
            "tenant agrees",
            "The tenant agrees that the landlord may enter the premises",
        ),
        (
            "The tenant may store the goods that the landlord delivers.",
            "tenant may store the goods",
            "The tenant may store the goods",
        ),
        # Too long to take the verb's object in, the clause ends before the time adjunct after
        # the match, not on the verb.
        (
            "The landlord will return the deposit within 45 days after the surveyor engaged by the landlord "
            "has confirmed that the premises were returned in the condition the lease requires and has "
            "determined that no repairs are needed.",
            "return the deposit within 45 days",
            "The landlord will return the deposit within 45 days",
        ),
    ],
)
def test_the_smallest_clause_around_a_match(sentence: str, match: str, clause: str) -> None:
    start = sentence.index(match)
    bounds = smallest_clause(sentence, start, start + len(match))
    assert bounds is not None and sentence[bounds[0] : bounds[1]] == clause.rstrip(".")


def test_the_matter_own_sin_is_preferred_and_a_disowned_clause_is_used_too() -> None:
    gate = Gate("uptime commitments are unenforceable", negation_guard=True)
    stated = MatterSentence("Hosting uptime commitments are unenforceable under state law, so no credit.", "p:3", True)
    disowned = MatterSentence("It is not the case that uptime commitments are unenforceable here.", "guide §2", False)
    finder = ClauseFinder([disowned, stated])
    completion = finder.complete("uptime commitments are unenforceable", gate)
    assert completion.text == "Hosting uptime commitments are unenforceable under state law"
    assert (completion.how, completion.source) == ("matter clause", "p:3")
    alone = ClauseFinder([disowned]).complete("uptime commitments are unenforceable", gate)
    assert alone.text == "uptime commitments are unenforceable here" and alone.source == "guide §2"


def test_a_witness_is_completed_from_a_clause_of_its_own_alternative() -> None:
    # Two sins in one gate: each alternative's witness takes the matter's clause that states
    # it, so that each gets its own correct work framed; a clause of the other only when the
    # matter states none of its own.
    gate = Gate(r"landlord may enter without notice|tenant waives (?:the|any) right to quiet enjoyment")
    entry = MatterSentence("The landlord may enter without notice at any hour.", "p:1", True)
    waiver = MatterSentence("The tenant waives any right to quiet enjoyment during repairs.", "p:2", True)
    finder = ClauseFinder([entry, waiver])
    own = finder.complete("tenant waives the right to quiet enjoyment", gate)
    assert own.source == "p:2" and own.text == "The tenant waives any right to quiet enjoyment during repairs"
    assert finder.complete("landlord may enter without notice", gate).source == "p:1"
    alone = ClauseFinder([entry]).complete("tenant waives the right to quiet enjoyment", gate)
    assert alone.source == "p:1"  # the matter states only the other sin


def test_correct_work_the_gate_fires_on_is_never_taken_as_the_sin() -> None:
    gate = Gate("uptime commitments are unenforceable")  # fires on the playbook sentence itself
    playbook = MatterSentence(
        "Never agree that uptime commitments are unenforceable in this market.", "guide §2", False
    )
    assert ClauseFinder([playbook]).complete("uptime commitments are unenforceable", gate).how == "clause"


def test_a_negated_clause_of_the_matter_is_not_a_sin() -> None:
    gate = Gate("use customer data to train")
    negated = MatterSentence("Provider shall not use Customer Data to train any model.", "probes.yaml:4", True)
    completion = ClauseFinder([negated]).complete("use customer data to train", gate)
    assert completion.how != "matter clause" and completion.text.startswith("the other party may")


PROBES = """\
probes:
  - surface: issue
    criterion: uptime_credit
    text: "Hosting uptime commitments are unenforceable under state law, so the credit falls away."
    expect_fire: true
"""


def test_frames_and_rewrites_in_a_finding_wrap_the_matter_own_clause(tmp_path: Path) -> None:
    gates = "    critical_failure_patterns:\n      - 'uptime commitments are unenforceable'\n"
    root = make_matter(tmp_path / "m", gates, files={"probes.yaml": PROBES})
    diagnostics = audit(root, AuditSection(max_evidence=100))
    [frames] = codes(diagnostics, "U003")
    sentences = [e["sentence"] for e in frames.extra["evidence"]]  # type: ignore[attr-defined]
    # "Hosting" only opened the probe sentence: the matter writes "hosting" elsewhere.
    assert "It is not the case that hosting uptime commitments are unenforceable under state law." in sentences
    [dodged] = codes(diagnostics, "U004")
    rewrites = [e["sentence"] for e in dodged.extra["evidence"]]  # type: ignore[attr-defined]
    assert any(s.startswith("Hosting uptime commitments are void under state law") for s in rewrites), rewrites
    for sentence in sentences + rewrites:
        assert not problems(sentence), sentence


def test_a_fragment_witness_is_framed_in_its_carrier(tmp_path: Path) -> None:
    gates = '    redline_critical_failure_patterns:\n      - "in provider\'s sole discretion"\n'
    [frames] = codes(audit(make_matter(tmp_path / "m", gates), AuditSection(max_evidence=100)), "U003")
    sentences = {e["sentence"] for e in frames.extra["evidence"]}  # type: ignore[attr-defined]
    assert "It is not the case that this applies in provider's sole discretion." in sentences
    # A quotation quotes the gate's words, not the carrier around them.
    assert 'The words "in provider\'s sole discretion" are deleted.' in sentences
    assert not any('"this applies' in s for s in sentences)
    assert not any(s.startswith("It is not the case that in") for s in sentences)


# ------------------------------------------------------------------ checks and order


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("it is not the case that in provider's sole discretion.", "no capital first letter"),
        ("It is not the case that in provider's sole discretion.", "clause without a verb"),
        ("Vendor will be fined by under §6.2 of the agreement regulators.", "dangling preposition: by under"),
        ("Provider can make make use of of residuals.", "doubled words: make make"),
        ("Customer shall not make use of to train.", "dangling preposition: of to"),
        ("Laws prohibits training.", "disagreement: laws prohibits"),
        ("Provider are liable.", "disagreement: provider are"),
        ("We do not accept that the sub-lease are void.", "disagreement: sub-lease are"),
        ("The period is 9 month.", "disagreement: 9 month"),
        ("Without limiting Section 9.2, customer liability supercap.", "clause without a verb"),
        ("Nobody has suggested that must release the code.", "clause without a subject"),
        ("Covenants to repair the roof promptly.", "clause without a subject"),
        ("Notice is due within two days upon it validates the incident.", "preposition before a clause"),
        ("Client assigns under §6.2 of the agreement consultant.", "citation between a verb and its object"),
        ("Customer may inspect from time to time and from time to time.", "doubled words"),
        (r"Provider may use customer\s+data.", "regex debris"),
        ("Provider may use data to carry out training on and improve models.", "dangling preposition: on and"),
        ("Vendor shall notify no later than three (0) business days after discovery.", "number in words and figures"),
        ("We can move from 72 hours to 48 hours after confirms.", "clause without a subject: after confirms"),
        ("Vendor is illegaled from selling the data.", "malformed inflection: illegaled"),
        ("It is not the case that the period is 5 business day 3 business day.", "count and unit disagree: 5 business"),
        ("Notice is due within one years of closing.", "count and unit disagree: one years"),
        ("Landlord has already must repair the roof.", "auxiliary before a modal or 'be': has already must"),
        ('The words "Tenant is not be liable for repairs" are deleted.', "auxiliary before a modal or 'be': is not be"),
        ("Tenant consents to the assign of the lease.", "a verb where a noun stands: the assign of"),
        ("Tenant consents to the hereby assign of the lease.", "a verb where a noun stands: the hereby assign"),
        ("The lease gives the tenant an rescind for outages.", "a verb where a noun stands: an rescind"),
        ("The lease already gives the tenant an rescind for repeated outages.", "article disagrees: an rescind"),
        ("All keys must be forego to the landlord.", "a verb's base form after 'be': be forego"),
        ("The lease already gives no us an exit for outages.", "a determiner before a pronoun: no us"),
        ("The lease already gives, under section 6.2, us an exit.", "a citation before a pronoun"),
        ("Tenant shall perform each obligations.", "'each' before a plural: each obligations"),
        ("Credits is issued to the tenant.", "disagreement: credits is"),
        ("Although the rent review does not apply, subletting are unlawful.", "disagreement: subletting are"),
        ("Nobody has suggested that assigning were permitted.", "disagreement: assigning were"),
        ("The cap applies despite whether the tenant is at fault.", "a noun's preposition before a clause"),
        ("We can move from ten days to five days once inspection.", "a clause opener before a noun: once inspection"),
        ("Section 9.3 applies in place of any term providing that without consent.", "clause without a verb"),
        ("Rent is due ten days subsequent to confirms.", "a preposition before a verb: to confirms"),
        ("Rent is due upon inspects.", "a preposition before a verb: upon inspects"),
        ('The words "rent is due ten days after relevant confirms" are deleted.', "clause without a subject"),
        ("All of the keys must be waived to anyone who asks.", "a verb of giving up with a recipient"),
        ("The landlord must forgo all of the keys to any incoming tenant.", "a verb of giving up with a recipient"),
        (
            "Their markup proposes that courts will not enforce the lease and; we reject that.",
            "a conjunction before a stop",
        ),
        ("Courts will not enforce the lease and, which the client cannot accept.", "a conjunction before a stop"),
        ("The tenant shall reimburse the landlord against any claim.", "a verb with a preposition it does not take"),
        ("The tenant shall report to the landlord of any defect.", "a verb with a preposition it does not take"),
        (
            "Landlord hereby irrevocably granting to the tenant all rights in the works of the building.",
            "a gerund after 'hereby'",
        ),
        ("The tenant may not give notice later than 73 (0) hours.", "number in figures and figures disagree"),
        ('We do not accept that "the tenant may sublet the premises.', "a quotation never closed"),
        ("The cap applies without regard to whether disrepair.", "a clause opener before a noun: whether"),
        ("We do not accept that the irrespective of whether disrepair applies.", "an article before no noun"),
        ("The words “the tenant may sublet are deleted.", "a quotation never closed"),
        ("The lease is not perpetual the other tenant.", "an adjective before a determiner"),
        ("The notice period is ninety 90 days.", "figures after a number in words, unbracketed"),
        ("The lease does not provide for the whether or not disrepair.", "an article before no noun phrase: the w"),
        ("The lease provides for the if the tenant defaults.", "an article before no noun phrase: the if"),
        ("Rent is reviewed at an unless otherwise agreed date.", "an article before no noun phrase: an unless"),
        ("The landlord may claim the of the deposit.", "an article before no noun phrase: the of"),
        ("The lease already allows terminate.", "a verb of permission before a bare verb: allows terminate"),
        ("The lease lets cancel on notice.", "a verb of permission before a bare verb: lets cancel"),
        # Other letters than ASCII: `re` decides, with no plain search of the stems before.
        ("The Landlord’s lease Permits terminate.", "a verb of permission before a bare verb: Permits terminate"),
        ("The lease ALLOWS terminate.", "a verb of permission before a bare verb: ALLOWS terminate"),
    ],
)
def test_what_no_lawyer_would_write_is_caught(text: str, problem: str) -> None:
    assert any(p.startswith(problem) for p in problems(text)), problems(text)


@pytest.mark.parametrize(
    "text",
    [
        "It is not the case that Provider may use Customer Data to train its models.",
        'Delete "Provider may use Customer Data" and insert the agreed wording.',
        "If we accepted that fees rise by five percent, the client would carry that risk.",
        "Their markup proposes that fees rise by five percent; we reject that.",
        'We recommend that the words "uncapped liability" be deleted.',
        "As provided for in Section 9, notice is due until after the audit.",
        "Customer Data may be used by Provider to train and improve the Provider Models.",
        "Vendor shall notify no later than twenty-four (24) hours after discovery.",
        "Client grants Consultant all right, title, and interest in the Work Product.",
        "Subletting and assigning are unlawful without consent.",
        "The following are the landlord's repair obligations.",
        "We agree that existing tenants are bound by the rules.",
        "Premises used for housing are exempt from the levy.",
        "The tail runs for eighteen (18) months after termination.",
        "Northline has a five-business-day window to match the proposal.",
        "Tenant consents to the transfer of the lease.",
        "Landlord has already agreed to repair the roof and is to be paid for it.",
        "The hosting of the data is permitted.",
        "Landlord has hereby granted the use of the premises.",
        "Landlord hereby irrevocably grants to the tenant all rights in the fixtures, including the parking.",
        "Nothing hereby granted is a lease, and the parties are hereby released.",
        "No law requires that the landlord provide a service credit or that the deposit be held in trust.",
        "No law requires that the tenant repairs the roof within 10 (10) days under Section 12 (3).",
        "The lease gives the tenant an exit for repeated outages and an hour to cure it.",
        "All keys must be put in a US locker and be released to an SLA auditor.",
        "Credits are issued, the news is good and the analysis is done; each obligation stays.",
        "Rent is due once the inspection is done, unless consent is given.",
        "Rent is subject to claims by the landlord and to repairs.",
        "The tenant waives any right to dispute the rent, and the landlord releases the keys to the tenant.",
        "The tenant shall reimburse the landlord for any loss and report to the landlord within ten days.",
        "The lease gives us no exit and binds them; that it does is wrong, and this it cannot cure.",
        "The lease is perpetual, the rent is due the landlord, and it is unlawful that the tenant sublets.",
        "The notice period is ninety (90) days, and one 30-day extension is allowed.",
        "The tenant pays the following sums, and the would-be assignee the by-laws' fees, a while later.",
        "Clause (a) of the lease applies, and the will of the landlord prevails.",
        "The lease allows termination, permits subletting and is permitted to lapse; authorised users enter.",
    ],
)
def test_good_drafting_passes(text: str) -> None:
    assert problems(text) == []


def test_names_are_written_as_the_matter_writes_them() -> None:
    """A witness of a lowercase regex names "harwick" and "the hmrc"; the matter writes
    "Harwick" and "HMRC", and the evidence does too. A word the matter also writes in
    lowercase, and a pronoun, keep their case ("us", though the matter writes "US")."""
    finder = ClauseFinder(
        [
            MatterSentence(
                "The tenant must ask Harwick and the HMRC before it sublets to US tenants.", "lease §4", False
            ),
            MatterSentence("Rent is due to the landlord, who may write to us.", "lease §5", False),
        ]
    )
    assert finder.recased("harwick’s consent: the hmrc may ask us.") == "Harwick’s consent: the HMRC may ask us."
    assert finder.recased("the tenant may ask the landlord") == "the tenant may ask the landlord"
    # A sentence opened with such a name: its capital first letter is the sentence's, not the name's.
    assert finder.recased("Hmrc may ask us.") == "HMRC may ask us."
    assert finder.recased("Harwick may ask us.") == "Harwick may ask us."


def test_an_initialism_joined_to_a_word_by_a_hyphen_is_a_name_of_its_own() -> None:
    """The matter writes "EV-charging": a regex's "ev", too short to be read as an
    initialism on its own, is written "EV" too; a pronoun so joined ("US-based") stays a
    pronoun elsewhere."""
    finder = ClauseFinder(
        [MatterSentence("The landlord keeps the EV-charging bays for US-based tenants.", "lease §7", False)]
    )
    assert finder.recased("the tenant may install ev chargers.") == "the tenant may install EV chargers."
    assert finder.recased("the landlord may ask us.") == "the landlord may ask us."


def test_a_term_of_several_words_is_written_as_the_matter_mostly_writes_it() -> None:
    """ "Rent Deposit" and "New York" are written capitalized inside the matter's sentences:
    a regex's "rent deposit" is too, opening a text or not. A term the matter writes in
    lowercase as often ("the Common Areas", "the common areas") is left as it stands."""
    finder = ClauseFinder(
        [
            MatterSentence("The tenant pays the Rent Deposit in New York.", "lease §3", False),
            MatterSentence("The landlord holds the Rent Deposit and the Common Areas.", "lease §4", False),
            MatterSentence("Repairs of the common areas are the landlord's.", "lease §5", False),
            # Each word alone is also written in lowercase: no name of one word.
            MatterSentence("The rent and a deposit are new each year in york stone.", "lease §6", False),
        ]
    )
    assert finder.recased("the tenant pays the rent deposit in new york.") == (
        "the tenant pays the Rent Deposit in New York."
    )
    assert finder.recased("Rent deposit is due.") == "Rent Deposit is due."
    assert finder.recased("the common areas stay open.") == "the common areas stay open."


def test_a_terms_article_is_never_capitalized_inside_a_sentence() -> None:
    # Texts that capitalize "The Lease" inside their sentences (a heading's capitals) do not
    # make every "the lease" of a generated text "The Lease": "Lease", which they never write
    # in lowercase, is written as they write it, its "the" stays lowercase.
    finder = ClauseFinder(
        [
            MatterSentence("Under clause 2, The Lease ends in May.", "note 1", False),
            MatterSentence("We read it twice, and The Lease still binds the tenant.", "note 2", False),
        ]
    )
    assert finder.recased("Without limiting clause 2, the lease binds the tenant.") == (
        "Without limiting clause 2, the Lease binds the tenant."
    )


def test_a_document_id_in_a_citation_is_no_casing_of_the_word() -> None:
    """A trajectory cites "lease §4" in lowercase: the document's id, not how the matter
    writes the word in prose ("the LEASE", here), which the evidence follows."""
    finder = ClauseFinder(
        [
            MatterSentence("The tenant signs the LEASE before it moves in.", "lease §4", False),
            MatterSentence("As lease §4 says, the tenant signs first.", "good.jsonl:3", False),
        ]
    )
    assert finder.recased("the lease binds the tenant.") == "the LEASE binds the tenant."
    # Written in lowercase in prose too, it keeps its case.
    prose = ClauseFinder([*finder.sentences, MatterSentence("The lease binds us.", "lease §5", False)])
    assert prose.recased("the lease binds the tenant.") == "the lease binds the tenant."


def test_an_unknown_short_word_of_a_regex_is_an_initialism() -> None:
    """A regex writes "hmrc" or "ftc" in lowercase; a word no dictionary knows, of three to five
    letters, which the matter does not write, is written in capitals ("FTC"); a word the
    dictionary knows ("dot", "rent"), or one the matter writes in lowercase, is not."""
    finder = ClauseFinder([MatterSentence("The tenant pays rent to the qzx account.", "lease §2", False)])
    assert finder.recased("Ftc rules bar it, and hmrc may ask.") == "FTC rules bar it, and HMRC may ask."
    assert finder.recased("The dot rent is paid to qzx.") == "The dot rent is paid to qzx."
    assert finder.recased("The tenant pays reimbursementsx.") == "The tenant pays reimbursementsx."
    # A number the lexicon does not list, and the thesaurus's own words, are no initialism.
    assert finder.recased("Notice is due in ninety six hours.") == "Notice is due in ninety six hours."
    assert finder.recased("The tenant runs afoul of the lease.") == "The tenant runs afoul of the lease."
    # Two letters are as often a foreign word; a hyphenated word's first part is no word.
    assert finder.recased("The sublease is per se void.") == "The sublease is per se void."
    assert finder.recased("Non-Payment of rent is a breach.") == "Non-Payment of rent is a breach."


def test_us_joined_by_a_hyphen_is_the_country() -> None:
    """No pronoun is hyphenated to a word: "us-only storage" is "US-only storage"; "us"
    alone stays the pronoun it usually is ("the lease binds us")."""
    finder = ClauseFinder([MatterSentence("The lease binds us.", "lease §5", False)])
    assert finder.recased("The lease requires us-only storage.") == "The lease requires US-only storage."
    assert finder.recased("Rent is paid to a non-us account.") == "Rent is paid to a non-US account."
    assert finder.recased("Us-only storage is required.") == "US-only storage is required."
    assert finder.recased("The lease binds us only.") == "The lease binds us only."


def test_a_bare_role_is_the_matters_name_for_a_party_where_it_writes_one() -> None:
    """A regex names the parties by role ("tenant waives any claim"): where the matter writes
    "Tenant" as a party's name, so does the evidence; a role the matter never capitalizes,
    or one with a modifier ("other tenant"), is left for the checks."""
    finder = ClauseFinder([MatterSentence("The lease binds Tenant; the tenant pays rent.", "lease §1", False)])
    assert finder.recased("No law requires that tenant waives any claim.") == (
        "No law requires that Tenant waives any claim."
    )
    assert (
        finder.recased("We do not accept that the tenant waives it.") == "We do not accept that the tenant waives it."
    )
    assert finder.recased("The agent may fine landlord.") == "The agent may fine landlord."
    assert finder.recased("The agent may evict other tenant.") == "The agent may evict other tenant."


@pytest.mark.parametrize(
    ("text", "bare"),
    [
        ("The agent can fine tenant.", ["can fine tenant"]),
        ("The agent shall make whole tenant.", ["make whole tenant"]),
        ("The landlord may not evict other tenant.", ["evict other tenant"]),
        ("No law requires that tenant waives the deposit.", ["that tenant"]),
        ("The landlord may evict any other tenant, and Harwick's tenant pays tenant rent to that tenant.", []),
        ("Either party may ask the tenant and one supplier; the third party tools stay.", []),
        ('The words "tenant may sublet" are deleted.', []),  # a quotation is the clause's fragment
    ],
)
def test_a_role_in_the_singular_wants_a_determiner(text: str, bare: list[str]) -> None:
    quoted = re.sub(r'"[^"]*"', " QUOTED ", text)
    assert [role.phrase for role in bare_roles(quoted)] == bare
    assert has_bare_role(text) == bool(bare)


def test_a_bare_role_takes_its_determiner() -> None:
    """ "after tenant confirms" reads "after the tenant confirms", "of other tenant" "of the
    other tenant"; a role after a modifier "the" cannot precede ("make whole tenant") is no
    text at all, and a quotation keeps the words it quotes."""
    assert with_determiners("Rent is due after tenant confirms.") == "Rent is due after the tenant confirms."
    assert with_determiners("The landlord may evict other tenant.") == "The landlord may evict the other tenant."
    assert with_determiners("The agent shall make whole tenant.") is None
    assert with_determiners("The agent shall make tenant whole.") == "The agent shall make the tenant whole."
    # A noun only ever counted takes one too, opening the text or not; not in its idiom.
    assert with_determiners("Regulator can fine the tenant.") == "The regulator can fine the tenant."
    assert with_determiners("Rent over cap is void.") == "Rent over the cap is void."
    assert with_determiners("Subletting is prohibited by statute.") == "Subletting is prohibited by statute."
    assert with_determiners("Court will not evict the tenant.") == "The court will not evict the tenant."
    assert with_determiners("The dispute goes to court.") == "The dispute goes to court."
    # "whole" or "entire" opening a subject takes "the"; not after a determiner, nor "make whole".
    assert with_determiners("We doubt that whole building is let.") == "We doubt that the whole building is let."
    assert with_determiners("Entire rent is due.") == "The entire rent is due."
    assert with_determiners("Tenant shall pay the entire rent.") == "Tenant shall pay the entire rent."
    assert (
        with_determiners('The words "tenant may sublet" are deleted.') == 'The words "tenant may sublet" are deleted.'
    )


def test_a_heading_names_nothing() -> None:
    """A heading is written in title case ("12.1 Governing Law"): "law" there is no name,
    so "no law requires" stays lowercase; a name written inside a sentence is recased."""
    finder = ClauseFinder(
        [
            MatterSentence("12.1 Governing Law", "lease §12", False),
            MatterSentence("The lease is governed by the law of the state where Harwick sits.", "lease §12", False),
        ]
    )
    assert finder.recased("no law requires that harwick repair.") == "no law requires that Harwick repair."
    headed = ClauseFinder([MatterSentence("12.1 Governing Law", "lease §12", False)])
    assert headed.recased("no law requires it.") == "no law requires it."


def test_a_word_capitalized_only_to_open_a_sentence_is_lowercase_inside_one() -> None:
    """The matter opens a sentence with "Title to the fixtures …"; framed, it reads "We
    reject the proposal that title to the fixtures …". A word the matter capitalizes inside
    a sentence ("Premises", a defined term) and a name keep their capital, and so does what
    follows a colon or a quotation mark."""
    finder = ClauseFinder(
        [
            MatterSentence("Title to the fixtures vests in Harwick on expiry.", "lease §4", False),
            MatterSentence("The tenant shall keep the Premises in repair.", "lease §5", False),
        ]
    )
    assert (
        finder.recased("We reject the proposal that Title to the fixtures vests in Harwick.")
        == "We reject the proposal that title to the fixtures vests in Harwick."
    )
    assert (
        finder.recased("Nobody has suggested that Premises are let.") == "Nobody has suggested that Premises are let."
    )
    recital = 'Section 9.2 is deleted and replaced with: Title vests. The words "Title vests" are deleted.'
    assert finder.recased(recital) == recital
    defined = "No later than thirty (30) days after the Effective Date, title vests."
    assert finder.recased(defined) == defined


def test_a_frame_wraps_only_a_clause() -> None:
    """After "all", "repairs" is a noun: "all repairs from the first day" is no clause, and no
    frame that takes one ("It is not the case that …", "… providing that …") wraps it as it
    stands; they wrap the clause its carrier makes of it, a quotation quotes it."""
    _fire, silent = entry_texts(Gate("all repairs from the first day"), 0, "redline", Thesaurus())
    wrapping = [t.text for t in silent if t.kind.split(": ")[1] not in QUOTING]
    carried = re.compile(r"provides? for all repairs from the first day")
    assert wrapping and all(carried.search(t) for t in wrapping), wrapping
    assert any(t.kind.split(": ")[1] in QUOTING for t in silent)


QUOTING = {"deletion recital", "replacement recital", "deletion and insertion"}


def test_a_quotation_never_quotes_the_carrier() -> None:
    """A fragment completed by a carrier ("the clause is" + "void as a matter of law") is
    quoted as the gate's words; the carrier is this tool's, and no lease holds it."""
    _fire, silent = entry_texts(Gate("void as a matter of law"), 0, "redline", Thesaurus())
    quoted = [t.text for t in silent if t.kind.split(": ")[1] in QUOTING]
    assert quoted and all('"void as a matter of law"' in text for text in quoted), quoted
    assert any(t.text.startswith("It is not the case that the clause is void") for t in silent)


def test_evidence_is_ranked_most_natural_first() -> None:
    texts = [
        ("customer liability supercap", "fragment", True),
        ("The customer liability supercap applies.", "carrier", True),
        ("Customer's liability for Data Breach Claims is subject to a supercap.", "matter clause", True),
        ("Vendor will be fined by under §6.2 of the agreement regulators.", "matter clause", True),
        ("the playbook says the supercap is three times fees", None, False),
    ]
    ranked = rank(texts, lambda t: text_score(*t))
    assert [t[1] for t in ranked] == [None, "matter clause", "carrier", "fragment", "matter clause"]


def test_a_passive_rewrite_never_leaves_the_object_s_list_behind() -> None:
    gate = Gate("tenant may assign the lease")
    listed = MatterSentence("Tenant may assign the lease, the parking licence and the storage licence.", "l §7", True)
    fire, _silent = entry_texts(gate, 0, "issue", Thesaurus(), finder=ClauseFinder([listed]))
    passives = [t.text for t in fire if t.kind == "rewrite: passive voice"]
    assert not any("by Tenant, the parking licence" in text for text in passives), passives
    # Without a list after the object, the passive is written around the clause.
    alone = MatterSentence("Tenant may assign the lease to any affiliate.", "lease §7", True)
    fire, _silent = entry_texts(gate, 0, "issue", Thesaurus(), finder=ClauseFinder([alone]))
    assert "The lease may be assigned by Tenant to any affiliate." in [t.text for t in fire]


@pytest.mark.parametrize(
    ("after", "goes_on"),
    [
        (" membrane within ten days", True),  # the core cut its noun: "the roof| membrane"
        (", the gutters and the walls", True),  # a list
        (" within ten days of notice", False),
        (" that the survey finds", False),
        (" promptly", False),
        ("", False),
    ],
)
def test_a_passive_does_not_move_an_object_the_core_cut(after: str, goes_on: bool) -> None:
    from rubric_tools.audit.completion import Completion

    assert Completion("", "tenant shall repair the roof", after, "matter clause").continues_core() is goes_on


@pytest.mark.parametrize(
    ("text", "unnatural"),
    [
        ("Landlord hereby irrevocably assign to Tenant all fixtures.", True),  # adverbs do not hide it
        ("The tenants promptly pays the rent.", True),
        ("Landlord hereby irrevocably assigns to Tenant all fixtures.", False),
        ("The tenant shall not assign the lease.", False),
        # A hyphenated word before a base form is as often a compound modifier.
        ("Tenant pays the landlord's then-current rent.", False),
    ],
)
def test_a_subject_and_its_verb_agree_across_adverbs(text: str, unnatural: bool) -> None:
    assert bool(problems(text)) is unnatural


@pytest.mark.parametrize(
    ("words", "clause"),
    [
        ("landlord may terminate", "the landlord may terminate the lease at once"),
        ("tenant assigns", "the tenant assigns the lease"),
    ],
)
def test_a_subordinate_clause_ends_at_its_comma(words: str, clause: str) -> None:
    """ "If the tenant assigns the lease, the landlord may terminate …" holds two clauses;
    "the tenant assigns the lease, the landlord may terminate …" is neither."""
    text = "If the tenant assigns the lease, the landlord may terminate the lease at once."
    start = text.index(words)
    bounds = smallest_clause(text, start, start + len(words))
    assert bounds is not None and text[bounds[0] : bounds[1]] == clause


def test_a_passive_does_not_leave_the_subject_s_determiner_behind() -> None:
    from rubric_tools.audit.completion import Completion

    assert Completion("The ", "statute bars all subletting", ".", "matter clause").cuts_subject()
    assert not Completion("", "the statute bars all subletting", ".", "matter clause").cuts_subject()
    assert not Completion("Since 2020 ", "the statute bars all subletting", ".", "matter clause").cuts_subject()


def test_a_rewrite_of_a_clause_no_lawyer_would_write_is_left_out_too() -> None:
    """ "The clause is perpetual its other." is refused (an adjective before a determiner);
    its synonym swap "… everlasting its other" is as bad, though "everlasting" is also a noun."""
    from rubric_tools.audit.thesaurus import build

    fire, _silent = entry_texts(Gate("perpetual[^.]{0,20}its other"), 0, "issue", build())
    assert not [t.text for t in fire if "its other" in t.text and t.kind != "witness"]


def test_a_subject_the_matter_writes_with_its_the_is_written_so() -> None:
    """A matter that writes "the Addendum" (twice or more, more often than bare, a cited
    "Addendum §4" aside; an initialism once and never bare: "the HOA") has a definite term: a
    generated clause opening with it bare writes its "the" ("The Addendum does not permit
    subletting."), also after "that" or a colon; a party's name the matter writes bare
    keeps none."""
    sentences = [
        MatterSentence("Under the Addendum, rent is due monthly.", "lease §2", False),
        MatterSentence(
            "Tenant may not waive the Addendum without consent; see Addendum §4 and Addendum 4.2.", "lease §4", False
        ),
        MatterSentence("Landlord shall repair the roof and notify the HOA.", "lease §5", False),
    ]
    finder = ClauseFinder(sentences)
    assert finder.casing.definite == {"addendum": "Addendum", "hoa": "HOA"}
    fire, silent = entry_texts(Gate("addendum permits subletting"), 0, "issue", Thesaurus(), finder=finder)
    texts = [t.text for t in (*fire, *silent) if t.kind != "witness"]
    assert "The Addendum does not permit subletting." in texts
    assert "We do not accept that the Addendum permits subletting." in texts
    assert "Section 9.2 is deleted and replaced with: the Addendum permits subletting." in texts
    assert not any(re.search(r"(?<!the )\bAddendum permits", t, re.IGNORECASE) for t in texts), texts
    # "Landlord" is written bare: no "the" goes before it.
    fire, _silent = entry_texts(Gate("landlord shall repair"), 0, "issue", Thesaurus(), finder=finder)
    assert not any("the Landlord" in t.text or "The Landlord" in t.text for t in fire)
    fire, _silent = entry_texts(Gate("hoa may fine the tenant"), 0, "issue", Thesaurus(), finder=finder)
    assert "We do not accept that the HOA may fine the tenant." in [t.text for t in _silent]


def test_a_definite_term_takes_the_only_as_a_subject() -> None:
    from rubric_tools.audit.noun_phrases import with_definite_terms

    definite = {"lease": "Lease", "msa": "MSA"}
    assert with_definite_terms("Lease cannot be assigned.", definite) == "The Lease cannot be assigned."
    assert (
        with_definite_terms("MSA requires notice; MSA governs.", definite)
        == "The MSA requires notice; the MSA governs."
    )
    assert with_definite_terms("Tenant signs Lease schedules.", definite) == "Tenant signs Lease schedules."
    assert with_definite_terms("Lease premises are vacant.", definite) == "Lease premises are vacant."


def test_a_definite_term_takes_the_as_a_whole_object_of_a_preposition() -> None:
    from rubric_tools.audit.noun_phrases import with_definite_terms

    definite = {"lease": "Lease", "msa": "MSA"}
    assert with_definite_terms("Subletting is barred by Lease.", definite) == "Subletting is barred by the Lease."
    assert (
        with_definite_terms("Notice is required under MSA; rent is due.", definite)
        == "Notice is required under the MSA; rent is due."
    )
    # A noun it modifies follows, or a name the matter writes bare: left as it stands.
    assert with_definite_terms("Rent is set by Lease schedules.", definite) == "Rent is set by Lease schedules."
    assert with_definite_terms("Rent is paid to Landlord.", definite) == "Rent is paid to Landlord."


def test_a_clause_the_gate_matches_twice_is_not_negated_at_one_match() -> None:
    # "… may enter the premises and may enter the garage": negating the first "may enter"
    # leaves the second asserting the sin; the frames around the whole clause still stand.
    gate = Gate("landlord may enter")
    twice = MatterSentence("The landlord may enter the premises and the landlord may enter the garage.", "p:1", True)
    once = MatterSentence("The landlord may enter the premises at any hour.", "p:1", True)

    def kinds(sentence: MatterSentence) -> set[str]:
        _fire, silent = entry_texts(gate, 0, "issue", Thesaurus(), finder=ClauseFinder([sentence]))
        return {text.kind for text in silent}

    assert "frame: negated predicate" in kinds(once)
    assert "frame: negated predicate" not in kinds(twice)
    assert "frame: state-then-negate" in kinds(twice)


def test_a_finding_shows_each_sentence_once(tmp_path: Path) -> None:
    # Both witnesses ("shall", "will") complete into the matter's one clause: their rewrites
    # and frames read alike, and a finding shows each text once.
    gates = "    critical_failure_patterns:\n      - 'provider (?:shall|will) withhold the credit'\n"
    guide = "Our position: the provider shall withhold the credit after any outage is unacceptable drafting."
    diagnostics = audit(make_matter(tmp_path / "m", gates, guide=guide), AuditSection(max_evidence=100))
    shown = [[e["sentence"] for e in d.extra["evidence"]] for d in diagnostics if d.code in ("U002", "U003", "U004")]  # type: ignore[attr-defined]
    assert codes(diagnostics, "U004") and shown
    for sentences in shown:
        assert len(sentences) == len(set(sentences)), sentences


def test_a_witness_holding_the_required_words_is_framed_and_reworded_in_place_of_those_given_them() -> None:
    """The gate requires "lawfully": "the tenant cannot lawfully assign the premises" holds it
    where a drafter writes it; "the tenant cannot assign the premises lawfully" has it written
    after. The evidence is built from the first, and its rewordings too."""
    gate = Gate(
        r"(?:the )?tenant cannot (?:lawfully )?(?:assign|sublet) the premises",
        require_context=r"\b(?:lawfully|legally)\b",
    )
    fire, silent = entry_texts(gate, 0, "issue", Thesaurus())
    generated = [t.text for t in fire if t.kind != "witness"] + [t.text for t in silent]
    assert generated and not any(re.search(r"premises,? lawfully", text) for text in generated), generated
    assert "We do not accept that the tenant cannot lawfully assign the premises." in generated
    assert any(t.kind.startswith("rewrite: synonym: assign") and "lawfully" in t.text for t in fire)
