"""The gerund subject of an extraposed clause, for the widening step `passive` (beside the
other voice, `active_voice.other_voice`): "it is unlawful (for the tenant) to sublet the
premises" also as "subletting the premises is unlawful". English says a legal status of
an act either way: with "it" standing for the infinitive after the predicate, or with the
act as the subject, named by its gerund ("Subletting the premises is prohibited by law").

A gate's branch is read as words (`passive_voice.clause_tokens`): an optional "it" and
"is", the predicate — a word that states a status ("unlawful", "illegal", "unenforceable"), or a
phrase that ends in the law that sets it ("prohibited by law", "contrary to law") — an
optional "for" and whoever the status is for, "to", the verb, and what follows it. A
predicate that a subject could have raised ("Tenant is permitted to sublet", "… is free to
…", "… is liable to …") is read so only after "it is": there the act is the subject.
`gerund_subject_clause` writes the same rewrite of a whole sentence, as evidence of the
gate's defect (`texts.entry_texts`)."""

from __future__ import annotations

import re

from rubric_tools.audit import lexicon
from rubric_tools.audit.clause_slots import NEGATOR_FREE_ADVERB
from rubric_tools.audit.passive_voice import PHRASE, REST, ClauseToken, clause_tokens
from rubric_tools.audit.pattern_tree import Item, render

#: The words of the law that sets a status, closing the predicate ("prohibited by law").
_LAW_WORDS = frozenset("law laws statute statutes regulation regulations rule rules act".split())
#: Predicates after which "to" is the subject's own infinitive, raised ("it is likely to
#: rain" names no act): never a status.
_RAISING = frozenset("able unable likely unlikely sure certain bound going due about apt".split())
#: Predicates a party may be the subject of, its infinitive controlled ("Tenant is entitled
#: to sublet"): a status of an act only after "it is" ("it is permitted to sublet").
_CONTROL = frozenset(
    "free entitled liable required obliged obligated permitted allowed authorized authorised expected deemed".split()
)
#: The forms of "be" between "it" and the predicate ("it is", "it would be").
_BE_WORDS = frozenset("is are was were be would will shall may might could".split())
#: "be" before the predicate once the gerund is the subject.
_BE = r"(?:is|are|was|were|(?:would|will|shall|may|might|could) be|be)"
#: Between the gerund's object and "is": the rest of a noun phrase ("selling the data it
#: holds on employees is unlawful"), never past the clause.
_SUBJECT_REST = r"(?:[^.;]|\.\d){0,60}?"


def gerund(phrase: str) -> str | None:
    """The gerund of a verb phrase in its base form ("sublet" -> "subletting", "enter into"
    -> "entering into"); a verb the lexicon does not know takes the regular "-ing" where its
    spelling leaves no doubt ("onboard" -> "onboarding"); None for a word that is no verb."""
    head, *rest = phrase.split()
    if not re.fullmatch(r"[a-z][a-z-]*", head):
        return None
    verbs = lexicon.lemmas(head).get("VERB", ())
    if verbs:
        form = lexicon.verb_form(head, "VBG") if head in verbs else None
    elif lexicon.known(head):
        return None  # a noun or an adjective: "to the extent" has no gerund
    else:
        form = lexicon.verb_form(head, "VBG") or _regular_gerund(head)
    return " ".join([form, *rest]) if form else None


def _regular_gerund(word: str) -> str | None:
    """The "-ing" form of an unknown verb where its spelling settles it: a silent "e" is
    dropped ("outsource" -> "outsourcing"); after two consonants, or a vowel pair, "-ing" is
    added ("onboard" -> "onboarding"). A single vowel before a final consonant may double
    it ("offset" -> "offsetting") or not ("audit" -> "auditing"): None."""
    if word.endswith("e") and not word.endswith(("ee", "ye", "oe")):
        return word[:-1] + "ing"
    if re.search(r"(?:[^aeiou][^aeiouy]|[aeiou]{2}[^aeiou]|[wxy])$", word):
        return word + "ing"
    return None


def _states_a_status(phrase: str, *, after_it: bool, closes_words: bool = False) -> bool:
    """Whether a predicate states the legal status of an act: an adjective ("unlawful"), or a
    phrase closed by the law that sets it ("prohibited by law"; `closes_words`: the phrase
    is the last of several words); after "it is" a participle too, and a word a subject
    could have raised ("it is permitted to …")."""
    words = phrase.split()
    if not words:
        return False
    last = words[-1]
    if (len(words) > 1 or closes_words) and last in _LAW_WORDS:
        return True
    found = lexicon.lemmas(last)
    if last in _RAISING:
        return False
    if after_it:
        return "ADJ" in found or lexicon.is_past_participle(last)
    return last not in _CONTROL and "ADJ" in found and "VERB" not in found


