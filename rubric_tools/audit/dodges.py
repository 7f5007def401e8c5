"""Dodges: meaning-preserving rewrites of a must-fire witness. A gate should still fire.

Each rewrite changes one thing: a typographic apostrophe or quote, a hyphen, one
inserted adverb or adjective, an inflection, a dotted section reference inside a
bounded window, a swapped idiom, a nominalization, or a synonym from a small legal
thesaurus (extensible from `[tool.rubric.audit] thesaurus`). The tables are generic
drafting vocabulary written for this tool.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from functools import lru_cache

from rubric_tools.audit import inflection, lexicon, money, quantities
from rubric_tools.audit.citations import citation, dotted_in_window
from rubric_tools.audit.clause_rewrites import active_voice, of_phrase
from rubric_tools.audit.dodge import Dodge
from rubric_tools.audit.grammar import DETERMINERS, PREPOSITIONS
from rubric_tools.audit.synonym_swaps import MODAL_WORDS, group_swaps
from rubric_tools.audit.thesaurus import Thesaurus
from rubric_tools.audit.wording import doubled
from rubric_tools.gate_analysis.witness import gap_witness
from rubric_tools.scoring.gates import NEGATOR

#: At most this many dodges per witness.
MAX_DODGES = 24

IDIOMS: tuple[tuple[str, str], ...] = (
    ("whether or not", "regardless of whether"),
    ("in no event", "under no circumstances"),
    ("prior to", "before"),
    ("in lieu of", "instead of"),
    ("in the event that", "if"),
    ("with respect to", "regarding"),
    ("notwithstanding", "despite"),
    ("sole discretion", "absolute discretion"),
    ("as soon as practicable", "as soon as reasonably possible"),
)

NOMINALIZATIONS: Mapping[str, str] = {
    "re-identify": "undertake re-identification of",
    "reidentify": "undertake re-identification of",
    "identify": "undertake identification of",
    "use": "make use of",
    "disclose": "make disclosure of",
    "assign": "make an assignment of",
    "terminate": "effect the termination of",
    "audit": "conduct an audit of",
    "indemnify": "provide indemnification to",
    "train": "carry out training on",
}

#: First words of compound modifiers, written with a space or a hyphen alike ("first dollar" /
#: "first-dollar", "third party" / "third-party"). Not numbers: "five business days" does not
#: become "five-business days".
COMPOUND_HEADS = frozenset("first second third non pre post co sub self multi cross".split())
#: Prefixes written hyphenated or joined alike.
JOINABLE_PREFIXES = ("re", "de", "co", "non", "pre", "sub", "multi", "cross")

_MODALS = ("may", "shall", "will", "must", "can", "should", "would")
#: Words after a determiner that an adjective cannot precede ("all of", "the entire").
_NOT_NOUNS = frozenset({"of", "entire", "whole", "other", "same", "first", "relevant", "and", "or"})
_DETERMINERS = ("the", "all", "any", "each", "every", "such", "its", "their")
#: Asked of every witness (`_insertions`, `_hyphens`): compiled once.
_NEGATED_MODAL = {modal: re.compile(rf"\b{modal} not\b") for modal in _MODALS}
_AFTER_DETERMINER = {determiner: re.compile(rf"(?<![\w-]){determiner} (\w+)") for determiner in _DETERMINERS}
_AFTER_MODAL = {modal: re.compile(rf"(?<![\w-]){modal} ([a-z]+)") for modal in _MODALS}
_HYPHENATED = re.compile(r"\b(\w+)-(\w+)\b")
_TWO_WORDS = re.compile(r"(?<![\w-])([a-z]+) ([a-z]+)(?![\w-])")


_DOUBLED = re.compile(r"\b(\w+) \1\b")


@lru_cache(maxsize=4096)  # the same idioms, modals and synonyms are looked for in every witness
def _word(word: str) -> re.Pattern[str]:
    return re.compile(rf"(?<![\w-]){re.escape(word)}(?![\w-])")


def _replace_once(text: str, word: str, replacement: str) -> str | None:
    pattern = _word(word)
    if not pattern.search(text):
        return None
    return pattern.sub(replacement, text, count=1)


def _typographic(witness: str) -> Iterator[Dodge]:
    if "'" in witness:
        yield Dodge("typographic apostrophe", witness.replace("'", "’"))
    if '"' in witness:
        quoted = re.sub(r'"([^"]*)"', "“\\1”", witness)
        yield Dodge("typographic quotes", quoted)


def _hyphens(witness: str) -> Iterator[Dodge]:
    for match in _HYPHENATED.finditer(witness):
        left, right = match.group(1), match.group(2)
        if left in JOINABLE_PREFIXES:  # "re-identify" is also written "reidentify"; "first-dollar" is not
            # ... but never "re identify": a prefix does not stand alone
            yield Dodge("hyphen joined", witness.replace(match.group(0), f"{left}{right}", 1))
        else:
            yield Dodge("hyphen to space", witness.replace(match.group(0), f"{left} {right}", 1))
    for match in _TWO_WORDS.finditer(witness):
        left, right = match.group(1), match.group(2)
        if left in COMPOUND_HEADS and right not in _NOT_NOUNS and len(right) > 2:
            # "first dollar" as a compound modifier is written "first-dollar".
            yield Dodge("space to hyphen", witness.replace(match.group(0), f"{left}-{right}", 1))
            break


def _insertions(witness: str) -> Iterator[Dodge]:
    """An adverb after the first modal ("shall expressly notify"), an adjective after the
    first determiner before a noun the lexicon knows ("the relevant premises"), never before
    a name ("the GDPR", "the CCPA") nor before another adjective ("the public domain")."""
    for modal in _MODALS:
        inserted = _replace_once(witness, modal, f"{modal} expressly")
        if inserted is None or witness.endswith(modal) or _NEGATED_MODAL[modal].search(witness):
            continue
        if _adverb_after(witness, modal):
            break  # "shall promptly notify": "shall expressly promptly notify" stacks two adverbs
        yield Dodge("inserted adverb", inserted)
        break
    for determiner in _DETERMINERS:
        inserted = _replace_once(witness, determiner, f"{determiner} relevant")
        following = _AFTER_DETERMINER[determiner].search(witness)
        if inserted is None or following is None or following.group(1) in _NOT_NOUNS:
            continue
        if lexicon.is_modifier(following.group(1)):
            continue  # a second adjective makes another term: never "the relevant public domain"
        if lexicon.known(following.group(1)):  # a name takes no adjective: never "the relevant GDPR"
            yield Dodge("inserted adjective", inserted)
            break


def _adverb_after(witness: str, modal: str) -> bool:
    """Whether the word after the first `modal` is an adverb ("shall promptly notify")."""
    found = _AFTER_MODAL[modal].search(witness)
    readings = lexicon.lemmas(found.group(1)) if found is not None else {}
    return "ADV" in readings and "VERB" not in readings


def _inflections(witness: str) -> Iterator[Dodge]:
    """A plural noun at the end made singular: only the unambiguous noun plurals
    ("obligations", "remedies"), never a name ("united states") or a verb ("requires");
    a count noun at the end made plural after a determiner of either number ("any claim" /
    "any claims"), never a bare one ("after confirmation")."""
    words = witness.split(" ")
    last = words[-1]
    plural_noun = (
        len(last) >= 6 and last.isalpha() and last.endswith(("ies", "tions", "ments", "ities", "ances", "ences"))
    )
    if plural_noun:
        # Not after "all" or bare ("in US facilities"): the singular needs another determiner.
        if _takes_either_number(words[:-1]):
            singular = last[:-3] + "y" if last.endswith("ies") else last[:-1]
            yield Dodge("inflection", " ".join([*words[:-1], singular]))
        return
    plural = inflection.plural(last, words[-2] if len(words) > 1 else None)
    # Only after a determiner that takes either number ("any claim" / "any claims"): a bare
    # singular is read as a mass ("after confirmation"), and its plural says something else.
    if plural is not None and _takes_either_number(words[:-1]):
        yield Dodge("inflection (plural)", " ".join([*words[:-1], plural]))


#: Determiners a noun takes in either number ("any claim", "any claims").
_EITHER_NUMBER = frozenset("the any its their such no our your his her which whose".split())


def _takes_either_number(before: list[str]) -> bool:
    """Whether the noun after `before` has a determiner that also takes its singular: the
    nearest of the last three words that is one ("the unpaid fees", not "all fees", nor a
    bare plural "in US facilities", whose singular needs an article)."""
    for word in reversed(before[-3:]):
        if word in _EITHER_NUMBER:
            return True
        if word in DETERMINERS or word in PREPOSITIONS or not word.isalpha():
            return False  # a preposition opens the noun's phrase: "the deposit after inspection"
    return False


def _verb_inflections(witness: str) -> Iterator[Dodge]:
    """A contract verb in another person or form, where the grammar allows it: a phrase
    opening with the verb as a predicate ("re-identify the data" / "re-identifies the data" /
    "re-identifying the data"; not a gerund subject or a participle), and "shall|will <verb>"
    after a subject as the present tense ("provider shall indemnify" / "provider indemnifies")."""
    words = witness.split(" ")
    verb = inflection.base_form(words[0])
    predicate = verb is not None and words[0] in (verb, inflection.third_person(verb))
    if verb is not None and predicate and len(words) >= 2 and words[1] not in _OPENERS:
        for name, form in inflection.forms(verb).items():
            if form != words[0] and name != "past":
                yield Dodge(f"inflection ({name})", " ".join([form, *words[1:]]))
    yield from _temporal_tense(words)
    if NEGATOR.search(witness):
        return  # "shall not use" is not "uses"
    for index in range(1, len(words) - 1):
        verb = inflection.base_form(words[index + 1])
        if words[index] in ("shall", "will") and verb == words[index + 1]:
            present = inflection.third_person(verb)
            yield Dodge("inflection (present tense)", " ".join([*words[:index], present, *words[index + 2 :]]))
            return


_TEMPORAL = frozenset("after once when until before upon following".split())


def _temporal_tense(words: list[str]) -> Iterator[Dodge]:
    """In a temporal clause the tense of the trigger does not change the meaning: "after
    provider confirms" / "after provider has confirmed" / "after provider confirmed"."""
    for index, word in enumerate(words):
        verb = inflection.base_form(word)
        opener = next((j for j in range(max(0, index - 3), index) if words[j] in _TEMPORAL), None)
        if verb is None or opener is None or word != inflection.third_person(verb):
            continue
        done = inflection.past(verb)
        for form in (f"has {done}", done):
            yield Dodge("inflection (tense)", " ".join([*words[:index], form, *words[index + 1 :]]))
        return


