"""What a word or phrase of a gate may be written as where it stands: the words step of
the widening (`widening.widen_words`) asks here for each phrase's alternatives.

A phrase takes its thesaurus group's members in the forms their part of speech allows, or
(a content word with no group) its own forms from the lexicon; where it stands decides which
of them read as English ("may not" takes no "is entitled to", a subject no "been obliged
to", a passive's participle no other form). A phrase inside a group that is already a
widening is left as it stands, so that widening a widened gate adds nothing.
"""

from __future__ import annotations

import re
from dataclasses import replace
from functools import lru_cache

from rubric_tools.audit import lexicon, quantities
from rubric_tools.audit.pattern_tree import Item, render
from rubric_tools.audit.thesaurus import Thesaurus
from rubric_tools.audit.word_use import NEGATORS, noun_in_its_own_right
from rubric_tools.gate_analysis.witness import witnesses

#: Words never swapped or inflected on their own: function words and modals (the thesaurus
#: handles modals). Which other words keep their form is the lexicon's to say (`lexicon.fixed`).
FUNCTION_WORDS = frozenset(
    """
    a an the of to and or in on at by for with from as than that this these those its their his her our your
    any all each every such some no not nor never none is are was were be been being has have had do does did
    shall will may must can could would should might it they we he she i you which who whom whose what when
    where there here then so if but also only very per via upon into onto out up
    """.split()
)
#: Phrases are at most this many words.
MAX_PHRASE = 4
#: A copula agrees with its subject: "commitment is" / "commitments are".
_COPULAS = frozenset({"is", "are"})
#: Words of quantities, which the numbers step writes: never inflected or swapped.
_QUANTITY_WORDS = frozenset(
    """
    percent cent per hour hours day days week weeks month months year years business calendar anniversary time
    times twice thousand million dollars usd
    """.split()
)


#: Determiners that pick out the thing a gate names, whichever one a paraphrase writes:
#: "terminate the lease" is "terminate this Lease", "terminate its lease"; "waives any right"
#: is "waives its right", "waives all rights". A gate's determiner among them takes them all
#: (in the order written here). Never "no" (a negator), "some" or "either"; not "that" in a
#: gate, which as often opens a clause ("agrees that provider …").
SWAPPED_DETERMINERS = ("the", "this", "these", "those", "such", "its", "their", "any", "all", "each", "every")
#: What a paraphrase may write for one of them: a determiner above, "said" ("said Lease"),
#: "that", or "a" / "an" ("sell a customer's data").
DETERMINER_ALTERNATIVES = (*SWAPPED_DETERMINERS, "that", "said", "a", "an")


def fixed_word(word: str) -> bool:
    """Words the words step leaves alone: function words, modals, numbers, units."""
    return word in FUNCTION_WORDS or word in _QUANTITY_WORDS or quantities.is_number_word(word)


def escape_words(text: str) -> str:
    return re.escape(text).replace("\\ ", " ").replace("\\-", "-").replace("\\'", "'")


def plain_alternatives(
    phrase: str,
    thesaurus: Thesaurus,
    modifiers: frozenset[str] = frozenset(),
    reading: str | None = None,
    group_reading: str | None = None,
    after: str | None = None,
    before: str | None = None,
) -> tuple[list[str], bool] | None:
    """Every phrase that may stand for `phrase`, as plain text, and whether they are forms of
    the one word: its group's members in the
    forms their part of speech takes (the gate's own phrase last), or (a content word) its
    own forms (`lexicon.word_forms`: a noun's number, a verb's tense and person); None when
    there is nothing to add. The matter's names (`thesaurus.fixed_words`) and words the
    gate uses as modifiers (`modifiers`) are written as they stand; `reading` is how the
    gate uses a word ("NOUN" after a determiner, "VERB" after a modal or "to", "PARTICIPLE"
    before "to"), when the words beside it say so; `group_reading` the same where they
    settle it (`word_use.group_reading`), which chooses the thesaurus groups the word takes.
    `after` and `before`: the words written around the phrase. A modal before a negator
    ("may not") takes only the other modals ("can not"): "is entitled to not" is no English.
    A participle before "to" keeps its form unless a word other than "be" stands before it
    ("provider agreed to": "agrees to"; not "is entitling to", nor at a branch's start,
    where the word before is the group's to say). After its subject a phrase takes no form
    that cannot follow one (`follows_a_subject`)."""
    party = thesaurus.party_names(phrase)
    if party:  # a party is called by its role or by its name: "provider" or "kestrel"
        return [*party, phrase], False
    if phrase in thesaurus.fixed_words:
        return None
    if phrase in SWAPPED_DETERMINERS and after is not None and after.isalpha() and not fixed_word(after):
        # before a content word ("the lease"), not before a number or another function word
        return [*DETERMINER_ALTERNATIVES, phrase], False
    swappable = phrase in lexicon.MODALS or phrase in _COPULAS
    swapped = swappable or not all(fixed_word(w) for w in phrase.split())
    members = thesaurus.members(phrase, group_reading) if swapped else ()
    # A modal is no noun ("tenant will pay" is no testament) unless the gate writes it as one ("the will").
    modal = phrase in lexicon.MODALS and reading != "NOUN"
    if members and reading != "VERB" and not modal and noun_in_its_own_right(phrase):
        # "training" is not "train": a verb group's forms are no paraphrase of the noun. The
        # groups that hold it as a noun or a modifier are ("obligation": "duty",
        # "commitment"; "illegal": "unlawful", "contrary to law").
        group_reading = "NOUN"
        members = thesaurus.members(phrase, group_reading)
    passive = before is None or before in lexicon.BE_FORMS
    if members and reading == "PARTICIPLE" and passive:
        participles = thesaurus.member_participles(phrase)
        # Before "by" the participle is only likely ("the lease terminated by notice" is
        # active): where its group has no participle to give ("prohibited by law" among
        # "unlawful", "contrary to law"), the group's own forms stand.
        if set(participles) - {phrase} or group_reading == "PARTICIPLE":
            return [*participles, phrase], False
    if members and reading == "ATTRIBUTIVE":
        # A noun that modifies the next keeps its number: "indemnity obligations", never "indemnities obligations".
        kept = [member for member in members if member != phrase]
        return ([*kept, phrase], False) if kept else None
    if members:
        # The gate's own phrase last: every word of a group widens to the same alternation,
        # which `_dedupe` then writes once.
        forms = thesaurus.member_forms(phrase, group_reading)
        if phrase in lexicon.MODALS and after in NEGATORS:
            forms = tuple(form for form in forms if form in lexicon.MODALS)
        if phrase in _COPULAS and (after in NEGATORS or after == "to"):
            # "is not refundable", "are to be removed": a modal's "be" ("shall be") would
            # stand before the negator or the infinitive, as no drafter writes it.
            forms = tuple(form for form in forms if form.split(" ", 1)[0] not in lexicon.MODALS)
        if before is not None and before not in lexicon.FUNCTION_WORDS:
            forms = tuple(form for form in forms if follows_a_subject(form))
        return ([*forms, phrase], False) if set(forms) - {phrase} else None
    if reading == "ATTRIBUTIVE" or (reading == "PARTICIPLE" and passive):
        # A modifying noun keeps its number, and a passive's participle ("is entitled to")
        # has no other form that reads.
        return None
    own_forms = phrase not in modifiers and not fixed_word(phrase) and len(phrase) >= 3 and phrase.isalpha()
    if own_forms:  # a content word of one word ("-" and " " are no letters)
        forms = lexicon.word_forms(phrase, reading)
        return (list(forms), True) if len(forms) >= 2 else None
    return None


