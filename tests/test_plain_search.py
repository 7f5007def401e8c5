"""The audit's gate searches on `re` (`gate_analysis.plain_search`) find what the scorer's
matcher finds, and run only where `gate_analysis.search_bound` proves them cheap."""

from __future__ import annotations

import random
import re
import warnings
from dataclasses import replace
from pathlib import Path

import pytest

from rubric_tools.audit.corpus import AuditInputs, known_texts
from rubric_tools.gate_analysis.alternatives import alternative_patterns
from rubric_tools.gate_analysis.gate_firing import AUDIT_SEARCH_TIMEOUT, fire_texts, first_span, gate_lists, runnable
from rubric_tools.gate_analysis.plain_search import cut_from, plain_fires, plain_pattern
from rubric_tools.gate_analysis.regex_characters import CharacterClass, item_class
from rubric_tools.gate_analysis.regex_risk import backtracking_risk
from rubric_tools.gate_analysis.regex_shape import parse
from rubric_tools.gate_analysis.search_bound import STEP_BUDGET, SearchBound
from rubric_tools.loading.matter import load_matter_source
from rubric_tools.scoring.dialect import FOLD
from rubric_tools.scoring.gates import Gate, GateError, GateTimeout, compile_pattern, refusal
from rubric_tools.scoring.text import normalize
from tests.conftest import MATTERS_DIR, require_conformance


def _scorer_fires(gate: Gate, text: str) -> bool:
    try:
        return gate.fires(text, AUDIT_SEARCH_TIMEOUT)
    except (GateError, GateTimeout):
        return False


def _scorer_span(pattern: str, text: str) -> tuple[int, int] | None:
    try:
        match = compile_pattern(pattern).search(text, timeout=AUDIT_SEARCH_TIMEOUT)
    except (GateError, TimeoutError):
        return None
    return match.span() if match else None


def _matter_roots() -> list[Path]:
    corpus = require_conformance() / "matters"
    found = [*corpus.glob("*/matter.yaml"), *MATTERS_DIR.glob("*/matter.yaml")]
    return sorted({path.parent for path in found})


def test_plain_gates_fire_where_the_scorers_do_on_every_matters_texts() -> None:
    """Every gate of every conformance and bundled matter, plain and with each guard the
    audit proposes (a negator before or around the match, a context regex), on the matter's
    own texts and the gate's witnesses: `re` and the scorer agree wherever `re` runs."""
    compared = plain = 0
    for root in _matter_roots():
        source = load_matter_source(root)
        texts = [normalize(k.text) for k in known_texts(source, AuditInputs())]
        for gate_list in gate_lists(source.model):
            for entry in gate_list.entries:
                witnesses = [normalize(t.text) for t in fire_texts(entry.gate)]
                variants = [
                    entry.gate,
                    replace(entry.gate, negation_guard=True),
                    replace(entry.gate, negation_guard=True, negation_scope="before"),
                    replace(entry.gate, require_context=r"\b(?:shall|will|may)\b"),
                    replace(entry.gate, exclude_context=r"\b(?:unless|except)\b"),
                ]
                for gate in variants:
                    for text in [*witnesses, *texts[:40]]:
                        got = plain_fires(gate, text)
                        compared += 1
                        if got is not None:
                            plain += 1
                            assert got == _scorer_fires(gate, text), (gate, text)
    assert compared > 10_000
    assert plain / compared > 0.8, "most of the audit's searches run on `re`"


def test_first_spans_are_the_scorers() -> None:
    for root in _matter_roots()[:6]:
        source = load_matter_source(root)
        texts = [k.text.lower() for k in known_texts(source, AuditInputs())][:60]
        for gate_list in gate_lists(source.model):
            for entry in gate_list.entries:
                for text in texts:
                    assert first_span(entry.gate.pattern, text) == _scorer_span(entry.gate.pattern, text)


@pytest.mark.parametrize(
    "pattern",
    [
        r"(x)\1",  # a back-reference: its work depends on what the group matched
        r"(?(1)a|b)(a)?",  # a conditional
        r"(a+)+$",
        r"(a|aa)+b",
        r"(?:a?){30}a{30}",
        r"\w+\w+\w+\w+x",
        "x" * 10_001,  # the scorer refuses it unparsed
        r"(?:a{1000}){1000}",  # the scorer's cap on counted repeats
        r"[",  # does not compile
    ],
)
def test_costly_or_refused_patterns_keep_the_scorers_matcher(pattern: str) -> None:
    assert plain_pattern(pattern, "a" * 2_000) is None


