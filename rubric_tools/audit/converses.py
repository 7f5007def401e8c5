"""The converse of a clause, for the widening step `passive`: a verb whose converse states
the same relation with the two parties swapped (`thesaurus_groups.CONVERSE_VERBS`), written
beside the clause's passive ("provider owns the deliverables" also as "the deliverables
vest in provider", "… belong to provider", beside "… are owned by provider")."""

from __future__ import annotations

from collections.abc import Sequence

from rubric_tools.audit import lexicon
from rubric_tools.audit.clause_slots import NEGATOR_FREE_ADVERB, NEGATOR_FREE_GAP
from rubric_tools.audit.thesaurus_groups import CONVERSE_VERBS

#: The forms a converse's verb takes after its subject: the base form after a plural or a
#: modal, the third person, the past ("vest", "vests", "vested").
_FINITE_TAGS = ("VB", "VBZ", "VBD")


def converses_of(verbs: Sequence[str], subject: str, obj: str, tail: str) -> list[str]:
    """The clause "SUBJECT VERB OBJECT TAIL" with its parties swapped by a converse verb:
    "OBJECT … VERBs in/to SUBJECT TAIL", with a modal or none, no negator before the verb.
    Where the clause names no object (`obj` empty), the converse opens with its verb ("…
    vests in provider"), as the passive opens with "is owned by". [] for verbs with no
    converse, or a phrase ("holds all right")."""
    converses = sorted(
        {
            pair
            for word in verbs
            if " " not in word
            for lemma in lexicon.lemmas(word).get("VERB", ())
            for pair in CONVERSE_VERBS.get(lemma, ())
        }
    )
    if not converses:
        return []
    forms = "|".join(
        rf"{lexicon.alternation(_finite_forms(verb))}\s+{NEGATOR_FREE_ADVERB}{preposition}"
        for verb, preposition in converses
    )
    converse = rf"\b(?:(?:shall|will|must)\s+)?(?:{forms})\s+(?:the\s+)?(?:{subject})"
    return [f"{obj}{NEGATOR_FREE_GAP}{converse}{tail}" if obj else f"{converse}{tail}"]


def _finite_forms(verb: str) -> list[str]:
    return [form for tag in _FINITE_TAGS if (form := lexicon.verb_form(verb, tag)) is not None]
