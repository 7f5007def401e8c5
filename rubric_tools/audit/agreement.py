"""Subject and verb agreement in generated evidence (`naturalness`, `completion`): a plural
noun before a verb in the third person singular ("laws prohibits"), a singular subject
before "are" or a base form ("provider are", "4.2 are void"), a gerund alone before "are"
("using are unlawful"), a number above one before a singular unit ("9 month"). Read on the
words alone, as `grammar` reads a clause: no tagger."""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

from rubric_tools.audit import lexicon
from rubric_tools.audit.grammar import (
    AUXILIARIES,
    DETERMINERS,
    MODALS,
    PREPOSITIONS,
    SINGULAR_IN_S,
    plural_form,
    verb_of,
)
from rubric_tools.audit.quantities import is_number_word
from rubric_tools.audit.wording import FUNCTION_WORDS, words

#: Words not ending in "s" that take a plural verb or are no singular noun ("data",
#: "personnel", "these", "which").
_PLURAL_WORDS = frozenset(
    "we they you i these those both data criteria media personnel people many few what which who there here where "
    "how why that".split()
)
#: Verbs that a singular subject never takes ("provider have the right to").
_PLURAL_VERBS = frozenset("are were have do".split())
#: Adverbs that may stand between a subject and its verb (with those in "-ly").
_ADVERBS = frozenset("not never also only then still thereby hereby thereafter therefore".split())
_UNITS = frozenset("hour day week month year minute percent".split())


def _more_than_one(word: str) -> bool:
    if word.isdigit():
        return int(word) != 1
    return is_number_word(word) and word not in ("one", "a", "an", "zero")


_SECTION_NUMBER = re.compile(r"\d+(?:\.\d+)+")


#: Words that are never the subject of the verb after them (one look-up for each word).
_NO_SUBJECTS = DETERMINERS | PREPOSITIONS | MODALS | AUXILIARIES
#: Auxiliaries of the third person singular: no plural noun is their subject.
_SINGULAR_AUXILIARIES = frozenset("is was has does".split())
#: The words other than verbs that `agreement_errors` reads as the second of a pair.
_MAY_DISAGREE = _UNITS | _SINGULAR_AUXILIARIES | _PLURAL_VERBS


@lru_cache(maxsize=4096)  # asked of every word of every clause judged
def _between_subject_and_verb(word: str) -> bool:
    """An adverb that may stand between a subject and its verb ("hereby", "irrevocably")."""
    return word in _ADVERBS or (word.endswith("ly") and lexicon.only_as(word, "ADV"))


def _object_of_an_opening_gerund(tokens: Sequence[str], at: int) -> bool:
    """Whether the noun at `at` (after its determiner) is the object of a gerund that opens
    the sentence: "Subletting the premises is unlawful" has the act as its subject."""
    if at < 2 or not tokens[0].endswith("ing") or not all(t in DETERMINERS for t in tokens[1:at]):
        return False
    return _gerund(tokens[0])


def _gerund(word: str) -> bool:
    """Whether `word` is the "-ing" form of a verb the lexicon lists it under."""
    return any(lexicon.verb_form(verb, "VBG") == word for verb in lexicon.lemmas(word).get("VERB", ()))


def _bare_gerund_subject(tokens: Sequence[str], at: int) -> bool:
    """Whether the word at `at` is a gerund alone as a subject: a verb's "-ing" form that is
    no noun, with no determiner or conjunction before it ("using are unlawful" disagrees;
    "the following are", "using and sharing are", "the training materials are" do not)."""
    word = tokens[at]
    if not word.endswith("ing") or (at >= 1 and tokens[at - 1] in _BEFORE_A_NOMINAL_GERUND):
        return False
    return "NOUN" not in lexicon.lemmas(word) and _gerund(word)


#: Words after which an "-ing" word is a noun's modifier or one of several subjects ("that"
#: opens a clause before a gerund: "… suggested that using are unlawful").
_BEFORE_A_NOMINAL_GERUND = (DETERMINERS - {"that"}) | frozenset("and or nor both either".split())


