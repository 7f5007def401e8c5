"""Widening a gate by principle: each step rewrites the regex so that it accepts every
way drafting says the same thing, not only the rewrites the audit happened to try.

Steps (`STEPS`, in the order they are tried):

- `numbers`: a quantity written literally accepts every form (`quantities`): digits or
  words, "five (5) percent", "5.0%", "18-month", "2x" or "twice", the same span in other
  units; a sum of money too (`money`): "$1.5 million", "$1,500,000", "1.5 million dollars";
- `words`: every content word accepts its inflections, and every word or idiom of a
  thesaurus group accepts the group's other members in every inflection ("prohibits" ->
  prohibit/forbid/bar/… in every form; "hold harmless" -> indemnify, make whole, …), and
  a party's role its name and back ("provider" -> "kestrel": `names.matter_parties`), and a
  determiner before a noun the others that pick out the same thing ("the lease" -> "this
  lease", "its lease"; `word_alternatives.SWAPPED_DETERMINERS`);
- `hyphens`: a hyphen may be a space or nothing, a compound modifier may be hyphenated,
  an apostrophe may be typographic;
- `windows`: a window that stops at any period (`[^.]{0,60}`) lets a dotted section
  reference through and grows by a clause set off by commas or a parenthetical
  (`slack.SLACK_WIDTH` characters) that stops at the next clause;
- `slack` (module `slack`): between two words, a stretch of the clause (determiners,
  modifiers, a citation, an aside set off by commas: "may also use", "use all such data",
  "may, under Section 6.2, use"), never inside a fixed phrase;
- `possessive` (module `possessives`): a possessive also as an "of" phrase ("provider'?s
  records" -> "the records of Provider");
- `passive`: a modal or present-tense clause also in the passive voice ("customer may use
  provider data" -> "provider data may be used by customer"; "law prohibits model
  training" -> "model training … is prohibited by law"; "(ccpa|…)[^.]{0,100}prohibits" ->
  "… is prohibited under the CCPA"), and a passive one in the active: with any subject
  where it names no agent ("customer data may be stored outside" -> "Provider may store
  Customer Data outside"), its agent as the subject where it names one ("prohibited by law
  from selling" -> "the law prohibits Provider from selling": `active_voice`); and an
  extraposed clause with its act as the subject ("it is unlawful to sublet the premises" ->
  "subletting the premises is unlawful": `gerund_subject`).

Each step returns the widened pattern or None when it changes nothing; the caller keeps a
step only when the widened gate still stays silent on every correct-work text and stays
within lint's bounds (`guards`).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from rubric_tools.audit import lexicon, money
from rubric_tools.audit.active_voice import widen_voice
from rubric_tools.audit.pattern_tree import (
    ASIDE_WINDOW,
    Item,
    enclosing_groups,
    following_words,
    is_word_space,
    items_after,
    parse_items,
    render,
    walk_sequences,
    walk_with_edges,
    words_of,
)
from rubric_tools.audit.possessives import widen_possessive
from rubric_tools.audit.quantity_regexes import widen_quantities
from rubric_tools.audit.slack import SLACK_WIDTH, joined_words, rewrite_slack, widen_slack
from rubric_tools.audit.thesaurus import Thesaurus
from rubric_tools.audit.word_alternatives import (
    MAX_PHRASE,
    SWAPPED_DETERMINERS,
    already_matched,
    compact,
    escape_words,
    plain_alternatives,
)
from rubric_tools.audit.word_use import (
    compound_part,
    group_reading,
    in_units,
    modifier_words,
    phrases,
    reading,
    word_after,
    word_before,
)


@dataclass(frozen=True)
class Step:
    kind: str
    description: str
    apply: Callable[[str, Thesaurus], str | None]


def _tree(pattern: str) -> list[list[Item]] | None:
    return parse_items(pattern)


def _rendered(branches: list[list[Item]]) -> str:
    return "|".join(render(branch) for branch in branches)


def _group(alternatives: list[str]) -> Item:
    """A frozen non-capturing group of regex alternatives (written as raw text)."""
    unique = list(dict.fromkeys(alternatives))
    if len(unique) == 1 and (
        re.fullmatch(r"[\w'-]+(?:\??|\(\?:[\w|]*\)\??)|\(\?:[^()]*\)", unique[0]) or _one_group(unique[0])
    ):
        return Item("raw", unique[0], frozen=True)  # "fees?", "train(?:s|ed|ing)?": no group around
    # An alternative that is one group of its own is written without it: "(?:is|are|(?:shall|
    # will) be)", not "(?:(?:is|are)|(?:shall|will) be)" (a bare group inside an alternation
    # changes nothing it matches).
    return Item("raw", "(?:" + "|".join(a[3:-1] if _one_group(a) else a for a in unique) + ")", frozen=True)


def _one_group(regex: str) -> bool:
    """Whether `regex` is one group from its first character to its last ("(?:the(?:se)?|this)")."""
    if not regex.startswith("(?:") or "\\" in regex:
        return False
    depth = 0
    for at, char in enumerate(regex):
        depth += {"(": 1, ")": -1}.get(char, 0)
        if depth == 0:
            return at == len(regex) - 1
    return False


# ------------------------------------------------------------------ numbers


def widen_numbers(pattern: str, _thesaurus: Thesaurus) -> str | None:
    widened = _without_repeated_branches(money.widen_amounts(widen_quantities(pattern)))
    return widened if widened != pattern else None


def _without_repeated_branches(pattern: str) -> str:
    """`pattern` with each top-level branch written once: a gate that spelled its figures
    three ways (`(?:9|12) months?|(?:nine|twelve)-month|(?:nine|twelve) \\(\\d+\\) months?`)
    widens each spelling to the same regex of every form. Branches that differ only by the
    assertions before them (`(?<![\\d.])`, `\\b`) are the same: the one with the fewest is
    kept, so nothing the widened regex matched is lost."""
    branches = parse_items(pattern)
    if branches is None or len(branches) < 2:
        return pattern
    kept: dict[str, list[Item]] = {}
    for branch in branches:
        start = 0
        while start < len(branch) and (branch[start].kind == "look" or branch[start].text == "\\b"):
            start += 1
        key = render(branch[start:])
        if key not in kept or len(branch) < len(kept[key]):
            kept[key] = branch  # the first place, the fewest assertions before the same words
    if len(kept) == len(branches):
        return pattern
    return "|".join(render(branch) for branch in kept.values())


# ------------------------------------------------------------------ words


def _rewrite_words(
    sequence: list[Item],
    left: bool,
    right: bool,
    thesaurus: Thesaurus,
    modifiers: frozenset[str] = frozenset(),
    only: list[int] | None = None,
    follower: str | None = None,
    around: tuple[Item, ...] = (),
    after_end: Item | None = None,
) -> bool:
    """Every word or phrase of the sequence widened (never the `modifiers`: words the gate
    uses as adjectives, adverbs or function words); with `only` ([n]: a countdown shared by
    the whole tree), only the n-th of the tree (counted from 0). `after_end`: what follows
    the sequence once it ends (`items_after`). `around`: the groups the
    sequence stands in; a phrase whose every alternative one of them already matches is
    left as it stands, so that widening a widened pattern adds nothing ("(?:mak(?:e|es|ing)|
    made) use of" in a group that holds "uses" is not made "make uses? of")."""
    runs = words_of(sequence, left, right)
    replacements: list[tuple[int, int, Item]] = []
    taken: set[int] = set()
    inside_units = in_units(sequence, runs, thesaurus)
    for first, last, phrase in phrases(sequence, runs, MAX_PHRASE):
        if any(k in taken for k in range(first, last + 1)) or (first == last and first in inside_units):
            continue
        if compound_part(sequence, runs[first]) or compound_part(sequence, runs[last]):
            continue
        # A word that ends a group's branch is read with the word after the group (`reading`).
        found = plain_alternatives(
            phrase,
            thesaurus,
            modifiers,
            reading(sequence, runs, first, follower),
            group_reading(sequence, runs, first, follower),
            word_after(sequence, runs, last, follower),
            word_before(sequence, runs, first),
        )
        if found is None or already_matched(found[0], around, thesaurus):
            continue
        alternatives = [lexicon.alternation(found[0])] if found[1] else compact(found[0])
        if alternatives == [escape_words(phrase)]:
            continue
        taken.update(range(first, last + 1))
        if only is not None:
            only[0] -= 1
            if only[0] != -1:
                continue
        group = _group(alternatives)
        end = runs[last].end
        if phrase in SWAPPED_DETERMINERS and end < len(sequence) and is_word_space(sequence[end]):
            # A noun phrase is as often written with no determiner ("fee increases over 7%"
            # for "any fee increase over 7%", "model training" for "all model training"),
            # but "no" is never what stands in its place ("grants no right, title or interest").
            group, end = Item("raw", f"(?:{group.text} |{_NO_NEGATOR_BEFORE})", frozen=True), end + 1
        replacements.append((runs[first].start, end, group))
    for start, end, item in sorted(replacements, reverse=True):
        following = sequence[end] if end < len(sequence) else after_end
        sequence[start:end] = [item, _WORD_END] if _may_add_letters(following) else [item]
    return bool(replacements)


