"""The widening step "possessive": a possessive is also written as an "of" phrase.
"provider'?s records are conclusive" also reads "the records of Provider are conclusive",
and "customer's indemnification obligations" "the indemnification obligations of the
Customer": drafting uses both for the same thing.

The owner is the word (or group of words) before the possessive's "'s" (written `'s`,
`'?s`, `['’]s` or `['’]?s`); what it owns is the run of nouns and modifiers after it, up
to a verb, a modal, a function word, a window or the branch's end ("records", "then-current
list price"). Both stay written as the gate writes them, so that the other steps widen
them as before; the "of" phrase may take a "the" before each.
"""

from __future__ import annotations

from rubric_tools.audit import lexicon
from rubric_tools.audit.pattern_spellings import spellings
from rubric_tools.audit.pattern_tree import Item, is_word_space, parse_items, render, walk_sequences
from rubric_tools.audit.thesaurus import Thesaurus

#: Words a noun phrase owned by a possessive never holds: they end it.
_ENDS_A_NOUN_PHRASE = lexicon.FUNCTION_WORDS | lexicon.MODALS
#: At most this many words or groups of words are read as what the possessive owns.
_LONGEST_OWNED = 4


def widen_possessive(pattern: str, _thesaurus: Thesaurus) -> str | None:
    tree = parse_items(pattern)
    if tree is None:
        return None
    changed = False
    for sequence in list(walk_sequences(tree)):
        changed |= _rewrite(sequence)
    return "|".join(render(branch) for branch in tree) if changed else None


def _rewrite(sequence: list[Item]) -> bool:
    """Each possessive of the sequence as one group: as written, or as an "of" phrase."""
    changed = False
    index = len(sequence) - 1
    while index > 0:
        marker_end = _marker_end(sequence, index)
        if marker_end is None:
            index -= 1
            continue
        owner_start = _owner_start(sequence, index)
        owned_end = _owned_end(sequence, marker_end)
        if owner_start is None or owned_end is None:
            index -= 1
            continue
        owner = render(sequence[owner_start:index])
        owned = render(sequence[marker_end + 2 : owned_end])
        written = render(sequence[owner_start:owned_end])
        parsed = parse_items(f"(?:{written}|(?:the )?{owned} of (?:the )?{owner})")
        if parsed is None:
            index -= 1
            continue
        sequence[owner_start:owned_end] = parsed[0]
        changed = True
        index = owner_start - 1
    return changed


def _marker_end(sequence: list[Item], index: int) -> int | None:
    """Where the "'s" that opens at `index` ends (the index of its "s"), or None: an
    apostrophe (or a class of them), optional or not, then "s", then a space."""
    item = sequence[index]
    apostrophe = (item.kind == "lit" and item.char in "'’") or (item.kind == "class" and item.text in ("['’]", "[’']"))
    if not apostrophe or item.quant not in ("", "?") or index + 2 >= len(sequence):
        return None
    s, space = sequence[index + 1], sequence[index + 2]
    if not (s.kind == "lit" and s.char.lower() == "s" and not s.quant and is_word_space(space)):
        return None
    return index + 1


def _owner_start(sequence: list[Item], marker: int) -> int | None:
    """Where the owner before the marker at `marker` starts: its letters, or one group of
    words ("(?:provider|kestrel)"); None when it is no word, or a word another letter or
    group runs into."""
    start = marker
    while start > 0 and sequence[start - 1].is_letter:
        start -= 1
    if start == marker:
        before = sequence[marker - 1]
        if before.kind != "group" or before.quant or spellings([before]) is None:
            return None
        start = marker - 1
    if start > 0 and not (is_word_space(sequence[start - 1]) or sequence[start - 1].text == "\\b"):
        return None
    words = spellings(sequence[start:marker])
    if not words or any(not word.replace(" ", "").isalpha() or word in _ENDS_A_NOUN_PHRASE for word in words):
        return None
    return start


def _owned_end(sequence: list[Item], marker_end: int) -> int | None:
    """Where the nouns and modifiers the possessive owns end (they start after the space
    after its "s"); None when no word follows. An optional modifier ("(?:published )?")
    is read with the word after it."""
    position, end, taken = marker_end + 2, None, 0
    while position < len(sequence) and taken < _LONGEST_OWNED:
        if _optional_modifier(sequence[position]):
            position += 1
            continue
        token_end = _token_end(sequence, position)
        words = spellings(sequence[position:token_end]) if token_end > position else None
        if not words or not all(in_a_noun_phrase(word) for word in words):
            break
        end, taken = token_end, taken + 1
        if token_end >= len(sequence) or not is_word_space(sequence[token_end]):
            break
        position = token_end + 1
    return end


def _optional_modifier(item: Item) -> bool:
    """An optional word and its space: "(?:published )?"."""
    if item.kind != "group" or item.quant != "?":
        return False
    words = spellings([item]) or ()
    return bool(words) and all(w.endswith(" ") and in_a_noun_phrase(w) for w in words if w)


def _token_end(sequence: list[Item], position: int) -> int:
    """The end of the word or group of words that starts at `position`, with the groups
    that write its endings ("fees?", "indemni(?:fication|ty)")."""
    end = position
    if sequence[position].kind == "group":
        end += 1
    while end < len(sequence) and (
        sequence[end].is_letter
        or (sequence[end].kind == "lit" and sequence[end].char == "-" and not sequence[end].quant)
        or (sequence[end].kind == "group" and end > position and sequence[end - 1].is_letter)
    ):
        end += 1
    return end


def in_a_noun_phrase(phrase: str) -> bool:
    """Whether every word of `phrase` may stand in a noun phrase: a noun, a modifier, a
    participle ("published"), a compound ("then-current"), or a word the lexicon does not
    know (a name, "ip")."""
    for word in phrase.split():
        if word in _ENDS_A_NOUN_PHRASE or not word.replace("-", "").isalpha():
            return False
        readings = lexicon.lemmas(word)
        if readings and not ({"NOUN", "ADJ", "PROPN"} & set(readings)) and "-" not in word:
            if not lexicon.is_past_participle(word):
                return False  # a verb only, not its participle ("published"): the clause goes on
    return bool(phrase.split())
