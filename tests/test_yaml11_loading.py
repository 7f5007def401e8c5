"""The YAML loader reads what the reference's `yaml.safe_load` reads (YAML 1.1), positions included,
and refuses what a parser could not survive; documents split into lines as `str.splitlines()` does."""

from __future__ import annotations

import datetime
import random
from pathlib import Path

import pytest
import yaml

from rubric_tools.loading import yaml_source
from rubric_tools.loading.yaml11 import Reading
from rubric_tools.loading.yaml_source import MAX_DEPTH, parse_yaml_text
from rubric_tools.scoring.sections import PREAMBLE_TOKEN, parse_sections

#: Each scalar as the reference's loader (PyYAML safe_load, YAML 1.1) reads it, with the note we keep.
YAML11_SCALARS = [
    ("no", False, Reading.TRUTHY),
    ("Yes", True, Reading.TRUTHY),
    ("on", True, Reading.TRUTHY),
    ("OFF", False, Reading.TRUTHY),
    ("true", True, None),
    ("010", 8, Reading.OCTAL),
    ("0o17", "0o17", Reading.OCTAL_12),
    ("1:30", 90, Reading.SEXAGESIMAL),
    ("2024-01-01", datetime.date(2024, 1, 1), Reading.DATE),
    ("1e2", "1e2", Reading.FLOAT_12),
    ("1.5e3", "1.5e3", Reading.FLOAT_12),
    ("1.0e+3", 1000.0, None),
    ("0", 0, None),
    ("0x1f", 31, None),
    ("y", "y", None),
    ("'no'", "no", None),
]


def parse(text: str) -> yaml_source.YamlSource:
    return parse_yaml_text(Path("x.yaml"), text)


@pytest.fixture(autouse=True)
def no_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RUBRIC_NO_CACHE", "1")


@pytest.mark.parametrize(("written", "value", "reading"), YAML11_SCALARS)
def test_scalars_read_as_safe_load_reads_them(written: str, value: object, reading: Reading | None) -> None:
    source = parse(f"a: {written}\nb: [{written}]\n")
    assert source.data == {"a": value, "b": [value]} == yaml.safe_load(f"a: {written}\nb: [{written}]\n")
    assert type(source.data["a"]) is type(value)
    assert [note.reading for note in source.notes] == ([reading, reading] if reading else [])
    assert source.diagnostics == []


def test_merge_keys_merge_as_in_safe_load() -> None:
    text = "base: &b {x: 1, y: 2}\nitem:\n  <<: *b\n  y: 3\n"
    source = parse(text)
    assert source.data == yaml.safe_load(text)
    assert [(note.reading, note.span.line) for note in source.notes] == [(Reading.MERGE, 3)]


@pytest.mark.parametrize(
    "text",
    [
        "a: !custom 5\n",
        "a: !!int June 1\n",
        "a: =\n",
        "a: !!python/object/apply:os.system ['echo hacked']\n",
        "a: {<<: 5}\n",
        "? [1, 2]\n: x\n",
        "a: !!timestamp 2024-02-30\n",
    ],
)
def test_what_safe_load_refuses_is_a_y005_error_and_nothing_is_constructed(text: str) -> None:
    with pytest.raises((yaml.YAMLError, ValueError, TypeError)):
        yaml.safe_load(text)
    source = parse(text)
    assert [d.code for d in source.diagnostics] == ["Y005"]
    assert isinstance(source.data, dict)  # the written text is kept so the other rules still run


def test_a_surrogate_escape_libyaml_refuses_is_read_as_safe_load_reads_it() -> None:
    text = 'concepts: ["dead\\ud800line"]\n'
    assert parse(text).data == yaml.safe_load(text) == {"concepts": ["dead\ud800line"]}


def test_positions_and_values_are_the_same_without_libyaml(monkeypatch: pytest.MonkeyPatch) -> None:
    base = Path(__file__).parent / "rule_cases" / "_base"
    texts = [p.read_text(encoding="utf-8") for p in sorted(base.glob("*.yaml"))]
    texts += [f"a: {written}\nb: [{written}, {{k: {written}}}]\n" for written, _, _ in YAML11_SCALARS]
    fast = [parse(text) for text in texts]
    monkeypatch.setattr(yaml_source, "LOADER", yaml_source.PURE_LOADER)
    pure = [parse(text) for text in texts]
    for a, b in zip(fast, pure, strict=True):
        assert a.data == b.data
        assert a.positions == b.positions
        assert a.notes == b.notes


