"""How a clause uses a phrase, read from its words without a tagger: as a verb (the clause's
verb, an infinitive after a modal or "to") or as a noun (after a determiner, before a
modal, inside a compound, ending the verb's object); otherwise undecided. The synonym
swaps (`synonym_swaps`) read it to take only the members of the thesaurus's groups that
are used the same way ("the law caps fees" takes no "ceiling", "covers data breach" no
"data offend").
"""

from __future__ import annotations

from collections.abc import Sequence

from rubric_tools.audit import lexicon
from rubric_tools.audit.grammar import DETERMINERS


def phrase_reading(words: Sequence[str], start: int, size: int, verb_at: int | None) -> str | None:
    """How the clause uses the phrase of `size` words at `start`: the clause's verb as a
    verb ("the law caps fees" takes no "ceiling"), a word after a determiner as a noun
    ("gives us an exit" takes no "an terminate"), and so is one right before a modal, the
    head of the clause's subject ("penalties will be assessed" takes no "penalizes"), and
    a compound's noun ("data breach claims": no "data offend") and a preposition's object
    ("notice of breach": no "notice of violate"); otherwise the thesaurus decides."""
    if start == verb_at or _infinitive_at(words, start):
        return "VERB"
    before_a_modal = start + size < len(words) and words[start + size] in lexicon.MODALS
    # A compound's noun: between two nouns ("data breach claims", not "landlord fines the
    # tenant"), or after a determiner and a noun ("the repair covenant to survive").
    compound = start > 1 and words[start - 2] in DETERMINERS and noun_modifier(words[start - 1])
    between_nouns = 0 < start and start + size < len(words) and start - 1 != verb_at
    after_a_noun = between_nouns and noun_modifier(words[start - 1]) and noun_modifier(words[start + size])
    after_a_determiner = start > 0 and words[start - 1] in DETERMINERS
    ends_the_object = _ends_the_object(words, start, size, verb_at)
    noun_reading = after_a_determiner or before_a_modal or after_a_noun or compound or ends_the_object
    return "NOUN" if noun_reading or _object_of_a_preposition(words, start) else None


#: Prepositions whose object is a noun phrase, never a clause ("notice of breach", "liable
#: for breach"); not those that also open a clause ("after the tenant pays", "once losses
#: exceed") nor the "to" of an infinitive.
_NOUN_PREPOSITIONS = frozenset(
    "of for in on at with into under upon by from per via against during within without between among "
    "regarding concerning including over through across".split()
)


def _object_of_a_preposition(words: Sequence[str], start: int) -> bool:
    """Whether the word at `start` opens a preposition's object ("notice of breach": no
    "notice of violate"), other than a gerund ("prohibited from selling" keeps its verb)."""
    return start > 0 and words[start - 1] in _NOUN_PREPOSITIONS and not words[start].endswith("ing")


#: What a bare infinitive follows: a modal, "to", or the "do" of a negation ("does not").
_BEFORE_AN_INFINITIVE = frozenset((*lexicon.MODALS, "to", "do", "does", "did"))


def _infinitive_at(words: Sequence[str], start: int) -> bool:
    """Whether the word at `start` is a verb's infinitive: after a modal or "to", a "not" or
    "never" between ("shall not breach": no "shall not incident")."""
    at = start - 1
    if at >= 0 and words[at] in ("not", "never"):
        at -= 1
    return at >= 0 and words[at] in _BEFORE_AN_INFINITIVE


def _ends_the_object(words: Sequence[str], start: int, size: int, verb_at: int | None) -> bool:
    """Whether the phrase ends the clause right after a noun of the verb's object ("covers
    data breach": no "covers data offend"): the object's head. Not after a verb that takes a
    bare infinitive ("lets the landlord repair")."""
    if verb_at is None or start + size != len(words) or start - 1 <= verb_at:
        return False
    verb = lexicon.lemmas(words[verb_at]).get("VERB", (words[verb_at],))[0]
    return verb not in lexicon.BARE_INFINITIVE_VERBS and noun_modifier(words[start - 1])


def noun_modifier(word: str) -> bool:
    """A word the lexicon lists as a noun, no function word ("lease" in "lease breach claims")."""
    return word.isalpha() and word not in lexicon.FUNCTION_WORDS and "NOUN" in lexicon.lemmas(word)
