"""A witness completed into a clause without the matter: the `Completion` record (the sin's
own words and the words around them), a neutral carrier chosen by the fragment's shape,
and subject-verb agreement repaired where a regex wrote them apart. `clauses` completes
from the matter's own texts first and falls back to `complete_alone`.

Carriers, by shape (`grammar.shape`): "the other party <modal phrase>", "this agreement
<verb phrase>" ("the other party" before a past form), "the other party may <infinitive
phrase>", "the clause is <adjective phrase>", "notice is due <temporal phrase>", "this
applies <prepositional phrase>", "the rate / period / figure is <quantity>", "the clause
provides for <noun phrase>" ("the" before a bare singular noun). The words are generic, written for
this tool; a carrier is kept only when the gate still fires on it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from rubric_tools.audit import inflection, lexicon
from rubric_tools.audit.agreement import agreement_errors
from rubric_tools.audit.grammar import (
    ADJECTIVES,
    DETERMINERS,
    FINITE_AUXILIARIES,
    PREPOSITIONS,
    SUBORDINATORS,
    is_temporal,
    passive_participle,
    shape,
    verb_of,
)
from rubric_tools.audit.quantities import TIME_UNIT_WORDS, quantities
from rubric_tools.audit.thesaurus import NEUTRAL_OBJECT, OBJECT_VERBS
from rubric_tools.audit.wording import as_sentence, doubled, words
from rubric_tools.gate_analysis.gate_firing import fires
from rubric_tools.scoring.gates import Gate

#: A word as written, with its apostrophes (typographic or not) and hyphens: asked of every rewrite.
_WRITTEN_WORD = re.compile(r"[\w’'-]+")
_PLAIN_WORD = re.compile(r"[\w'-]+")
_REGEX_DEBRIS = re.compile(r"[\\\[\]{}^|*+]")
#: What goes on with the last phrase before it: a comma, or a conjunction of a list.
_GOES_ON = re.compile(r"(?:,| (?:and|or|as well as|together with|nor)\b)")
#: Words that open what follows an object rather than go on with it: "… data to train",
#: "… data that it collects", "… data solely for support".
_AFTER_AN_OBJECT = PREPOSITIONS | SUBORDINATORS | frozenset("that which who whom whose but so".split())
_NEXT_WORD = re.compile(r" ([a-z][\w'-]*)", re.IGNORECASE)


#: Adjectives that pick one thing out, and take "the" before it ("the first dollar").
_WITH_THE = frozenset("first second third last next same entire whole only sole".split())


@dataclass(frozen=True)
class Completion:
    """A witness completed into a clause: `before` + `core` + `after`. `core` is the sin's
    own words (the witness, or the matter's words the gate matched); rewrites change it
    and keep the words around it."""

    before: str
    core: str
    after: str
    how: str  # "matter clause", "clause", "carrier: <shape>", "fragment"
    source: str | None = None  # the matter text a clause was taken from

    @property
    def text(self) -> str:
        return f"{self.before}{self.core}{self.after}"

    @property
    def is_clause(self) -> bool:
        return self.how != "fragment"

    @property
    def noun_phrase(self) -> str | None:
        """The witness as the noun phrase it is, with the "the" its carrier gave it ("the
        indemnification cap"), when it was carried as what a clause provides for; else None."""
        if self.how != "carrier: noun phrase" or not self.before.startswith(PROVIDES_FOR):
            return None
        return self.before[len(PROVIDES_FOR) :] + self.core

    def around(self, core: str) -> str:
        """Another core (a rewrite of this one) in the same clause, as a sentence."""
        text = f"{self.before}{restore_case(core, self.core)}{self.after}"
        return as_sentence(text) if self.is_clause else text

    def sentence(self) -> str:
        return as_sentence(self.text) if self.is_clause else self.text

    def continues_core(self) -> bool:
        """Whether the words after the core go on with its last phrase: a list, an
        apposition ("Provider Data, Outputs, and usage information", "Provider Data, which
        …") or the rest of a noun the core cut ("the roof| membrane"). A rewrite that
        moves that phrase (the passive) cannot keep them after it."""
        if _GOES_ON.match(self.after):
            return True
        # A core cut inside its last phrase: "tenant shall repair the roof| membrane".
        next_word = _NEXT_WORD.match(self.after)
        return next_word is not None and not (
            next_word.group(1).lower() in _AFTER_AN_OBJECT or next_word.group(1).lower().endswith("ly")
        )

    def cuts_subject(self) -> bool:
        """Whether the words before the core end inside its subject: a determiner ("The|
        law bars …"). A rewrite that moves the subject (the passive) would leave it behind
        ("The all model training is barred by law")."""
        words = self.before.split()
        return bool(words) and words[-1].lower() in DETERMINERS

    def renames(self, rewrite: str) -> bool:
        """Whether a rewrite of the core changes a capitalized word of it (a defined term or a
        name: "Data Breach Claims" is not "Data contravene Claims")."""
        names = _WRITTEN_WORD.findall(self.core)
        if not self.before.strip() and names:
            names = names[1:]  # the first word's capital may only open the sentence
        kept = set(_PLAIN_WORD.findall(rewrite.lower().replace("’", "'")))
        return any(w[0].isupper() and w.lower().replace("’", "'") not in kept for w in names)


def restore_case(rewrite: str, original: str) -> str:
    """The rewrite with each word the original wrote capitalized written so again
    ("Customer Data" stays so in "Customer Data may be used by Provider")."""
    cased = {w.lower(): w for w in _WRITTEN_WORD.findall(original) if w != w.lower()}
    if not cased:
        return rewrite
    return _WRITTEN_WORD.sub(lambda m: cased.get(m.group(0), m.group(0)), rewrite)


# ------------------------------------------------------------------ carriers

#: The subject a carrier gives a clause that has none ("the other party may …"); also the
#: subject of an agentless passive rewritten in the active (`clause_rewrites`).
CARRIER_SUBJECT = "the other party"
#: The carrier of a noun phrase: what a clause provides for.
PROVIDES_FOR = "the clause provides for "


def _plural(word: str) -> bool:
    """Whether the head of a noun phrase is plural ("accesses" is, in a noun phrase)."""
    return word.endswith("s") and not word.endswith(("ss", "us", "is", "'s", "’s"))


def _head(tokens: Sequence[str]) -> str:
    """The head noun of a noun phrase: the word before its first preposition, participle or
    relative word ("fines imposed on vendor" -> "fines")."""
    for index, word in enumerate(tokens[1:], start=1):
        verb = verb_of(word)
        if word in PREPOSITIONS or word in ("that", "which", "who") or (verb is not None and verb[1] == "past"):
            return tokens[index - 1]
    return tokens[-1]


def carrier(fragment: str) -> Completion:
    """A neutral clause around a fragment, chosen by its shape (already a clause: itself)."""
    kind = shape(fragment)
    tokens = words(fragment)
    if not tokens:
        return Completion("", fragment, "", "fragment")  # no word ("•" of `\N{BULLET}`): no clause around it
    if kind == "clause":
        return Completion("", fragment, "", "clause")
    found = quantities(fragment)
    if found and found[-1].adjectival and found[-1].end >= len(fragment.rstrip()):
        return Completion("", fragment, "", "fragment")  # "twelve-month": a modifier with nothing to modify
    if kind == "modal phrase":
        return Completion(f"{CARRIER_SUBJECT} ", fragment, "", f"carrier: {kind}")
    if kind == "verb phrase":
        if tokens[0] == "not":  # a participle negated, its subject before the "not" (`grammar.shape`)
            tokens = tokens[1:]
        verb = verb_of(tokens[0])
        subject = f"{CARRIER_SUBJECT} " if verb is not None and verb[1] == "past" else "this agreement "
        if tokens[0] in FINITE_AUXILIARIES["plural"]:
            subject = "these terms "  # "are void under the act"
        if passive_participle(tokens):
            # A participle before "to", an agent or a "from": "is permitted to …", "is barred by
            # law from …", "is excluded from …".
            subject = f"{CARRIER_SUBJECT} is "
        return Completion(subject, fragment, "", f"carrier: {kind}")
    if kind == "infinitive phrase":
        return Completion(f"{CARRIER_SUBJECT} may ", fragment, "", f"carrier: {kind}")
    if kind == "adjective phrase":
        return Completion("the clause is ", fragment, "", f"carrier: {kind}")
    if kind == "prepositional phrase":
        subject = "notice is due " if is_temporal(fragment) else "this applies "
        return Completion(subject, fragment, "", f"carrier: {kind}")
    if kind == "quantity":
        return Completion(_quantity_subject(fragment), fragment, "", f"carrier: {kind}")
    head = _head(tokens)
    determined = tokens[0] in DETERMINERS or tokens[0].endswith(("'s", "’s")) or tokens[0].isdigit()
    if tokens[0] == "no" or not _names_a_thing(head) or lexicon.only_as(tokens[0], "ADV"):
        # A negative noun phrase states its own predicate ("no cap applies"); what names no
        # thing ("not yet", "legally") is no thing a clause
        # provides for: "applies" is all that can be said of it (and the checks judge it).
        predicate = " apply" if _plural(head) else " applies"
        return Completion("" if determined else "the ", fragment, predicate, f"carrier: {kind}")
    # What a clause provides for, negated as a lawyer negates it ("… does not provide for
    # …"). A bare singular noun takes "the"; a plural, or a noun after an adjective
    # ("unlimited liability"), is read as it stands.
    adjective = lexicon.is_modifier(tokens[0]) or tokens[0] in ADJECTIVES
    bare = determined or _plural(head) or (adjective and tokens[0] not in _WITH_THE)
    subject = PROVIDES_FOR if bare else PROVIDES_FOR + "the "
    return Completion(subject, fragment, "", f"carrier: {kind}")


def _names_a_thing(head: str) -> bool:
    """Whether a noun phrase's head is a noun: the lexicon reads it as one, or does not know
    it (a name, a defined term)."""
    readings = lexicon.lemmas(head)
    return not readings or "NOUN" in readings


def _quantity_subject(fragment: str) -> str:
    """What a quantity is said of: a rate, a period, or a figure."""
    found = quantities(fragment)
    unit = found[0].unit if found else None
    if unit is not None and unit.name == "percent":
        return "the rate is "
    if unit is not None and unit.is_duration:
        return "the period is "
    return "the figure is "


def repair_agreement(text: str) -> str:
    """Subject and verb made to agree where a regex wrote them apart ("laws prohibits" ->
    "laws prohibit", "provider are" -> "provider is", "law compel" -> "law compels", "9
    month" -> "9 months")."""
    for pair in agreement_errors(text):
        noun, verb = pair.split(" ")
        if verb in TIME_UNIT_WORDS:
            fixed = verb + "s"  # "9 month" -> "9 months"
        elif verb in ("are", "were"):
            fixed = "is" if verb == "are" else "was"
        else:
            found = verb_of(verb)
            if found is None:
                continue
            # a plural subject takes the base form, a singular one the third person
            fixed = found[0] if found[1] != "base" else inflection.third_person(found[0])
        text = re.sub(rf"\b{re.escape(noun)} {re.escape(verb)}\b", f"{noun} {fixed}", text, count=1, flags=re.I)
    return text


def as_clause(completion: Completion) -> Completion:
    """A completion whose words are no clause by themselves ("in no event later than 48
    hours after Provider confirms the Security Incident") inside the carrier of its shape."""
    text = completion.text.rstrip(" .;,")
    if shape(text) == "clause":
        return completion
    around = carrier(text)
    return Completion(
        around.before + completion.before,
        completion.core,
        completion.after.rstrip(" .;,") + around.after,
        completion.how,
        completion.source,
    )


#: Verbs that pass rights to a recipient ("assigns to Consultant all rights").
_TRANSFER_VERBS = ("assign", "transfer", "convey")


@lru_cache(maxsize=1)
def _ends_with_recipient() -> re.Pattern[str]:
    forms = sorted({form for verb in _TRANSFER_VERBS for form in lexicon.verb_forms(verb)}, key=len, reverse=True)
    return re.compile(rf"\b(?P<verb>{'|'.join(forms)}) (?P<party>(?:the )?[\w'’-]+)$")


def repair_recipient(text: str) -> str:
    """A transfer that ends with its recipient, as a regex window between the verb and the
    party lets a witness write it ("client assigns consultant"), given its "to" and an
    object: "client assigns to consultant all rights"."""
    found = _ends_with_recipient().search(text)
    if found is None or found.group("party").split()[-1] in lexicon.FUNCTION_WORDS:
        return text
    return f"{text[: found.start()]}{found.group('verb')} to {found.group('party')} all rights"


def repair_object(text: str) -> str:
    """A witness that ends on a verb that takes an object, as a regex ending on the verb
    writes it ("courts will not enforce", "the statute bars"), given a neutral one: "courts
    will not enforce this". Not a passive ("subletting is not permitted")."""
    tokens = text.lower().split()
    if not tokens or not any(verb in OBJECT_VERBS for verb in lexicon.lemmas(tokens[-1]).get("VERB", ())):
        return text
    if tokens[-1].endswith("ing") or any(word in lexicon.BE_FORMS for word in tokens[-4:-1]):
        return text
    return f"{text} {NEUTRAL_OBJECT}"


def complete_alone(witness: str, gate: Gate) -> Completion:
    """The witness completed without the matter: itself when it is a clause, in a carrier
    when the gate fires on that, else a fragment."""
    for repair in (repair_agreement, repair_recipient, repair_object):
        repaired = repair(witness)
        if repaired != witness and fires(gate, repaired):
            witness = repaired
    completion = carrier(witness)
    if completion.how == "clause":
        return completion
    if fires(gate, completion.text) and reads_well(completion.text):
        return completion
    return Completion("", witness, "", "fragment")


def reads_well(text: str) -> bool:
    """No doubled words, no disagreement, no regex debris: the least a completion needs."""
    return not doubled(text) and not agreement_errors(text) and not _REGEX_DEBRIS.search(text)


def origin_of(completion: Completion) -> str:
    """The completion's origin as `naturalness.score` weighs it."""
    return completion.how.split(":")[0]


def standalone(text: str) -> str:
    """A rewrite built from the pattern alone: a sentence when it is a clause."""
    return as_sentence(text) if shape(text) == "clause" else text