#: Written after a widened word when a window or a class follows it: its forms are whole
#: words ("inform" must not match the start of "information" through the window after it).
_WORD_END = Item("escape", "\\b", frozen=True)


def _may_add_letters(item: Item | None) -> bool:
    """Whether `item` (what follows a word) can match a letter: a window, a class, a dot, a
    group opening with one. Not a space or punctuation, a boundary or the pattern's end."""
    if item is None:
        return False
    if item.kind in ("class", "dot"):
        return re.fullmatch(item.render(), "a") is not None
    if item.kind == "group":
        return any(branch and _may_add_letters(branch[0]) for branch in item.branches)
    return False


def _dedupe(branches: list[list[Item]]) -> None:
    """Drop a group's branches that render the same as an earlier one (three verbs of one
    thesaurus group each widened to the whole group), and a branch of plain words another
    branch already matches whole ("prohibit(?:s|ed|ing)?|…|bar(?:s|red|ring)?|bars": the
    author's "bars" once "prohibits" took in its group). The gate matches the same texts."""
    for sequence in walk_sequences(branches):
        for item in sequence:
            if item.kind == "group":
                rendered: dict[str, list[Item]] = {}
                for branch in item.branches:
                    rendered.setdefault(render(branch), branch)  # the first of those written the same
                texts = list(rendered)
                item.branches = [
                    rendered[text]
                    for text in texts
                    if not _PLAIN_WORDS.fullmatch(text)
                    or not any(other != text and _matches_whole(other, text) for other in texts)
                ]


