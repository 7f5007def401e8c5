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
from dataclasses import dataclass
from functools import lru_cache

from rubric_tools.audit import inflection, lexicon, money, quantities
from rubric_tools.audit.grammar import DETERMINERS, PREPOSITIONS, finite_verb_at, has_finite_verb
from rubric_tools.audit.thesaurus import (
    FROM_GERUND_VERBS,
    OBJECT_AND_INFINITIVE_VERBS,
    THING_ONLY_VERBS,
    Thesaurus,
)
from rubric_tools.audit.wording import doubled
from rubric_tools.gate_analysis.witness import gap_witness
from rubric_tools.scoring.gates import NEGATOR_PATTERN

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
#: Modal synonyms change meaning under a negator ("no cap shall apply" is not "no cap must apply").
_MODAL_WORDS = ("may", "shall", "must")
_NEGATOR = re.compile(NEGATOR_PATTERN, re.IGNORECASE)

_MODALS = ("may", "shall", "will", "must", "can", "should", "would")
#: Words after a determiner that an adjective cannot precede ("all of", "the entire").
_NOT_NOUNS = frozenset({"of", "entire", "whole", "other", "same", "first", "relevant", "and", "or"})
_DETERMINERS = ("the", "all", "any", "each", "every", "such", "its", "their")
#: Asked of every witness (`_insertions`, `_hyphens`): compiled once.
_NEGATED_MODAL = {modal: re.compile(rf"\b{modal} not\b") for modal in _MODALS}
_AFTER_DETERMINER = {determiner: re.compile(rf"(?<![\w-]){determiner} (\w+)") for determiner in _DETERMINERS}
_HYPHENATED = re.compile(r"\b(\w+)-(\w+)\b")
_TWO_WORDS = re.compile(r"(?<![\w-])([a-z]+) ([a-z]+)(?![\w-])")


_DOUBLED = re.compile(r"\b(\w+) \1\b")


@dataclass(frozen=True)
class Dodge:
    kind: str
    text: str


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
    for modal in _MODALS:
        inserted = _replace_once(witness, modal, f"{modal} expressly")
        if inserted is not None and not witness.endswith(modal) and not _NEGATED_MODAL[modal].search(witness):
            yield Dodge("inserted adverb", inserted)
            break
    for determiner in _DETERMINERS:
        inserted = _replace_once(witness, determiner, f"{determiner} relevant")
        following = _AFTER_DETERMINER[determiner].search(witness)
        if inserted is not None and following is not None and following.group(1) not in _NOT_NOUNS:
            yield Dodge("inserted adjective", inserted)
            break


def _inflections(witness: str) -> Iterator[Dodge]:
    """A plural noun at the end made singular: only the unambiguous noun plurals
    ("obligations", "remedies"), never a name ("united states") or a verb ("requires");
    a count noun at the end made plural ("any claim" / "any claims")."""
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
    if plural is not None:
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
        if word in DETERMINERS or not word.isalpha():
            return False
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
    if _NEGATOR.search(witness):
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
    if _NEGATOR.search(witness):
        for modal in _MODAL_WORDS:
            table.pop(modal, None)
    return table