def _plain(token: ClauseToken) -> bool:
    return bool(token.words) and not {REST, PHRASE} & set(token.words)


def gerund_subjects_of(branch: list[Item]) -> list[str]:
    """The branch with the act as the subject, when it reads "(it is) PREDICATE (for X) to
    VERB …": "VERBing … is PREDICATE (for X)"; [] otherwise. A "for" phrase the gate makes
    optional is left out (the act's gerund names no one); a required one follows the
    predicate ("onboarding the vendor is unlawful for Brightline")."""
    tokens = [t for t in clause_tokens(branch) if not t.space]
    at_to = next((i for i, t in enumerate(tokens) if t.words == ("to",) and not t.optional), None)
    if at_to is None or at_to + 1 >= len(tokens):
        return []
    start, after_it = 0, False
    if tokens[0].words == ("it",):
        start, after_it = 1, True
        while start < at_to and set(tokens[start].words) <= _BE_WORDS:
            start += 1
    predicate_end = next((i for i in range(start, at_to) if tokens[i].optional or tokens[i].words == ("for",)), at_to)
    predicate = tokens[start:predicate_end]
    between = tokens[predicate_end:at_to]
    if not predicate or not all(_plain(t) and not t.optional for t in predicate):
        return []
    several = len(predicate) > 1
    if not all(_states_a_status(p, after_it=after_it, closes_words=several) for p in predicate[-1].words):
        return []
    for_part = ""
    if any(not t.optional for t in between):
        if between[0].words != ("for",) or not all(_plain(t) for t in between):
            return []
        for_part = r"\s+" + render(branch[between[0].start : between[-1].end])
    verb = tokens[at_to + 1]
    if not _plain(verb):
        return []
    gerunds = [form for phrase in verb.words if (form := gerund(phrase)) is not None]
    if not gerunds:
        return []
    acts = lexicon.alternation(gerunds)
    rest = render(branch[verb.end :])
    status = render(branch[predicate[0].start : predicate[-1].end])
    ends = "" if rest.startswith(("\\b", "\\s", " ")) else r"\b"  # the gerund a whole word
    return [rf"\b{acts}{ends}{rest}{_SUBJECT_REST}\b{_BE}\s+{NEGATOR_FREE_ADVERB}{status}{for_part}"]


#: The opening of an extraposed sentence: "It is", "It would be", "It will be".
_LEAD = re.compile(r"it\s+(is|would\s+be|will\s+be)\s+", re.IGNORECASE)
#: Where the status ends, and whoever it is for: "… for the tenant to sublet …".
_TO = re.compile(r"(?:\s+(for\s+[\w'’ -]+?))?\s+to\s+", re.IGNORECASE)
#: The verb after "to", a particle of a phrasal verb with it, and the rest up to the stop.
_ACT = re.compile(r"([a-z][a-z-]*(?:\s+(?:into|forward|ahead|with))?)\b([^.;]*?)([.;!?]?)", re.IGNORECASE)


def gerund_subject_clause(sentence: str) -> str | None:
    """The sentence "It is STATUS (for X) to VERB …." with its act as the subject: "VERBing …
    is STATUS (for X)." ("It is unlawful for the tenant to sublet the premises." ->
    "Subletting the premises is unlawful for the tenant."); None for any other sentence, or
    one whose status is negated (the rewrite would move the negator off the act). The
    status ends at the first "to" after which a verb follows ("contrary to law for the
    landlord to enter into …": "law" is no verb)."""
    text = sentence.strip()
    lead = _LEAD.match(text)
    if lead is None:
        return None
    for to in _TO.finditer(text, lead.end()):
        status = text[lead.end() : to.start()]
        act = _ACT.fullmatch(text, to.end())
        if act is None or not status or len(status.split()) > 4 or re.search(r"\b(?:not|never|no)\b", status, re.I):
            continue
        if not _states_a_status(status.lower(), after_it=True, closes_words=len(status.split()) > 1):
            continue
        doing = gerund(" ".join(act.group(1).lower().split()))
        if doing is None:
            continue
        be = " ".join(lead.group(1).lower().split())
        party = f" {to.group(1)}" if to.group(1) else ""
        return f"{doing[0].upper()}{doing[1:]}{act.group(2)} {be} {status}{party}{act.group(3) or '.'}"
    return None
