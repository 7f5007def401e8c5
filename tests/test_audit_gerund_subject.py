"""Issue 22, item 3: the widening step `passive` also writes an extraposed clause with its
act as the subject ("it is unlawful to sublet" -> "subletting … is unlawful"), on a gate
that has the extraposed shape, and on none that does not."""

from __future__ import annotations

from rubric_tools.audit.clauses import ClauseFinder, MatterSentence
from rubric_tools.audit.gerund_subject import gerund, gerund_subject_clause
from rubric_tools.audit.naturalness import problems
from rubric_tools.audit.texts import entry_texts
from rubric_tools.audit.thesaurus import Thesaurus, build
from rubric_tools.audit.widening import widen_voice, widen_words
from rubric_tools.scoring.gates import Gate
from rubric_tools.scoring.text import normalize

THESAURUS = build()


def _fires(pattern: str, text: str) -> bool:
    return Gate(pattern).fires(normalize(text))


def test_an_extraposed_status_also_reads_with_the_act_as_its_subject() -> None:
    gate = "it is unlawful for the tenant to sublet the premises"
    assert not _fires(gate, "Subletting the premises is unlawful for the tenant.")  # the defect
    widened = widen_voice(gate, THESAURUS) or ""
    assert _fires(widened, "Subletting the premises is unlawful for the tenant.")
    assert _fires(widened, "It is unlawful for the tenant to sublet the premises.")  # the author's own clause
    # The predicate's own negation is the opposite claim: never read as the sin.
    assert not _fires(widened, "Subletting the premises is not unlawful for the tenant.")


def test_a_status_without_it_an_optional_party_and_a_group_of_verbs() -> None:
    gate = r"(?:unlawful|illegal|prohibited by law)\s+(?:for\s+the\s+tenant\s+)?to\s+(?:sublet|assign)"
    widened = widen_voice(gate, THESAURUS) or ""
    assert _fires(widened, "Subletting any part of the premises is illegal under the housing code.")
    assert _fires(widened, "Assigning the lease would be prohibited by law.")
    assert _fires(widened, "Subletting the premises is plainly unlawful.")  # an adverb before the predicate
    # An optional party is left out of the gerund's clause; the sentence stays one clause.
    assert not _fires(widened, "Subletting is common; it is unlawful elsewhere.")
    # A phrase of several words closed by the law that sets the status.
    several = widen_voice(r"not permitted by law\s+to\s+(?:sublet|assign)", THESAURUS) or ""
    assert _fires(several, "Subletting the premises is not permitted by law.")


def test_a_predicate_a_subject_may_have_raised_is_no_extraposition() -> None:
    # "Tenant is permitted to sublet": the tenant's own infinitive, no status of an act.
    assert widen_voice("(?:permitted|entitled) to sublet", THESAURUS) is None
    assert widen_voice("free to assign the lease", THESAURUS) is None
    # After "it is" the same word states the act's status.
    widened = widen_voice("it is permitted to sublet the premises", THESAURUS) or ""
    assert _fires(widened, "Subletting the premises is permitted.")
    # A word that is no status ("the tenant agrees to sublet") is left alone.
    assert "subletting" not in (widen_voice("the tenant agrees to sublet", THESAURUS) or "")


def test_the_gerund_of_a_known_verb_a_phrasal_verb_and_an_unknown_one() -> None:
    assert gerund("sublet") == "subletting"
    assert gerund("enter into") == "entering into"
    assert gerund("onboard") == "onboarding"  # unknown to the lexicon: two consonants end it
    assert gerund("outsource") == "outsourcing"  # a silent "e" dropped
    assert gerund("premises") is None  # a noun: no gerund
    assert gerund("flibet") is None  # a single vowel before its consonant may double it, or not


def test_the_rewrite_puts_the_act_first_in_a_whole_sentence() -> None:
    assert (
        gerund_subject_clause("It is unlawful for the tenant to sublet the premises.")
        == "Subletting the premises is unlawful for the tenant."
    )
    would = gerund_subject_clause("It would be unlawful to assign the lease.")
    assert would == "Assigning the lease would be unlawful."
    # The status ends at the "to" a verb follows: "contrary to law" keeps its own "to".
    assert (
        gerund_subject_clause("It is contrary to law for the landlord to enter into the lease.")
        == "Entering into the lease is contrary to law for the landlord."
    )
    assert gerund_subject_clause("It is not unlawful to sublet the premises.") is None  # the status's own "not"
    assert gerund_subject_clause("It is likely to rain.") is None  # no act: a raised infinitive
    assert gerund_subject_clause("Tenant may sublet the premises.") is None  # not extraposed


def test_an_extraposed_sin_is_evidence_in_its_gerund_form() -> None:
    gate = Gate("unlawful for the tenant to sublet")
    clause = MatterSentence("It is unlawful for the tenant to sublet the premises.", "lease §9", True)
    fire, _silent = entry_texts(gate, 0, "issue", Thesaurus(), finder=ClauseFinder([clause]))
    rewrites = [t.text for t in fire if t.kind == "rewrite: gerund subject"]
    assert rewrites == ["Subletting the premises is unlawful for the tenant."]
    assert not gate.fires(normalize(rewrites[0]))  # the gate's defect, which the widening repairs


def test_the_object_of_an_opening_gerund_is_no_subject_of_is() -> None:
    # "Subletting the premises is unlawful": the act is the subject, "the premises" its object.
    assert problems("Subletting the premises is unlawful for the tenant.") == []
    assert "disagreement: premises is" in problems("The premises is unlawful for the tenant.")


def test_the_status_group_holds_each_prohibition_by_law() -> None:
    # "prohibited by law" beside the other verbs of prohibition, in the same participle.
    gate = "it is prohibited by law to sublet the premises"
    assert not _fires(gate, "It is forbidden by law to sublet the premises.")  # the defect
    widened = widen_words(gate, THESAURUS) or ""
    assert _fires(widened, "It is forbidden by law to sublet the premises.")
    assert _fires(widened, "It is barred by law to sublet the premises.")
