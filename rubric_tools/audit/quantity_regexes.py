"""The regex side of `quantities`: a number and its unit written every common way in a
regex (`quantity_regex`: "5%" also as "5.0 %", "five percent", "five (5) per cent"; "18
months" also as "eighteen-month", "a year and a half"), and the quantities written
literally in a gate's pattern rewritten so (`widen_quantities`)."""

from __future__ import annotations

import re

from num2words import num2words

from rubric_tools.audit.quantities import (
    MAX_WORDED,
    UNIT_BY_FORM,
    UNIT_BY_NAME,
    UNITS,
    Unit,
    and_a_half,
    number_text,
    number_value,
    words,
)


def _number_regex(value: float, *, decimal: bool = False) -> str:
    """`value` in digits or words. Gates read normalized text (one space between words), so
    a single space is written where prose has whitespace. `decimal`: "5.0" too (a
    percentage is written so; a span of days is not)."""
    digits = number_text(value).replace(".", r"\.")
    numeral = rf"{digits}(?:\.0+)?" if decimal and value == int(value) else digits
    if value != int(value) or value > MAX_WORDED:
        return rf"(?<![\d.,]){numeral}"
    tokens = words(int(value)).replace(" and ", " ").replace("-", " ").split()
    word = "[- ]".join(tokens)  # "seventy-two", "seventy two", "one hundred"
    # Not inside a longer number ("7.5%" holds no "5%"); the word may carry its figure
    # ("twelve (12) months"): the word decides, as a gate that wrote `twelve \(\d+\)` did.
    return rf"(?:(?<![\d.,]){numeral}|\b{word}(?: ?\(\d+\))?)"


#: Between a number and its unit: "5 days", "5-day" (normalized text has single spaces).
_SEPARATOR = "[ -]"


def _stem(unit: Unit) -> str:
    if unit.name == "day":
        return rf"(?:calendar{_SEPARATOR})?day"  # a day is a calendar day: one alternative for both
    return unit.forms[-1].replace(" ", _SEPARATOR)  # "business day", "business-day"


def quantity_regex(value: float, unit: Unit, *, other_units: bool = True) -> str:
    """A regex accepting every form of `value` `unit` (see `forms`); without `other_units`,
    every spelling of it in its own unit only ("18-month", not "a year and a half")."""
    if unit.name == "percent":
        return rf"{_number_regex(value, decimal=True)} ?(?:%|percent|per[- ]?cent)"
    if unit.name == "times":
        multiple = rf"{_number_regex(value, decimal=True)} ?(?:times|x)\b"
        return rf"(?:{multiple}|twice)" if value == 2 else multiple
    number = _number_regex(value)
    alternatives = [rf"{number}{_SEPARATOR}{_stem(unit)}{_plural_ending(value)}"]
    alternatives += _in_other_units(value, unit) if other_units else []
    return "(?:" + "|".join(alternatives) + ")" if len(alternatives) > 1 else alternatives[0]


def _in_other_units(value: float, unit: Unit) -> list[str]:
    """Regexes of `value` `unit` said in another unit: "one week" for 7 days, "the first
    anniversary" for a year, "a year and a half" for 18 months, "72 hours" for 3 days."""
    alternatives = []
    if unit.name == "year" and value == int(value):
        alternatives.append(rf"{num2words(int(value), to='ordinal')} anniversary")
    for other in UNITS:
        if other.name == "calendar day":
            continue  # written as an optional word of "day"
        if other.span == unit.name and value % other.factor == 0:
            count = value // other.factor
            article = r"(?:an?|one|1)" if count == 1 else _number_regex(count)
            alternatives.append(rf"{article}{_SEPARATOR}{_stem(other)}{_plural_ending(count)}")
            if other.name == "year":
                alternatives.append(rf"{num2words(int(count), to='ordinal')} anniversary")
        if unit.span == other.name and other.name != "hour":
            count = value * unit.factor
            alternatives.append(rf"{_number_regex(count)}{_SEPARATOR}{_stem(other)}{_plural_ending(count)}")
        half = and_a_half(value, unit, other)
        if half is not None:
            whole, name = half
            alternatives.append(rf"{_number_regex(whole)} and a half {name}s")
            # As a decimal, "1.5 years", "a 2.5-year term".
            alternatives.append(rf"(?<![\d.,]){whole}\.5{_SEPARATOR}{name}(?:s|\b)")
            if whole == 1:
                alternatives.append(rf"(?:an?|one) {name} and a half")
    return alternatives


def _plural_ending(count: float) -> str:
    """The unit's ending after `count`: one is singular ("one year"); above one, the plural
    first ("5 days", and so the evidence a witness of the regex reads), the bare unit at a
    word's end ("a 5-day period")."""
    return r"\b" if count == 1 else r"(?:s|\b)"


