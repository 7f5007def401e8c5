"""Synonym swaps: a word or idiom of a thesaurus group replaced by each other member, in
the same inflection, where the member fits the words around it (`dodges`).

A member must read as the phrase it replaces reads (the clause's verb as a verb, a word
after a determiner as a noun) and take what follows it ("obliges the landlord to repair",
never "obliges notice"); the data of which verbs take what is in `thesaurus`.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence

from rubric_tools.audit import lexicon
from rubric_tools.audit.dodge import Dodge
from rubric_tools.audit.grammar import (
    DETERMINERS,
    PREPOSITIONS,
    determines,
    finite_verb_at,
    is_party,
)
from rubric_tools.audit.phrase_reading import phrase_reading
from rubric_tools.audit.quantities import TIME_UNIT_WORDS
from rubric_tools.audit.thesaurus import (
    COUNT_ONLY_NOUNS,
    OBJECT_BEFORE_LAST_WORD,
    PERSON_SUBJECT_VERBS,
    Thesaurus,
)
from rubric_tools.audit.what_follows import CLAUSE_OPENERS, WhatFollows
from rubric_tools.scoring.gates import NEGATOR

#: Modal synonyms change meaning under a negator ("no cap shall apply" is not "no cap must apply").
MODAL_WORDS = ("may", "shall", "must")


def group_swaps(witness: str, thesaurus: Thesaurus, following: str = "", preceding: str = "") -> Iterator[Dodge]:
    """A word or idiom of a thesaurus group replaced by each other member, in the same
    inflection ("prohibits" -> "forbids", "bars"; "indemnify" -> "hold harmless").
    `following`: the words after the witness in its clause, when it was completed into one
    ("… claims arising from the lease"): a member must fit them too ("data breach| claims"
    holds a noun, "indemnify the landlord| against any claim" takes no "reimburse").
    `preceding`: the words before it there; a witness opening after a determiner or a
    preposition ("the |fine imposed on the tenant", "provides for |fine …") opens a noun
    phrase, whose first word no verb stands for."""
    negated = bool(NEGATOR.search(witness))
    words = witness.split(" ")
    # The words a member must fit: the witness's own, then its clause's up to the clause's end.
    ahead = [*words, *_to_clause_end(following)]
    verb_at = next((i for i in range(len(words)) if finite_verb_at(ahead, i)), None)
    # After a determiner or a preposition (not the "to" of an infinitive) a noun phrase opens.
    last_before = preceding.lower().split()[-1:]
    opens_a_noun_phrase = bool(last_before) and (
        last_before[0] in DETERMINERS or (last_before[0] in PREPOSITIONS and last_before[0] != "to")
    )
    # Who is a party: a role, or one of the matter's names (with none known, a word the
    # lexicon does not know: "brightwater will repair").
    names = thesaurus.fixed_words or None
    for size in (3, 2, 1):
        for start in range(len(words) - size + 1):
            phrase = " ".join(words[start : start + size])
            reading = phrase_reading(ahead, start, size, verb_at)
            if reading is None and start == 0 and opens_a_noun_phrase:
                reading = "NOUN"
            members = thesaurus.members(phrase, reading)
            if not members or (negated and any(m in MODAL_WORDS for m in members)):
                continue
            head = words[start]
            head_lemmas = lexicon.lemmas(head).get("VERB", ()) or (head,)
            after = ahead[start + size :]
            # Used as a verb: the clause's verb, or an infinitive after a modal or "to" (not
            # "void" in "the clause is void", an adjective the lexicon also lists as a verb).
            verb_use = reading == "VERB" or (start > 0 and words[start - 1] in (*lexicon.MODALS, "to"))
            verb = verb_use and lexicon.is_verb(head) and head not in lexicon.MODALS | lexicon.BE_FORMS
            if verb and not after:
                continue  # a verb with no object: its synonyms differ there ("tenant may end")
            if size == 1 and _nominal_gerund(words, start):
                continue  # "secure hosting for the records": "secure housing", "secure keeping" are other nouns
            if phrase == "within" and _duration_of(after):
                continue  # "within 24 hours of discovery" is not "no later than 24 hours of discovery"
            follows = WhatFollows(phrase, after, names)
            # A plural noun ("regulators", "fee increases"): each member in the plural too.
            plural_noun = size == 1 and (reading == "NOUN" or not lexicon.is_verb(head)) and _plural_noun(head)
            for member in members:
                member_words = member.split(" ")
                if member == phrase or member_words[0] == "be" or _number_changes(phrase, member):
                    continue
                if phrase == "all" and after and determines(after[0]):
                    continue  # "all" before "its" or "the" is alone there: no "any and all its firmware"
                if phrase in lexicon.BE_FORMS and member in lexicon.BE_FORMS:
                    continue  # one form of "be" for another is an agreement error: "clauses is"
                if start > 0 and words[start - 1] in lexicon.BE_FORMS and _opens_with_a_modal(member_words):
                    continue  # "the clause is void" is not "the clause is cannot be enforced"
                if len(member_words) > 1 and _modified(words, start) and _opens_with_a_modifier(member_words):
                    continue  # "New York contract law" is not "New York contract applicable law"
                in_a_modals_place = phrase in lexicon.MODALS and member_words[0] not in lexicon.MODALS and start > 0
                if in_a_modals_place and not is_party(words[start - 1], names):
                    continue  # what a party undertakes: "fines will be assessed", never "fines agree to be"
                written = _inflected_like(member_words, head, head_lemmas[0], plural_noun)
                if written is None:
                    continue  # a member with no form for the one the text has
                if in_a_modals_place:
                    # A verb in a modal's place agrees with the subject: "consultant commits to".
                    written[0] = _agreeing(member_words[0], words[start - 1])
                if member_words[0] in lexicon.BARE_INFINITIVE_VERBS and follows.person_to_do:
                    continue  # "permits the tenant to sublet" is not "lets the tenant to sublet"
                if member_words[0] in _NO_PASSIVE and (follows.infinitive or _after_be(words, start)):
                    continue  # "the tenant is permitted to sublet" is not "is let to sublet"
                if not follows.taken_by(member, written[0]):
                    continue
                if _repeats_a_word(member_words, ahead, start, size):
                    continue  # "illegal under state law" is not "contrary to law under state law"
                if member in PERSON_SUBJECT_VERBS and not (start > 0 and is_party(words[start - 1], names)):
                    continue  # "the statute requires notice" is not "the statute insists on notice"
                if member in CLAUSE_OPENERS and start > 0 and _time_unit(words[start - 1]):
                    continue  # "72 hours after the landlord confirms" times the hours: no "72 hours once"
                if member in COUNT_ONLY_NOUNS and not plural_noun and _bare(words, start, COUNT_ONLY_NOUNS[member]):
                    continue  # "under state law" is not "under state statute" ("by statute" is)
                rest = words[start + size :]
                if len(member_words) > 1 and member_words[-1] in OBJECT_BEFORE_LAST_WORD:
                    # "indemnifies the landlord" -> "makes the landlord whole": the object goes
                    # inside, so it must end within the witness.
                    placed = _object_inside(written, rest, ahead[len(words) :])
                    if placed is None:
                        continue
                    rest = placed
                    rewrite = " ".join([*words[:start], *placed])
                else:
                    rewrite = " ".join([*words[:start], *written, *rest])
                if rewrite != witness:
                    yield Dodge(f"synonym: {phrase} → {' '.join(written)}", rewrite)


def _object_inside(written: list[str], rest: Sequence[str], beyond: Sequence[str]) -> list[str] | None:
    """A member whose object goes before its last word, written around the object that
    `rest` opens with: ["makes", "whole"] and "the landlord for …" -> "makes the landlord
    whole for …". None when `rest` holds no object, or one that goes on past
    the witness (`beyond`: its clause's next words)."""
    end = next((i for i, word in enumerate(rest) if word in PREPOSITIONS or word in ("and", "or")), len(rest))
    ends_inside = end < len(rest) or not beyond or beyond[0] in PREPOSITIONS or beyond[0] in ("and", "or")
    if end == 0 or not ends_inside or any(word.endswith((",", ";")) for word in rest[: end - 1]):
        return None
    return [*written[:-1], *rest[:end], written[-1], *rest[end:]]


#: Verbs with no passive in the sense their group gives them: "the tenant is permitted to
#: sublet" is not "is let to sublet", nor "subletting is not permitted by law" "is not let
#: by law" ("let" for "permit"; "is made to pay" is English).
_NO_PASSIVE = frozenset({"let"})


def _time_unit(word: str) -> bool:
    """A unit a duration counts ("hours", "day"): after one, "after" or "before" ties it to
    an event, which a word that only opens a clause cannot ("within 72 hours after it confirms")."""
    return word.removesuffix("s") in TIME_UNIT_WORDS


def _duration_of(after: Sequence[str]) -> bool:
    """Whether the words open with a duration followed by "of" ("24 hours of discovery"):
    only "within" takes it."""
    unit = next((i for i, word in enumerate(after[:4]) if _time_unit(word)), None)
    return unit is not None and unit + 1 < len(after) and after[unit + 1] == "of"


_CLAUSE_WORD = re.compile(r"[\w'’-]+|[.;:!?]")


def _to_clause_end(text: str) -> list[str]:
    """The lowercase words of `text` up to the end of its clause (".", ";", ":")."""
    found = []
    for token in _CLAUSE_WORD.findall(text.lower()):
        if token in ".;:!?":
            break
        found.append(token)
    return found


def _repeats_a_word(member_words: Sequence[str], words: Sequence[str], start: int, size: int) -> bool:
    """Whether the member brings a content word that already stands within four words of
    the phrase ("contrary to law under state law")."""
    nearby = {*words[max(0, start - 4) : start], *words[start + size : start + size + 4]}
    return any(w in nearby and w not in lexicon.FUNCTION_WORDS for w in member_words)


def _plural_noun(word: str) -> bool:
    return any(noun != word and word in lexicon.plurals(noun) for noun in lexicon.lemmas(word).get("NOUN", ()))


def _inflected_like(member_words: Sequence[str], head: str, head_lemma: str, plural_noun: bool) -> list[str] | None:
    """The member's words in the form of the phrase's head: a plural noun's member with its
    last word in the plural ("regulators" -> "regulatory authorities"), a verb's member with
    its first word in the verb's form ("prohibits" -> "forbids"); None when the member has no
    such form."""
    if plural_noun:
        last = lexicon.plural(member_words[-1])
        return None if last is None else [*member_words[:-1], last]
    first = lexicon.inflect_like(member_words[0], head, head_lemma)
    if first is None:
        return None
    written = [first, *member_words[1:]]
    # Verbs joined by "and" take the same form: "defends and indemnifies", not "defends and indemnify".
    for index in range(2, len(written)):
        if written[index - 1] == "and" and lexicon.is_verb(written[index]):
            joined = lexicon.inflect_like(written[index], head, head_lemma)
            if joined is None:
                return None
            written[index] = joined
    return written


def _after_be(words: Sequence[str], start: int) -> bool:
    """Whether the word at `start` follows a form of "be", a "not" or "never" between ("is
    not permitted"), or a "not" that opens a witness cut after its "is" ("not permitted by
    law"): a participle there is a passive."""
    at = start - 1
    if at >= 0 and words[at] in ("not", "never"):
        at -= 1
        if at < 0:
            return True
    return at >= 0 and words[at] in lexicon.BE_FORMS


def _bare(words: Sequence[str], start: int, idioms: frozenset[str] = frozenset()) -> bool:
    """Whether the noun at `start` has no determiner: past its modifiers ("new york",
    "applicable") the clause opens there, or a preposition or a verb stands ("under state
    law", "be without limitation"), not a determiner or a possessive ("the law", "the
    landlord's liability"), nor one of `idioms` right before it ("by law")."""
    if start > 0 and words[start - 1] in idioms:
        return False
    at = start
    while _modified(words, at):
        at -= 1
    return at == 0 or not determines(words[at - 1])


def _modified(words: Sequence[str], start: int) -> bool:
    """Whether a content word stands right before the phrase at `start` as its modifier: an
    adjective, a noun or a name ("contract law", "applicable law", "new york law"), not a
    determiner, a preposition or a verb."""
    if start == 0:
        return False
    before = words[start - 1]
    if not before.isalpha() or before in lexicon.FUNCTION_WORDS or before in PREPOSITIONS or before in DETERMINERS:
        return False
    readings = lexicon.lemmas(before)
    return not readings or "NOUN" in readings or "ADJ" in readings


def _opens_with_a_modal(member_words: Sequence[str]) -> bool:
    return member_words[0] in lexicon.MODALS or member_words[0] == "cannot"


def _opens_with_a_modifier(member_words: Sequence[str]) -> bool:
    """A member with an adjective of its own before its noun ("applicable law")."""
    first = lexicon.lemmas(member_words[0])
    return "ADJ" in first and "VERB" not in first


def _nominal_gerund(words: Sequence[str], start: int) -> bool:
    """Whether the word at `start` is a verb's "-ing" form used as a noun: no form of "be"
    before it and no object after it, only a preposition or the end ("secure hosting for
    the records", "the cost of hosting"; not "is hosting the records", "for hosting the
    records"); not a noun in its own right ("training"). A verb's synonyms do not stand
    there: their "-ing" forms are other nouns ("housing") or no nouns at all ("secure
    keeping for the records"), and the noun that would ("storage") is no form of theirs."""
    word = words[start]
    readings = lexicon.lemmas(word)
    if word in readings.get("NOUN", ()):
        return False  # a noun in its own right ("training"): the thesaurus's nouns stand for it
    if not word.endswith("ing") or not any(lexicon.verb_form(verb, "VBG") == word for verb in readings.get("VERB", ())):
        return False
    before_be = start > 0 and words[start - 1] in lexicon.BE_FORMS
    after = words[start + 1] if start + 1 < len(words) else None
    return not before_be and (after is None or after in PREPOSITIONS)


def _agreeing(verb: str, subject: str) -> str:
    """`verb` as it follows `subject`: the third person after one thing ("consultant
    commits"), the base form after a plural or a pronoun that takes it ("the parties commit")."""
    nouns = lexicon.lemmas(subject).get("NOUN", ())
    plural = subject in ("i", "we", "you", "they") or (bool(nouns) and subject not in nouns)
    return verb if plural else (lexicon.verb_form(verb, "VBZ") or verb)


#: Determiners of a thesaurus group that take a noun in another number: "all obligations",
#: "all ownership" but "each obligation" ("each ownership" is no English).
_TAKES_SINGULAR = frozenset({"each", "every"})
_TAKES_PLURAL_OR_MASS = frozenset({"all", "any and all"})


def _number_changes(phrase: str, member: str) -> bool:
    """Whether swapping `phrase` for `member` would leave the noun after it in the wrong number."""
    return (phrase in _TAKES_SINGULAR and member in _TAKES_PLURAL_OR_MASS) or (
        phrase in _TAKES_PLURAL_OR_MASS and member in _TAKES_SINGULAR
    )
