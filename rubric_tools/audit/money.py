"""Sums of money in every common form: "$1.5 million", "$1,500,000", "1.5 million dollars",
"USD 1.5 million", "$1.5M"; "$250,000", "250,000 dollars", "$250 thousand".

The two sides `quantities` has for numbers and durations: `variants(text)` rewrites each
sum of a text into its other forms (sins that should still fire), and
`widen_amounts(pattern)` rewrites each sum written literally in a regex (`\\$1\\.5 million`,
`\\$1,500,000`) into a regex accepting every form. A sum is read only with its currency
("$", "USD", "dollars"): a bare "1.5 million" may count anything.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from num2words import num2words

from rubric_tools.audit.quantities import number_value

_SCALES = {"thousand": 1_000, "k": 1_000, "million": 1_000_000, "m": 1_000_000, "mm": 1_000_000}
_SCALE = r"(?P<scale>thousand|million|mm|m|k)"
_FIGURE = r"(?P<figure>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)"
_AMOUNT = re.compile(
    rf"(?<![\w.,$])(?:(?P<currency>\$|usd ?|us\$ ?){_FIGURE}(?: ?{_SCALE}\b)?(?: (?:dollars|usd)\b)?"
    rf"|{_FIGURE.replace('figure', 'bare')}(?: ?(?P<bare_scale>thousand|million)\b)? (?:dollars|usd)\b)",
    re.IGNORECASE,
)


#: A sum in words ("two million dollars"): its number word or words, a scale, the currency.
_WORDED = re.compile(r"\b(?P<number>[a-z]+(?:[- ][a-z]+)?) (?P<scale>thousand|million) dollars\b", re.IGNORECASE)
#: Millions or thousands written in words up to this many ("fifty thousand dollars").
_MAX_WORDED = 99


@dataclass(frozen=True)
class Amount:
    start: int
    end: int
    value: float


def amounts(text: str) -> list[Amount]:
    """The sums of money in `text`, each with its currency."""
    found = []
    for match in _AMOUNT.finditer(text):
        figure = match.group("figure") or match.group("bare")
        scale = (match.group("scale") or match.group("bare_scale") or "").lower()
        value = float(figure.replace(",", "")) * _SCALES.get(scale, 1)
        found.append(Amount(match.start(), match.end(), value))
    for match in _WORDED.finditer(text):
        number = _worded_value(match.group("number"))
        if number is not None:
            found.append(
                Amount(
                    match.start("number") + number[0], match.end(), number[1] * _SCALES[match.group("scale").lower()]
                )
            )
    return sorted(found, key=lambda amount: amount.start)


def _worded_value(words: str) -> tuple[int, float] | None:
    """(offset, value) of the number the words end with: "of two" -> (3, 2.0)."""
    tokens = list(re.finditer(r"[a-z]+(?:-[a-z]+)?", words.lower()))
    for token in tokens:
        value = number_value(words.lower()[token.start() :])
        if value is not None:
            return token.start(), value
    return None


def _grouped(value: float) -> str:
    """The figure with thousands separators: 1500000 -> "1,500,000"."""
    return f"{value:,.0f}" if value == int(value) else f"{value:,}"


def _scaled(value: float) -> tuple[str, str] | None:
    """(figure, scale word) when `value` reads in millions or thousands: (1.5, "million")."""
    for word, size in (("million", 1_000_000), ("thousand", 1_000)):
        if value >= size and (value / size) * 1000 == int((value / size) * 1000):
            figure = value / size
            return (str(int(figure)) if figure == int(figure) else f"{figure:g}"), word
    return None


def forms(value: float) -> list[str]:
    """The ways to write the sum, the plainest first."""
    found = [f"${_grouped(value)}", f"{_grouped(value)} dollars", f"USD {_grouped(value)}"]
    scaled = _scaled(value)
    if scaled is not None:
        figure, word = scaled
        found += [f"${figure} {word}", f"{figure} {word} dollars", f"USD {figure} {word}"]
        if word == "million":
            found.append(f"${figure}M")
        if figure.isdigit() and int(figure) <= _MAX_WORDED:
            found.append(f"{num2words(int(figure))} {word} dollars")
    return list(dict.fromkeys(found))


def variants(text: str) -> Iterator[tuple[str, str]]:
    """(kind, text) for every other form of each sum in `text`, one change at a time."""
    for amount in amounts(text):
        written = text[amount.start : amount.end]
        for form in forms(amount.value):
            if form.lower() != written.lower():
                yield "sum of money in another form", text[: amount.start] + form + text[amount.end :]


def amount_regex(value: float) -> str:
    """A regex accepting every form of the sum (see `forms`), its currency before or after."""
    figures = [re.escape(_grouped(value)).replace(r"\,", ","), f"{value:.0f}" if value == int(value) else None]
    scaled = _scaled(value)
    if scaled is not None:
        figure, word = scaled
        scale = r"(?:million|mm?)\b" if word == "million" else r"(?:thousand|k)\b"
        figures.append(rf"{re.escape(figure)} ?{scale}")
        if figure.isdigit() and int(figure) <= _MAX_WORDED:
            figures.append(rf"{num2words(int(figure)).replace('-', '[- ]')} {word}")
    number = "(?:" + "|".join(f for f in figures if f) + ")"
    return rf"(?:(?:\$|usd ?|us\$ ?){number}(?: (?:dollars|usd)\b)?|(?<![\d.,]){number} (?:dollars|usd)\b)"


#: A sum written literally in a regex: an escaped dollar sign, a figure (its dots and
#: commas escaped or not) and an optional scale word.
_SOURCE_AMOUNT = re.compile(
    r"\\\$\s?(?:\\s\*|\\s\?|\s\?)?(?P<figure>\d{1,3}(?:\\?,\d{3})+(?:\\?\.\d+)?|\d+(?:\\?\.\d+)?)"
    r"(?: ?(?P<scale>thousand|million)\b| ?(?P<short>m{1,2}|k)\b)?",
    re.IGNORECASE,
)


def widen_amounts(pattern: str) -> str:
    """`pattern` with each sum written literally (`\\$1\\.5 million`, `\\$250,000`) replaced
    by a regex accepting all of its forms."""

    def replace(match: re.Match[str]) -> str:
        figure = match.group("figure").replace("\\", "").replace(",", "")
        scale = (match.group("scale") or match.group("short") or "").lower()
        return amount_regex(float(figure) * _SCALES.get(scale, 1))

    return _SOURCE_AMOUNT.sub(replace, pattern)