#: A branch written as plain words: nothing but letters, spaces, hyphens and apostrophes.
_PLAIN_WORDS = re.compile(r"[a-z][a-z '’-]*")


def _matches_whole(regex: str, text: str) -> bool:
    try:
        return re.fullmatch(regex, text, re.IGNORECASE) is not None
    except re.error:
        return False


def _rewrite_tree(tree: list[list[Item]], thesaurus: Thesaurus, only: list[int] | None = None) -> bool:
    """`_rewrite_words` on every sequence of the tree, each read with what stands around it:
    the word after its group, the groups it stands in, what follows it once it ends."""
    modifiers = modifier_words(tree)  # used as adjectives, adverbs or function words
    followers, around, ends = following_words(tree), enclosing_groups(tree), items_after(tree)
    changed = False
    for sequence, left, right in list(walk_with_edges(tree)):
        key = id(sequence)
        changed |= _rewrite_words(
            sequence, left, right, thesaurus, modifiers, only, followers.get(key), around[key], ends[key]
        )
    return changed


def _widen_tree(pattern: str, thesaurus: Thesaurus, *, slack: bool) -> str | None:
    tree = _tree(pattern)
    if tree is None:
        return None
    changed = _rewrite_tree(tree, thesaurus)
    if slack:
        joined = joined_words(thesaurus)
        for sequence, _left, _right in list(walk_with_edges(tree)):
            changed |= rewrite_slack(sequence, joined)
    _dedupe(tree)
    return _rendered(tree) if changed else None


def widen_words(pattern: str, thesaurus: Thesaurus) -> str | None:
    return _widen_tree(pattern, thesaurus, slack=False)


#: Where a determiner is left out: no negating one before the noun instead.
_NO_NEGATOR_BEFORE = r"(?<!\bno )(?<!\bnot )"

#: At most this many single-phrase widenings are offered when the whole is too long.
MAX_PIECES = 8