@pytest.mark.parametrize(
    "pattern",
    [
        r"\bcustomer (?:may|shall) use\b",
        r"(?<=a+)b",  # `re` refuses a lookbehind of no fixed width
        r"[",
        "x" * 10_001,
        r"(?:a{1000}){1000}",
        r"(a+)+$",  # the scorer compiles it; it backtracks (G012)
    ],
)
def test_a_runnable_gate_is_one_the_scorer_compiles_and_regex_compiles_it_only_when_searched(pattern: str) -> None:
    try:
        compile_pattern(pattern)
        compiles = True
    except GateError:
        compiles = False
    compile_pattern.cache_clear()
    refusal.cache_clear()
    assert runnable(Gate(pattern)) == (compiles and backtracking_risk(pattern) is None)
    assert compile_pattern.cache_info().currsize == 0  # most gates are searched on `re` only


def test_a_bound_is_kept_under_budget_and_grows_with_the_text() -> None:
    bound = SearchBound(parse(r"\bcustomer (?:may|shall) use [^.]{0,40}data\b"))
    short, long = bound.steps("x" * 100), bound.steps("x" * 10_000)
    assert short is not None and long is not None and short < long
    assert plain_pattern(r"\bcustomer (?:may|shall) use [^.]{0,40}data\b", "x" * 100) is not None
    assert (SearchBound(parse(r"(a|aa)+b")).steps("a" * 64) or 0) > STEP_BUDGET


def test_the_bound_counts_start_characters_in_every_case_re_matches() -> None:
    """A match of `k…` may start at `K` and at the Kelvin sign, of `s…` at `ſ`: counted."""
    bound = SearchBound(parse(r"k[^.]{0,80}x[^.]{0,80}y[^.]{0,80}z"))
    plain = bound.steps("a" * 3_000)
    assert plain is not None
    for start in ("k", "K", "\u212a"):
        assert (bound.steps(start * 3_000) or 0) > plain
    assert (SearchBound(parse(r"s[^.]{0,80}x[^.]{0,80}y[^.]{0,80}z")).steps("\u017f" * 3_000) or 0) > (
        SearchBound(parse(r"s[^.]{0,80}x[^.]{0,80}y[^.]{0,80}z")).steps("a" * 3_000) or 0
    )


_CLASSES = [
    r"a",
    r"A",
    r"k",
    r"s",
    r"i",
    r"[a-z]",
    r"[^a-z]",
    r"[^.]",
    r"\.",
    r" ",
    r"\s",
    r"\w",
    r"\d",
    r"[\d,]",
    r"[’']",
    r"§",
    r"[^\s]",
    r"\S",
    r"é",
    r"\u017f",
    r".",
]
#: Characters `re` matches case-insensitively in unexpected ways, and a sample of the rest.
_SAMPLE = (
    "".join(chr(code) for code in FOLD)
    + "\u212aK\u0130\u0131\u017fßẞ"
    + "".join(chr(code) for code in range(0, 0x250))
    + "’‘“”§¶—–\u00a0\u2028\u3000١"
)


def test_classes_called_disjoint_share_no_character() -> None:
    for first in _CLASSES:
        for second in _CLASSES:
            a, b = (item_class(parse(p)[0]) for p in (first, second))
            assert isinstance(a, CharacterClass) and isinstance(b, CharacterClass)
            if not a.disjoint(b):
                continue
            x, y = re.compile(first, re.IGNORECASE), re.compile(second, re.IGNORECASE)
            shared = [c for c in _SAMPLE if x.fullmatch(c) and y.fullmatch(c)]
            assert not shared, (first, second, shared)


def test_plain_searches_of_random_patterns_agree_with_the_scorer() -> None:
    """Patterns assembled from the pieces gates are written with, on texts made of the same
    words: wherever `re` runs, it finds the scorer's span."""
    rng = random.Random(25)
    pieces = ["customer", "shall", r"\s+", " ", r"\b", r"[^.]{0,20}", r"(?:may|must)", r"\w+", "s?", r"(?:data )?", "."]
    words = ["customer", "shall", "may", "data", "the", "must", " ", ".", "  ", "s", "Customer's", "\u212a", "ſ"]
    for _ in range(400):
        pattern = "".join(rng.choice(pieces) for _ in range(rng.randint(1, 6)))
        for _ in range(5):
            text = "".join(rng.choice(words) + rng.choice(["", " "]) for _ in range(rng.randint(0, 30)))
            plain = plain_pattern(pattern, text)
            if plain is None:
                continue
            match = plain.search(text)
            assert (match.span() if match else None) == _scorer_span(pattern, text), (pattern, text)


