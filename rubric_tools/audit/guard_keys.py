"""A gate's key words: the required literals a human scopes an exclusion to (`train`,
`72 hours`, `(?:void|invalid)`), not the whole pattern (see `scoped_guards`)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

from rubric_tools.audit import quantities
from rubric_tools.audit.lexicon import FUNCTION_WORDS
from rubric_tools.audit.pattern_spellings import flattened, spellings
from rubric_tools.audit.pattern_tree import Item, parse_items, render, walk_sequences
from rubric_tools.gate_analysis.witness import witnesses

#: The longest key (characters of regex): a word group longer than this is no key.
MAX_KEY = 60


def _alnum(items: Sequence[Item]) -> int:
    return sum(1 for item in items if item.kind == "lit" and item.char.isalnum())


def _plain(items: Sequence[Item]) -> bool:
    """Items a key may hold: literal characters and `\\b`, `\\s` (with a quantifier)."""
    return all(
        (item.kind == "lit" and not item.quant) or (item.kind == "escape" and item.text in ("\\b", "\\s"))
        for item in items
    )


def _key_group(item: Item) -> str | None:
    """A required group of literal alternatives ("(?:void|invalid)") as a key, or None."""
    if item.kind != "group" or item.quant or item.opener not in ("(?:", "(") or not item.branches:
        return None
    if not all(branch and _plain(branch) for branch in item.branches):
        return None
    text = "(?:" + "|".join(render(b) for b in item.branches) + ")"
    return text if len(text) <= MAX_KEY else None


def _weight(items: Sequence[Item]) -> int:
    """How specific a key is: its literal letters and digits (a group: its shortest branch)."""
    total = 0
    for item in items:
        if item.kind == "group":
            total += min(_alnum(b) for b in item.branches)
        elif item.kind == "lit" and item.char.isalnum():
            total += 1
    return total


def _trimmed(items: list[Item]) -> list[Item]:
    def inner(item: Item) -> bool:
        return item.kind == "group" or (item.kind == "lit" and item.char.isalnum())

    start = next((i for i, item in enumerate(items) if inner(item)), len(items))
    end = next((i for i in range(len(items), 0, -1) if inner(items[i - 1])), 0)
    return items[start:end]


def _text(items: list[Item]) -> str:
    return "".join(_key_group(i) or "" if i.kind == "group" else i.render() for i in items)


def _words(run: list[Item]) -> list[list[Item]]:
    """The words of a literal run, and its last two words: shorter keys."""
    words: list[list[Item]] = [[]]
    for item in run:
        if item.kind == "lit" and item.char == " ":
            words.append([])
        else:
            words[-1].append(item)
    words = [w for w in words if w]
    if len(words) < 2:
        return []
    pair = [*words[-2], Item("lit", " ", " "), *words[-1]]
    return [pair, *words]


def _branch_keys(branch: list[Item]) -> list[tuple[int, str]]:
    """(specificity, regex) of the required literals of one branch: each stretch of literal
    characters and groups of literal words ("4\\.2 (?:is|would be) (?:void|invalid)"), and
    each run and group of it alone. A function word alone ("the") is no key: it recurs in
    any clause, so a marker before a later "the" would pass for one governing the sin."""
    found: dict[str, int] = {}
    segments: list[list[Item]] = [[]]
    for item in branch:
        if _plain([item]) or _key_group(item) is not None:
            segments[-1].append(item)
        else:
            segments.append([])
    for segment in segments:
        pieces = [segment]
        run: list[Item] = []
        for entry in [*segment, None]:
            if entry is not None and entry.kind != "group":
                run.append(entry)
                continue
            pieces.append(run)
            run = []
            if entry is not None:
                pieces.append([entry])
        for run in [p for p in pieces[1:] if p and p[0].kind != "group"]:
            pieces += _words(run)
        for piece in pieces:
            piece = _trimmed(piece)
            text = _text(piece)
            if piece and _weight(piece) >= 3 and len(text) <= MAX_KEY and text not in FUNCTION_WORDS:
                found[text] = _weight(piece)
    for item in branch:
        inner = _inner_key(item)
        if inner is not None and inner[1] not in found:
            found[inner[1]] = inner[0]
    return sorted(((w, t) for t, w in found.items()), key=lambda key: -key[0])


def _inner_key(item: Item) -> tuple[int, str] | None:
    """A required group that is no plain word group (a figure in every form: `(?:…[ -]month
    (?:s|\\b)|(?:an?|one)[ -]year\\b|first anniversary)`) keyed by the best literal of each
    of its branches: `(?:month|year|first anniversary)`. None when a branch has none."""
    if item.kind != "group" or item.quant or item.opener not in ("(?:", "(") or _key_group(item) is not None:
        return None
    shared = _shared_key(item.branches)
    if shared is not None:
        return shared
    best = _best_of_each(item.branches)
    if best is None:
        return None
    text = _grouped(best)
    return (min(weight for weight, _text in best), text) if len(text) <= MAX_KEY else None


def widened_key(key: str, pattern: str) -> str | None:
    """The key of the group of `pattern` that spells every word `key` spells and more (the
    thesaurus group a widening put for the word): the group itself when it is short, else
    few words that every member holds one of (`(?:law|unlawful|illegal)` for "unlawful",
    "illegal", "prohibited by law", "contrary to law", …). None when no group spells more."""
    own = _spelled(key)
    tree = parse_items(pattern)
    if not own or tree is None:
        return None
    for sequence in walk_sequences(tree):
        for item in sequence:
            if item.kind != "group" or item.quant:
                continue
            spelled = spellings([item])
            if spelled is None or not set(own) < set(spelled):
                continue
            found = _key_group(item) or _covering(item.branches)
            if found is not None and found != key:
                return found
    return None


def _spelled(key: str) -> tuple[str, ...]:
    tree = parse_items(key)
    return (spellings(tree[0]) or ()) if tree is not None and len(tree) == 1 else ()


def _covering(branches: list[list[Item]]) -> str | None:
    """Few keys that every branch holds one of, as one group: a search for it finds each
    branch. The key held by the most branches first; None when that is too long a key."""
    held = [{text for _weight, text in _branch_keys(branch)} for branch in branches]
    if not all(held):
        return None
    chosen: list[str] = []
    left = list(range(len(held)))
    while left:
        counts: dict[str, int] = {}
        for index in left:
            for text in held[index]:
                counts[text] = counts.get(text, 0) + 1
        # Ties go to the longer key, then by its text: the same key in every run, whatever
        # order a set of strings iterates in.
        best = max(counts, key=lambda text: (counts[text], len(text), text))
        chosen.append(best)
        left = [index for index in left if best not in held[index]]
    joined = chosen[0] if len(chosen) == 1 else flattened("(?:" + "|".join(chosen) + ")")
    return joined if len(joined) <= MAX_KEY else None


def _shared_key(branches: list[list[Item]]) -> tuple[int, str] | None:
    """The most specific key every branch holds ("discretion" of `(?:(?:sole|absolute)
    discretion|sole and absolute discretion)`), or None."""
    found = [dict((text, weight) for weight, text in _branch_keys(branch)) for branch in branches]
    if not found:
        return None
    common = set(found[0]).intersection(*found[1:])
    if not common:
        return None
    return max((found[0][text], text) for text in common)


def _grouped(best: Sequence[tuple[int, str]]) -> str:
    """Each branch's key as one key: the one they share, or their group."""
    unique = list(dict.fromkeys(text for _weight, text in best))
    return unique[0] if len(unique) == 1 else flattened("(?:" + "|".join(unique) + ")")