@lru_cache(maxsize=16384)  # asked of a clause when it is completed and again when its sentence is judged
def agreement_errors(text: str) -> tuple[str, ...]:
    """Subjects that disagree with the verb right after them: a plural noun before a verb in
    the third person singular ("laws prohibits"), a singular noun or a section number before
    "are", "were", "have", "do" or the base form of a verb ("provider are", "4.2 are void",
    "Section 10.2 limit"); a gerund alone before "are" or "were" ("using are void"); and a
    number above one before a singular unit ("9 month")."""
    tokens = words(text)
    found: list[str] = []
    for index in range(1, len(tokens)):
        verb = tokens[index]
        if verb not in _MAY_DISAGREE and verb_of(verb) is None:
            continue  # no unit, no verb: no finding below (most words), asked once
        # Adverbs between the subject and its verb are passed over: "provider hereby
        # irrevocably assign" disagrees as "provider assign" does.
        at = index - 1
        while at > 0 and _between_subject_and_verb(tokens[at]):
            at -= 1
        noun = tokens[at]
        if at < index - 1 and (verb_of(verb) is None or noun in FUNCTION_WORDS):
            continue
        if verb in _UNITS and verb != "percent" and _more_than_one(noun):
            found.append(f"{noun} {verb}")  # "9 month"
            continue
        if noun in _NO_SUBJECTS:
            continue
        if at >= 1 and tokens[at - 1] in PREPOSITIONS:
            continue  # the noun is an object ("fines imposed on vendor apply"), not the subject
        if verb in ("are", "were") and _bare_gerund_subject(tokens, at):
            found.append(f"{noun} {verb}")  # "using are unlawful": one act is one subject
            continue
        # "Credits is": a plural that opens its sentence, or stands right after its determiner,
        # is the subject (not in "liability for data breach claims is", "fees and credits is").
        opens = at == 0 or (tokens[at - 1] in DETERMINERS and not _object_of_an_opening_gerund(tokens, at))
        if verb in _SINGULAR_AUXILIARIES and opens and plural_form(noun):
            found.append(f"{noun} {verb}")
            continue
        third = verb_of(verb)
        if third is None and verb not in _PLURAL_VERBS:
            continue  # no verb: neither disagreement below (most words are not verbs)
        joined = at >= 1 and "and" in tokens[max(0, at - 3) : at]
        plural_noun = noun.endswith("s") and not noun.endswith(SINGULAR_IN_S) and verb_of(noun) is None
        if plural_noun and third is not None and third[1] == "3rd person" and not joined:
            found.append(f"{noun} {verb}")
        section = "§" in noun or _SECTION_NUMBER.fullmatch(noun) is not None  # "4.2 are void"
        # A hyphenated word is a singular noun only before a plural auxiliary ("the non-compete
        # are"): before a base form it is as often a compound modifier ("then-current list price").
        hyphenated = "-" in noun and noun.replace("-", "").isalpha() and not noun.endswith("s")
        singular_noun = (
            section
            or (not noun.endswith("s") and noun.isalpha() and noun not in _PLURAL_WORDS and not is_number_word(noun))
            or (hyphenated and verb in _PLURAL_VERBS)
        )
        base_verb = verb in _PLURAL_VERBS or (third is not None and third[1] == "base" and verb not in MODALS)
        # A word that is only an adjective modifies the noun after it ("unrestricted access",
        # "perpetual licence"): no subject, and that noun no verb.
        subject = (
            singular_noun
            and noun not in FUNCTION_WORDS
            and not noun.endswith("ly")
            and noun not in _ADVERBS
            and not lexicon.only_as(noun, "ADJ")
        )
        if subject and base_verb and not joined and verb_of(noun) is None and not _mandated(tokens, at):
            found.append(f"{noun} {verb}")
    return tuple(found)


#: Verbs after which "that" opens a clause in the subjunctive: "the law requires that the
#: tenant repair", "we recommend that the clause be deleted".
MANDATIVE_VERBS = frozenset(
    "require requires required demand demands insist insists recommend recommends ask asks".split()
)


def _mandated(tokens: Sequence[str], subject: int) -> bool:
    """Whether the subject at `subject` opens a clause that a mandative verb's "that" opens,
    within a few words before it (its determiner and modifiers between)."""
    for at in range(subject - 1, max(-1, subject - 5), -1):
        if tokens[at] == "that":
            return at > 0 and tokens[at - 1] in MANDATIVE_VERBS
    return False
