"""Plain scalars that YAML 1.1 (the reference's PyYAML loader) and YAML 1.2 read differently.

The reference engine reads matters with PyYAML's `safe_load`, which implements YAML
1.1: `no` is `False`, `010` is 8, `1:30` is 90, `2024-01-01` is a date, and `1e2`
(no dot) is the string "1e2". Editors, schema validators and most other tools read
YAML 1.2, where these are the string "no", 10, "1:30", "2024-01-01" and 100.0. The
loader reads what the engine reads, and notes every scalar whose two readings differ
so that the `yaml11` lint rules can report it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum

from rubric_tools.diagnostics import Span

BOOL_TAG = "tag:yaml.org,2002:bool"
INT_TAG = "tag:yaml.org,2002:int"
FLOAT_TAG = "tag:yaml.org,2002:float"
STR_TAG = "tag:yaml.org,2002:str"
TIMESTAMP_TAG = "tag:yaml.org,2002:timestamp"
MERGE_TAG = "tag:yaml.org,2002:merge"


class Reading(Enum):
    """How a plain scalar's YAML 1.1 reading differs from its YAML 1.2 one."""

    TRUTHY = "truthy"  # yes/no/on/off: a boolean in 1.1, a string in 1.2
    OCTAL = "octal"  # 010: 8 in 1.1, 10 in 1.2
    OCTAL_12 = "octal-1.2"  # 0o17: a string in 1.1, 15 in 1.2
    SEXAGESIMAL = "sexagesimal"  # 1:30: 90 in 1.1, a string in 1.2
    DATE = "date"  # 2024-01-01: a date in 1.1, a string in 1.2
    FLOAT_12 = "float-1.2"  # 1e2, 1.5e3: strings in 1.1 (its exponent needs a dot and a sign), floats in 1.2
    MERGE = "merge"  # <<: merges a mapping in 1.1, an ordinary key in 1.2


@dataclass(frozen=True)
class ScalarNote:
    """A plain scalar of a YAML file whose meaning depends on the YAML version."""

    path: tuple[object, ...]  # instance path of the value (or of the key's value, for keys)
    reading: Reading
    text: str
    span: Span
    is_key: bool = False


_CORE_TRUE_FALSE = frozenset({"true", "false"})
_OCTAL_11 = re.compile(r"[-+]?0[0-7_]+")
_OCTAL_12 = re.compile(r"0o[0-7]+")
_FLOAT_12 = re.compile(r"[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)[eE][-+]?[0-9]+")


def classify(text: str, tag: str) -> Reading | None:
    """How YAML 1.1 reads the plain scalar `text` (resolved to `tag`) differently from 1.2."""
    if tag == BOOL_TAG:
        return None if text.lower() in _CORE_TRUE_FALSE else Reading.TRUTHY
    if tag == INT_TAG:
        if ":" in text:
            return Reading.SEXAGESIMAL
        if _OCTAL_11.fullmatch(text) and text.strip("+-_0"):
            return Reading.OCTAL
        return None
    if tag == FLOAT_TAG:
        return Reading.SEXAGESIMAL if ":" in text else None
    if tag == TIMESTAMP_TAG:
        return Reading.DATE
    if tag == STR_TAG:
        if _OCTAL_12.fullmatch(text):
            return Reading.OCTAL_12
        if _FLOAT_12.fullmatch(text):
            return Reading.FLOAT_12
    return None