#: Words that open a predicate: after a sentence end, "That" (or "Those") carries the subject on.
_PREDICATE_OPENERS = frozenset(
    "is was shall may will must can would should remains becomes has does constitutes means".split()
)
_PLURAL_OPENERS = frozenset("are were remain become have do constitute mean".split())
_OPENERS = _PREDICATE_OPENERS | _PLURAL_OPENERS
_DANGLING = frozenset("a an the of to in on for by with and or that this its their any all no not".split())


def _split_clause(pattern: str) -> Iterator[Dodge]:
    """Where a window that cannot cross a sentence end joins the two parts of the sin, the
    sin said in two sentences ("uncapped liability. That is unenforceable"), and with a
    parenthetical in the gap ("uncapped liability, as drafted, is unenforceable")."""
    parts = gap_witness(pattern)
    if parts is None:
        return
    left, right = parts
    opener, last = right.split(" ")[0], left.split(" ")[-1]
    if last in _DANGLING or len(left.split(" ")) < 2:
        return  # a sentence needs more than one word ("provider. that may use …" is no rewrite)
    verb = inflection.base_form(opener)
    if opener in _PREDICATE_OPENERS or (verb is not None and opener == inflection.third_person(verb)):
        subject = "that"
    elif opener in _PLURAL_OPENERS:
        subject = "those"
    else:
        return  # the gap is not between a subject and its predicate: no natural split
    yield Dodge("clause split across two sentences", f"{left}. {subject} {right}")
    yield Dodge("parenthetical in the gap", f"{left}, as drafted, {right}")


