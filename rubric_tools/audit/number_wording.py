"""How the numbers of generated evidence are written: the checks `naturalness` makes of a
number's words, figures and unit ("three (3) days", not "three (0) days", "73 (0) hours",
"one years" or "3 business day")."""

from __future__ import annotations

import re

from rubric_tools.audit.lexicon import FUNCTION_WORDS
from rubric_tools.audit.quantities import number_value, quantities

#: A number in words with its figures after it: "three (3)". Words are taken whole (`++`):
#: a shorter part of one is never followed by what comes next, and the search tries every word.
_WORDS_AND_FIGURES = re.compile(r"\b([a-z]++(?:[- ][a-z]++)?)\s*\((\d+(?:\.\d+)?)\)", re.IGNORECASE)
#: A figure glossed by another in parentheses ("73 (0) hours", a regex's `\d+` written out),
#: not a citation's subsection ("Section 12 (3)").
_FIGURES_AND_FIGURES = re.compile(
    r"(?<!section )(?<!§ )(?<!§)(?<!article )(?<!clause )\b(\d+(?:\.\d+)?)\s*\((\d+(?:\.\d+)?)\)", re.IGNORECASE
)
_NEXT_WORD = re.compile(r"\s*([a-z]+)")
#: A number in words and its figures with no parentheses between ("ninety 90 days", a
#: regex's optional "\(?" left out): written "ninety (90) days".
_WORDS_THEN_FIGURES = re.compile(r"\b([a-z]++(?:-[a-z]++)?) (\d+(?:\.\d+)?)\b", re.IGNORECASE)
_DIGIT = re.compile(r"\d")


def number_problems(text: str) -> list[str]:
    """What is wrong with how `text` writes its numbers (empty: nothing)."""
    found: list[str] = []
    for written in _WORDS_AND_FIGURES.finditer(text) if "(" in text else ():
        spelled = written.group(1).lower().split()
        values = [number_value(" ".join(spelled[-n:])) for n in (2, 1) if len(spelled) >= n]
        words_value, figure = next((v for v in values if v is not None), None), float(written.group(2))
        if words_value is not None and words_value != figure:
            found.append(f"number in words and figures disagree: {written.group(0)}")
    for written in _FIGURES_AND_FIGURES.finditer(text) if "(" in text else ():
        if float(written.group(1)) != float(written.group(2)):
            found.append(f"number in figures and figures disagree: {written.group(0)}")
    for written in _WORDS_THEN_FIGURES.finditer(text) if _DIGIT.search(text) else ():  # most texts have none
        if number_value(written.group(1).lower()) == float(written.group(2)):
            found.append(f"figures after a number in words, unbracketed: {written.group(0)}")
    found += [f"count and unit disagree: {written}" for written in _count_disagreements(text)]
    return found


def _count_disagreements(text: str) -> list[str]:
    """Quantities whose unit does not agree with the count: "one years"; "3 day" where no
    noun follows for the unit to modify (a "5 day period" is one)."""
    found: list[str] = []
    for quantity in quantities(text):
        written = text[quantity.start : quantity.end]
        if quantity.adjectival or quantity.unit.name == "percent":
            continue
        plural = written.lower().endswith("s")
        if quantity.value == 1:
            if plural:
                found.append(written)
            continue
        following = _NEXT_WORD.match(text[quantity.end :].lower())
        if not plural and (following is None or following.group(1) in FUNCTION_WORDS):
            found.append(written)
    return found
