"""Our YAML reader agrees with the reference's: PyYAML's pure-Python `yaml.safe_load` (YAML 1.1).

Property, under hypothesis: for any text, when our reader (`loading.yaml_source`, libyaml
where installed) reads it without a load error, `safe_load` reads it too and gives the same
values; when our reader refuses it (L001 syntax, Y005 unconstructible value, L006 alias),
`safe_load` raises. Our own limits (nesting, aliases, size) are not generated here.

Where our data is documented to differ in shape, both sides are put in the same shape
first: a key `safe_load` would make a date is its text (a matter's keys are ids), and
`!!set`, `!!omap` and `!!pairs` are read as the plain mapping and lists they are written as.
"""

from __future__ import annotations

import datetime
import math
from pathlib import Path
from typing import Any

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rubric_tools.loading.yaml_source import parse_yaml_text

#: Pieces of YAML: structure, scalars of every YAML 1.1 type, tags, and the characters on
#: which libyaml and PyYAML's scanner have been seen to disagree (tabs, byte-order marks).
TOKENS = [
    "a",
    "id",
    "b: ",
    "key: value",
    "- ",
    "  ",
    "    ",
    "\n",
    "\n  ",
    "\n- ",
    "\t",
    " \t",
    ":",
    ": ",
    '"',
    '"x\\ty"',
    "'",
    "'it''s'",
    "#",
    " # c",
    "[",
    "]",
    "{",
    "}",
    ", ",
    "?",
    "? ",
    "|",
    "|-\n  x",
    ">",
    "&x ",
    "*x",
    "<<: ",
    "!!str ",
    "!!int ",
    "!!bool ",
    "!!float ",
    "!!timestamp ",
    "!!binary ",
    "!custom ",
    "!!null ",
    "\x85",
    "\u2028",
    "\ufeff",
    "\x00",
    "\x1b",
    "\x7f",
    "é",
    "§4.2",
    "\r",
    "\r\n",
    "---\n",
    "...\n",
    "%YAML 1.1\n",
    "0",
    "010",
    "0o17",
    "1:30",
    "1e2",
    "1.5e+3",
    ".inf",
    "-.nan",
    "2024-01-01",
    "2024-01-01 10:00:00",
    "yes",
    "Off",
    "~",
    "null",
    "=",
    "\\",
    "@",
    "`",
    "\u00a0",
    "\U0001f600",
    '"\\ud800"',
    '"\\x41"',
    '"\\N"',
    "9" * 30,
    "|#",
    ">-#",
    "|2\n",
    "|+",
    "!<tag:yaml.org,2002:str> ",
    "%TAG ! tag:x,2000:\n",
    "&a[",
    "*a]",
    "k" * 1030,
]


def _same_shape(value: Any) -> Any:
    """`value` with the documented shape differences taken out (see the module docstring)."""
    if isinstance(value, dict):
        return {_key(k): _same_shape(v) for k, v in value.items()}
    if isinstance(value, set):
        return {_key(k): None for k in value}
    if isinstance(value, list):
        return [_pair(item) if isinstance(item, tuple) else _same_shape(item) for item in value]
    if isinstance(value, float) and math.isnan(value):
        return "NaN"  # NaN never equals itself; both sides show it the same way
    return value


def _pair(item: tuple[Any, Any]) -> dict[Any, Any]:
    return {_key(item[0]): _same_shape(item[1])}


def _key(key: Any) -> Any:
    if isinstance(key, float) and math.isnan(key):
        return "NaN"
    if isinstance(key, str | int | float | bool | type(None)):
        return key
    return str(key) if isinstance(key, datetime.date | bytes) else key


REFUSALS = ("L001", "Y005", "L006")


def _reference(text: str) -> tuple[bool, Any]:
    try:
        return True, yaml.load(text, Loader=yaml.SafeLoader)  # noqa: S506  the pure-Python safe_load itself
    except yaml.YAMLError:
        return False, None
    except Exception:  # noqa: BLE001  PyYAML's constructors raise KeyError, IndexError... on bad tag values
        return False, None


def _check(text: str) -> None:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return  # a file holds bytes: a lone surrogate cannot be in one
    ours = parse_yaml_text(Path("oracle.yaml"), text)
    refused = [d.code for d in ours.diagnostics if d.code in REFUSALS]
    loads, expected = _reference(text)
    if refused:
        assert not loads, f"we refuse ({refused}) what safe_load reads: {text!r} -> {expected!r}"
        return
    assert ours.readable, f"unreadable without a refusal code: {text!r} {ours.diagnostics}"
    assert loads, f"safe_load refuses what we read without error: {text!r} -> {ours.data!r}"
    assert _same_shape(ours.data) == _same_shape(expected), f"{text!r}: ours {ours.data!r}, safe_load {expected!r}"


_SETTINGS = settings(
    max_examples=400,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)


@_SETTINGS
@given(st.lists(st.sampled_from(TOKENS), min_size=1, max_size=14))
def test_token_soup_is_read_as_safe_load_reads_it(tokens: list[str]) -> None:
    _check("".join(tokens))


_SCALARS = st.one_of(
    st.sampled_from(TOKENS[40:]),
    st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=12),
    st.integers(),
    st.floats(allow_nan=True, allow_infinity=True),
)


@st.composite
def _documents(draw: st.DrawFn) -> str:
    """A block-style mapping of lists and scalars, written plain, quoted or tagged, with odd
    characters (tabs, byte-order marks, line separators) slipped in after values."""
    lines = []
    for index in range(draw(st.integers(1, 5))):
        key = draw(st.sampled_from(["id", "points", "anchor", f"k{index}", "yes", "1:30", "<<"]))
        scalar = draw(_SCALARS)
        written = str(scalar) if not isinstance(scalar, str) else scalar
        style = draw(st.sampled_from(["plain", "double", "single", "tag"]))
        if style == "double":
            written = '"' + written.replace("\\", "\\\\").replace('"', '\\"') + '"'
        elif style == "single":
            written = "'" + written.replace("'", "''") + "'"
        elif style == "tag":
            written = draw(st.sampled_from(["!!int ", "!!float ", "!!bool ", "!!str ", "!!timestamp "])) + written
        tail = draw(st.sampled_from(["", "", "\t", " \t", " # note", "\ufeff", "\u2028", "\x85"]))
        if draw(st.booleans()):
            lines.append(f"{key}:\n  - {written}{tail}")
        else:
            lines.append(f"{key}: {written}{tail}")
    return "\n".join(lines) + "\n"


@_SETTINGS
@given(_documents())
def test_matter_shaped_documents_are_read_as_safe_load_reads_them(text: str) -> None:
    _check(text)


def test_the_reproducers_of_issue_24() -> None:
    for text in (
        "questions:\n  - id: q_deadline\t\n",  # a tab after a plain scalar: safe_load refuses it
        "points: !!bool maybe\n",
        "points: !!int ''\n",
        "points: !!timestamp 'not a date'\n",
        "a: 1\n\ufeffb: 2\n",
        "\ufeff\ufeff",
        "note: |#\n",
        "- {pattern: fines?|penalty}\n",  # "?" in a flow plain scalar: libyaml reads it, safe_load refuses
        "- [a?b, c]\n",
        "- [a:[b]]\n",  # and the other way round
    ):
        _check(text)
