"""Words out of their place in a generated text, read from its words alone (`wording.words`):
two of the checks `naturalness.problems` runs on every text.

- `dangling`: a preposition right before another ("fined by under"; not the pairs English
  has, "provided for in"), or before a conjunction ("training on and improve"); a
  preposition that takes a noun before a clause ("upon it validates"); a word that opens a
  clause with no subject after it ("48 hours after confirms"); a clause opener before a
  noun alone ("once confirmation"); a preposition, an article or a conjunction as the last
  word.
- `out_of_place`: a modal or a bare "be" after a finite auxiliary ("has already must
  store"); a word only ever a verb where an article makes a noun of it ("consents to the
  assign of"); a verb's base form after "be" ("must be forego").
"""

from __future__ import annotations

from collections.abc import Sequence

from rubric_tools.audit import lexicon
from rubric_tools.audit.grammar import AUXILIARIES, DETERMINERS, MODALS, finite_verb_at, verb_of

#: Prepositions, "than" among them (what `naturalness` asks of the word after a citation too).
PREPOSITIONS = frozenset(
    "of by to for with from at on in into upon under within without after before during until following than".split()
)
#: Prepositions that do follow one another in good English: "as provided for under", "referred
#: to in", "agreed to in writing", "from within", "until after".
_GOOD_PAIRS = frozenset(
    {
        ("for", "under"),
        ("to", "under"),
        ("from", "under"),
        ("for", "in"),
        ("to", "in"),
        ("of", "in"),
        ("from", "within"),
        ("until", "after"),
        ("until", "before"),
    }
)
_DANGLING_END = frozenset("of by to for with from at on in into upon under the a an and or".split())
#: Prepositions that need their object before a conjunction ("carry out training on and improve").
_NEEDS_OBJECT = frozenset("of on for by with into upon under".split())
_CONJUNCTIONS = frozenset("and or but nor".split())
#: Prepositions that take a noun, never a clause ("upon it validates"), unlike "after".
_NOUN_ONLY = frozenset("upon on of in by with for following within during into at to".split())
#: Words that open a clause, which needs its subject: "after confirms" has none.
_SUBORDINATE_OPENERS = frozenset("after before until once when unless because although".split())
#: Temporal prepositions a rewrite may put where "after" took a clause ("upon Provider confirms").
_TEMPORAL_NOUN_ONLY = frozenset("upon following to on".split())
_TAKES_NOUN = _NOUN_ONLY | _TEMPORAL_NOUN_ONLY
#: The words `dangling`'s findings open with.
_OPENERS = PREPOSITIONS | _TAKES_NOUN | _SUBORDINATE_OPENERS

#: Pronouns that are a subject: a preposition that takes a noun never has one after it.
_SUBJECT_PRONOUNS = frozenset("it we they he she i you".split())


def verb_only(word: str) -> bool:
    """A word the lexicon knows only as a verb in its base form ("assign", "convey"; not
    "transfer", a noun too, nor "hosting" or "said", which an article may take)."""
    return lexicon.only_as(word, "VERB") and word in lexicon.lemmas(word)["VERB"]


#: Words that open a clause and never take a noun alone ("once confirmation").
_CLAUSE_ONLY = frozenset("once unless because although whereas whether".split())


#: Finite auxiliaries: a participle, a gerund or "to" follows them, never a modal or a bare
#: "be" ("has already must", "is not be"). Not "do": "do not be late" is an imperative.
_FINITE_AUXILIARIES = frozenset("is are was were am has have had".split())
#: Adverbs that may stand between an auxiliary and its verb.
_MEDIAL_ADVERBS = frozenset("not already also never still hereby thereby further".split())
#: Articles and determiners that make a noun of the word after them ("the transfer of").
_NOUN_MAKERS = frozenset("the a an any such its their this each every".split())