def _group_swaps(witness: str, thesaurus: Thesaurus) -> Iterator[Dodge]:
    """A word or idiom of a thesaurus group replaced by each other member, in the same
    inflection ("prohibits" -> "forbids", "bars"; "indemnify" -> "hold harmless")."""
    negated = bool(_NEGATOR.search(witness))
    words = witness.split(" ")
    verb_at = next((i for i in range(len(words)) if finite_verb_at(words, i)), None)
    for size in (3, 2, 1):
        for start in range(len(words) - size + 1):
            phrase = " ".join(words[start : start + size])
            reading = _reading(words, start, verb_at)
            members = thesaurus.members(phrase, reading)
            if not members or (negated and any(m in _MODAL_WORDS for m in members)):
                continue
            head = words[start]
            head_lemmas = lexicon.lemmas(head).get("VERB", ()) or (head,)
            after = words[start + size :]
            verb = reading != "NOUN" and lexicon.is_verb(head) and head not in lexicon.MODALS | lexicon.BE_FORMS
            if verb and not after:
                continue  # a verb with no object: its synonyms differ there ("tenant may end")
            for member in members:
                member_words = member.split(" ")
                if member == phrase or member_words[0] == "be" or _number_changes(phrase, member):
                    continue
                if phrase in lexicon.BE_FORMS and member in lexicon.BE_FORMS:
                    continue  # one form of "be" for another is an agreement error: "clauses is"
                written = [lexicon.inflect_like(member_words[0], head, head_lemmas[0]), *member_words[1:]]
                if phrase in lexicon.MODALS and member_words[0] not in lexicon.MODALS and start > 0:
                    # A verb in a modal's place agrees with the subject: "consultant commits to".
                    written[0] = _agreeing(member_words[0], words[start - 1])
                if not _takes_what_follows(phrase, member, written[0], after):
                    continue
                rewrite = " ".join([*words[:start], *written, *words[start + size :]])
                if rewrite != witness:
                    yield Dodge(f"synonym: {phrase} → {' '.join(written)}", rewrite)


#: Members that only open a clause, never a noun phrase: one stands for a phrase only before
#: a clause ("once the landlord invoices", never "once invoicing" or "whenever and …").
_CLAUSE_OPENERS = frozenset("once whenever if unless although because while where when should".split())
_NOT_SUBJECTS = PREPOSITIONS | frozenset("and or but as".split())


def _reading(words: Sequence[str], start: int, verb_at: int | None) -> str | None:
    """How the clause uses the phrase at `start`: the clause's verb as a verb ("the law
    caps fees" takes no "ceiling"), a word after a determiner as a noun ("gives us an
    exit" takes no "an terminate"); otherwise the thesaurus decides."""
    if start == verb_at:
        return "VERB"
    return "NOUN" if start and words[start - 1] in DETERMINERS else None


def _takes_what_follows(phrase: str, member: str, written: str, after: Sequence[str]) -> bool:
    """Whether `member` (its head `written` as the rewrite writes it) can stand for
    `phrase` before the words `after` it. A verb that takes a person and an infinitive only
    before "… to do" ("compels the landlord to repair", never "compels repairs"), and one
    that takes a thing only elsewhere ("insists on the landlord to repair"); before "from"
    and a gerund, only the participle of a verb that takes it ("barred by law from
    subletting", never "illegal from subletting" or "outlawed from subletting"). A member that
    opens a clause ("whenever", "once") only before a clause."""
    person_to_do = any(
        word == "to" and following in lexicon.lemmas(following).get("VERB", ())
        for word, following in zip(after[1:5], after[2:6], strict=False)
    )
    if member in _CLAUSE_OPENERS:
        # A clause right after it: "whenever and as often as needed" opens none.
        return bool(after) and after[0] not in _NOT_SUBJECTS and has_finite_verb(" ".join(after[:6]))
    if member in OBJECT_AND_INFINITIVE_VERBS:
        return person_to_do
    if member in THING_ONLY_VERBS:
        return not person_to_do
    from_gerund = any(
        word == "from" and following.endswith("ing") and lexicon.is_verb(following)
        for word, following in zip(after[:3], after[1:4], strict=False)
    )
    if from_gerund and _is_predicate(phrase.split(" ")[0]):
        head = member.split(" ")[0]
        return head in FROM_GERUND_VERBS and _is_participle(written)
    return True


def _is_predicate(word: str) -> bool:
    """An adjective or a past participle: what "is" goes on with ("is barred", "is void")."""
    return lexicon.is_modifier(word) or _is_participle(word)


def _is_participle(word: str) -> bool:
    return any(lexicon.past_participle(verb) == word for verb in lexicon.lemmas(word).get("VERB", ()))


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


def _quantity_forms(witness: str) -> Iterator[Dodge]:
    for _kind, text in quantities.variants(witness):
        yield Dodge("number or duration form", text)
    for kind, text in money.variants(witness):
        yield Dodge(kind, text)