#: An optional kind of day in a group of its own, as a regex writes it: "(business\s+)?",
#: "(business\s+|calendar\s+)?".
_OPTIONAL_KIND_GROUP = r"\((?:\?:)?(?:business|calendar)(?:\\s\+| )(?:\|(?:business|calendar)(?:\\s\+| ))?\)\?"
#: A quantity written literally in a regex: a number (digits, words, or a group of them),
#: an optional parenthetical, a separator and a unit (with an optional plural `s?`).
_SOURCE_NUMBER = r"(?:\d+|[a-z]+(?:[- ][a-z]+)??)"  # "five business days": one word first
_SOURCE_QUANTITY = re.compile(
    rf"(?P<number>\(\?:{_SOURCE_NUMBER}(?:\|{_SOURCE_NUMBER})*\)|\({_SOURCE_NUMBER}(?:\|{_SOURCE_NUMBER})*\)"
    rf"|(?:(?<=\\b)|(?<![\w\\\[{{,])){_SOURCE_NUMBER})"
    r"(?P<paren>\s*(?:\\\(\\d\+\\\)|\\\(\d+\\\)|\\\(\?\d+\\\)\?|\\s\*\\\(\?\d+\\\)\?"
    # an optional figure in a group of its own: "\s*(\(\d+\)\s*)?"
    r"|(?:\\s\*)?\((?:\?:)?\\\(\\d\+\\\)(?:\\s\*|\\s\+| )?\)\?)\s*|\s*)"
    r"(?P<sep>(?:\\s[*+]|\\s\*|\\s\+| |-|\[- \]\??|\[ -\]\??|-\?)*)"
    r"(?P<unit>\(\?:(?:%|percent)(?:\|(?:%|percent))*\)|(?:business |calendar |business\\s\+|calendar\\s\+"
    # an optional kind of day in a group of its own: "(business\s+)?days"
    rf"|{_OPTIONAL_KIND_GROUP})?"
    r"(?:percent|%|times|x|(?:hour|day|week|month|year)(?:s\?|s)?))"
    r"(?![a-z])"
)


def _source_values(number: str) -> list[float] | None:
    alternatives = number.strip("()").removeprefix("?:").split("|")
    values = [number_value(a.replace("[- ]", " ")) for a in alternatives]
    if any(v is None for v in values):
        return None
    return sorted({v for v in values if v is not None})


def _source_unit(unit: str) -> Unit | None:
    text = unit.replace("\\s+", " ").replace("s?", "s").removeprefix("(?:").rstrip(")")
    text = text.split("|")[0]
    if text in ("%", "percent"):
        return UNIT_BY_NAME["percent"]
    if text in ("times", "x"):
        return UNIT_BY_NAME["times"]
    return UNIT_BY_FORM.get(text) or UNIT_BY_FORM.get(text + "s")


#: A unit after an optional kind of day in a group of its own: "(business\s+)?days",
#: "(business\s+|calendar\s+)?days".
_OPTIONAL_KIND = re.compile(rf"{_OPTIONAL_KIND_GROUP}(?P<rest>.+)")


def widen_quantities(pattern: str, *, other_units: bool = True) -> str:
    """`pattern` with each quantity written literally (`\\b90 days`, `(?:nine|twelve) months`,
    `5\\s*(?:%|percent)`) replaced by a regex accepting all of its forms (without
    `other_units`: its spellings in its own unit only, `quantity_regex`)."""

    def replace(match: re.Match[str]) -> str:
        values = _source_values(match.group("number"))
        kind = _OPTIONAL_KIND.match(match.group("unit"))
        if kind is not None and values:
            # "(business\s+)?days": the figures as the gate writes them, and each said in
            # another unit ("one week" for seven days; not for seven business days).
            plain = _source_unit(kind.group("rest"))
            other = []
            if plain is not None and other_units:
                other = [regex for value in values for regex in _in_other_units(value, plain)]
            return "(?:" + "|".join([match.group(0), *other]) + ")" if other else match.group(0)
        unit = _source_unit(match.group("unit"))
        if not values or unit is None:
            # "within five days": a word before the number was read as its first word; the
            # quantity may start after it.
            whole, number = match.group(0), match.group("number")
            cut = re.search(r"[- ]", number) if number[:1].isalpha() else None
            if cut is None:
                return whole
            offset = match.start("number") - match.start() + cut.end()
            return whole[:offset] + widen_quantities(whole[offset:], other_units=other_units)
        regexes = [quantity_regex(value, unit, other_units=other_units) for value in values]
        return regexes[0] if len(regexes) == 1 else "(?:" + "|".join(regexes) + ")"

    return _SOURCE_QUANTITY.sub(replace, pattern)


def with_compound_forms(pattern: str) -> str:
    """`pattern` with each span written literally as "<number> <unit>s" also read as the
    compound modifier ("(?:eighteen|18) months" -> "(?:eighteen|18)[ -]months?\\b": "an
    eighteen-month tail"). The commonest other spelling of a span, for a guard keyed to the
    figure, a few characters long where every form (`widen_quantities`) is a line."""

    def replace(match: re.Match[str]) -> str:
        written = match.group("unit")
        unit = UNIT_BY_FORM.get(written)
        # One space, no figure in brackets, a one-word span in its plural ("months", not
        # "business days" or "hours?").
        plain = match.group("paren") + match.group("sep") == " "
        if not plain or unit is None or not unit.is_duration or written != unit.forms[0] or " " in written:
            return match.group(0)
        return f"{match.group('number')}{_SEPARATOR}{unit.forms[-1]}s?\\b"

    return _SOURCE_QUANTITY.sub(replace, pattern)
