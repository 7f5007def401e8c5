"""A trajectory's JSON lines are read exactly as `json.loads` reads them, whichever decoder runs."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rubric_tools.loading.json_lines import line_decoder


def _read(decode: Any, line: str) -> tuple[str, str]:
    """The value read (its repr: -0.0, NaN and the type of a number count), or the error."""
    try:
        return "value", repr(decode(line))
    except (ValueError, RecursionError) as exc:
        return type(exc).__name__, str(exc)


EDGE_CASES = [
    '{"type": "read_document", "document_id": "lease"}',
    "9223372036854775807",  # the largest 64-bit integer
    "9223372036854775808",  # one past it: orjson reads a float
    "-9223372036854775809",
    '{"n": 123456789012345678901234567890}',
    "18446744073709551616",
    "1e400",
    "-1e400",
    "1e-400",
    "-0",
    "-0.0",
    "NaN",
    "Infinity",
    "-Infinity",
    '"\\ud800"',  # an escaped lone surrogate
    '"\\udc00 and \\ud83d\\ude00"',
    '{"a": 1, "a": 2}',
    '"tab\there"',  # a raw control character
    "\ufeff{}",
    "{}\r",
    "[1,]",
    "{'a': 1}",
    "",
    "[" * 1500 + "]" * 1500,
    "1" * 5000,
    "0.1",
    "2.2250738585072011e-308",
    "4.35000000000000000000000000000000001",
]


@pytest.mark.parametrize("line", EDGE_CASES)
def test_each_line_reads_as_json_loads_reads_it(line: str) -> None:
    assert _read(line_decoder(line), line) == _read(json.loads, line)


def test_a_file_with_a_long_integer_is_read_by_the_standard_library() -> None:
    line = '{"amount": 18446744073709551616}'
    assert line_decoder(f"{{}}\n{line}\n") is json.loads
    # Why: orjson reads an integer beyond 64 bits as a float.
    assert _read(line_decoder("{}"), line) != _read(json.loads, line)
    assert line_decoder('{"amount": 922337203685477580}') is not json.loads  # 18 digits: orjson reads it exactly


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(alphabet=st.characters(codec=None)),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=5), children, max_size=4),
    max_leaves=12,
)


@settings(max_examples=400, deadline=None)
@given(JSON_VALUES, st.booleans())
def test_any_json_text_reads_as_json_loads_reads_it(value: Any, ascii_only: bool) -> None:
    line = json.dumps(value, ensure_ascii=ascii_only)
    assert _read(line_decoder(line), line) == _read(json.loads, line)
