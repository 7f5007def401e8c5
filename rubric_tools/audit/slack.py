"""Slack: a stretch of a clause between two words of a gate, where drafting inserts a
determiner, a modifier, a citation or an aside set off by commas ("may also use", "use all
such data", "may, under Section 6.2, use", "may, as set out in Section 6.2 of the Agreement
and the Order Form, use"). The widening steps "slack" (after a modal or "to" only) and "words
and slack" (between every two words, `rewrite_slack`) write it; never beside a negator, nor
inside a fixed phrase (`joined_words`)."""

from __future__ import annotations

import re
from functools import lru_cache

from rubric_tools.audit import lexicon
from rubric_tools.audit.clause_slots import BEFORE_VERB, NEGATOR_FREE_ADVERB, NEGATOR_STOP
from rubric_tools.audit.grammar import PREPOSITIONS
from rubric_tools.audit.pattern_tree import Item, is_word_space, parse_items, render
from rubric_tools.audit.thesaurus import Thesaurus

_NEGATORS = r"(?:no|not|never|nothing|none|neither|nor|cannot|without|nobody)"
#: Between two words of a gate: a stretch of the same clause (a determiner, a modifier, a
#: citation "under section 6.2", an aside set off by commas), written as the gates' own windows are
#: (a period only before a digit).
#: A negator in it is seen by the engine's negation guard (span scope: the whole match);
#: for a gate without that guard the proposal writes `NEGATOR_FREE_SLACK` instead.
#: At most this many characters: room for a clause set off by commas or a parenthetical, a
#: citation with its document's name (", as set out in Section 6.2 of the Master Services
#: Agreement and the Order Form," is 80 characters); a widened window grows by as much
#: (`widening.widen_windows`). Measured against 40 (room for ", pursuant to Section 6.2 of
#: the MSA,"): five more sins of an independent sentence set with such an aside inside the
#: clause fire (two through windows, three through slack); none of its correct sentences nor
#: any conformance probe changes verdict (slack of 60 did the same, windows grown by 120
#: caught one fewer).
SLACK_WIDTH = 80
#: What slack may cross: anything but the end of a sentence or clause.
SLACK_BODY = r"[^.;]|\.\d"
SLACK = rf"\b(?:{SLACK_BODY}){{1,{SLACK_WIDTH}}}?\b"
#: The slack of a gate whose guard does not see inside the match: no negator in it.
NEGATOR_FREE_SLACK = rf"\b(?:{NEGATOR_STOP}(?:{SLACK_BODY})){{1,{SLACK_WIDTH}}}?\b"


def _is_token(item: Item) -> bool:
    return item.frozen or item.is_letter or _word_group(item)


def _word_group(item: Item) -> bool:
    """Whether `item` is a group of words, each branch words and spaces (or a group the
    words step wrote) and no negator: "(?:may|can)" stands where one word would."""
    return (
        item.kind == "group"
        and not item.quant
        and item.opener == "(?:"
        and all(
            branch
            and all(i.is_letter or i.frozen or (i.kind == "lit" and i.char == " " and not i.quant) for i in branch)
            and not re.search(rf"\b{_NEGATORS}\b", render(branch))
            for branch in item.branches
        )
    )


def rewrite_slack(sequence: list[Item], joined: frozenset[tuple[str, str]] = frozenset()) -> bool:
    """Slack at each space between two words (or word groups the words step wrote), but
    inside a fixed phrase (`joined`: its pairs of neighbouring words): nobody writes "as, under
    Section 6.2, a matter of law", "new, in practice, york" or "null and, in effect, void".
    Only a literal space: the other voice's clause spaces its words with "\\s+" (`passive_voice`),
    and slack between each of them would take the size budget (after a modal it is
    `widen_slack`'s)."""
    changed = False
    index = len(sequence) - 2
    while index > 0:
        item = sequence[index]
        if (
            item.kind == "lit"
            and item.char == " "
            and not item.quant
            and _is_token(sequence[index - 1])
            and _is_token(sequence[index + 1])
            and not _negator_beside(sequence, index)
            and _words_beside(sequence, index) not in joined
        ):
            sequence[index] = Item("raw", SLACK, frozen=True)
            changed = True
        index -= 1
    return changed


