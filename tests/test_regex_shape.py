"""The static regex analysis behind G008 and G012, pattern by pattern.

Every "risky" pattern below takes exponential time in Python's `re` on some input of
a few dozen characters that almost matches (most hang for seconds at 30 characters);
every "safe" one answers such inputs in microseconds. (The scorer's `regex` package
survives them all, which is why the analysis reads `re`'s parse tree rather than
timing the scorer.)
"""

from __future__ import annotations

import random

import pytest

from rubric_tools.gate_analysis.regex_risk import backtracking_risk
from rubric_tools.gate_analysis.regex_shape import (
    TWO_SPACES,
    cannot_match,
    literals_in_every_match,
    unnormalized_requirement,
)
from rubric_tools.scoring.gates import compile_pattern

RISKY = [
    r"(a+)+b",
    r"(a*)*b",
    r"(\w+\s?)*unenforceable",
    r"(.*,)*x",
    r"(a|a)*b",
    r"(\w+|\d+)*!",
    r"(\w+\s\w+)*!",
    r"(\d+(\.\d+)?)+x",
    r"(?:x*y?)+z",
    r"([a-z]+e)*x",
    r"(?:\S+\s*){0,10}ten percent",
]

SAFE = [
    r"(?:\w+\s)*unenforceable",
    r"(?:\s+\w+)*\s+unenforceable",
    r"(\w+\s+\w+\.)*x",
    r"(?:[a-z]+(?:-[a-z]+)*\s){0,6}q",
    r"(?:\S+\s*){0,3}waived",  # bounded: at most a few splits
    r"(?:\w++\s?)*waived",  # possessive: never gives characters back
    r"(?>\w+\s?)*waived",  # atomic group: likewise
    r"\b(?:shall|will|must)\b(?:\s+\w+){0,5}\s+indemnif",
    r"after\s+(?:[\w'’-]+\s+){0,3}confirm(?:s|ed)\b",
    r"(?:no|not|never)\b[^.]{0,60}credit",
    r"(a|b)*c",
    r"(ab|a)*c",
]


@pytest.mark.parametrize("pattern", RISKY)
def test_risky_repetition_is_flagged(pattern: str) -> None:
    assert backtracking_risk(pattern) is not None


@pytest.mark.parametrize("pattern", SAFE)
def test_unambiguous_repetition_is_not_flagged(pattern: str) -> None:
    assert backtracking_risk(pattern) is None


@pytest.mark.parametrize(
    ("pattern", "needed"),
    [
        (r"uptime\ncommitments", "a newline (\\n)"),
        ("uptime\tcommitments", "a tab (\\t)"),
        (r"a[\r\n]b", "a carriage return (\\r)"),
        (r"a\s\sb", TWO_SPACES),
        ("a  b", TWO_SPACES),
        (r"a\s{2,}b", TWO_SPACES),
        (r"a\s+\s+b", TWO_SPACES),
        (r"a\s*\s\sb", TWO_SPACES),
        (r"a (?:\s|,)b", None),  # the comma makes it possible
        (r"a( \w+ )+b", None),  # one iteration suffices
        (r"a( \w+ ){2}b", TWO_SPACES),  # one iteration's end meets the next one's start
        (r"\tfoo|\nbar", "a tab (\\t)"),  # every alternative needs one
    ],
)
def test_text_normalization_removes(pattern: str, needed: str | None) -> None:
    assert unnormalized_requirement(pattern) == needed


@pytest.mark.parametrize(
    "pattern",
    [
        r"uptime\s+commitments",
        r"uptime(?:\n)?\s?commitments",
        r"uptime[\n ]commitments",
        r"(?x) credits \s are \s waived",  # verbose mode: the spaces are not pattern
        r"\tfoo|bar",
        r"a\s$",
        r"x(?=\s)\s",  # a lookahead consumes nothing
    ],
)
def test_patterns_normalized_text_can_match(pattern: str) -> None:
    assert unnormalized_requirement(pattern) is None


def test_invalid_patterns_are_left_to_g003() -> None:
    assert backtracking_risk("(a+") is None
    assert unnormalized_requirement("(\\n") is None


@pytest.mark.parametrize(
    ("pattern", "literals"),
    [
        (r"\bprovider (?:may|shall) use\b", (("provider ",), (" use",), ("may", "shall"))),
        (r"(?:Customer )?Data\s+may", (("data",), ("may",))),
        (r"(?:sole )discretion", (("sole discretion",),)),
        # An alternation at the top: one literal of each alternative ("fees" holds "fee").
        (r"fees?|charges", (("charges", "fee"),)),
        (r"(?:a|b)x|charges", ()),  # an alternative with no literal of three letters
        (r"(?:must|shall)+ pay", (("must", "shall"), (" pay",))),  # a repeat matches once at least
        (r"(?:must|shall)? pay", ((" pay",),)),
        (r"(?=notice)\w+", ()),
        (r"caf\u00e9 au lait", ((" au lait",), ("caf",))),
        (r"[", ()),
    ],
)
def test_the_literals_every_match_holds(pattern: str, literals: tuple[tuple[str, ...], ...]) -> None:
    assert literals_in_every_match(pattern) == literals


def test_a_text_without_the_literal_holds_no_match() -> None:
    """Wherever `cannot_match` says so, the scorer's search finds nothing: on random patterns
    and texts, the Kelvin sign and the long s (which `re` matches to k and s) included."""
    rng = random.Random(7)
    pieces = ["Provider", " shall", r"\s+", r"\b", r"[^.]{0,20}", r"(?:may|must)", r"\w+", "s?", "(?:data )?", "K", "."]
    words = ["provider", "PROVIDER", "shall", "may", "data", " ", ".", "s", "\u212a", "ſ", "provideſ", "must"]
    skipped = 0
    for _ in range(400):
        pattern = "".join(rng.choice(pieces) for _ in range(rng.randint(1, 6)))
        compiled = compile_pattern(pattern)
        for _ in range(5):
            text = "".join(rng.choice(words) + rng.choice(["", " "]) for _ in range(rng.randint(0, 20))).lower()
            if cannot_match(pattern, text):
                skipped += 1
                assert compiled.search(text) is None, (pattern, text)
    assert skipped > 100
