"""Inflections of contract verbs and nouns, for the inflection dodges: "re-identify" /
"re-identifies" / "re-identifying", "shall indemnify" / "indemnifies", "claim" / "claims".

Only words of a small built-in list of contract verbs and count nouns are rewritten (no
tagger: a word we do not know is left alone, precision first); their forms come from the
lexicon (`lexicon`), which never writes a form that does not map back to the word.
"""

from __future__ import annotations

from rubric_tools.audit import lexicon

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
#: Before a singular noun these make a plural ungrammatical ("a claim", "each claim").
_SINGULAR_DETERMINERS = frozenset("a an one each every either neither this that another".split())
#: Form names and the lexicon's tags.
_FORM_TAGS = {"base": "VB", "3rd person": "VBZ", "past": "VBD", "gerund": "VBG"}


def third_person(verb: str) -> str:
    return lexicon.verb_form(verb, "VBZ") or verb


def past(verb: str) -> str:
    return lexicon.verb_form(verb, "VBD") or verb


def gerund(verb: str) -> str:
    return lexicon.verb_form(verb, "VBG") or verb


def forms(verb: str) -> dict[str, str]:
    """Every inflected form of a verb the lexicon knows, by name (the base form alone otherwise)."""
    found = lexicon.verb_forms_by_tag(verb)
    return {name: found[tag] for name, tag in _FORM_TAGS.items() if tag in found} or {"base": verb}


def base_form(word: str) -> str | None:
    """The contract verb `word` is a form of (itself when it is a base form), or None."""
    if word in CONTRACT_VERBS:
        return word
    return next((verb for verb in lexicon.lemmas(word).get("VERB", ()) if verb in CONTRACT_VERBS), None)


def plural(noun: str, before: str | None) -> str | None:
    """The plural of a count noun ending a phrase, when the word before allows one."""
    if before in _SINGULAR_DETERMINERS or not (noun in COUNT_NOUNS or noun.endswith(_NOUN_SUFFIXES)):
        return None
    return lexicon.plural(noun)