def test_two_kilobytes_of_nested_brackets_are_refused_at_the_limit() -> None:
    source = parse("a: " + "[" * 2048 + "]" * 2048 + "\n")
    (problem,) = source.diagnostics
    assert problem.code == "L010" and source.data is None
    assert problem.span is not None
    # libyaml gives up at 1,000 levels; the finding points at the bracket past MAX_DEPTH.
    assert (problem.span.line, problem.span.column) == (1, 3 + MAX_DEPTH + 1)


@pytest.mark.parametrize("size", [2_048, 1_000_000])
def test_deep_flow_nesting_is_refused_in_linear_work_by_either_parser(
    size: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The pure parser is quadratic in open flow levels; a linear bracket count guards it."""
    text = "a: " + "[" * size + "]" * size + "\n"
    fast = parse(text).diagnostics
    monkeypatch.setattr(yaml_source, "LOADER", yaml_source.PURE_LOADER)
    scanned: list[int] = []
    real_parse = yaml.parse

    def counting_parse(stream: str, Loader: type) -> object:  # noqa: N803 - PyYAML's keyword
        for event in real_parse(stream, Loader=Loader):
            scanned.append(1)
            yield event

    monkeypatch.setattr(yaml, "parse", counting_parse)
    pure = parse(text).diagnostics
    assert [d.code for d in fast] == [d.code for d in pure] == ["L010"]
    assert fast[0].span == pure[0].span
    assert scanned == []  # refused before the pure parser saw a single token


def test_a_surrogate_escape_does_not_open_a_way_around_the_depth_limit() -> None:
    source = parse('a: "\\ud800"\nb: ' + "[" * 200_000 + "\n")
    assert [d.code for d in source.diagnostics] == ["L010"]


def test_deep_nesting_below_the_limit_is_read() -> None:
    depth = MAX_DEPTH - 1
    source = parse("[" * depth + "x" + "]" * depth + "\n")
    assert source.diagnostics == []


def test_an_unclosed_deep_nest_is_refused_before_the_syntax_error() -> None:
    source = parse("a: " + "{a: " * 500 + "\n")
    assert [d.code for d in source.diagnostics] == ["L010"]


def test_too_many_aliases_are_refused_before_composing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(yaml_source, "MAX_ALIASES", 10)
    source = parse("a: &x 1\nb: [" + ", ".join(["*x"] * 11) + "]\n")
    assert [d.code for d in source.diagnostics] == ["L006"]
    assert source.diagnostics[0].span is not None and source.diagnostics[0].span.line == 2


# ------------------------------------------------------------------ documents


def reference_sections(text: str) -> dict[str, str]:
    """engine.md §2, written from the page: lines by str.splitlines(), `## ` opens a section."""
    chunks: dict[str, list[str]] = {PREAMBLE_TOKEN: []}
    current = chunks[PREAMBLE_TOKEN]
    for line in text.splitlines():
        if line.startswith("## "):
            token = line[3:].split()[0].rstrip(".")
            current = chunks.setdefault(token, [])
        current.append(line)
    return {token: "\n".join(lines).strip() for token, lines in chunks.items()}


SEPARATORS = ["\n", "\r\n", "\r", "\f", "\v", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029"]


@pytest.mark.parametrize("separator", SEPARATORS, ids=[repr(s) for s in SEPARATORS])
def test_every_splitlines_separator_starts_a_line(separator: str) -> None:
    text = f"Preamble.{separator}## 4.2 Use of Data{separator}Provider may train.{separator}## 5 Term\nOne year.\n"
    parsed = parse_sections(text)
    assert parsed.sections == reference_sections(text)
    assert set(parsed.sections) == {PREAMBLE_TOKEN, "4.2", "5"}


def test_sections_match_the_reference_on_random_mixes_of_separators() -> None:
    pieces = ["## 1 One", "## 2. Two", "text", "## 1 again", "", "  ", "## full", "more text", "## 3.1 x"]
    generator = random.Random(15)
    for _ in range(300):
        parts = [generator.choice(pieces) for _ in range(generator.randint(0, 12))]
        text = "".join(part + generator.choice(SEPARATORS) for part in parts)
        assert parse_sections(text).sections == reference_sections(text), repr(text)


def test_an_empty_heading_after_a_form_feed_is_found_at_its_editor_position() -> None:
    parsed = parse_sections("# Title\n\nIntro.\f## \nText.\n")
    (heading,) = parsed.empty_headings
    assert (heading.line, heading.column) == (3, 8)
    with pytest.raises(IndexError):  # what the reference does with it
        reference_sections("# Title\n\nIntro.\f## \nText.\n")


# ------------------------------------------------------------------ differential against safe_load

_PLAIN = [
    "no",
    "yes",
    "On",
    "off",
    "true",
    "~",
    "",
    "010",
    "0o17",
    "0x1F",
    "1_000",
    "1:30",
    "1:30.5",
    "1e2",
    "1.0e+2",
    ".inf",
    "-.NaN",
    "2024-01-01",
    "2024-01-01 10:00:00",
    "0",
    "-3",
    "3.14",
    "abc",
    "a b",
    "'quoted'",
    '"dq \\u00e9"',
    "=",
    "!!str 5",
    "!!int 7",
    "!!float 1",
    "!custom x",
    "!!int June 1",
    "!!binary aGk=",
    "'no'",
]
_KEYS = ["a", "b", "no", "2024-01-01", "1", "on", "<<", "a"]


def _random_yaml(generator: random.Random, depth: int = 0) -> str:
    """A random block mapping of plain scalars, flow lists, nested maps, anchors and merges."""
    lines: list[str] = []
    indent = "  " * depth
    for _ in range(generator.randint(1, 4)):
        key = generator.choice(_KEYS)
        roll = generator.random()
        if key == "<<":
            lines.append(f"{indent}<<: {generator.choice(['{m: 1, a: 2}', '[{m: 1}, {n: 2}]', '5', '*x'])}")
        elif roll < 0.5 or depth > 2:
            lines.append(f"{indent}{key}: {generator.choice(_PLAIN)}")
        elif roll < 0.7:
            items = ", ".join(generator.choice(_PLAIN[:27]) for _ in range(generator.randint(0, 3)))
            lines.append(f"{indent}{key}: [{items}]")
        elif roll < 0.8:
            lines.append(f"{indent}{key}: &x {{k: {generator.choice(_PLAIN[:27])}}}")
        else:
            lines.append(f"{indent}{key}:")
            lines.append(_random_yaml(generator, depth + 1))
    return "\n".join(lines)


def _comparable(value: object) -> object:
    """safe_load's value with keys as our loader keeps them (a date or bytes key becomes its text)."""
    if isinstance(value, dict):
        return {
            (k if isinstance(k, str | int | float | bool | type(None)) else str(k)): _comparable(v)
            for k, v in value.items()
        }
    if isinstance(value, list):
        return [_comparable(item) for item in value]
    if isinstance(value, float) and value != value:
        return "nan"
    return value


def test_random_documents_load_as_safe_load_loads_them() -> None:
    generator = random.Random(1512)
    accepted = refused = 0
    for _ in range(400):
        text = _random_yaml(generator) + "\n"
        source = parse(text)
        try:
            expected = yaml.safe_load(text)
        except (yaml.YAMLError, ValueError, TypeError):
            refused += 1  # the reference cannot load it: we must say so with an error
            assert any(d.code in ("L001", "Y005") for d in source.diagnostics), text
            continue
        accepted += 1
        assert not any(d.code in ("L001", "Y005") for d in source.diagnostics), text
        assert _comparable(source.data) == _comparable(expected), text
    assert accepted > 100 and refused > 20  # both branches were exercised


def test_the_parse_cache_restores_notes_and_positions(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("RUBRIC_NO_CACHE")
    monkeypatch.setenv("RUBRIC_CACHE_DIR", str(tmp_path))
    text = "base: &b {x: 1}\nitem:\n  <<: *b\n  concepts: [no, 010, '1:30']\n  on: 1:30\n"
    first = parse(text)
    assert list(tmp_path.rglob("*.marshal")), "a clean parse is cached"
    second = parse(text)
    assert second.data == first.data and second.positions == first.positions
    assert second.notes == first.notes and len(first.notes) == 5  # merge, no, 010, the key on, 1:30
