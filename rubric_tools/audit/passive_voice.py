"""The passive voice of a gate's clause, for the widening step `passive`: "SUBJECT MODAL
VERB OBJECT" also as "OBJECT MODAL be VERBed (by SUBJECT)", "SUBJECT VERBs OBJECT" also as
"OBJECT … is VERBed by SUBJECT". A gate's branch is read as words (every string a word or
a group spells: "landlords?", "prohibit(?:s|ed|ing)?", a thesaurus group of verbs and
phrasal verbs), spaces (" ", `\\s+`) and optional modifiers; a modal may be a phrase that
stands for one ("is entitled to"); the object's leading quantifier is the passive
subject's to leave out; the agent may carry a few modifiers and read "under" ("prohibited
under the state statute")."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from rubric_tools.audit import lexicon
from rubric_tools.audit.clause_slots import BEFORE_VERB, NEGATOR_FREE_ADVERB
from rubric_tools.audit.converses import converses_of
from rubric_tools.audit.grammar import PREPOSITIONS
from rubric_tools.audit.pattern_spellings import spellings
from rubric_tools.audit.pattern_tree import (
    Item,
    is_window,
    is_word_space,
    render,
    words_of,
)


@dataclass(frozen=True)
class ClauseToken:
    start: int
    end: int
    words: tuple[str, ...]  # the words or phrases it may spell; () for a space
    space: bool = False
    optional: bool = False  # a modifier the clause may leave out ("(directly\s+)?")


#: Marks a token that is part of an object but no plain words (a phrase group, …).
PHRASE = "\x01"
#: Marks the rest of a branch: a window, a class, … (where the object ends).
REST = "\x00"


def _is_space(item: Item) -> bool:
    """A space as gates write it (`pattern_tree.is_word_space`); or the slack the words step
    writes between two words, a short lazy stretch of the clause (`(?:[^.;]|\\.\\d){1,40}?`:
    "may, under section 6.2, use")."""
    if item.kind == "group":
        return re.fullmatch(r"\{1,\d+\}\?", item.quant) is not None
    return is_word_space(item)


def _segment_end(branch: list[Item], position: int) -> int:
    """Where the word that starts at `position` ends: its letters and the groups that spell
    its endings or its alternatives ("prohibit(?:s|ed|ing)?", "(?:waive|give up)s?"), up
    to a space, a window, or an optional modifier of its own ("(directly\\s+)?")."""
    end = position
    while end < len(branch) and not _is_space(branch[end]):
        item = branch[end]
        words = spellings([item])
        if words is None or (item.kind == "group" and item.quant == "?" and any(" " in w for w in words)):
            break
        end += 1
    return end


def clause_tokens(branch: list[Item]) -> list[ClauseToken]:
    """The branch as words (a word or a group of words and phrases, each with every string
    it spells), spaces and optional modifiers; the rest (a window, a class) is one last
    token."""
    tokens: list[ClauseToken] = []
    position = 0
    while position < len(branch):
        item = branch[position]
        if _is_space(item):
            tokens.append(ClauseToken(position, position + 1, (), space=True))
            position += 1
            continue
        if item.kind == "group" and item.quant == "?" and not is_window(item):
            # An optional modifier, a word or a slot for one ("(?:[a-z]+ )?"): passed over.
            optional = spellings([item]) or ()
            tokens.append(ClauseToken(position, position + 1, tuple(w.strip() for w in optional), optional=True))
            position += 1
            continue
        end = _segment_end(branch, position)
        words = spellings(branch[position:end]) if end > position else None
        if words is not None and all(re.search(r"[a-z]", w) for w in words):
            tokens.append(ClauseToken(position, end, tuple(" ".join(w.split()) for w in words)))
            position = end
        elif item.kind == "group" and not is_window(item):
            tokens.append(ClauseToken(position, position + 1, (PHRASE,)))  # a phrase: part of an object
            position += 1
        else:
            tokens.append(ClauseToken(position, len(branch), (REST,)))  # the rest: a window, a class, …
            break
    return tokens


def _modal_phrase(phrase: str) -> bool:
    """A modal, or a phrase that stands where one does ("is entitled to", "are likely to",
    "has the right to", "shall have the right to"): a passive follows it with "be"."""
    words = phrase.split()
    if not words:
        return False
    if len(words) == 1:
        return words[0] in lexicon.MODALS
    return words[-1] == "to" and (words[0] in lexicon.MODALS or words[0] in _SEMI_MODAL_HEADS)


#: The first words of a phrase that stands for a modal ("is entitled to", "has the right to").
_SEMI_MODAL_HEADS = frozenset("is are has have agrees agree intends intend".split())


#: Words before a noun that a passive subject may leave out ("all model training is
#: prohibited" and "model training is prohibited" make the same claim).
_QUANTIFIERS = frozenset("all any every each the".split())


def _quantifier_optional(items: list[Item]) -> list[Item]:
    """The object with its leading quantifier optional (in each branch of a leading group):
    "all model training" -> "(?:all )?model training"; "(?:any and )?all data" ->
    "(?:(?:any and )?all )?data"."""
    if len(items) == 1 and items[0].kind == "group" and not items[0].quant:
        group = items[0]
        return [replace(group, branches=[_quantifier_optional(branch) for branch in group.branches])]
    start = 1 if items and items[0].kind == "group" and items[0].quant == "?" else 0
    runs = words_of(items[start:])
    if not runs or runs[0].start != 0 or runs[0].word not in _QUANTIFIERS:
        return items
    end = start + runs[0].end
    if end >= len(items) or not _is_space(items[end]) or end + 1 >= len(items):
        return items
    return [Item("group", opener="(?:", branches=[items[: end + 1]], quant="?"), *items[end + 1 :]]


#: Words after which the next word is a noun, not the clause's verb.
DETERMINERS = frozenset("a an the any all each every no its their his her this that these those such".split())


#: How a possessive ends ("landlord's", "tenants'"): the word after it is a noun.
_POSSESSIVE_ENDINGS = ("'s", "’s", "s'", "s’")
#: A possessive among the alternatives of a phrase, however its apostrophe is written.
_POSSESSIVE_IN_PHRASE = re.compile(r"\b(?:its|their|his|her|our|your)\b|(?:['’]|\[['’]+\])s\b")


#: Negators that stand between a modal and its verb, and before "be" in the passive.
MODAL_NEGATORS = frozenset(("not", "never"))


def alternatives_text(words: tuple[str, ...]) -> str:
    unique = sorted(set(words))
    return unique[0] if len(unique) == 1 else "(?:" + "|".join(unique) + ")"


#: A modal token spelling more phrases than this is written in the passive by its one-word
#: modals ("may|can" for the thesaurus's group of "may", "is entitled to", "has the right to" …).
_MAX_MODAL_PHRASES = 8


def _modal_text(words: tuple[str, ...]) -> str | None:
    """A modal token as the passive writes it: its modals and the phrases that stand for one
    ("(may|is entitled to|retains discretion to)" -> "(?:may|is entitled to)")."""
    modals = [w for w in words if _modal_phrase(w)]
    if len(modals) > _MAX_MODAL_PHRASES:
        modals = [w for w in modals if " " not in w] or modals[:_MAX_MODAL_PHRASES]
    return "(?:" + "|".join(re.escape(m).replace("\\ ", " ") for m in modals) + ")" if modals else None


#: Words that never follow a verb in a phrasal verb the passive can take ("put an end to",
#: "bring to an end" have no participle a passive reads as theirs).
_NOT_IN_PHRASAL_VERB = frozenset("a an the to its their his her this that".split())


def _participles(words: tuple[str, ...]) -> list[str] | None:
    """The past participles of a verb token's words ("bars" -> "barred", "gives up" -> "given
    up", "makes unlawful" -> "made unlawful"); a thesaurus group's nouns are passed over
    ("caps" beside "ceilings"); None when most words are no verb, or a verb has no passive."""
    verbs = _verbs(words)
    if 2 * len(verbs) < len(words):
        return None  # mostly nouns: "(?:caps?|ceilings?|maximums?)" is no verb
    found: list[str] = []
    for word in verbs:
        head, *rest = word.split()
        lemmas = lexicon.lemmas(head)["VERB"]
        if set(lemmas) & lexicon.NO_PASSIVE_VERBS:
            return None  # "X becomes public domain" has no passive
        if len(rest) > 2 or set(rest) & _NOT_IN_PHRASAL_VERB:
            continue
        particles = _phrasal_particles(rest)
        if particles is None:
            continue
        for lemma in sorted(lemmas):
            found += [" ".join([participle, *particles]) for participle in lexicon.past_participles(lemma)]
    return sorted(set(found)) or None


def _phrasal_particles(rest: list[str]) -> list[str] | None:
    """The words of a phrasal verb after its verb, up to the object a spelling of the gate runs
    into ("hold harmless landlord" -> "harmless": the passive reads "held harmless by …", never
    "held harmless landlord by …"); a particle or an adjective belongs to the verb ("gives up",
    "makes unlawful"), another word is its object. None when the object follows the verb at
    once ("hold landlord"): its passive would be the verb alone."""
    for index, word in enumerate(rest):
        if not {"ADJ", "ADV"} & set(lexicon.lemmas(word)):
            return rest[:index] or None
    return rest


def _verbs(words: tuple[str, ...]) -> list[str]:
    """The words or phrases of a token that open with a verb the lexicon knows."""
    return [w for w in words if w.split() and w.split()[0].isalpha() and lexicon.lemmas(w.split()[0]).get("VERB")]


def _only_determiners(tokens: list[ClauseToken], window: int) -> bool:
    """Whether the words before `window` are only determiners ("(any|all)[^.]{0,30}claims"):
    then the object goes on past the window."""
    return all(set(t.words) <= DETERMINERS for t in tokens if t.start < window and REST not in t.words)


def _agent(subject: str) -> str:
    """The passive's agent: "by" or "under" the subject, which may carry a few modifiers
    ("under the applicable New York law")."""
    return rf"\s+(?:by|under)\s+(?:the\s+)?(?:[\w'’-]+\s+){{0,3}}?(?:{subject})"


#: Where a passive leaves its agent out, no other agent may follow ("the lease may be
#: terminated by the tenant" is not "… by the landlord").
_NO_OTHER_AGENT = r"(?!\s+by\b)"


#: The forms of "be" before a participle where no modal stands.
_BE = r"(?:is|are|was|were|be|been)"


def object_regex(items: list[Item]) -> str:
    """The object as the passive's subject writes it: its leading quantifier optional
    (`_quantifier_optional`), no space after it."""
    return re.sub(r"(?:\\s[+*]?|\s)+$", "", render(_quantifier_optional(items)).strip())


def _opens_with_verb_and_object(tokens: list[ClauseToken]) -> bool:
    """Whether a branch opens with a verb in its base form and its object, the object opened by
    a determiner or a possessive ("train (?:its|the landlord's) models"): then the first word
    is the verb, not a noun ("license fees" is two nouns)."""
    if len(tokens) < 3 or {REST, PHRASE} & set(tokens[0].words) or not tokens[0].words:
        return False
    verb_in_base_form = all(w.isalpha() and w in lexicon.lemmas(w).get("VERB", ()) for w in tokens[0].words)
    openers = tokens[1].words
    return verb_in_base_form and all(
        w.split()[0] in DETERMINERS or w.split()[0].endswith(_POSSESSIVE_ENDINGS) for w in openers if w.split()
    )


def _passive_of_verb_first(branch: list[Item]) -> list[str]:
    """A branch with no subject, "VERB OBJECT …" (`_opens_with_verb_and_object`), in the
    passive: "OBJECT … is VERBed …" ("train its models" -> "its models … are trained"); any
    agent, as the branch names none."""
    tokens = [t for t in clause_tokens(branch) if not t.space and not t.optional]
    if not _opens_with_verb_and_object(tokens):
        return []
    participles = _participles(tokens[0].words)
    if participles is None:
        return []
    window = next((t.start for t in tokens[1:] if REST in t.words), len(branch))
    obj_items = branch[tokens[1].start : window]
    if set(tokens[1].words) <= _QUANTIFIERS and tokens[1].end < window and _is_space(branch[tokens[1].end]):
        # "(?:the|any) tenant data": the passive subject may leave its quantifier out too
        leading = tokens[1].end + 1 - tokens[1].start
        obj_items = [Item("group", opener="(?:", branches=[obj_items[:leading]], quant="?"), *obj_items[leading:]]
    obj = object_regex(obj_items)
    if not re.search(r"[a-z]{3}", obj):
        return []
    done = lexicon.alternation(participles)
    return [rf"{obj}[^.;]{{0,40}}?\b{_BE}\s+{BEFORE_VERB}{done}{render(branch[window:])}"]


def _may_be_third_person(word: str) -> bool:
    """Whether `word` may be a verb in the third person ("requires", "bars"): a word the
    lexicon knows must be one of its verbs' -s forms ("access" and "process" end in "s" as
    base forms); an unknown one only ends in "s"."""
    if not word.endswith("s"):
        return False
    verbs = lexicon.lemmas(word).get("VERB", ())
    return not lexicon.known(word) or any(lexicon.verb_form(verb, "VBZ") == word for verb in verbs)


def _opens_a_noun(word: str) -> bool:
    """Whether the word after `word` is read as a noun, not the clause's verb: `word` is an
    adjective and nothing else ("unrestricted access"), or a preposition ("after … confirms"
    is no clause: what follows the preposition is its object)."""
    words = word.split()
    last = words[-1] if words else word
    return lexicon.only_as(last, "ADJ") or last in PREPOSITIONS


def _passive_of(branch: list[Item]) -> list[str]:
    """The branch in the passive voice, when it reads "SUBJECT MODAL VERB OBJECT …" or
    "SUBJECT VERBs OBJECT …" (a modal may be a phrase such as "is entitled to"; an optional
    modifier is passed over). The object may be missing ("landlord may terminate": the agent
    is then required) or stand after a window ("requires[^.]{0,30}written consent": both the
    object before the verb and the rest after it are written)."""
    tokens = [t for t in clause_tokens(branch) if not t.space and not t.optional]
    if tokens and tokens[0].words and all(w.split()[0] in PREPOSITIONS for w in tokens[0].words if w.split()):
        return []  # "after … confirms" opens with a phrase, not the clause's subject
    for index in range(1, len(tokens)):
        token, before = tokens[index], tokens[index - 1]
        if REST in before.words or any(_modal_phrase(w) for w in before.words):
            return []  # the subject must be words, not a window or a modal
        if set(before.words) <= DETERMINERS or any(w.endswith(_POSSESSIVE_ENDINGS) for w in before.words):
            continue  # "the lease requires", "landlord's records": a word after a determiner is a noun
        if PHRASE in before.words and _POSSESSIVE_IN_PHRASE.search(render(branch[before.start : before.end])):
            continue  # "(?:landlord['’]s|its) records": a possessive among a phrase's alternatives
        if all(_opens_a_noun(w) for w in before.words):
            continue  # "unrestricted access", "after … confirms": a word after these is a noun
        modal = _modal_text(token.words) if any(_modal_phrase(w) for w in token.words) else None
        verb_index = index + 1 if modal else index
        if modal and verb_index < len(tokens) and set(tokens[verb_index].words) <= MODAL_NEGATORS:
            # "courts will not enforce" -> "… will not be enforced by courts"
            modal, verb_index = rf"{modal}\s+{alternatives_text(tokens[verb_index].words)}", verb_index + 1
        if verb_index >= len(tokens) or {REST, PHRASE} & set(tokens[verb_index].words):
            continue
        verbs = tokens[verb_index].words
        if not modal and not any(_may_be_third_person(w.split()[0]) for w in verbs):
            continue  # a base form or a noun ("access", "process"), not a finite verb
        if not _verbs(verbs):
            continue  # "(law|laws)": the subject's plural noun, no verb
        participles = _participles(verbs)
        if participles is None:
            return []  # the clause's verb has no passive, or is no verb: reading on would be a guess
        subject = render(branch[: tokens[0].end if index == 1 else before.end]).strip()
        if not re.search(r"[a-z]{3}", subject):
            return []
        following = tokens[verb_index + 1 :]
        window = next((t.start for t in following if REST in t.words), len(branch))
        obj_items = branch[following[0].start : window] if following and following[0].start < window else []
        if obj_items and window < len(branch) and _only_determiners(following, window):
            obj_items, window = branch[following[0].start :], len(branch)  # "all[^.]{0,30}claims" is the object
        obj = object_regex(obj_items)
        tail = render(branch[window:])
        done = lexicon.alternation(participles)
        be = rf"{modal}\s+be" if modal else _BE
        agent = rf"(?:{_agent(subject)}|{_NO_OTHER_AGENT})" if modal else _agent(subject)
        if re.search(r"[a-z]{3}", obj):
            converse = converses_of(verbs, subject, obj, tail)
            if modal:
                return [rf"{obj}\s+{be}\s+{BEFORE_VERB}{done}{agent}{tail}", *converse]
            return [rf"{obj}[^.;]{{0,40}}?\b{be}\s+{BEFORE_VERB}{done}{agent}{tail}", *converse]
        if obj:
            return []
        if window == len(branch):  # no object: "landlord may terminate" -> "… may be terminated by landlord"
            return [rf"\b{be}\s+{BEFORE_VERB}{done}{_agent(subject)}", *converses_of(verbs, subject, "", "")]
        written = [rf"\b{be}\s+{BEFORE_VERB}{done}{agent}{tail}"]  # "may be stored by provider in any region"
        after = clause_tokens(branch[window + 1 :]) if is_window(branch[window]) else []
        if after and all(REST not in t.words for t in after):  # "written consent is required by the lease"
            words = render(branch[window + 1 :]).strip()
            written.append(rf"{words}[^.;]{{0,40}}?\b{be}\s+{BEFORE_VERB}{done}{agent}")
        return written
    return []


def _passive_after_window(branch: list[Item]) -> list[str]:
    """A branch "SUBJECT[window]VERBs" with nothing after its verb ("(ccpa|…)[^.]{0,100}
    (prohibits|bars)": the law is said to forbid what the window holds) in the passive:
    "… is VERBed by SUBJECT" ("reuse of the data is prohibited under the CCPA")."""
    tokens = [t for t in clause_tokens(branch) if not t.space and not t.optional]
    if len(tokens) < 2 or REST not in tokens[-1].words or not is_window(branch[tokens[-1].start]):
        return []
    if any({REST, PHRASE} & set(t.words) for t in tokens[:-1]):
        return []  # the subject must be words
    window = tokens[-1].start
    after = [t for t in clause_tokens(branch[window + 1 :]) if not t.space and not t.optional]
    if len(after) != 1 or {REST, PHRASE} & set(after[0].words) or not _verbs(after[0].words):
        return []  # the verb alone after the window, and no object
    if not all(w.split()[0].endswith("s") for w in after[0].words):
        return []  # a verb in the third person ("prohibits"), not a noun or a base form
    participles = _participles(after[0].words)
    subject = render(branch[:window]).strip()
    if participles is None or not re.search(r"[a-z]{3}", subject):
        return []
    # No negator before the participle: "reuse is not prohibited under the CCPA" is the
    # opposite claim, and no guard of the gate's reads it.
    return [rf"\b{_BE}\s+{NEGATOR_FREE_ADVERB}{lexicon.alternation(participles)}{_agent(subject)}"]


def passives_of(branch: list[Item]) -> list[str]:
    """The branch in the passive voice (`_passive_of`, else `_passive_of_verb_first`, else
    `_passive_after_window`)."""
    return _passive_of(branch) or _passive_of_verb_first(branch) or _passive_after_window(branch)


def passives_guessing_no_object(branch: list[Item]) -> list[str]:
    """The passive of a branch whose window holds the object before its verb, "SUBJECT[window]
    VERBs" (`_passive_after_window`: "(the rent act|…)[^.]{0,80}prohibits" -> "… is
    prohibited under the rent act"): it opens with the verb and guesses no object. [] for any
    other branch with a window, whose object in the other voice would be a guess."""
    if _passive_of(branch) or _passive_of_verb_first(branch):
        return []
    return _passive_after_window(branch)
