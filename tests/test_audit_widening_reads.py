"""Issue 22, item 3: a widened gate reads as English where it stands, and widening it again
adds nothing (the fix loop widens the gates it has widened). Each rule with a gate that has
the defect and one that does not; a property test of the fixed point on lease gates."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from rubric_tools.audit.pattern_spellings import flattened
from rubric_tools.audit.thesaurus import build
from rubric_tools.audit.widening import widen_words
from rubric_tools.scoring.gates import Gate
from rubric_tools.scoring.text import normalize

THESAURUS = build()


def _widened(pattern: str) -> str:
    return widen_words(pattern, THESAURUS) or pattern


def _fires(pattern: str, text: str) -> bool:
    return Gate(pattern).fires(normalize(text))


def test_a_modal_before_not_takes_only_the_other_modals() -> None:
    negated = _widened("tenant may not sublet the premises")
    assert _fires(negated, "Tenant can not sublet the premises.")
    assert not _fires(negated, "Tenant is entitled to not sublet the premises.")
    assert not _fires(negated, "Tenant has the right to not sublet the premises.")
    # Without "not" the modal takes its whole group.
    assert _fires(_widened("tenant may sublet the premises"), "Tenant is entitled to sublet the premises.")


def test_a_passive_participle_keeps_its_form_and_a_past_tense_takes_the_verbs() -> None:
    passive = _widened("tenant is entitled to sublet")
    assert _fires(passive, "Tenant is permitted to sublet.")
    assert not _fires(passive, "Tenant is entitling to sublet.")
    assert not _fires(passive, "Tenant is entitles to sublet.")
    # "agreed to" after its subject is a past tense: the verbs' forms, no passive participles.
    past = _widened("guarantor agreed to indemnify")
    assert _fires(past, "Guarantor agrees to indemnify.") and _fires(past, "Guarantor shall indemnify.")
    assert not _fires(past, "Guarantor been obliged to indemnify.")


def test_after_its_subject_a_phrase_takes_no_be_or_been() -> None:
    obliged = _widened("tenant is obliged to repair the roof")
    assert _fires(obliged, "Tenant was required to repair the roof.")
    assert not _fires(obliged, "Tenant been required to repair the roof.")
    assert not _fires(obliged, "Tenant be required to repair the roof.")
    # After a modal "be" is what reads: the same phrase there keeps it.
    assert _fires(
        _widened("tenant shall be obliged to repair the roof"), "Tenant shall be required to repair the roof."
    )


def test_a_subject_before_is_or_a_third_person_verb_takes_noun_forms() -> None:
    for pattern in ("tenant is obliged to repair", "tenant makes use of the premises"):
        widened = _widened(pattern)
        assert _fires(widened, pattern.replace("tenant", "tenants", 1)), widened
        assert not _fires(widened, pattern.replace("tenant", "tenanting", 1)), widened


def test_widening_a_widened_gate_adds_nothing() -> None:
    for pattern in (
        "tenant makes use of the premises",
        "landlord shall not withhold consent",
        "guarantor agreed to indemnify the landlord",
        "tenant is entitled to sublet",
    ):
        once = _widened(pattern)
        assert once != pattern
        assert widen_words(flattened(once), THESAURUS) in (None, once), pattern
    twice = flattened(_widened(flattened(_widened("tenant makes use of the premises"))))
    assert not _fires(twice, "Tenant makes uses of the premises.")
    assert not _fires(twice, "Tenant stores indemnified.")


_SUBJECTS = ["tenant", "the landlord", "any subtenant", "the guarantor"]
_MODALS = ["may", "shall", "must", "will", "is entitled to", "agrees to", "is required to", "has the right to", "can"]
_VERBS = [
    "sublet",
    "assign",
    "use",
    "withhold",
    "return",
    "retain",
    "indemnify",
    "hold harmless",
    "make use of",
    "repair",
]
_OBJECTS = ["the premises", "the deposit", "consent", "the lease", "any fixtures", "rent"]


@settings(max_examples=60, deadline=None)
@given(
    st.sampled_from(_SUBJECTS),
    st.sampled_from(_MODALS),
    st.booleans(),
    st.sampled_from(_VERBS),
    st.sampled_from(_OBJECTS),
)
def test_widening_is_a_fixed_point_on_lease_gates(subject: str, modal: str, negated: bool, verb: str, obj: str) -> None:
    pattern = f"{subject} {modal} {'not ' if negated else ''}{verb} {obj}"
    once = widen_words(pattern, THESAURUS)
    if once is not None:
        again = widen_words(flattened(once), THESAURUS)
        assert again is None or flattened(again) == flattened(once), (pattern, once, again)
