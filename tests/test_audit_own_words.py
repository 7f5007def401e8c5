"""An alternative of a gate that the matter never states is negated in its own words.

A gate list written against one clause often holds alternatives the matter has no clause
for (`tenant owns|the fixtures are tenant's property`). Completing every witness into the
one clause the matter has frames only that alternative: the others get no correct work,
and no guard is written for the way a lawyer negates them ("Tenant owns no right in the
fixtures"). Each is negated in its own words where they make a clause; the matter's clause
stays the one its frames wrap."""

from __future__ import annotations

from rubric_tools.audit.clauses import ClauseFinder, MatterSentence
from rubric_tools.audit.completion import complete_alone, repair_object
from rubric_tools.audit.negations import negated_clauses
from rubric_tools.audit.proposals import propose_entry
from rubric_tools.audit.texts import entry_texts
from rubric_tools.audit.thesaurus import Thesaurus
from rubric_tools.audit.verification import EntryTexts
from rubric_tools.scoring.gates import Gate, run_gates
from rubric_tools.scoring.text import normalize

OWNERSHIP = Gate(r"tenant (?:owns|shall own)|the fixtures are tenant's property|vests in tenant")
CLAUSE = MatterSentence("The fixtures are Tenant's property.", "lease §7", True)  # the clause under review


def _fires(gate: Gate, text: str) -> bool:
    return bool(run_gates((gate,), normalize(text), 1.0).fired)


def test_a_verb_of_ownership_takes_a_neutral_object_and_nothing_negates_it() -> None:
    assert repair_object("tenant owns") == "tenant owns this"
    assert complete_alone("tenant owns", OWNERSHIP).text == "tenant owns this"
    negations = dict(negated_clauses("Tenant owns this", (0, len("Tenant owns"))))
    assert negations["negated object"] == "Tenant owns nothing"
    assert negations["negated predicate"] == "Tenant does not own this"


def test_an_alternative_the_matter_does_not_state_is_negated_in_its_own_words() -> None:
    _fire, silent = entry_texts(OWNERSHIP, 0, "redline", Thesaurus(), finder=ClauseFinder([CLAUSE]))
    texts = {t.text for t in silent}
    assert "Tenant owns nothing." in texts
    assert "Tenant does not own this." in texts
    # Only its negations: the frames around it stay the matter's clause, the evidence a
    # lawyer reads first.
    assert "It is not the case that Tenant owns this." not in texts
    assert "It is not the case that the fixtures are Tenant's property." in texts
    # An alternative that is no clause by itself is not put in a carrier beside the matter's
    # clause ("this agreement vests in Tenant" reads as no lawyer writes).
    assert not any("this agreement vests" in text.lower() for text in texts)


def test_the_negated_object_of_an_unstated_alternative_is_guarded_losing_no_catch() -> None:
    _fire, silent = entry_texts(OWNERSHIP, 0, "redline", Thesaurus(), finder=ClauseFinder([CLAUSE]))
    correct = [t.text for t in silent if t.kind == "frame: negated object"]
    sins = ["Tenant owns all fixtures installed during the term.", "The fixtures are Tenant's property."]
    proposal = propose_entry(EntryTexts((OWNERSHIP,), 0, "redline", sins, [], correct, []))
    assert proposal is not None
    assert proposal.verified
    guarded = proposal.after
    assert not _fires(guarded, "Tenant owns no right, title or interest in the fixtures.")
    assert all(_fires(guarded, sin) for sin in sins)
