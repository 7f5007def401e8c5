"""The passive voice of a gate's clause, for the widening step `passive`: "SUBJECT MODAL
VERB OBJECT" also as "OBJECT MODAL be VERBed (by SUBJECT)", "SUBJECT VERBs OBJECT" also as
"OBJECT … is VERBed by SUBJECT". A gate's branch is read as words (a literal word, a group
of words or phrases, a word with an optional last letter), spaces (" ", `\\s+`) and
optional modifiers; a modal may be a phrase that stands for one ("is entitled to"); the
object's leading quantifier is the passive subject's to leave out; the agent may carry a
few modifiers and read "under" ("prohibited under the state statute")."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from rubric_tools.audit import lexicon
from rubric_tools.audit.pattern_tree import Item, is_window, parse_items, render, words_of
from rubric_tools.audit.thesaurus import Thesaurus
from rubric_tools.audit.word_use import plain_word


@dataclass(frozen=True)
class _Token:
    start: int
    end: int
    words: tuple[str, ...]  # the words or phrases it may spell; () for a space
    space: bool = False
    optional: bool = False  # a modifier the clause may leave out ("(directly\s+)?")


#: Marks a token that is part of an object but no plain words (a phrase group, …).
_PHRASE = "\x01"
#: Marks the rest of a branch: a window, a class, … (where the object ends).
_REST = "\x00"


def _is_space(item: Item) -> bool:
    """A space as gates write it: " " or `\\s`, `\\s+` (not an optional one)."""
    if item.kind == "lit":
        return item.char == " " and not item.quant
    return item.kind == "escape" and item.text == "\\s" and item.quant in ("", "+")


def _phrase_of(branch: list[Item]) -> str | None:
    """The words a branch spells, a space for each space ("are likely to"); None when it is
    anything else, or when it holds no letter."""
    text = ""
    for item in branch:
        if _is_space(item):
            text += " "
        elif item.kind == "lit" and not item.quant and (item.char.isalpha() or item.char in "'’-"):
            text += item.char.lower()
        else:
            return None
    text = text.strip()
    return text if re.fullmatch(r"[a-z'’-]+(?: [a-z'’-]+)*", text) else None


def _plural_word(branch: list[Item], position: int) -> tuple[int, tuple[str, ...]] | None:
    """A word with an optional last letter at `position` ("regulators?"): its end and both
    spellings."""
    end = position
    while end < len(branch) and branch[end].is_letter:
        end += 1
    if end == position or end >= len(branch) or branch[end].kind != "lit" or branch[end].quant != "?":
        return None
    if not branch[end].char.isalpha() or (end + 1 < len(branch) and branch[end + 1].is_letter):
        return None
    stem = "".join(item.char for item in branch[position:end]).lower()
    return end + 1, (stem, stem + branch[end].char.lower())


def _tokens(branch: list[Item]) -> list[_Token] | None:
    """The branch as words (a literal word, or a group of single words or phrases), spaces
    and optional modifiers; the rest (a window, a class) is one last token."""
    runs = {run.start: run for run in words_of(branch)}
    tokens: list[_Token] = []
    position = 0
    while position < len(branch):
        item = branch[position]
        run = runs.get(position)
        if run is not None:
            tokens.append(_Token(run.start, run.end, (run.word,)))
            position = run.end
            continue
        plural = _plural_word(branch, position) if item.is_letter else None
        if plural is not None:
            tokens.append(_Token(position, plural[0], plural[1]))
            position = plural[0]
            continue
        phrases_of = [_phrase_of(b) for b in item.branches] if item.kind == "group" else []
        if _is_space(item):
            tokens.append(_Token(position, position + 1, (), space=True))
        elif item.kind == "group" and item.quant == "?" and all(phrases_of):
            tokens.append(_Token(position, position + 1, tuple(p or "" for p in phrases_of), optional=True))
        elif item.kind == "group" and not item.quant and all(plain_word(b) for b in item.branches):
            tokens.append(_Token(position, position + 1, tuple(plain_word(b) or "" for b in item.branches)))
        elif item.kind == "group" and not item.quant and all(phrases_of):
            tokens.append(_Token(position, position + 1, tuple(p or "" for p in phrases_of)))
        elif item.kind == "group" and not is_window(item):
            tokens.append(_Token(position, position + 1, (_PHRASE,)))  # a phrase: part of an object
        else:
            tokens.append(_Token(position, len(branch), (_REST,)))  # the rest: a window, a class, …
            break
        position += 1
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


def _modals_only(items: list[Item]) -> str:
    """A modal token as the passive writes it: a group of only its modal branches ("(may|is
    entitled to|retains discretion to)" -> "(?:may|is entitled to)")."""
    if len(items) != 1 or items[0].kind != "group":
        return render(items)
    item = items[0]
    kept = [branch for branch in item.branches if _modal_phrase(_phrase_of(branch) or "")]
    if len(kept) == len(item.branches):
        return item.render()
    return "(?:" + "|".join(render(branch) for branch in kept) + ")"


