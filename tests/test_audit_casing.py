"""A matter's casing (`audit.casing.MatterCasing`) is read from all its sentences at once:
what it finds is what it finds in each sentence alone, whatever stands at a sentence's
ends (a name, a term, a capital opening it, a line break inside one)."""

from __future__ import annotations

from rubric_tools.audit.casing import MatterCasing

SENTENCES = [
    "The Landlord shall repair the roof within 30 days.",
    "Tenant may sublet the Premises with the consent of Harbour Estates",
    "Rent is payable to Harbour Estates.",
    "Under the Lease the Tenant pays the Service Charge monthly;",
    "the service charge covers the Common Parts.",
    "Harbour Estates' agent collects it for Quill.\nQuill reports to the Landlord.",
    "Notices go to the landlord at its registered office.",
]


def test_reading_the_sentences_together_is_reading_each_alone() -> None:
    together = MatterCasing(SENTENCES)
    alone = [MatterCasing([sentence]) for sentence in SENTENCES]
    assert together.lowercase == frozenset().union(*(c.lowercase for c in alone))
    assert together.capitalized == frozenset().union(*(c.capitalized for c in alone))
    assert together.vocabulary == frozenset().union(*(c.vocabulary for c in alone))
    names: dict[str, str] = {}
    for casing in reversed(alone):  # the first sentence that writes a name decides its form
        names.update(casing.names)
    assert together.names == {k: v for k, v in names.items() if k not in together.lowercase}
    assert together.names["quill"] == "Quill"
    assert "harbour" in together.names and "landlord" not in together.names  # "the landlord" in lowercase too


def test_a_word_at_a_sentence_end_is_not_read_with_the_next_sentence() -> None:
    casing = MatterCasing(["Rent is due to Harbour", "Estates are let."])
    assert "harbour estates" not in casing.terms  # two sentences' words, not one term
    assert "estates" not in casing.capitalized  # it opens its sentence