def _words_beside(sequence: list[Item], index: int) -> tuple[str, str]:
    """The literal words right before and right after the space at `index` (lowercase; ""
    where a group or a class stands there)."""
    before, after = [], []
    at = index - 1
    while at >= 0 and sequence[at].is_letter:
        before.append(sequence[at].char)
        at -= 1
    at = index + 1
    while at < len(sequence) and sequence[at].is_letter:
        after.append(sequence[at].char)
        at += 1
    return "".join(reversed(before)).lower(), "".join(after).lower()


@lru_cache(maxsize=64)
def joined_words(thesaurus: Thesaurus) -> frozenset[tuple[str, str]]:
    """Every pair of neighbouring words of a fixed phrase: the fixed expressions, the matter's
    names of several words and every member of several words ("as a matter", "new york",
    "null and void"); but a preposition and the noun that ends the phrase, which a modifier
    may come between ("as a matter of New York law", "by operation of applicable law")."""
    pairs: set[tuple[str, str]] = set()
    for phrase in thesaurus.units():
        words = phrase.lower().split()
        pairs.update(zip(words, words[1:], strict=False))
        if len(words) > 2 and words[-2] in PREPOSITIONS and "NOUN" in lexicon.lemmas(words[-1]):
            pairs.discard((words[-2], words[-1]))
    return frozenset(pairs)


#: Where drafting inserts an adverbial or a citation: after a modal or the infinitive's "to"
#: ("may, at its option, terminate", "shall promptly notify", "is entitled to, on notice,
#: terminate").
_INSERTION_POINT = re.compile(r"\b(?:may|might|shall|should|will|would|must|can|could|to)$")


def _ends_at_insertion_point(item: Item) -> bool:
    if item.kind == "group" and not item.quant:
        return any(_INSERTION_POINT.search(render(branch)) for branch in item.branches)
    return False


def widen_slack(pattern: str, _thesaurus: Thesaurus) -> str | None:
    """Slack after a modal or "to" only (the words step adds it between every two words):
    the cheap half of slack, for a gate whose budget has no room for both."""
    tree = parse_items(pattern)
    if tree is None:
        return None
    changed = False
    for sequence in tree:  # the top level only: inside a group, slack would be repeated per branch
        if any(slot in render(sequence) for slot in (BEFORE_VERB, NEGATOR_FREE_ADVERB)):
            continue  # the other voice's clause takes what drafting inserts in its own slot
        for index in range(len(sequence) - 2, 0, -1):
            item, left, right = sequence[index], sequence[index - 1], sequence[index + 1]
            if not is_word_space(item) or _negator_beside(sequence, index):
                continue
            # The verb, or a group of them, maybe after an optional adverb ("(?:promptly\s+)?notify").
            if not (right.is_letter or (right.kind == "group" and right.quant in ("", "?"))):
                continue
            word_before = render(sequence[max(0, index - 6) : index])
            if _ends_at_insertion_point(left) or (left.is_letter and _INSERTION_POINT.search(word_before)):
                sequence[index] = Item("raw", SLACK, frozen=True)
                changed = True
    return "|".join(render(branch) for branch in tree) if changed else None


def _negator_beside(sequence: list[Item], index: int) -> bool:
    """Whether a negator word ends right before or starts right after position `index`."""
    before, after = _spelled(sequence[max(0, index - 8) : index]), _spelled(sequence[index + 1 : index + 9])
    return bool(re.search(rf"\b{_NEGATORS}$", before) or re.match(rf"{_NEGATORS}\b", after))


def _spelled(items: list[Item]) -> str:
    """The letters and spaces of `items` ("\\s+" read as a space; a group as nothing)."""
    return "".join(" " if is_word_space(item) else item.char for item in items if item.kind != "group")
