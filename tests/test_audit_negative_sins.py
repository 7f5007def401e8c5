"""A negative sin's own negator may be written in any form (issue 22, item 2: a guard never
silences a sin whose negator is part of the sin itself).

A gate on "Tenant cannot sublet the premises" states a prohibition as its sin. The same sin
is written "Tenant can't sublet …", "in no event may Tenant sublet …", or after a condition
that holds a negator of its own ("Without the consent of Landlord, Tenant cannot sublet
…"). An exclusion that keyed a negator of another form before the sin's words would
silence those catches: every negator is the negative sin's own."""

from __future__ import annotations

from rubric_tools.audit.guard_key_choice import Keys, own_terms
from rubric_tools.audit.markers import DISOWNING_NEGATOR
from rubric_tools.audit.scoped_guards import scoped_exclusions, scopes_for
from rubric_tools.scoring.gates import Gate, run_gates
from rubric_tools.scoring.text import normalize

NEGATIVE = r"(?:landlord|tenant)\s+(?:cannot|may not)\s+(?:lawfully\s+)?sublet\s+(?:the\s+)?premises"
POSITIVE = r"(?:landlord|tenant)\s+may\s+(?:lawfully\s+)?sublet\s+(?:the\s+)?premises"
CORRECT_WORK = [
    "Nobody has suggested that Tenant cannot sublet the premises.",
    "If we accepted that Tenant cannot sublet the premises, the client would carry that risk.",
]


def _fires(gate: Gate, text: str) -> bool:
    return bool(run_gates((gate,), normalize(text), 1.0).fired)


def test_every_negator_is_a_negative_sins_own() -> None:
    own = own_terms(["tenant cannot sublet the premises"], Keys(before="premises", after="premises"))
    spelled = {term.loose for term in own}
    assert {r"\bnever\b", r"\bwithout\b", r"n['’]t\b"} <= spelled
    # A privative word names the sin's thing, negating no verb: only it is the sin's own, and
    # "no representation is made without inquiry" is still negated by its "no".
    privative = {term.loose for term in own_terms(["made without inquiry"], Keys(before="inquiry", after="inquiry"))}
    assert r"\bwithout\b" in privative and r"\bnot?\b" not in privative
    # ... but the negator that governs a clause stating the sin ("we do not accept that …").
    assert DISOWNING_NEGATOR not in spelled
    # A positive sin's negators are scoped word by word: none is its own, and the term for a
    # governed clause, which says the same twice, is left out.
    positive = own_terms(["tenant may sublet the premises"], Keys(before="premises", after="premises"))
    assert {term.loose for term in positive} == {DISOWNING_NEGATOR}


def test_no_exclusion_keys_a_negator_before_a_negative_sin() -> None:
    found = scoped_exclusions(NEGATIVE, CORRECT_WORK, scopes_for("settlement"))
    assert found
    sins = [
        "Without the consent of Landlord, Tenant cannot sublet the premises.",
        "Tenant cannot sublet the premises and never will.",
        "No consent having been given, Tenant may not sublet the premises.",
    ]
    for exclusion in found:
        assert all(_fires(Gate(NEGATIVE, exclude_context=exclusion.regex), sin) for sin in sins), exclusion.regex
    # A negator that governs a clause stating the sin disowns it.
    disowned = "Neither party shall agree that Tenant cannot sublet the premises."
    assert any(not _fires(Gate(NEGATIVE, exclude_context=e.regex), disowned) for e in found)
    # The correct work is still silenced, by the markers that are not negators.
    assert any(not any(_fires(Gate(NEGATIVE, exclude_context=e.regex), text) for text in CORRECT_WORK) for e in found)


def test_a_positive_sin_keeps_its_negator_exclusions() -> None:
    correct_work = ["It is not the case that Tenant may sublet the premises."]
    found = scoped_exclusions(POSITIVE, correct_work, scopes_for("settlement"))
    assert any("not?" in e.regex for e in found)
    assert all(DISOWNING_NEGATOR not in e.regex for e in found)


def test_a_negated_alternative_a_widening_added_leaves_a_positive_sin_positive() -> None:
    """A thesaurus group writes "unenforceable" also as "not enforceable": the sin, as its
    typical witness states it, negates no verb, and a negator before it still disowns it."""
    sins = ["the rent increase is void", "the rent increase is unenforceable", "the rent increase is not enforceable"]
    before_the_key = {t.loose for t in own_terms(sins, Keys(before="increase", after="increase")) if t.side == "before"}
    assert r"\bnot?\b" not in before_the_key and r"n['’]t\b" not in before_the_key
    pattern = r"the rent increase is (?:void|unenforceable|not enforceable)"
    correct_work = ["It is not the case that the rent increase is void."]
    found = scoped_exclusions(pattern, correct_work, scopes_for("issue"))
    assert any(not _fires(Gate(pattern, exclude_context=e.regex), correct_work[0]) for e in found)
