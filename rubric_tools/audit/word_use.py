"""How a gate uses each of its words, for the word forms the widening writes
(`widening`): which words make a phrase, which stand inside a fixed expression or a
multi-word name ("in no event", "pellham ridge"), which are half of a hyphenated
compound (`fine[- ]?tune`), which an alternation of adjectives uses as one
("adequate|customary|market"), and whether the word before says noun or verb ("the
title", "to train")."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import replace
from functools import lru_cache

from rubric_tools.audit import lexicon
from rubric_tools.audit.pattern_spellings import spellings
from rubric_tools.audit.pattern_tree import Item, WordRun, is_word_space, walk_sequences
from rubric_tools.audit.thesaurus import Thesaurus
from rubric_tools.audit.word_order import verb_only

#: After these a word is read as a noun ("the title", "its investigation") ...
NOUN_SLOT = frozenset(
    "a an the its their his her our your any all each every such no this that these those some of".split()
)
#: ... and after these as a verb ("shall notify", "to train", "we recommend").
VERB_SLOT = frozenset("to not never may might shall should will would must can could we they i you".split())
MODALS = frozenset("may might shall should will would must can could".split())
#: Before these a word that can be a verb is read as one, their object's opener
#: ("breaches the lease", "uses any data").
OBJECT_OPENERS = frozenset("a an the its their his her our your any all each every such these those".split())
#: Before these a word is read as a noun, their subject ("tenant is", "the fee has").
AUXILIARIES = frozenset("is are was were has have had does did".split())
#: After a modal these make it a negated modal ("may not"), whose synonyms are other modals.
NEGATORS = frozenset("not never".split())


def phrases(sequence: list[Item], runs: list[WordRun], longest: int) -> Iterator[tuple[int, int, str]]:
    """(first run, last run, text) of consecutive words joined by single spaces, longest first."""
    for first in range(len(runs)):
        for last in range(min(len(runs), first + longest) - 1, first - 1, -1):
            joined = all(
                runs[k + 1].start == runs[k].end + 1
                and sequence[runs[k].end].kind == "lit"
                and sequence[runs[k].end].char == " "
                and not sequence[runs[k].end].quant
                for k in range(first, last)
            )
            if joined:
                yield first, last, " ".join(run.word for run in runs[first : last + 1])


def in_units(sequence: list[Item], runs: list[WordRun], thesaurus: Thesaurus) -> set[int]:
    """The runs that are words of a fixed expression or a multi-word name ("in no event",
    "no later than", "pellham ridge"): no word of one is inflected on its own. So are those
    of a branch that ends with the start of one, or opens with its end: a group cuts it
    ("(?:as a matter of|under) … law")."""
    units = thesaurus.units()
    starts, ends = _unit_edges(units)
    longest = max((len(unit.split()) for unit in units), default=0)
    inside: set[int] = set()
    for first, last, text in phrases(sequence, runs, longest):
        if first == last:
            continue
        cut_at_end = runs[last].end == len(sequence) and text in starts
        cut_at_start = runs[first].start == 0 and text in ends
        if text in units or cut_at_end or cut_at_start:
            inside.update(range(first, last + 1))
    return inside


@lru_cache(maxsize=64)
def _unit_edges(units: frozenset[str]) -> tuple[frozenset[str], frozenset[str]]:
    """The opening and the closing words (two or more, not all) of every fixed phrase."""
    starts: set[str] = set()
    ends: set[str] = set()
    for unit in units:
        words = unit.split()
        for size in range(2, len(words)):
            starts.add(" ".join(words[:size]))
            ends.add(" ".join(words[-size:]))
    return frozenset(starts), frozenset(ends)


def compound_part(sequence: list[Item], run: WordRun) -> bool:
    """Whether the word is joined to the next or the one before by a hyphen written as a
    class (`fine[- ]?tune`): half a compound, which has no forms or synonyms of its own."""
    beside = [sequence[i] for i in (run.start - 1, run.end) if 0 <= i < len(sequence)]
    return any(item.kind == "class" and "-" in item.text for item in beside)


def reading(sequence: list[Item], runs: list[WordRun], index: int, follower: str | None = None) -> str | None:
    """How the words beside it (one space away) say the word at `index` is used: after a
    determiner or an adjective, or before a figure, a noun ("the title", "internal review",
    "section 12.2"), after a modal, "to" or "not" a verb ("shall notify"); after a
    singular noun (or after a noun the words before it settle, next to it, after its comma or
    joined by "and": "the source code", "right, title and interest"), before "of", before a
    modal, "is" or "has", a noun ("security breach", "any breach of", "provider data may");
    before a noun in its own right or a verb's third person, likely a noun ("model
    training", "tenant makes"); a past participle before "to" a participle ("permitted
    to"), and one before "by" that opens the branch or follows "be" ("prohibited by law");
    a word that is only a noun, before a noun it modifies, "ATTRIBUTIVE": it keeps the
    number written ("indemnification obligations"). A modal after its subject is read as
    none of these ("tenant will pay": "will" is no noun there). `follower`: the word after
    the group whose branch ends with this word."""
    return _read(sequence, runs, index, follower)[0]


def group_reading(sequence: list[Item], runs: list[WordRun], index: int, follower: str | None = None) -> str | None:
    """The reading that chooses the thesaurus groups a word takes (a noun no verb group's
    members, a verb no noun group's): `reading`, but None where it is only a guess — before
    a noun in its own right a word may be that noun's modifier ("model training") or its
    verb ("use provider data")."""
    found, sure = _read(sequence, runs, index, follower)
    return ("NOUN" if found == "ATTRIBUTIVE" else found) if sure else None


def _read(sequence: list[Item], runs: list[WordRun], index: int, follower: str | None) -> tuple[str | None, bool]:
    """(reading, whether the words beside it settle it)."""
    word = runs[index].word
    after = word_after(sequence, runs, index, follower)
    nouns_after = [after] if after is not None else _group_words_after(sequence, runs[index])
    before = word_before(sequence, runs, index)
    if word in MODALS and before not in NOUN_SLOT and not _after_a_determiner(sequence, runs[index]):
        return None, False  # "tenant will pay", "regulators can": its subject's modal, no noun ("the will" is)
    if nouns_after and lexicon.only_as(word, "NOUN") and all(_noun_it_modifies(w) for w in nouns_after):
        return "ATTRIBUTIVE", True  # "indemnification obligations": never "indemnifications obligations"
    if _before_a_figure(sequence, runs[index]):
        return "NOUN", True  # a heading's or a count's name: "section 12.2", "exhibit \\d+", "clause 4"
    if _after_a_determiner(sequence, runs[index]):
        return "NOUN", True  # "provider'?s records", "(?:its|the provider's)\\s+models"
    if before is not None:
        if before in NOUN_SLOT:
            return "NOUN", True
        if before in VERB_SLOT:
            return "VERB", True  # before an adverb's test: "not" is one, and "not breach" a verb
        if lexicon.is_modifier(before) and not lexicon.is_verb(before) and not lexicon.only_as(before, "ADV"):
            return "NOUN", True  # after an adjective ("internal review"); an adverb says nothing
        if _singular_noun(before) and (_base_noun(word) or verb_only(word)):
            # "security breach", "customer use", "privacy act": a verb after a singular noun
            # ends in -s (the lexicon lists "act" as a verb only)
            return "NOUN", True
        if _base_noun(word) and _settled_noun(sequence, runs, index - 1):
            # The same after a word the words before it settle as a noun: "the source code"
            # ("source" is a verb too, but not after "the").
            return "NOUN", True
        if before in ("and", "or") and index >= 2 and _base_noun(word) and _settled_noun(sequence, runs, index - 2):
            return "NOUN", True  # joined to a noun: "right, title and interest", "landlord and tenant"
    elif index >= 1 and _after_comma(sequence, runs[index - 1], runs[index]):
        if _base_noun(word) and _settled_noun(sequence, runs, index - 1):
            return "NOUN", True  # listed after a noun: "right, title", "the platform, source code"
    if after in OBJECT_OPENERS and lexicon.is_verb(word) and before not in NOUN_SLOT:
        return "VERB", True  # a verb and its object: "landlord breaches the lease", "use any data"
    if nouns_after and all(w in MODALS or w in AUXILIARIES for w in nouns_after):
        return "NOUN", True  # the subject of "may", "is", "has", or of "(?:may|shall)"
    if after is not None and (noun_in_its_own_right(after) or _third_person(after)):
        return "NOUN", False  # a modifier or a verb's object ("model training"), or a subject ("tenant makes")
    if after == "of" and _base_noun(word) and before not in VERB_SLOT:
        return "NOUN", True  # "the use of", "any breach of"
    if after == "to" and lexicon.is_past_participle(word):
        return "PARTICIPLE", True  # "permitted to", "authorized to": a passive, whatever stands before
    if after == "by" and lexicon.is_past_participle(word) and (before is None or before in lexicon.BE_FORMS):
        return "PARTICIPLE", False  # "prohibited by law", "is barred by statute": a passive before its agent
    return None, True


def _before_a_figure(sequence: list[Item], run: WordRun) -> bool:
    """Whether a figure follows the word, one space away (a plain, optional or `\\s` one): a
    digit, a digit class or "§" ("section 12.2", "exhibit \\d+", "clause § 4")."""
    at = run.end
    if at < len(sequence) and sequence[at].kind in ("lit", "escape") and sequence[at].text in (" ", "\\s"):
        at += 1
    if at >= len(sequence):
        return False
    item = sequence[at]
    if item.kind == "lit":
        return item.char.isdigit() or item.char == "§"
    return (item.kind == "escape" and item.text == "\\d") or (item.kind == "class" and "0-9" in item.text)


def _after_a_determiner(sequence: list[Item], run: WordRun) -> bool:
    """Whether what stands right before the word, one space away (a plain space or `\\s+`),
    determines it: a possessive whose apostrophe is optional ("provider'?s"), a group each
    of whose spellings ends in a determiner or a possessive ("(?:its|the provider's)"), or
    an optional one whose space stands inside it ("(the )?tenant")."""
    at = run.start - 1
    if at >= 0 and sequence[at].kind == "group" and sequence[at].quant == "?":
        # An optional determiner, its space inside it ("(the )?tenant"): where it is written the
        # word is a noun, and the author allows it there.
        spelled = spellings([replace(sequence[at], quant="")])
        return bool(spelled) and all(text.endswith(" ") and _determines(text.split(" ")[-2]) for text in spelled or ())
    if at < 1 or not is_word_space(sequence[at]):
        return False
    last = sequence[at - 1]
    if last.is_letter and last.char == "s" and at >= 2 and _optional_apostrophe(sequence[at - 2]):
        return True
    spelled = spellings([last]) if last.kind == "group" and not last.quant else None
    return bool(spelled) and all(_determines(text.split(" ")[-1]) for text in spelled or ())


def _optional_apostrophe(item: Item) -> bool:
    """`'?` or `['’]?`: the optional apostrophe of a possessive."""
    if item.quant != "?":
        return False
    return (item.kind == "lit" and item.char in "'’") or (item.kind == "class" and "'" in item.text)


def _determines(word: str) -> bool:
    return word in NOUN_SLOT or word.endswith(("'s", "’s"))


def _group_words_after(sequence: list[Item], run: WordRun) -> list[str]:
    """The first word of each phrase a group written one space after the word spells (a
    group a widening already wrote: "indemnification (?:obligations?|dut(?:y|ies)|…)");
    empty when no such group follows or it spells no finite set of words."""
    if run.end + 1 >= len(sequence) or sequence[run.end].kind != "lit" or sequence[run.end].char != " ":
        return []
    group = sequence[run.end + 1]
    spelled = spellings([group]) if group.kind == "group" and not group.quant else None
    firsts = [text.split(" ")[0] for text in spelled or ()]
    return list(dict.fromkeys(firsts)) if firsts and all(firsts) else []


def _noun_it_modifies(after: str) -> bool:
    """Whether a noun before `after` modifies it: `after` reads as a noun and not as the
    verb of a subject ("customer data", "notice period", "landlord consent"; not "customer
    agrees", "tenant shall")."""
    return (
        "NOUN" in lexicon.lemmas(after)
        and after not in lexicon.FUNCTION_WORDS
        and after not in MODALS
        and after not in AUXILIARIES
        and not _third_person(after)
    )


#: The readings of a word that the words beside it settle as a noun.
_SETTLED_NOUN = (("NOUN", True), ("ATTRIBUTIVE", True))


def _settled_noun(sequence: list[Item], runs: list[WordRun], index: int) -> bool:
    """Whether the word at `index` is a base noun that the words beside it settle as a noun."""
    return _base_noun(runs[index].word) and _read(sequence, runs, index, None) in _SETTLED_NOUN


def _after_comma(sequence: list[Item], first: WordRun, second: WordRun) -> bool:
    """Whether two words are written a comma and a space apart ("right, title")."""
    if second.start != first.end + 2:
        return False
    comma = sequence[first.end]
    return comma.kind == "lit" and comma.char == "," and not comma.quant and is_word_space(sequence[first.end + 1])


def word_before(sequence: list[Item], runs: list[WordRun], index: int) -> str | None:
    """The word written one space before the word at `index` in its sequence, if any."""
    if index > 0 and _spaced(sequence, runs[index - 1], runs[index]):
        return runs[index - 1].word
    return None


def word_after(sequence: list[Item], runs: list[WordRun], index: int, follower: str | None = None) -> str | None:
    """The word written one space after the word at `index`: the next word of the sequence,
    or `follower` (the word after the group) for the word that ends the sequence."""
    if index + 1 < len(runs) and _spaced(sequence, runs[index], runs[index + 1]):
        return runs[index + 1].word
    if index == len(runs) - 1 and runs[index].end == len(sequence):
        return follower
    return None


def _third_person(word: str) -> bool:
    """A verb's third person singular ("makes", "vests"), not a noun in its own right."""
    verbs = lexicon.lemmas(word).get("VERB", ())
    return bool(verbs) and lexicon.verb_form(verbs[0], "VBZ") == word and not noun_in_its_own_right(word)


def _spaced(sequence: list[Item], first: WordRun, second: WordRun) -> bool:
    """Whether two words are written one plain space apart."""
    return second.start == first.end + 1 and sequence[first.end].kind == "lit" and sequence[first.end].char == " "


def _singular_noun(word: str) -> bool:
    """A noun in its own right, in its singular ("security", "customer"; not "customers")."""
    return noun_in_its_own_right(word) and word in lexicon.lemmas(word).get("NOUN", ())


def _base_noun(word: str) -> bool:
    """A word the lexicon lists as a noun in this very form ("breach", "use", "deposit")."""
    return word in lexicon.lemmas(word).get("NOUN", ())


def noun_in_its_own_right(word: str) -> bool:
    """A word the lexicon lists as a noun lemma of its own ("training", "data") and not as a
    verb form of it."""
    found = lexicon.lemmas(word)
    return word in found.get("NOUN", ()) and word not in found.get("VERB", ())


def modifier_words(tree: list[list[Item]]) -> frozenset[str]:
    """Words of an alternation of single words most of which are adjectives, adverbs or
    function words: each is used as one ("adequate|customary|market": "market" is no verb
    there; "but|provided|except|unless": "provided" is a conjunction)."""
    found: set[str] = set()
    for sequence in walk_sequences(tree):
        for item in sequence:
            if item.kind != "group":
                continue
            words = [w for w in (plain_word(branch) for branch in item.branches) if w is not None]
            fixed = sum(lexicon.is_modifier(w) or w in lexicon.FUNCTION_WORDS for w in words)
            if len(words) >= 2 and 2 * fixed > len(words):
                found.update(words)
    return frozenset(found)


def plain_word(branch: list[Item]) -> str | None:
    text = "".join(i.char for i in branch if i.kind == "lit" and not i.quant)
    return text if len(text) == len(branch) and re.fullmatch(r"[a-z]+", text) else None