def _best_of_each(branches: list[list[Item]], limit: int = MAX_KEY) -> list[tuple[int, str]] | None:
    """The most specific key of each branch, at most `limit` characters long; None when a
    branch has none."""
    best = []
    for branch in branches:
        found = [key for key in _branch_keys(branch) if len(key[1]) <= limit]
        if not found:
            return None
        best.append(found[0])
    return best


def _shorter_of_each(branches: list[list[Item]]) -> str | None:
    """The last resort of a pattern of alternative clauses whose best keys are too long to
    share one group (`at any time and from time to time|as often as customer …`): a shorter
    key of each, short enough that their group is one key (`(?:to time|as often as)`)."""
    share = (MAX_KEY - 4 - (len(branches) - 1)) // len(branches)  # "(?:", ")" and the "|"s
    best = _best_of_each(branches, share)
    return _grouped(best) if best is not None else None


def _alternative_clauses(tree: list[list[Item]]) -> list[list[Item]]:
    """The alternatives of a pattern: its top-level branches, or those of the one group it is."""
    if len(tree) == 1 and len(tree[0]) == 1 and tree[0][0].kind == "group" and not tree[0][0].quant:
        return tree[0][0].branches
    return tree


#: The words units of measure are written with ("business days", "hours", "percent").
_UNIT_WORDS = frozenset(word for unit in quantities.UNITS for form in unit.forms for word in form.split())
_ESCAPE = re.compile(r"\\.")
_WORD = re.compile(r"[a-z]{2,}")
_LOOKBEHIND = re.compile(r"\(\?<[!=][^()]*\)")
_PARENTHETICAL_DIGITS = re.compile(r"\\\(\\d\+\\\)")


