"""Citations inside a sin's clause (`dodges`): a short one after its modal or verb, and a
dotted section reference inside a window that cannot cross a period ("[^.]{0,60}"): the
section's period ends the window, so the clause states the sin and the gate misses it."""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache

from rubric_tools.audit import lexicon
from rubric_tools.audit.dodge import Dodge
from rubric_tools.audit.grammar import AUXILIARIES, DETERMINERS, PREPOSITIONS, finite_verb_at

_MODALS = ("may", "shall", "will", "must", "can", "should", "would")


def citation(witness: str) -> Iterator[Dodge]:
    """A short citation inside the clause, after its modal or its verb, set off by commas:
    "customer may, under section 6.2, use …", "provider indemnifies, under section 6.2,
    customer …"."""
    words = witness.split(" ")
    at = next((i for i, w in enumerate(words[:-1]) if w in _MODALS), None)
    if at is None:
        # The clause's finite verb ("is", "indemnifies"; not "be", the rest of a cut modal
        # phrase), never a participle of the subject before its auxiliary ("all data derived
        # from it are …"); with none, the first word the lexicon lists as a verb ("not be
        # subject, under section 6.2, to …"), never a noun after a determiner or a
        # preposition ("as a matter of state law": not after "matter" or "state").
        inside = range(1, len(words) - 1)
        finite = [i for i in inside if _finite(words, i)]
        at = finite[0] if finite else None
        later = next((i for i in finite[1:] if words[i] in AUXILIARIES), None)
        if (
            at is not None
            and later is not None
            and lexicon.is_past_participle(words[at])
            and not {"and", "or"} & set(words[at:later])
        ):
            at = later  # "all fixtures attached to them are", but "title passed to tenant and is final"
        if at is None:
            at = next((i for i in inside if _verb_in_place(words, i)), None)
    if at is None:
        return
    cited = [*words[:at], f"{words[at]},", "under section 6.2,", *words[at + 1 :]]
    yield Dodge("citation inside the clause", " ".join(cited))


def _finite(words: list[str], index: int) -> bool:
    return words[index] != "be" and finite_verb_at(words, index)


def _verb_in_place(words: list[str], index: int) -> bool:
    """A word the lexicon lists as a verb, not where it is a noun: after a determiner, a
    preposition or an adjective ("a matter", "of state", "undue delay"), or before a noun it
    modifies ("contract law")."""
    word, before, after = words[index], words[index - 1], words[index + 1]
    return (
        len(word) > 3
        and lexicon.is_verb(word)
        and before not in DETERMINERS
        and before not in PREPOSITIONS
        and not lexicon.only_as(before, "ADJ")
        and "NOUN" not in lexicon.lemmas(after)
    )


def dotted_in_window(witness: str, pattern: str) -> Dodge | None:
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
    from rubric_tools.audit.pattern_tree import render, shared_items, walk_sequences

    branches = shared_items(pattern)  # read only: the tree the frames read of the same gate
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