def _phrase_swaps(witness: str, table: Mapping[str, Sequence[str]], kind: str) -> Iterator[Dodge]:
    for phrase, alternatives in table.items():
        for alternative in alternatives:
            if _word(alternative).search(witness):
                continue  # already said that way: "make use of" holds "use"
            swapped = _replace_once(witness, phrase, alternative)
            if swapped is not None:
                yield Dodge(f"{kind}: {phrase} → {alternative}", swapped)


def _synonyms(witness: str, extra: Mapping[str, Sequence[str]] | None) -> dict[str, Sequence[str]]:
    """The project's one-way synonyms (`[tool.rubric.audit] thesaurus`); modal synonyms
    change meaning under a negator, so they are left out of a negative witness."""
    table: dict[str, Sequence[str]] = {**(extra or {})}
    if NEGATOR.search(witness):
        for modal in MODAL_WORDS:
            table.pop(modal, None)
    return table


def _quantity_forms(witness: str) -> Iterator[Dodge]:
    for _kind, text in quantities.variants(witness):
        yield Dodge("number or duration form", text)
    for kind, text in money.variants(witness):
        yield Dodge(kind, text)


def passive_voice(witness: str) -> Iterator[Dodge]:
    """ "customer may use provider data" -> "provider data may be used by customer"; what
    follows the object stays after the agent ("customer data may be used by provider to
    train")."""
    if NEGATOR.search(witness):
        return
    words = witness.split(" ")
    for index in range(1, len(words) - 2):
        if words[index] in _MODALS and lexicon.is_verb(words[index + 1]):
            verbs = lexicon.lemmas(words[index + 1]).get("VERB", ())
            if not verbs or verbs[0] in lexicon.NO_PASSIVE_VERBS:
                return  # "may be entitled", "shall have the right": no object to promote
            done = lexicon.past_participle(verbs[0])
            if done is None:
                return  # no verb the lexicon can put in the passive
            subject, rest = " ".join(words[:index]), words[index + 2 :]
            end = next((i for i, w in enumerate(rest) if w in _OBJECT_ENDS), len(rest))
            if end == 0:
                return  # no object to promote ("may use to train")
            obj, tail = " ".join(rest[:end]), " ".join(rest[end:])
            yield Dodge("passive voice", f"{obj} {words[index]} be {done} by {subject}" + (f" {tail}" if tail else ""))
            return
    yield from _present_passive(words)