def _unit_only(key: str) -> bool:
    """Whether a key holds a unit's words and nothing else ("business days", "day(?:s|\\b)")."""
    plain = _ESCAPE.sub("", key)
    found = _WORD.findall(plain)
    figured = any(char.isdigit() for char in plain) or any(quantities.is_number_word(word) for word in found)
    return bool(found) and not figured and all(word in _UNIT_WORDS for word in found)


def _figures(pattern: str) -> list[str]:
    """The figures the gate names, each in digits and in words, as its witnesses write them
    ("5", "five"); none where a digit class stands for any figure (`\\d+%`)."""
    # A digit class in a lookbehind or a figure's parenthetical ("five (5)") names no figure.
    named = _PARENTHETICAL_DIGITS.sub("", _LOOKBEHIND.sub("", pattern))
    if "\\d" in named or "[0-9" in named or "[1-9" in named:
        return []
    spelled: list[str] = []
    for witness in witnesses(pattern):
        for quantity in quantities.quantities(witness.text):
            word = quantities.worded(quantity.value)
            spelled += [re.escape(quantities.number_text(quantity.value)), *([word] if word else [])]
    return list(dict.fromkeys(spelled))


def _with_figures(found: tuple[str, ...], pattern: str) -> tuple[str, ...]:
    """The keys, each of a unit's words alone with the gate's figures before it: the unit
    recurs with every figure, and a negator before another one ("five business days, not the
    four business days the Company proposed") does not govern the sin's. A unit key of a gate
    that names no figure of its own is left out."""
    if not any(_unit_only(key) for key in found):
        return found
    figures = _figures(pattern)
    numbers = "(?:" + "|".join(figures) + ")" if figures else ""
    keyed = [(rf"\b{numbers}[ -]{key}" if numbers else "") if _unit_only(key) else key for key in found]
    return tuple(dict.fromkeys(key for key in keyed if key and len(key) <= MAX_KEY))


@lru_cache(maxsize=512)
def keys(pattern: str) -> tuple[str, ...]:
    """The gate's key words, most specific first: the required literals a human scopes an
    exclusion to (`train`, `72 hours`, `(?:void|invalid)`). A pattern of several branches
    has the group of each branch's best as its key, then each branch's best alone (an
    exclusion keyed to one branch scopes the correct work that branch fires on); failing
    those, a shorter key of each alternative clause as one group; none when a branch has
    no literal."""
    tree = parse_items(pattern)
    if tree is None:
        return ()
    found = _with_figures(_keys_of(tree), pattern)
    alternatives = _alternative_clauses(tree)
    if found or len(alternatives) < 2:
        return found
    last_resort = _shorter_of_each(alternatives)
    return (last_resort,) if last_resort is not None else ()


def _keys_of(tree: list[list[Item]]) -> tuple[str, ...]:
    if len(tree) == 1:
        return tuple(text for _weight, text in _branch_keys(tree[0])[:4])
    best = _best_of_each(tree)
    if best is None:
        return ()
    unique = list(dict.fromkeys(text for _weight, text in best))
    if len(unique) == 1:
        return (unique[0],)
    joined = "(?:" + "|".join(unique) + ")"
    return ((joined,) if len(joined) <= MAX_KEY else ()) + tuple(unique)
