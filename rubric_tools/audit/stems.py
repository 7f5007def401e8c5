"""A regex stem in a witness completed into the word a lawyer writes: the witness of
`indemnif[a-z]* licensor` is "indemnif licensor" (the class may be empty), which no one
writes; "indemnify licensor" is what the gate is about. The smallest common ending that
makes a word the lexicon knows, and keeps the gate firing, is added.
"""

from __future__ import annotations

import re
from functools import lru_cache

from rubric_tools.audit import lexicon
from rubric_tools.gate_analysis.gate_firing import fires
from rubric_tools.scoring.gates import Gate

#: Endings tried, shortest first: what a stem cut before a class usually lacks.
ENDINGS = ("e", "y", "s", "es", "ed", "ing", "le", "al", "ion", "ity", "ation", "ment", "ility")
_WORD = re.compile(r"[a-z]{3,}")


def completed_stems(text: str, gate: Gate) -> str:
    """`text` (a witness of `gate`) with each word the lexicon does not know completed into
    one it knows, when the gate still fires on the result; the text itself otherwise."""
    return _completed(text, gate)


@lru_cache(maxsize=4096)
def _completed(text: str, gate: Gate) -> str:
    for found in reversed(list(_WORD.finditer(text))):
        stem = found.group(0)
        if lexicon.known(stem) or not _cut_in(gate.pattern, stem):
            continue
        for ending in ENDINGS:
            word = stem + ending
            candidate = text[: found.start()] + word + text[found.end() :]
            if lexicon.known(word) and fires(gate, candidate):
                text = candidate
                break
    return text


def _cut_in(pattern: str, stem: str) -> bool:
    """Whether the pattern writes `stem` as the start of a word: followed by a class, a
    group, an alternative's end or a quantifier, not by a space or a word boundary (a name
    such as "Sablewing" is written whole)."""
    if pattern.isascii():
        # The stem's letters are the whole run of letters there: one search of the pattern
        # finds every such run, where a search per stem compiled one regex per stem.
        return stem in _cut_words(pattern)
    return _stem_opening(stem).search(pattern) is not None


#: A run of letters a pattern cuts as `_stem_opening` does, in an ASCII pattern.
_CUT_WORD = re.compile(r"(?<![a-z])[a-z]+(?=[\[(|)?*+.]|\\w)", re.IGNORECASE)


@lru_cache(maxsize=1024)
def _cut_words(pattern: str) -> frozenset[str]:
    return frozenset(word.lower() for word in _CUT_WORD.findall(pattern))


@lru_cache(maxsize=4096)  # a stem is looked for in its gate's pattern again for each witness
def _stem_opening(stem: str) -> re.Pattern[str]:
    return re.compile(rf"(?<![a-z]){re.escape(stem)}(?=[\[(|)?*+.]|\\w)", re.IGNORECASE)
