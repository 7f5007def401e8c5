"""The audit's legal thesaurus: groups of words and idioms that contract drafting uses
interchangeably, for rewriting a sin (dodges) and for widening a gate to accept every
member of a group.

A group lists phrases in their base form, under its part of speech: a group of verbs is
matched and written in every inflection of its head (`lexicon.verb_forms`): "holds
harmless", "undertook to"; a group of nouns in both numbers; adjectives, adverbs and
connectives as they stand ("void", never "voids"). A project's own groups are inflected as
the lexicon reads each word (`lexicon.word_forms`). Members of a group say the
same thing with the same argument order ("X prohibits Y" / "X forbids Y"; "title vests
in X" / "title belongs to X"), so one may stand for another in a gate.

The built-in groups (`thesaurus_groups`) are generic drafting vocabulary written for this
tool from general legal knowledge, never from any matter or probe. A project adds its own in
`[tool.rubric.audit]`:

```toml
[tool.rubric.audit]
synonym-groups = [["licence", "license"], ["terminate", "bring to an end"]]
thesaurus = { "terminate" = ["end"] }   # one-way synonyms (older form, still read)
```
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import cached_property, lru_cache

from rubric_tools.audit import lexicon
from rubric_tools.audit.thesaurus_groups import (
    CONNECTIVE_GROUPS,
    MODIFIER_GROUPS,
    NOUN_GROUPS,
    SYNONYM_GROUPS,
    VERB_GROUPS,
)
from rubric_tools.scoring.gates import NEGATOR

#: Verbs that take a person and an infinitive ("the statute obliges the landlord to
#: repair"), never a thing alone: one stands for "require" only where the clause goes on
#: "… someone to do", never in "requires notice" ("obliges notice" is no English).
OBJECT_AND_INFINITIVE_VERBS = frozenset({"compel", "oblige", "obligate", "force"})
#: Members that never take that person and infinitive: "insists on the landlord to repair".
THING_ONLY_VERBS = frozenset({"mandate", "insist on"})
#: Members only a person does: "the landlord insists on notice", never "the statute insists
#: on notice" (a statute requires or mandates it).
PERSON_SUBJECT_VERBS = frozenset({"insist on"})
#: Last words of members whose object goes before them: "make the tenant whole", "keep the
#: landlord indemnified", never "makes whole the tenant" ("hold harmless the landlord" is
#: drafting's own order, as "hold the landlord harmless" is).
OBJECT_BEFORE_LAST_WORD = frozenset({"whole", "indemnified"})
#: Members that do not take a preposition the others take after their object: "indemnify
#: the landlord against claims" is not "reimburse the landlord against claims" (one is
#: reimbursed for a loss), "notify the landlord of a defect" not "report to the landlord of".
NOT_BEFORE_PREPOSITION: dict[str, frozenset[str]] = {
    "reimburse": frozenset({"against", "from"}),
    "compensate": frozenset({"against", "from"}),
    "make whole": frozenset({"against", "from"}),
    "report to": frozenset({"of", "about"}),
}
#: Nouns only counted: in the singular they want a determiner ("a statute", "the cap"), so
#: none stands for a noun used as a mass, bare ("under state law" is not "under state
#: statute", "without limitation as to amount" not "without cap as to amount"); but each
#: stands bare right after the prepositions of its idioms ("prohibited by statute").
COUNT_ONLY_NOUNS: dict[str, frozenset[str]] = {
    "statute": frozenset({"by"}),
    "contract": frozenset({"by"}),
    "cap": frozenset(),
    "ceiling": frozenset(),
    "maximum": frozenset(),
    "regulator": frozenset(),
    "agency": frozenset(),
    "court": frozenset({"in", "of", "to"}),  # "in court", "out of court", "go to court"
}
#: Verbs that always take an object, which a regex may end on ("courts will not enforce",
#: "the statute bars"): a witness ending on one is given a neutral one ("… enforce this").
OBJECT_VERBS = frozenset(
    """enforce uphold bar prohibit forbid ban outlaw require mandate compel oblige permit allow authorize
    authorise waive indemnify reimburse assign license licence grant cap limit supersede override displace
    modify amend own possess""".split()
)
#: The object such a witness is given, which `negations` negates as "nothing".
NEUTRAL_OBJECT = "this"
#: Verbs of giving up that take no recipient: "the tenant waives the deposit", never "waives
#: the deposit to the landlord" ("releases the code to any customer" is not "forgoes" it).
NO_RECIPIENT_VERBS = frozenset({"waive", "forgo", "forego", "abandon"})
#: What a verb of giving up that takes no recipient (`NO_RECIPIENT_VERBS`) gives up: a right, a
#: claim, a remedy, by their base form. With a thing as its object the verb it stands for
#: means something else ("releases its firmware" publishes it, "surrenders the premises"
#: hands them back), and no waiver stands for it there.
GIVEN_UP_OBJECTS = frozenset(
    """right claim remedy defense defence objection lien interest title entitlement privilege immunity
    protection requirement condition notice benefit demand recourse cause action jurisdiction challenge
    dispute appeal protest""".split()
)
#: Verbs whose passive goes on with "from" and a gerund ("the tenant is barred from
#: subletting"): only these stand for one another there ("outlawed from subletting" is no English).
FROM_GERUND_VERBS = frozenset({"prohibit", "forbid", "bar", "preclude", "ban", "prevent", "restrain", "exclude"})


#: Modals and forms of "be" are written as they stand (a group lists the forms it means).
_NOT_INFLECTED = frozenset("shall must will may can should would could might is are was were been being am".split())
#: Fixed expressions: drafting treats each as one unit, so no word inside is inflected on its
#: own ("in no event", never "in no events"). Every multi-word member of a group is one too.
FIXED_EXPRESSIONS: tuple[str, ...] = (
    "in no event",
    "in any event",
    "in the event",
    "in no case",
    "at no time",
    "no later than",
    "not later than",
    "as soon as practicable",
    "as soon as reasonably practicable",
    "subject to",
    "pursuant to",
    "in accordance with",
    "in connection with",
    "on behalf of",
    "in lieu of",
    "in respect of",
    "with respect to",
    "as a matter of law",
    "by operation of law",
    "at law or in equity",
    "in good faith",
    "to the extent",
    "for the avoidance of doubt",
    "from time to time",
    "time is of the essence",
    "force majeure",
    "without limitation",
    "arm's length",
)
_PART_OF_SPEECH = {
    **{group: "VERB" for group in VERB_GROUPS},
    **{group: "NOUN" for group in NOUN_GROUPS},
    **{group: "FIXED" for group in MODIFIER_GROUPS + CONNECTIVE_GROUPS},
}


@dataclass(frozen=True)
class Thesaurus:
    """The vocabulary in force: the built-in groups, the project's groups and its one-way
    table; and the words and phrases the audit writes as they stand — the matter's names
    (`fixed_words`: "sablewing", "provider") and units (`fixed_phrases`: fixed expressions,
    multi-word names and defined terms)."""

    groups: tuple[tuple[str, ...], ...] = SYNONYM_GROUPS
    one_way: tuple[tuple[str, tuple[str, ...]], ...] = ()
    fixed_words: frozenset[str] = frozenset()
    fixed_phrases: frozenset[str] = frozenset(FIXED_EXPRESSIONS)
    #: Members holding a negator are left out (`without_negators`).
    negator_free: bool = False
    #: The matter's parties, each as (role, short name): "provider" and "kestrel" name one party.
    parties: tuple[tuple[str, str], ...] = ()

    @cached_property
    def _hash(self) -> int:
        return hash((self.groups, self.one_way, self.fixed_words, self.fixed_phrases, self.negator_free, self.parties))

    def __hash__(self) -> int:
        # The caches of `_members` and others are keyed by the vocabulary and hash it on every
        # look-up (thousands per matter): its groups are hashed once, as the fields' tuple.
        return self._hash

    def __getstate__(self) -> dict[str, object]:
        # A hash is this process's: a copy in another one computes its own.
        return {name: value for name, value in self.__dict__.items() if name != "_hash"}

    def without_negators(self) -> Thesaurus:
        """This vocabulary without the members that hold a negator ("of no effect", "not
        enforceable"): what widens a gate whose `negation_guard` drops every match with a
        negator in it, where such a member would be dead text (U001)."""
        return replace(self, negator_free=True)

    def members(self, phrase: str, reading: str | None = None) -> tuple[str, ...]:
        """Every phrase that may stand for `phrase` (in base form), `phrase` first. `reading`
        ("NOUN", "VERB"): how the text uses the phrase; a group of the other part of speech
        is then no synonym ("any breach" is no "any violate")."""
        return tuple(dict.fromkeys(member for member, _pos in _members(self, phrase, reading)))

    def member_forms(self, phrase: str, reading: str | None = None) -> tuple[str, ...]:
        """Every member that may stand for `phrase` in every form its group's part of speech
        allows: a verb group's members in every tense, a noun group's in both numbers, the
        others as written. `reading` as for `members`."""
        found = [form for member, pos in _members(self, phrase, reading) for form in phrase_forms(member, pos)]
        return tuple(dict.fromkeys(found))

    def member_participles(self, phrase: str) -> tuple[str, ...]:
        """The past participle of every verb member that may stand for `phrase` ("permitted"
        -> permitted, allowed, authorized, …): how a passive ("is permitted to") is widened,
        where any other form ("permits to") would be no English."""
        found = []
        for member, _pos in _members(self, phrase):
            head, _, rest = member.partition(" ")
            if head in lexicon.BARE_INFINITIVE_VERBS:
                continue  # "is let to …"
            done = lexicon.past_participle(head) if lexicon.is_verb(head) else None
            if done is not None:
                found.append(f"{done} {rest}".strip())
        return tuple(dict.fromkeys(found))

    def units(self) -> frozenset[str]:
        """Phrases no word of which is inflected on its own: the fixed expressions and names,
        and every multi-word member of a group."""
        return _units(self)

    def with_matter(
        self, words: frozenset[str], phrases: frozenset[str], parties: tuple[tuple[str, str], ...] = ()
    ) -> Thesaurus:
        """This vocabulary with a matter's names and multi-word names written as they stand,
        and its parties (`names.matter_parties`), each called by its role or its name."""
        return replace(
            self,
            fixed_words=self.fixed_words | words,
            fixed_phrases=self.fixed_phrases | phrases,
            parties=self.parties + parties,
        )

    def party_names(self, phrase: str) -> tuple[str, ...]:
        """The other names of the party `phrase` names ("provider" -> "kestrel", and back);
        empty when it names none, or when two parties share the role or the name."""
        others = [name for pair in self.parties if phrase in pair for name in pair if name != phrase]
        return tuple(others) if len(others) == 1 else ()


@lru_cache(maxsize=64)
def _units(thesaurus: Thesaurus) -> frozenset[str]:
    members = {member for group in thesaurus.groups for member in group if " " in member}
    return frozenset(thesaurus.fixed_phrases | members)


def _head_lemmas(phrase: str) -> set[str]:
    """The phrase with its first word at each base form it may have as a verb ("holds
    harmless" -> {"hold harmless"}), and a verb coordinated with it too ("defends and
    indemnifies" -> {"defend and indemnify"}), the phrase itself excluded."""
    words = phrase.split()
    found = set()
    other = _coordinated_verb(words)
    for lemma in lexicon.lemmas(words[0]).get("VERB", ()):
        found.add(" ".join([lemma, *words[1:]]))
        if other is not None:
            for second in lexicon.lemmas(words[other]).get("VERB", ()):
                found.add(" ".join([lemma, *words[1:other], second, *words[other + 1 :]]))
    if words[0] in ("is", "are", "was", "were", "been", "being"):
        found.add(" ".join(["be", *words[1:]]))
    return found - {phrase}


#: The engine's negators: a member holding one is dead text in a gate whose guard drops it.


def _kept(thesaurus: Thesaurus, members: Sequence[str]) -> tuple[str, ...]:
    """`members` as this vocabulary keeps them: without those holding a negator when it is
    `negator_free`."""
    if not thesaurus.negator_free:
        return tuple(members)
    return tuple(member for member in members if not NEGATOR.search(member))


@lru_cache(maxsize=64)
def _kept_members(thesaurus: Thesaurus) -> frozenset[str]:
    """Every member of every group, as `_kept` keeps them."""
    return frozenset(member for group in thesaurus.groups for member in _kept(thesaurus, group))


@lru_cache(maxsize=4096)
def _members(thesaurus: Thesaurus, phrase: str, reading: str | None = None) -> tuple[tuple[str, str | None], ...]:
    """(member, part of speech of its group) of every group holding `phrase` as written, as
    a form of a verb for a group of verbs ("completed" is no member of "entire, whole, full,
    complete"), or as a plural for a group of nouns ("fees"); a project's groups have no
    part of speech (the lexicon decides). With `reading` "NOUN" no group of verbs (nor a
    project's group by the phrase's verb: "training" is no "train"), with "VERB" no group
    of nouns."""
    phrase = phrase.lower()
    as_verb = _head_lemmas(phrase)
    as_noun = set(lexicon.lemmas(phrase).get("NOUN", ())) - {phrase} if " " not in phrase else set()
    found: list[tuple[str, str | None]] = []
    # Most phrases asked (every run of one to three words of a witness) are in no group: a
    # phrase none of whose readings is a member of one is not looked for group by group.
    readings = {phrase} | as_verb | as_noun
    for group in thesaurus.groups if not readings.isdisjoint(_kept_members(thesaurus)) else ():
        pos = _PART_OF_SPEECH.get(group)
        if (reading, pos) in (("NOUN", "VERB"), ("VERB", "NOUN")):
            continue
        group = _kept(thesaurus, group)
        if (
            phrase in group
            or (pos in ("VERB", None) and reading != "NOUN" and as_verb & set(group))
            or (pos in ("NOUN", None) and as_noun & set(group))
        ):
            found += [(member, pos) for member in group]
    for word, synonyms in thesaurus.one_way:
        if word == phrase or word in as_verb | as_noun:
            found += [(member, None) for member in (word, *_kept(thesaurus, synonyms))]
    return tuple(dict.fromkeys(found))


def phrase_forms(phrase: str, part_of_speech: str | None = None) -> tuple[str, ...]:
    """A base-form phrase in the forms its part of speech takes: a verb phrase in every
    inflection of its head ("undertake to" -> undertake to, undertakes to, undertook to,
    …; "be" heads become is/are/was/…), a one-word noun in both numbers, a modifier or a
    connective as written. Without a part of speech the lexicon decides (`lexicon.word_forms`
    for one word; a head that is a verb's base form and no modifier is inflected)."""
    words = phrase.split()
    if words[0] in _NOT_INFLECTED or part_of_speech == "FIXED":
        return (phrase,)
    if words[0] == "be" and part_of_speech in ("VERB", None):
        heads: Iterable[str] = ("is", "are", "be", "was", "were", "been")
    elif part_of_speech == "NOUN":
        return lexicon.noun_forms(phrase) if len(words) == 1 else (phrase,)
    elif part_of_speech is None and len(words) == 1:
        return lexicon.word_forms(phrase)
    elif words[0] in lexicon.lemmas(words[0]).get("VERB", ()) and (
        part_of_speech == "VERB" or not lexicon.is_modifier(words[0])
    ):
        other = _coordinated_verb(words)
        if other is not None:
            return _coordinated_forms(words, other)
        heads = lexicon.verb_forms(words[0])  # a base form: every inflection ("following" stays as it is)
    else:
        heads = (words[0],)
    return tuple(dict.fromkeys(" ".join([head, *words[1:]]) for head in heads))


def _coordinated_verb(words: Sequence[str]) -> int | None:
    """Where a verb coordinated with the phrase's first word stands: "defend and indemnify",
    "indemnify and hold harmless" (the word after the first "and" or "or", when it is a verb
    and the "and" follows the first word at once). An "and" further on joins the verb's
    object ("hold all right, title and interest in": "interest" is a noun there, never
    "held all right, title and interested in")."""
    return 2 if len(words) > 2 and words[1] in ("and", "or") and "VERB" in lexicon.lemmas(words[2]) else None


def _coordinated_forms(words: Sequence[str], other: int) -> tuple[str, ...]:
    """A phrase of two coordinated verbs in their base form, both in each inflection
    ("defends and indemnifies", "defended and indemnified"; never "defends and indemnify")."""
    first, second = lexicon.verb_forms_by_tag(words[0]), lexicon.verb_forms_by_tag(words[other])
    forms = [" ".join(words)]
    for tag in lexicon.VERB_TAGS:
        if tag in first and tag in second:
            forms.append(" ".join([first[tag], *words[1:other], second[tag], *words[other + 1 :]]))
    return tuple(dict.fromkeys(forms))


def build(groups: Sequence[Sequence[str]] = (), one_way: Mapping[str, Sequence[str]] | None = None) -> Thesaurus:
    """The built-in groups plus a project's (`synonym-groups`) and its one-way table (`thesaurus`)."""
    extra = tuple(tuple(" ".join(p.lower().split()) for p in group) for group in groups)
    table = tuple((word, tuple(synonyms)) for word, synonyms in (one_way or {}).items())
    return Thesaurus(SYNONYM_GROUPS + extra, table)