def test_the_bound_counts_where_the_opening_words_are_written() -> None:
    """A pattern that opens with one of a few words ("(the )?(vendor|ledgersync) …") starts
    matching only where one is written: a text full of its first letters but not of its
    words is bounded lower than one full of the words."""
    pattern = r"(the\s+)?(vendor|ledgersync)\s+(will|would|may)\s+be[^.]{0,80}fined[^.]{0,80}by[^.]{0,80}regulators?"
    bound = SearchBound(parse(pattern))
    letters, words = bound.steps("vtl " * 1_000), bound.steps("the vendor " * 400)
    assert letters is not None and words is not None and letters < words
    assert plain_pattern(pattern, "vtl " * 1_000) is not None


def test_set_syntax_warnings_stay_silent() -> None:
    """`re` warns of possible set syntax (`[[:digit:]]`) when compiling; the scorer's dialect
    keeps that quiet, and so does the audit's own compile (it would reach the user's stderr)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        plain_pattern(r"[[:digit:]]+ days--x&&y||z~~w", "within 30 days")
    assert not caught


def _alternatives_and_their_gates() -> list[tuple[str, str]]:
    """(gate pattern, alternative) for every alternative of every conformance and bundled
    gate, and of random patterns written with nested and repeated alternations."""
    patterns = [
        entry.gate.pattern
        for root in _matter_roots()
        for gate_list in gate_lists(load_matter_source(root).model)
        for entry in gate_list.entries
    ]
    rng = random.Random(6)
    pieces = ["customer", r"\s+", " ", r"\b", r"[^.]{0,20}", r"(?:may|must|mayhap)", r"\w+", "s?", "(a|aa)"]
    pieces += [r"(?:data |the )?", ".", "(?:x|y)+", r"(?:(?:a|b)c|d)", "|", r"(?=a|b)", "^", "$"]
    patterns += ["".join(rng.choice(pieces) for _ in range(rng.randint(1, 7))) for _ in range(400)]
    return [(pattern, cut) for pattern in patterns for _, cut in alternative_patterns(pattern, skip_repeated=True)]


def test_an_alternatives_search_is_within_its_gates_bound() -> None:
    """What lets an alternative be searched under its gate's bound (`cut_from`): per start,
    the gate's bound is at least the alternative's own, and a match of the alternative
    starts only where one of the gate's could (its start characters, its opening words)."""
    compared = 0
    texts = ["x" * 50, "the customer may use the data " * 9, "a" * 3_000, "mayhap must " * 30]
    for pattern, variant in _alternatives_and_their_gates():
        wide, narrow = parse(pattern), parse(variant)
        if wide is None or narrow is None or not SearchBound(wide).bounded:
            continue
        bound, own = SearchBound(wide), SearchBound(narrow)
        for length in (50, 3_000):
            for normalized in (False, True):
                figures, own_figures = bound._per_start(length, normalized), own._per_start(length, normalized)
                if figures is None:
                    continue
                compared += 1
                assert own_figures is not None, (pattern, variant)
                assert own_figures[0] <= figures[0] and own_figures[1] <= figures[1], (pattern, variant, length)
        if bound._starts is not None:
            assert own._starts is not None and set(own._starts) <= set(bound._starts), (pattern, variant)
        if bound._words is not None:
            for text in texts:
                own_starts = {m.start() for m in own._words[0].finditer(text)} if own._words else set()
                assert own_starts <= {m.start() for m in bound._words[0].finditer(text)}, (pattern, variant)
    assert compared > 5_000


def test_an_alternative_cut_from_a_gate_finds_what_the_scorer_finds() -> None:
    pattern = r"\b(?:customer|provider) (?:may|shall) (?:use|sell) [^.]{0,40}data\b"
    texts = ["the provider shall sell all customer data.", "customer may use data", "x" * 300, "provider may"]
    for _, variant in alternative_patterns(pattern, skip_repeated=True):
        cut_from(variant, pattern)
        for text in texts:
            plain = plain_pattern(variant, text)
            assert plain is not None
            match = plain.search(text)
            assert (match.span() if match else None) == _scorer_span(variant, text), (variant, text)


def test_the_patterns_cut_from_a_gate_are_remembered_within_a_bound() -> None:
    from rubric_tools.gate_analysis import plain_search

    for index in range(plain_search._MAX_CUTS + 10):
        plain_search.cut_from(f"alternative {index}", f"alternative {index}|other")
    assert len(plain_search._CUT_FROM) <= plain_search._MAX_CUTS
    assert plain_search._CUT_FROM["alternative 8201"] == "alternative 8201|other"
    plain_search._CUT_FROM.clear()  # only where a search's bound comes from, never its result
