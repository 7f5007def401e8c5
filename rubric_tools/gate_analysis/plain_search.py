"""Gate searches on the stdlib `re`, where that is the scorer's search without its time limit.

The scorer runs every gate on the `regex` package, the pattern translated so that it means
what the reference engine's `re.search(pattern, text, re.IGNORECASE)` means, with a time
limit (`scoring.gates`, `scoring.dialect`). The translation spells every `\\b` out as
lookarounds, which makes a search several times slower than `re`'s own; the audit runs
tens of thousands of searches on short texts, and compiling the patterns it derives costs
`regex`'s parser, written in Python, more again.

`re.compile(pattern, re.IGNORECASE)` is the reference engine's own search, which the
translation is held to (tests/scoring/test_dialect.py: same match, same span). What the
translation adds is the time limit, and a search that `search_bound` proves cheap on a
text of that length needs none. So a search runs here on `re` when the pattern parses,
passes the dialect's size and cost caps, compiles, and has a bound for the text's length;
anything else (a longer text, a back-reference, a pattern `re` or the dialect refuses)
returns None and the caller runs the scorer's matcher as before, with its time limit and
its errors.

An alternative of a gate (`alternatives.alternative_patterns`: the pattern with one branch of
an alternation kept) is searched under its gate's bound (`cut_from`): its search tries, from
each start, a part of what the gate's search tries when every way fails, which is what the
bound counts; the audit checks several hundred alternatives, and parsing each and preparing
its bound was most of that check's time.
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Iterable
from functools import lru_cache

from rubric_tools.gate_analysis.regex_shape import parse
from rubric_tools.gate_analysis.search_bound import STEP_BUDGET, SearchBound
from rubric_tools.scoring import dialect
from rubric_tools.scoring.gates import NEGATOR, Gate, sentence_bounds

#: The engine's negators, compiled as `scoring.gates` compiles them (on `re`: it is linear).


#: Patterns cut from a wider one (`cut_from`): each with the pattern whose bound covers it.
_CUT_FROM: dict[str, str] = {}
_MAX_CUTS = 8192


def cut_from(pattern: str, wider: str) -> None:
    """Search `pattern`, `wider` with branches of its alternations left out (as
    `alternatives.alternative_patterns` writes them), under `wider`'s bound. Leaving out an
    alternative leaves out its part of the search: from each start, the ways `pattern` tries
    are some of those `wider` tries, and the bound counts all of them (every way failing),
    whatever the alternatives' characters. It is shorter and repeats no more than `wider`, so
    the scorer's caps that `wider` passes it passes too. Where `wider` has no bound (or the
    scorer refuses it), `pattern` is checked and bounded on its own."""
    if pattern == wider:
        return
    if len(_CUT_FROM) >= _MAX_CUTS:
        # A long-lived process (`rubric lsp`) sees ever new gates: start over rather than
        # grow. A pattern no longer found here is checked and bounded on its own, as before.
        _CUT_FROM.clear()
    _CUT_FROM.setdefault(pattern, wider)


@lru_cache(maxsize=8192)
def _compiled(pattern: str) -> tuple[re.Pattern[str], SearchBound] | None:
    """`pattern` compiled by `re` as the engine compiles it, and the bound on its searches;
    None when the scorer would refuse it."""
    wider = _CUT_FROM.get(pattern)
    found = _compiled(wider) if wider is not None else None
    if found is not None and found[1].bounded:
        # Cut from a pattern the scorer takes, it is shorter and repeats no more than that
        # pattern does (within the dialect's caps): `re` compiles it, and no tree is needed.
        compiled = re_compiled(pattern)
        return None if compiled is None else (compiled, found[1])
    if len(pattern) > dialect.MAX_PATTERN_LENGTH:
        return None  # the scorer refuses it unparsed
    tree = parse(pattern)  # the tree the witnesses and the regex rules read too
    if tree is None:
        return None
    try:
        dialect.check_cost(tree)  # the scorer's cap on counted repeats: refused there, refused here
    except dialect.PatternRefused:
        return None
    compiled = re_compiled(pattern)
    return None if compiled is None else (compiled, SearchBound(tree))


#: Remembered here: `re`'s own cache holds 512 patterns and the audit compiles thousands, so
#: a gate's pattern that `re` compiled when the scorer checked it (`dialect.translate`) is
#: gone by the time its searches need it, unless taken then (`gate_firing.runnable`).
@lru_cache(maxsize=8192)
def re_compiled(pattern: str) -> re.Pattern[str] | None:
    """`re.compile(pattern, re.IGNORECASE)`, or None where `re` refuses it."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # FutureWarnings about possible set syntax, as the dialect's
            return re.compile(pattern, re.IGNORECASE)
    except (re.error, RecursionError, OverflowError, ValueError):
        return None


def plain_pattern(pattern: object, text: str, *, normalized: bool = False) -> re.Pattern[str] | None:
    """`re`'s compiled `pattern` when searching `text` (or any part of it) with it is the
    scorer's search with no need of a time limit; None otherwise. `normalized`: `text` is
    as `scoring.text.normalize` leaves it (which bounds more searches)."""
    if not isinstance(pattern, str):
        return None
    found = _compiled(pattern)
    if found is None:
        return None
    steps = found[1].steps(text, normalized=normalized)
    return found[0] if steps is not None and steps <= STEP_BUDGET else None


def plain_fires(gate: Gate, text: str) -> bool | None:
    """`gate.fires(text)` (`text` already normalized) on `re`; None when it must run on the
    scorer's matcher."""
    main = plain_pattern(gate.pattern, text, normalized=True)
    if main is None:
        return None
    if not gate.is_structured:
        return main.search(text) is not None
    return plain_survives(gate, text, main.finditer(text))


def plain_survives(gate: Gate, text: str, matches: Iterable[re.Match[str]]) -> bool | None:
    """Whether one of `matches` (of the gate's pattern in `text`, normalized) survives the
    gate's guards, on `re`; None when a context regex must run on the scorer's matcher. The
    scorer's guards (`Gate._survives`): the match's sentence, a negator before or around it,
    the context regexes on the sentence."""
    require = exclude = None
    if gate.require_context:
        require = plain_pattern(gate.require_context, text, normalized=True)  # and of its sentences
        if require is None:
            return None
    if gate.exclude_context:
        exclude = plain_pattern(gate.exclude_context, text, normalized=True)
        if exclude is None:
            return None
    for match in matches:
        start, end = match.span()
        sentence_start, sentence_end = sentence_bounds(text, start, end)
        if gate.negation_guard:
            window_end = start if gate.negation_scope == "before" else end
            if NEGATOR.search(text[sentence_start:window_end]):
                continue
        sentence = text[sentence_start:sentence_end]
        if require is not None and require.search(sentence) is None:
            continue
        if exclude is not None and exclude.search(sentence) is not None:
            continue
        return True
    return False