def out_of_place(tokens: Sequence[str]) -> list[str]:
    """A modal or a bare "be" after a finite auxiliary; a verb-only word where an article
    makes a noun (a synonym swap that took a noun for a verb), or an adverb after one; a
    verb's base form after "be"."""
    found = []
    for index, token in enumerate(tokens):
        if token in _FINITE_AUXILIARIES:
            following = index + 1
            while following < len(tokens) and tokens[following] in _MEDIAL_ADVERBS:
                following += 1
            if following < len(tokens) and (tokens[following] in MODALS or tokens[following] == "be"):
                found.append(f"auxiliary before a modal or 'be': {' '.join(tokens[index : following + 1])}")
        elif token in _NOUN_MAKERS:
            following = index + 1
            while following < len(tokens) and lexicon.only_as(tokens[following], "ADV"):
                following += 1
            after = tokens[following + 1] if following + 1 < len(tokens) else ""
            nominal = after == "of" or (token in ("a", "an") and (after in PREPOSITIONS or not after))
            if following > index + 1 or (nominal and following < len(tokens) and verb_only(tokens[following])):
                found.append(f"a verb where a noun stands: {' '.join(tokens[index : following + 2])}")
        elif token == "be" and index + 1 < len(tokens):
            following_word = tokens[index + 1]
            if verb_only(following_word) and not lexicon.is_past_participle(following_word):
                found.append(f"a verb's base form after 'be': be {following_word}")
    return found


def dangling(tokens: Sequence[str]) -> list[str]:
    found = []
    # Every finding below opens with a preposition or a word that opens a clause, one word in
    # six: the others are passed over once, here, not by each pass.
    openers = [index for index, token in enumerate(tokens[:-1]) if token in _OPENERS]
    for index in openers:
        first, second = tokens[index], tokens[index + 1]
        if first not in PREPOSITIONS or (first, second) in _GOOD_PAIRS:
            continue
        if second in PREPOSITIONS:
            found.append(f"dangling preposition: {first} {second}")
        elif first in _NEEDS_OBJECT and second in _CONJUNCTIONS:
            found.append(f"dangling preposition: {first} {second}")
    for index in openers:
        # Both findings below need a preposition that takes a noun: asked first, that spares
        # most words the finite-verb test.
        preposition = tokens[index]
        if preposition not in _TAKES_NOUN or index + 2 >= len(tokens):
            continue
        subject, verb = tokens[index + 1], tokens[index + 2]
        # "to be paid" is an infinitive: an auxiliary is no subject.
        if subject in AUXILIARIES or not finite_verb_at(tokens, index + 2):
            continue
        pronoun = preposition in _NOUN_ONLY and subject in _SUBJECT_PRONOUNS
        form = verb_of(verb)
        inflected = form is not None and form[1] in ("3rd person", "past")  # "upon Provider confirms"
        timed = preposition in _TEMPORAL_NOUN_ONLY and subject not in DETERMINERS and inflected
        if pronoun or timed:
            found.append(f"preposition before a clause: {preposition} {subject} {verb}")
    for index in openers:
        # An adjective is no subject: "48 hours after relevant confirms".
        first = tokens[index]
        if first not in _SUBORDINATE_OPENERS or index + 2 >= len(tokens):
            continue
        adjective, verb = tokens[index + 1], tokens[index + 2]
        form = verb_of(verb) if lexicon.only_as(adjective, "ADJ") else None
        if form is not None and form[1] == "3rd person":
            found.append(f"clause without a subject: {first} {adjective} {verb}")
    for index in openers:
        first, second = tokens[index], tokens[index + 1]
        if first not in _SUBORDINATE_OPENERS and first not in _TAKES_NOUN:
            continue
        form = verb_of(second)
        if form is None or form[1] != "3rd person":
            continue
        if first in _SUBORDINATE_OPENERS:
            found.append(f"clause without a subject: {first} {second}")  # "48 hours after confirms"
        elif "NOUN" not in lexicon.lemmas(second):
            found.append(f"a preposition before a verb: {first} {second}")  # "subsequent to confirms"
    if len(tokens) >= 2 and tokens[-2] in _CLAUSE_ONLY and lexicon.only_as(tokens[-1], "NOUN"):
        found.append(f"a clause opener before a noun: {tokens[-2]} {tokens[-1]}")  # "48 hours once confirmation"
    if tokens and tokens[-1] in _DANGLING_END:
        found.append(f"ends with {tokens[-1]!r}")
    return found