def passive_voice(witness: str) -> Iterator[Dodge]:
    """ "customer may use provider data" -> "provider data may be used by customer"; what
    follows the object stays after the agent ("customer data may be used by provider to
    train")."""
    if _NEGATOR.search(witness):
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


def _citation(witness: str) -> Iterator[Dodge]:
    """A short citation inside the clause, after its modal or its verb, set off by commas:
    "customer may, under section 6.2, use …", "provider indemnifies, under section 6.2,
    customer …"."""
    words = witness.split(" ")
    at = next((i for i, w in enumerate(words[:-1]) if w in _MODALS), None)
    if at is None:
        at = next((i for i, w in enumerate(words[:-1]) if i and len(w) > 3 and lexicon.is_verb(w)), None)
    if at is None:
        return
    cited = [*words[:at], f"{words[at]},", "under section 6.2,", *words[at + 1 :]]
    yield Dodge("citation inside the clause", " ".join(cited))


def _dotted_in_window(witness: str, pattern: str) -> Dodge | None:
    """The clause itself with a dotted section reference, set off by commas, inside the
    pattern's window that cannot cross a period, where the clause matches it: "tenant
    may, under §6.2 of the agreement, sublet the premises". The reference stands between
    phrases, never inside one ("any, under §6.2 …, other remedy"); None when the window
    holds no such place."""
    span = _period_window_span(witness, pattern)
    if span is None:
        return None
    tokens = witness.split(" ")
    starts = [0]
    for token in tokens[:-1]:
        starts.append(starts[-1] + len(token) + 1)
    for place in range(1, len(tokens)):
        if not span[0] <= starts[place] <= span[1]:
            continue
        before, after = tokens[place - 1], tokens[place]
        if before in DETERMINERS:
            continue
        if (
            before in _MODALS
            or after in _PHRASE_OPENERS
            or finite_verb_at(tokens, place - 1)
            or finite_verb_at(tokens, place)
        ):
            cited = [*tokens[: place - 1], f"{before},", "under §6.2 of the agreement,", *tokens[place:]]
            return Dodge("dotted section reference in a bounded window", " ".join(cited))
    return None


def _period_window_span(witness: str, pattern: str) -> tuple[int, int] | None:
    """Where `witness` meets the pattern's first window that cannot cross a period
    (`[^.]{0,60}`, `[^.;]*`), as the pattern matches it; None without one."""
    for window in _period_windows(pattern):
        found = window.search(witness)
        if found is not None:
            return found.span(1)
    return None


@lru_cache(maxsize=1024)
def _period_windows(pattern: str) -> tuple[re.Pattern[str], ...]:
    """`pattern` once per window that cannot cross a period, that window captured."""
    from rubric_tools.audit.pattern_tree import parse_items, render, walk_sequences

    branches = parse_items(pattern)
    found = []
    for sequence in walk_sequences(branches or []):
        for index, item in enumerate(sequence):
            if item.kind == "class" and item.text.startswith("[^") and "." in item.text and item.quant:
                captured = f"(?:{render(sequence[:index])})({render([item])})(?:{render(sequence[index + 1 :])})"
                try:
                    found.append(re.compile(captured, re.IGNORECASE))
                except re.error:
                    continue
                break
    return tuple(found)


#: Words a phrase opens with: a citation may stand before them.
_PHRASE_OPENERS = frozenset(
    "to for in on with from under after before within by as and or at upon without unless until".split()
) | frozenset(_MODALS)


def dodges(witness: str, pattern: str, thesaurus: Thesaurus | None = None) -> list[Dodge]:
    """Distinct rewrites of `witness` (a match of `pattern`), at most MAX_DODGES."""
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
        _citation(witness),
        _phrase_swaps(witness, idioms, "swapped idiom"),
        _phrase_swaps(witness, nominal, "nominalization"),
        _group_swaps(witness, thesaurus),
        _phrase_swaps(witness, _synonyms(witness, one_way), "synonym"),
    ]
    dotted = _dotted_in_window(witness, pattern)
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