def follows_a_subject(phrase: str) -> bool:
    """Whether `phrase` can follow its subject ("tenant is obliged to", "tenant undertook
    to"): not when it opens with "be", "been" or a past participle that is no past tense
    ("tenant been obliged to", "tenant undertaken to")."""
    first = phrase.split(" ", 1)[0]
    if first in ("be", "been"):
        return False
    verbs = lexicon.lemmas(first).get("VERB", ())
    forms = lexicon.verb_forms_by_tag(verbs[0]) if verbs else {}
    return not (forms.get("VBN") == first and forms.get("VBD") != first)


def compact(phrases: list[str]) -> list[str]:
    """Phrases as regex alternatives, in the order given; one-word phrases sharing the rest
    of a phrase as one alternation of their heads ("(?:hold|holds|held|holding) harmless")."""
    by_rest: dict[str, list[str]] = {}
    for phrase in dict.fromkeys(phrases):
        head, _, rest = phrase.partition(" ")
        by_rest.setdefault(rest, []).append(head)
    # Then phrases with the same heads and the same words after their second as one
    # alternation of their second words: "(?:is|are|…) (?:obliged|required|bound) to".
    by_frame: dict[tuple[str, str], list[str]] = {}
    for rest, heads in by_rest.items():
        head = lexicon.alternation(heads) if len(heads) > 1 else escape_words(heads[0])
        second, _, tail = rest.partition(" ")
        if len(heads) > 1 and second and tail:
            by_frame.setdefault((head, tail), []).append(second)
        else:
            by_frame.setdefault((head + (" " + escape_words(rest) if rest else ""), ""), [])
    out = []
    for (head, tail), seconds in by_frame.items():
        if not seconds:
            out.append(head)
            continue
        second = lexicon.alternation(seconds) if len(seconds) > 1 else escape_words(seconds[0])
        out.append(f"{head} {second} {escape_words(tail)}")
    return out


@lru_cache(maxsize=1024)  # each group is asked again for every phrase inside it
def _whole(group: str) -> re.Pattern[str] | None:
    try:
        return re.compile(group, re.IGNORECASE)
    except re.error:
        return None


def already_matched(alternatives: list[str], around: tuple[Item, ...], thesaurus: Thesaurus) -> bool:
    """Whether a phrase stands in a widening already made: one of the groups `around` it
    matches each of the phrase's alternatives whole, or every form of every member of the
    thesaurus group one of its branches writes ("(?:indemnif(?:y|ies|ied|ying)|…|(?:keep(?:s|
    ing)?|kept) indemnified)": its "kept" is not widened to "store"). Forms that cannot follow
    a subject ("been obliged to") are not asked for: a widening after a subject leaves them out."""
    asked = [form for form in alternatives if follows_a_subject(form)]
    for group in around:
        compiled = _whole(render([replace(group, quant="")]))
        if compiled is None:
            continue
        if asked and all(compiled.fullmatch(form) for form in asked):
            return True
        for branch in group.branches:
            found = witnesses(render(branch))
            forms = [f for f in thesaurus.member_forms(found[0].text.lower()) if follows_a_subject(f)] if found else []
            if len(forms) > 1 and all(compiled.fullmatch(form) for form in forms):
                return True
    return False
