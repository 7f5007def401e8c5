"""Inflections of contract verbs and nouns, for the inflection dodges: "re-identify" /
"re-identifies" / "re-identifying", "shall indemnify" / "indemnifies", "claim" / "claims".

Only words of a small built-in lexicon of contract verbs are inflected (no tagger: a word
we do not know is left alone, precision first); the forms follow English spelling rules
with the few irregular ones listed.
"""

from __future__ import annotations

import re

#: Verbs contracts use for what a party may or must do (base forms).
CONTRACT_VERBS = frozenset(
    """
    access aggregate amend anonymize apply approve assign audit benchmark bind breach cap charge claim collect
    combine compete confirm consent copy cover de-identify deidentify defend delete disclose distribute exceed
    exclude extend grant host identify increase indemnify license limit modify monitor notify own pay permit
    process prohibit protect publish raise re-identify recover reduce reidentify reimburse release renew rent
    reproduce require restrict retain sell share shorten solicit store sublicense supersede survive suspend
    terminate train transfer transmit use waive
    """.split()
)
#: Nouns that carry the sin at the end of a phrase ("any data breach claim" / "claims").
COUNT_NOUNS = frozenset(
    """
    claim loss fee right term notice credit record report license obligation breach cap limit remedy damage
    warranty indemnity liability payment invoice audit deadline period
    """.split()
)
_NOUN_SUFFIXES = ("tion", "ment", "ance", "ence")
_IRREGULAR_PAST = {"sell": "sold", "pay": "paid", "bind": "bound"}
_DOUBLED = frozenset({"cap", "permit", "bar", "admit", "submit", "refer"})
#: Before a singular noun these make a plural ungrammatical ("a claim", "each claim").
_SINGULAR_DETERMINERS = frozenset("a an one each every either neither this that another".split())


def third_person(verb: str) -> str:
    if re.search(r"[^aeiou]y$", verb):
        return verb[:-1] + "ies"
    if verb.endswith(("s", "sh", "ch", "x", "z", "o")):
        return verb + "es"
    return verb + "s"


def past(verb: str) -> str:
    if verb in _IRREGULAR_PAST:
        return _IRREGULAR_PAST[verb]
    if verb in _DOUBLED:
        return verb + verb[-1] + "ed"
    if verb.endswith("e"):
        return verb + "d"
    if re.search(r"[^aeiou]y$", verb):
        return verb[:-1] + "ied"
    return verb + "ed"


def gerund(verb: str) -> str:
    if verb in _DOUBLED:
        return verb + verb[-1] + "ing"
    if verb.endswith("e") and not verb.endswith(("ee", "ye")):
        return verb[:-1] + "ing"
    return verb + "ing"


def forms(verb: str) -> dict[str, str]:
    """Every inflected form of a lexicon verb, by name."""
    return {"base": verb, "3rd person": third_person(verb), "past": past(verb), "gerund": gerund(verb)}


def base_form(word: str) -> str | None:
    """The lexicon verb `word` is a form of (itself when it is a base form), or None."""
    if word in CONTRACT_VERBS:
        return word
    for verb in CONTRACT_VERBS:
        if word in (third_person(verb), past(verb), gerund(verb)):
            return verb
    return None


def plural(noun: str, before: str | None) -> str | None:
    """The plural of a count noun ending a phrase, when the word before allows one."""
    if before in _SINGULAR_DETERMINERS or not (noun in COUNT_NOUNS or noun.endswith(_NOUN_SUFFIXES)):
        return None
    if noun.endswith(("s", "sh", "ch", "x")):
        return noun + "es"
    if re.search(r"[^aeiou]y$", noun):
        return noun[:-1] + "ies"
    return noun + "s"