def _passive_of(branch: list[Item]) -> str | None:
    """The branch in the passive voice, when it reads "SUBJECT MODAL VERB OBJECT …" or
    "SUBJECT VERBs OBJECT …" in plain words (a group of single words counts as one; a modal
    may be a phrase such as "is entitled to"; an optional modifier is passed over)."""
    tokens = [t for t in (_tokens(branch) or []) if not t.space and not t.optional]
    for index in range(1, len(tokens) - 1):
        token = tokens[index]
        if {_REST, _PHRASE} & set(tokens[index - 1].words):
            return None  # the subject must be plain words
        modal = any(_modal_phrase(w) for w in token.words)
        verb_index = index + 1 if modal else index
        if verb_index >= len(tokens) - 1:
            continue
        verbs = tokens[verb_index].words
        if not verbs or {_REST, _PHRASE} & set(verbs) or not all(" " not in w and lexicon.is_verb(w) for w in verbs):
            continue
        if not modal and not all(w.endswith("s") for w in verbs):
            continue
        subject = render(branch[: tokens[0].end if index == 1 else tokens[index - 1].end]).strip()
        rest_start = tokens[verb_index + 1].start
        window = next((t.start for t in tokens[verb_index + 1 :] if _REST in t.words), len(branch))
        obj, tail = render(_quantifier_optional(branch[rest_start:window])).strip(), render(branch[window:])
        obj = re.sub(r"(?:\\s[+*]?|\s)+$", "", obj)
        if not re.search(r"[a-z]{3}", obj) or not re.search(r"[a-z]{3}", subject):
            return None
        lemmas = {lemma for verb in verbs for lemma in lexicon.lemmas(verb).get("VERB", ())}
        if lemmas & lexicon.NO_PASSIVE_VERBS:
            return None  # "X becomes public domain" has no passive
        participles = sorted({p for lemma in lemmas if (p := lexicon.past_participle(lemma)) is not None})
        if not participles:
            return None
        done = lexicon.alternation(participles)
        by = rf"\s+(?:by|under)\s+(?:the\s+)?(?:[\w'’-]+\s+){{0,2}}?(?:{subject})"
        if modal:
            modal_text = _modals_only(branch[token.start : token.end])
            return rf"{obj}\s+{modal_text}\s+be\s+(?:\w+\s+|){done}(?:{by}|){tail}"
        return rf"{obj}[^.;]{{0,40}}?\b(?:is|are|was|were|be|been)\s+(?:\w+\s+|){done}{by}{tail}"
    return None


def widen_passive(pattern: str, _thesaurus: Thesaurus) -> str | None:
    tree = parse_items(pattern)
    if tree is None:
        return None
    passives = [p for p in (_passive_of(branch) for branch in tree) if p is not None]
    if not passives:
        return None
    return "|".join([pattern, *passives])