def word_pieces(pattern: str, thesaurus: Thesaurus) -> list[str]:
    """The words step one phrase at a time: the pattern with only its n-th word or phrase
    widened, for each n. A proposal whose whole widening is over its size budget takes the
    pieces that fit and catch something."""
    pieces: list[str] = []
    for index in range(MAX_PIECES):
        tree = _tree(pattern)
        if tree is None:
            return pieces
        if not _rewrite_tree(tree, thesaurus, only=[index]):
            return pieces
        _dedupe(tree)
        pieces.append(_rendered(tree))
    return pieces


def widen_words_and_slack(pattern: str, thesaurus: Thesaurus) -> str | None:
    return _widen_tree(pattern, thesaurus, slack=True)


# ------------------------------------------------------------------ spelling


def widen_hyphens(pattern: str, _thesaurus: Thesaurus) -> str | None:
    widened = "".join(
        piece if in_class else _hyphens_outside_classes(piece) for piece, in_class in _class_pieces(pattern)
    )
    return widened if widened != pattern else None


def _hyphens_outside_classes(piece: str) -> str:
    widened = re.sub(r"(?<=[a-z])-(?=[a-z])", "[- ]?", piece)
    widened = re.sub(r"(?<!\\)'", "['’]", widened)
    return re.sub(r"\b(first|second|third|non|pre|post|co|sub|self|multi|cross) (?=[a-z]{3})", r"\1[- ]?", widened)


def _class_pieces(pattern: str) -> list[tuple[str, bool]]:
    """`pattern` cut into its character classes and the text between them, in order, each
    with whether it is a class: a range ("[a-z]") or a quote inside one is no hyphen or
    apostrophe of the words."""
    pieces: list[tuple[str, bool]] = []
    start, index, in_class = 0, 0, False
    while index < len(pattern):
        char = pattern[index]
        if char == "\\":
            index += 2
            continue
        if not in_class and char == "[":
            pieces.append((pattern[start:index], False))
            start, in_class = index, True
            index += 2 if pattern[index + 1 : index + 2] == "^" else 1
            index += 1 if pattern[index : index + 1] == "]" else 0  # "[]…]": a literal "]" first
            continue
        if in_class and char == "]":
            pieces.append((pattern[start : index + 1], True))
            start, in_class = index + 1, False
        index += 1
    pieces.append((pattern[start:], in_class))
    return [(piece, is_class) for piece, is_class in pieces if piece]


#: A window that stops only at a sentence's end: a period before a digit ("§6.2") passes.
_SENTENCE_WINDOW = r"(?:[^.]|\.\d)"


def widen_windows(pattern: str, _thesaurus: Thesaurus) -> str | None:
    def longer(match: re.Match[str]) -> str:
        low, high = match.group(1), int(match.group(2))
        # The author's window as written, then the room slack has between two words.
        return f"{_SENTENCE_WINDOW}{{{low},{high}}}{ASIDE_WINDOW}{{0,{SLACK_WIDTH}}}"

    widened = re.sub(r"\[\^\.\]\{(\d*),(\d+)\}", longer, pattern)
    widened = widened.replace("[^.]*", f"{_SENTENCE_WINDOW}*").replace("[^.]+", f"{_SENTENCE_WINDOW}+")
    return widened if widened != pattern else None


# ------------------------------------------------------------------ slack


STEPS: tuple[Step, ...] = (
    Step("numbers", "numbers and durations in every form", widen_numbers),
    Step("passive", "the clause in the other voice: active in the passive, passive in the active", widen_voice),
    Step("possessive", "a possessive also as an 'of' phrase", widen_possessive),
    Step("windows", "windows that let a section reference and a short clause through", widen_windows),
    Step("slack", "a few words after a modal or 'to'", widen_slack),
    Step(
        "words and slack",
        "inflections and thesaurus synonyms of its words, a few words between them",
        widen_words_and_slack,
    ),
    Step("words", "inflections and thesaurus synonyms of its words", widen_words),
    Step("hyphens", "hyphen, space or joined; typographic apostrophes", widen_hyphens),
)
#: A step tried only when the one before it was refused (the same rewrite without slack).
FALLBACKS = {"words": "words and slack"}