def _present_passive(words: list[str]) -> Iterator[Dodge]:
    """ "law prohibits model training" -> "model training is prohibited by law": a verb in
    the third person after its subject, as the widening's passive step writes it."""
    for index in range(1, len(words) - 1):
        word = words[index]
        if not (word.endswith("s") and lexicon.is_verb(word)) or words[index - 1] in _MODALS:
            continue
        verbs = lexicon.lemmas(word).get("VERB", ())
        done = lexicon.past_participle(verbs[0]) if verbs else None
        if done is None or verbs[0] == word or verbs[0] in lexicon.NO_PASSIVE_VERBS:
            return  # "data is provider's property" has no passive ("is been by")
        rest = words[index + 1 :]
        end = next((i for i, w in enumerate(rest) if w in _OBJECT_ENDS), len(rest))
        if end == 0:
            return
        obj, tail = " ".join(rest[:end]), " ".join(rest[end:])
        copula = "are" if obj.endswith("s") and not obj.endswith("ss") else "is"
        # An adverb before the verb stays before it: "the msa already permits termination" ->
        # "termination is already permitted by the msa".
        adverb = words[index - 1] if index > 1 and words[index - 1] in _ADVERBS else ""
        subject = " ".join(words[: index - 1] if adverb else words[:index])
        verb = f"{adverb} {done}" if adverb else done
        yield Dodge("passive voice", f"{obj} {copula} {verb} by {subject}" + (f" {tail}" if tail else ""))
        return


_ADVERBS = frozenset("already also hereby expressly still thereby now thus".split())
#: Words that end a verb's object: a preposition, an infinitive, a conjunction.
_OBJECT_ENDS = frozenset("to for in on with from under after before within by as and or".split())


def dodges(
    witness: str, pattern: str, thesaurus: Thesaurus | None = None, following: str = "", preceding: str = ""
) -> list[Dodge]:
    """Distinct rewrites of `witness` (a match of `pattern`), at most MAX_DODGES.
    `following` and `preceding`: the words after and before the witness in the clause it was
    completed into, which a synonym must fit too (`synonym_swaps.group_swaps`)."""
    # The rewrites read the witness word by word: a space doubled or at an end (a witness of
    # `\s+` or of an optional word) would be an empty word.
    witness = " ".join(witness.split())
    thesaurus = thesaurus or Thesaurus()
    idioms = {a: (b,) for a, b in IDIOMS} | {b: (a,) for a, b in IDIOMS}
    nominal = {verb: (phrase,) for verb, phrase in NOMINALIZATIONS.items()}
    one_way = dict(thesaurus.one_way)
    found: list[Dodge] = []
    sources = [
        _split_clause(pattern),
        _typographic(witness),
        _hyphens(witness),
        _quantity_forms(witness),
        _insertions(witness),
        _inflections(witness),
        _verb_inflections(witness),
        passive_voice(witness),
        active_voice(witness),
        of_phrase(witness, following),
        citation(witness),
        _phrase_swaps(witness, idioms, "swapped idiom"),
        _phrase_swaps(witness, nominal, "nominalization"),
        group_swaps(witness, thesaurus, following, preceding),
        _phrase_swaps(witness, _synonyms(witness, one_way), "synonym"),
    ]
    dotted = dotted_in_window(witness, pattern)
    if dotted is not None:
        found.append(dotted)
    seen = {witness}
    doubled_before = set(_DOUBLED.findall(witness))
    per_source: list[list[Dodge]] = []
    already_doubled = set(doubled(witness))
    for source in sources:
        own = []
        for dodge in source:
            if set(doubled(dodge.text)) - already_doubled:
                continue  # an assembly slip ("make make use of of", "X and X"), never a rewrite
            # A swap must not write a word twice ("make use" -> "make make use of").
            if dodge.text not in seen and set(_DOUBLED.findall(dodge.text)) <= doubled_before:
                seen.add(dodge.text)
                own.append(dodge)
        per_source.append(own)
    # Round-robin over the sources so that every kind of rewrite is tried within the bound.
    while any(per_source) and len(found) < MAX_DODGES:
        for own in per_source:
            if own and len(found) < MAX_DODGES:
                found.append(own.pop(0))
    return found
