"""A contrast's family as an exclusion writes it: the terms that revise a figure ("reduced
from", "replacing") only beside a sin that names a figure, so that the budget they would
spend beside a clause or a term goes to the contrasts that do apply there ("rather than",
"as opposed to", "instead of")."""

from __future__ import annotations

from rubric_tools.audit.markers import TERMS
from rubric_tools.audit.scoped_guards import EXCLUSION_BUDGET, budget_length, scoped_exclusions, scopes_for
from rubric_tools.scoring.gates import Gate
from rubric_tools.scoring.text import normalize

#: The terms that revise a figure, as an exclusion writes them.
FIGURE_TERMS = [term.loose for term in TERMS if term.figures_only]


def _contrast_families(pattern: str, evidence: list[str], surface: str) -> list[str]:
    """The exclusions proposed that hold the contrast's family (its "rather than" and its
    "as opposed to" both), each within the budget."""
    found = scoped_exclusions(pattern, evidence, scopes_for(surface))
    assert all(budget_length(e.added) <= EXCLUSION_BUDGET for e in found)
    return [e.regex for e in found if "rather than" in e.added and "as opposed to" in e.added]


def test_the_terms_that_revise_a_figure_are_those_of_a_revised_figure() -> None:
    assert FIGURE_TERMS, "some contrast terms revise a figure"
    assert all(next(t for t in TERMS if t.loose == loose).kind == "contrasted" for loose in FIGURE_TERMS)
    assert not any(term.figures_only for term in TERMS if term.loose in (r"\brather than\b", r"\bas opposed to\b"))


def test_beside_a_term_the_contrast_family_leaves_out_the_terms_that_revise_a_figure() -> None:
    pattern = r"\btenant may sublet the premises"
    evidence = ["Section 9.3 applies in place of any term providing that tenant may sublet the premises."]
    families = _contrast_families(pattern, evidence, "redline")
    assert families, "the contrast written as its family"
    for regex in families:
        assert not any(term in regex for term in ("reduced", "replacing")), regex
        gate = Gate(pattern, exclude_context=regex)
        for disowned in (
            "The parties adopt a consent requirement as opposed to a right under which tenant may sublet the premises.",
            "Landlord's consent is required, instead of a clause by which tenant may sublet the premises.",
        ):
            assert not gate.fires(normalize(disowned)), (disowned, regex)
        assert gate.fires(normalize("Tenant may sublet the premises without the landlord's consent."))


def test_beside_a_figure_the_contrast_family_keeps_the_terms_that_revise_it() -> None:
    pattern = r"\b(?:eighteen|18) months"
    evidence = ["The parties agree a shorter figure, reduced from eighteen months."]
    families = _contrast_families(pattern, evidence, "redline")
    assert families and all("reduced" in regex and "replacing" in regex for regex in families), families
    gate = Gate(pattern, exclude_context=families[0])
    for disowned in (
        "The tail runs for twelve months, down from eighteen months.",
        "The tail runs for twelve months rather than eighteen months.",
    ):
        assert not gate.fires(normalize(disowned)), disowned
    assert gate.fires(normalize("The tail runs for eighteen months after termination."))
