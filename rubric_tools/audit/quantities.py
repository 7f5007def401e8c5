"""Numbers and durations in every common form: "5%", "5.0%", "five percent", "five (5)
percent", "5 per cent"; "18 months", "eighteen (18) months", "18-month", "eighteen-month";
a multiple, "two times", "2x", "two (2) times", "twice";
and the same span in other units ("12 months" / "one year" / "first anniversary", "7
days" / "one week", "48 hours" / "two days", "18 months" / "a year and a half").

Two sides of one table: `variants(text)` rewrites the quantities of a text into their
other forms (sins that should still fire), and `quantity_regexes.widen_quantities(pattern)`
rewrites the quantities written literally in a regex into a regex accepting every form.
Number words come from `num2words`.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache

from num2words import num2words

#: Largest number written in words (contract drafting spells out small numbers).
MAX_WORDED = 999


@dataclass(frozen=True)
class Unit:
    name: str
    forms: tuple[str, ...]  # as written after a number, the plural first
    span: str | None = None  # the unit this one counts in ("week" -> "day")
    factor: int = 1  # how many of `span` one of this unit is

    @property
    def is_duration(self) -> bool:
        """Whether it counts time ("hour", "business day"), not a rate or a multiple."""
        return self.name.split()[-1] in TIME_UNIT_WORDS


UNITS: tuple[Unit, ...] = (
    Unit("percent", ("percent", "per cent", "%")),
    Unit("business day", ("business days", "business day")),
    Unit("calendar day", ("calendar days", "calendar day"), "hour", 24),
    Unit("hour", ("hours", "hour")),
    Unit("day", ("days", "day"), "hour", 24),
    Unit("week", ("weeks", "week"), "day", 7),
    Unit("month", ("months", "month")),
    Unit("year", ("years", "year"), "month", 12),
    # A multiple of an amount: "two times fees", "2x", "twice the fees".
    Unit("times", ("times", "x")),
)
#: The units a duration counts in, as one word in the singular ("hour", "month").
TIME_UNIT_WORDS = frozenset("minute hour day week month year".split())
#: A multiple written as one word: "twice" (two times).
_TWICE = re.compile(r"\btwice\b")
_DIGITS = re.compile(r"\d+(?:\.\d+)?")
#: Each unit by each form it is written in after a number, and by its name.
UNIT_BY_FORM = {form: unit for unit in UNITS for form in unit.forms}
UNIT_BY_NAME = {unit.name: unit for unit in UNITS}


@lru_cache(maxsize=1)
def _below_a_hundred() -> dict[str, int]:
    """The words of 0-99 as `num2words` writes them ("seventy-two"), by their value: with
    "hundred", every word a number below a thousand is written with (`_worded_value`)."""
    return {str(num2words(number)): number for number in range(100)}


def preload() -> None:
    """Build the table of number words now (a hundred calls of `num2words`): a command that
    audits in forked workers calls this before forking, so that each worker does not build
    its own (see `audit.runner.preload`)."""
    _number_tokens()


def is_number_word(word: str) -> bool:
    """Whether `word` is a number word ("five", "forty", "hundred") or part of one."""
    return word in _number_tokens()


@lru_cache(maxsize=1)
def _number_tokens() -> frozenset[str]:
    # Every word of a number below a thousand is a word of one below a hundred, or "hundred".
    tokens = {token for text in _below_a_hundred() for token in re.split(r"[- ]", text)}
    return frozenset(tokens | {"hundred"})


@lru_cache(maxsize=4096)
def _worded_value(text: str) -> int | None:
    """The number `text` writes in words, 0-999: as `num2words` writes it ("one hundred and
    seventy-two"), its hyphen a space ("seventy two") or without its "and" ("one hundred
    seventy-two"); "a" and "an" are one ("a year"). None for any other text. The value is
    read from the words, then `num2words` is asked whether it writes the value so."""
    if text in ("a", "an"):
        return 1
    below = _below_a_hundred()
    tokens = text.replace("-", " ").split()
    hundreds = 0
    if "hundred" in tokens:
        at = tokens.index("hundred")
        if at != 1 or below.get(tokens[0], 0) not in range(1, 10):
            return None
        hundreds, tokens = below[tokens[0]], tokens[2:]
        tokens = tokens[1:] if tokens[:1] == ["and"] else tokens
    rest = " ".join(tokens)
    written = [rest, rest.replace(" ", "-")] if rest else []
    tens_and_units = next((below[w] for w in written if w in below), None if rest else 0)
    if tens_and_units is None:
        return None
    value = 100 * hundreds + tens_and_units
    spelled = str(num2words(value))
    return value if text in (spelled, spelled.replace("-", " "), spelled.replace(" and ", " ")) else None


def words(number: int) -> str:
    return str(num2words(number))


def number_value(text: str) -> float | None:
    """The value of a number written in digits or words ("18", "eighteen"), or None."""
    return _number_value(text)


def _number_value(text: str) -> float | None:
    text = text.strip().lower()
    if _DIGITS.fullmatch(text):
        return float(text)
    value = _worded_value(text)
    return float(value) if value is not None else None


# ------------------------------------------------------------------ texts


#: Lazy: "five business days" is five and "business days". Each word is taken whole (`++`): a
#: unit glued to a word is no quantity ("today" is no "to" and a "day", "ax" no "a" times).
_NUMBER_WORD = r"(?:[a-z]++(?:[- ][a-z]++){0,3}?)"
_NUMBER = rf"(?:\d+(?:\.\d+)?|{_NUMBER_WORD})"
_UNIT_FORMS = "|".join(sorted((re.escape(f) for f in UNIT_BY_FORM), key=len, reverse=True))
#: What may follow a number: a parenthetical, a separator or a unit. The look-ahead asks it of
#: the next character at once, before the number's words are tried shorter and longer (the
#: search tries every word of a text): the same matches, found with less backtracking.
_AFTER_NUMBER = "(?=[\\s(\\-" + re.escape("".join(sorted({form[0] for form in UNIT_BY_FORM}))) + "])"
_QUANTITY = re.compile(
    rf"(?<![\w.])(?P<number>{_NUMBER}){_AFTER_NUMBER}(?:\s*\(\s*(?P<digits>\d+(?:\.\d+)?)\s*%?\s*\))?"
    rf"(?P<sep>\s*-?\s*)(?P<unit>{_UNIT_FORMS})(?![\w])"
)
#: A unit as `_QUANTITY` ends on one (or "twice", as `_TWICE` finds it): a text without one
#: holds no quantity. Searching for it first is most of the cost saved, as most texts have
#: none (and `_QUANTITY` tries every word). Every alternative opens with a letter or "%", so
#: the search skips to the characters that can open one.
_ANY_UNIT = re.compile(rf"(?:{_UNIT_FORMS}|twice)(?![\w])")


@dataclass(frozen=True)
class Quantity:
    start: int
    end: int
    value: float
    unit: Unit
    adjectival: bool  # "18-month": a compound modifier


@lru_cache(maxsize=8192)  # a generated text is read for its figures by several checks
def quantities(text: str) -> tuple[Quantity, ...]:
    """The quantities of a text: a number (digits or words, with a parenthetical) and a unit."""
    found: list[Quantity] = []
    lowered = text.lower()
    if _ANY_UNIT.search(lowered) is None:
        return ()
    for match in _QUANTITY.finditer(lowered):
        start = match.start()
        value = _number_value(match.group("number"))
        if value is None:  # "the twelve months": the number is the last word(s) only
            tokens = list(re.finditer(r"[a-z]+", match.group("number")))
            for first in tokens[1:]:
                value = _number_value(match.group("number")[first.start() :])
                if value is not None:
                    start = match.start() + first.start()
                    break
        if match.group("unit") == "x" and match.group("sep"):
            continue  # "5 x 3" is a size; a multiple is written "5x"
        if value is not None:
            unit = UNIT_BY_FORM[match.group("unit")]
            found.append(Quantity(start, match.end(), value, unit, "-" in match.group("sep")))
    found += [Quantity(m.start(), m.end(), 2.0, UNIT_BY_NAME["times"], False) for m in _TWICE.finditer(lowered)]
    return tuple(sorted(found, key=lambda quantity: quantity.start))


def number_text(value: float) -> str:
    """`value` in digits, as prose writes it ("5", "7.5")."""
    return str(int(value)) if value == int(value) else f"{value:g}"


def worded(value: float) -> str | None:
    """`value` in words ("five"), or None where prose writes it only in digits."""
    return words(int(value)) if value == int(value) and value <= MAX_WORDED else None


def forms(value: float, unit: Unit, adjectival: bool = False) -> list[str]:
    """The ways to write `value` `unit` (the number in digits, words, both, with a decimal;
    the same span in another unit), the plainest first. `adjectival`: the quantity
    modifies a noun ("an 18-month tail"), so it is written in the singular."""
    digits = number_text(value)
    integral = value == int(value)
    word = worded(value)
    plural, singular = unit.forms[0], unit.forms[-1]
    if unit.name == "percent":
        found = [f"{digits}%", f"{digits} percent", f"{digits}.0%" if integral else f"{digits}%", f"{digits} per cent"]
        if word:
            found += [f"{word} percent", f"{word} ({digits}) percent", f"{word} ({digits}%)", f"{word} per cent"]
        return list(dict.fromkeys(found))
    if unit.name == "times":
        found = [f"{digits} times", f"{digits}x"] + ([f"{word} times", f"{word} ({digits}) times"] if word else [])
        return found + (["twice"] if value == 2 else [])
    if adjectival:
        found = [f"{digits}-{singular}"] + ([f"{word}-{singular}", f"{word} ({digits})-{singular}"] if word else [])
        return list(dict.fromkeys(found))
    noun = singular if value == 1 else plural
    found = [f"{digits} {noun}"]
    if word:
        found += [f"{word} {noun}", f"{word} ({digits}) {noun}"]
    found += _other_units(value, unit)
    return list(dict.fromkeys(found))


def _other_units(value: float, unit: Unit) -> list[str]:
    """The same span in a larger or smaller unit: 12 months as a year, 14 days as two weeks,
    72 hours as three days; a whole number of years as an anniversary."""
    found: list[str] = []
    for other in UNITS:
        if other.span == unit.name and value % other.factor == 0:
            count = int(value // other.factor)
            noun = other.forms[-1] if count == 1 else other.forms[0]
            found.append(f"{words(count)} {noun}" if count <= MAX_WORDED else f"{count} {noun}")
            if other.name == "year":
                found.append(f"the {num2words(count, to='ordinal')} anniversary")
        if unit.span == other.name and other.name != "hour":
            count = int(value * unit.factor)
            found.append(f"{words(count)} {other.forms[0] if count != 1 else other.forms[-1]}")
        half = and_a_half(value, unit, other)
        if half is not None:
            whole, name = half
            found += [f"{words(whole)} and a half {name}s", f"{whole}.5 {name}s"]
            found += [f"a {name} and a half"] if whole == 1 else []
    return found


def and_a_half(value: float, unit: Unit, other: Unit) -> tuple[int, str] | None:
    """(whole, unit name) when `value` `unit` is a whole number and a half of the larger
    unit `other`: 18 months is (1, "year"), "a year and a half", "one and a half years"."""
    if other.span != unit.name or other.factor % 2 or value % other.factor != other.factor // 2:
        return None
    whole = int(value // other.factor)
    return (whole, other.forms[-1]) if 1 <= whole <= MAX_WORDED else None


def variants(text: str) -> Iterator[tuple[str, str]]:
    """(kind, text) for every other form of each quantity in `text`, one change at a time."""
    for quantity in quantities(text):
        written = text[quantity.start : quantity.end].lower()
        for form in forms(quantity.value, quantity.unit, quantity.adjectival):
            before = text[: quantity.start]
            if form.startswith("the ") and re.search(r"\bthe\s*$", before):
                form = form[4:]
            if form != written:
                yield "number or duration form", before + form + text[quantity.end :]


_ANNIVERSARY = re.compile(r"\b(?:the )?(?P<ordinal>[a-z]+) anniversary\b")


@lru_cache(maxsize=1)
def _ordinal_values() -> dict[str, int]:
    return {str(num2words(n, to="ordinal")): n for n in range(1, 101)}


def spellings(text: str) -> Iterator[str]:
    """`text` with one figure written another way: every form of `variants`, and a year
    named as an anniversary written as a span ("the first anniversary" as "one year"); each
    of those in its own other forms too ("a year" as "twelve months" as "12 months")."""
    seen = {text}
    for respelled in _respellings(text):
        for form in (respelled, *(variant for _kind, variant in variants(respelled))):
            if form not in seen:
                seen.add(form)
                yield form


def _respellings(text: str) -> Iterator[str]:
    for _kind, variant in variants(text):
        yield variant
    for found in _ANNIVERSARY.finditer(text.lower()):
        years = _ordinal_values().get(found.group("ordinal"))
        if years is not None:
            for form in forms(years, UNIT_BY_NAME["year"]):
                if "anniversary" not in form:
                    yield text[: found.start()] + form + text[found.end() :]
