"""YAML 1.1 rules (Y0xx): scalars the engine reads differently from what the author sees.

The reference engine loads matters with PyYAML's `safe_load` (YAML 1.1), and so does
the toolkit; editors, schema validators and most other tools read YAML 1.2. The
loader notes every plain scalar whose two readings differ (`loading.yaml11`); these
rules report them, as yamllint's `truthy` and `octal-values` rules do:

- an error when the engine's reading does not fit the schema where it stands (a
  `no` where text is expected: the schema rules report the type, this rule says why)
  or silently changes a number (`010` is 8, `1:30` is 90), or when the engine's
  loader cannot load the file at all (a custom tag);
- a warning when the engine's reading is what the schema expects but other tools
  read it differently (`required: yes`, a concept written `1e3`, a merge key).
"""

from __future__ import annotations

from collections.abc import Iterator

from rubric_tools.diagnostics import Severity
from rubric_tools.lint.context import Finding, LintContext
from rubric_tools.lint.registry import rule
from rubric_tools.loading.codes import YAML_UNCONSTRUCTIBLE
from rubric_tools.loading.yaml11 import Reading, ScalarNote

#: Schema-error kinds that mean "this value does not fit here" (not a key problem).
_VALUE_KINDS = frozenset({"type", "enum", "minimum", "other"})
#: Readings whose engine value is of another type than YAML 1.2's.
_TYPE_READINGS = frozenset({Reading.TRUTHY, Reading.DATE, Reading.FLOAT_12, Reading.OCTAL_12})


def _notes(ctx: LintContext) -> Iterator[tuple[str, ScalarNote]]:
    for file_name, source in ctx.yaml_files():
        for note in source.notes:
            yield file_name, note


def _rejected_paths(ctx: LintContext) -> set[tuple[str, tuple[object, ...]]]:
    return {(error.file_name, tuple(error.path)) for error in ctx.schema.errors if error.kind in _VALUE_KINDS}


def _changes_type(note: ScalarNote, file_name: str, rejected: set[tuple[str, tuple[object, ...]]]) -> bool:
    """True when the engine's reading is not what the matter needs at this place."""
    if note.is_key:  # every key of a matter file is text; a boolean or date key never matches an id
        return note.reading in (Reading.TRUTHY, Reading.DATE)
    return (file_name, tuple(note.path)) in rejected


def _engine_reading(note: ScalarNote) -> str:
    if note.reading is Reading.TRUTHY:
        return f"the boolean {'true' if note.text.lower() in ('yes', 'on') else 'false'}"
    if note.reading is Reading.DATE:
        return "a date"
    return f"the text {note.text!r}"


def _other_reading(note: ScalarNote) -> str:
    if note.reading in (Reading.FLOAT_12, Reading.OCTAL_12):
        return "a number"
    return f"the text {note.text!r}"


def _hint(note: ScalarNote) -> str:
    if note.reading is Reading.TRUTHY:
        return f'quote it ("{note.text}") for text, or write true / false for a boolean'
    if note.reading is Reading.FLOAT_12:
        return "write the number with a dot and a signed exponent (1.0e+2) or in full (100), or quote it for text"
    if note.reading is Reading.OCTAL_12:
        return "write the number in decimal, or quote it for text"
    return f'quote it ("{note.text}")'


@rule("Y001", "yaml11-type-change", Severity.ERROR)
def yaml11_type_change(ctx: LintContext) -> Iterator[Finding]:
    """A plain scalar that the engine's YAML 1.1 loader reads as another type than the one needed.

    What it catches: `no`, `yes`, `on`, `off` where text is expected (a concept, an
    id, a gate pattern) — YAML 1.1 reads them as booleans; `2024-01-01` as an id — a
    date; `1e2` or `0o17` where a number is expected — text in YAML 1.1; and a
    boolean or date written as a mapping key (keys are ids, always text).

    Why it matters: the engine reads `pattern: on` as `True` and refuses the gate,
    reads `concepts: [no]` as the concept "false", and `maximum_steps: 1e2` as a
    string it cannot count with — while editors and schema tools, which read YAML
    1.2, show the author exactly what they meant. An author almost never means `no`
    to be false.

    Bad:

    ```yaml
    questions:
      - id: q_deadline
        concepts: [no, deadline]
    ```

    Good:

    ```yaml
    questions:
      - id: q_deadline
        concepts: ["no", deadline]
    ```
    """
    rejected = _rejected_paths(ctx)
    for file_name, note in _notes(ctx):
        if note.reading in _TYPE_READINGS and _changes_type(note, file_name, rejected):
            where = "key" if note.is_key else "value"
            yield Finding(
                f"the engine (YAML 1.1) reads the {where} `{note.text}` as {_engine_reading(note)}, "
                f"not as {_other_reading(note)} as YAML 1.2 tools show it",
                ctx.file_path(file_name),
                note.span,
                _hint(note),
            )


@rule("Y002", "yaml11-octal", Severity.ERROR)
def yaml11_octal(ctx: LintContext) -> Iterator[Finding]:
    """A number with a leading zero, which the engine reads as octal.

    What it catches: plain integers such as `010` or `0755`: YAML 1.1 reads them in
    base 8 (`010` is 8), YAML 1.2 in base 10.

    Why it matters: `maximum_steps: 010` gives the agent 8 steps, not 10, and no
    editor shows the difference. The author almost certainly meant the decimal
    number.

    Bad:

    ```yaml
    constraints:
      maximum_steps: 010
    ```

    Good:

    ```yaml
    constraints:
      maximum_steps: 10
    ```
    """
    for file_name, note in _notes(ctx):
        if note.reading is Reading.OCTAL:
            digits = note.text.replace("_", "").lstrip("+-")
            value = int(digits, 8) * (-1 if note.text.startswith("-") else 1)
            yield Finding(
                f"the engine (YAML 1.1) reads `{note.text}` as the octal number {value}, YAML 1.2 tools as "
                f"{int(digits, 10) * (-1 if note.text.startswith('-') else 1)}",
                ctx.file_path(file_name),
                note.span,
                f"drop the leading zero ({note.text.lstrip('+-0_') or '0'}), or quote it for text",
            )


@rule("Y003", "yaml11-sexagesimal", Severity.ERROR)
def yaml11_sexagesimal(ctx: LintContext) -> Iterator[Finding]:
    """A plain scalar like `1:30`, which the engine reads as a base-60 number.

    What it catches: plain scalars of digits separated by colons (`1:30`,
    `2:15:00`): YAML 1.1 reads them as sexagesimal numbers (`1:30` is 90), YAML 1.2
    as text.

    Why it matters: a concept `1:30` (a time, a ratio) becomes the concept "90" to
    the engine and never matches what an agent writes.

    Bad:

    ```yaml
    required_concepts: [1:30, deadline]
    ```

    Good:

    ```yaml
    required_concepts: ["1:30", deadline]
    ```
    """
    for file_name, note in _notes(ctx):
        if note.reading is Reading.SEXAGESIMAL:
            yield Finding(
                f"the engine (YAML 1.1) reads `{note.text}` as a base-60 number, YAML 1.2 tools as text",
                ctx.file_path(file_name),
                note.span,
                f'quote it ("{note.text}")',
            )


@rule("Y004", "yaml11-ambiguous-scalar", Severity.WARNING)
def yaml11_ambiguous_scalar(ctx: LintContext) -> Iterator[Finding]:
    """A plain scalar the engine reads as intended, but YAML 1.2 tools read differently.

    What it catches: `yes`/`no`/`on`/`off` where a boolean is expected (the engine
    reads a boolean; editors and validators the text "yes"); `1e3` or `0o17` where
    text is expected (text to the engine, a number to YAML 1.2); a date-like value
    in free-form facts.

    Why it matters: the matter works, but every other tool shows and validates it
    differently, and the next edit made with one of them may change its meaning.
    Writing `true`/`false` and quoting text makes both readings agree.

    Bad:

    ```yaml
    escalations:
      - id: esc_exclusivity
        concepts: [exclusivity]
        required: yes
    ```

    Good:

    ```yaml
    escalations:
      - id: esc_exclusivity
        concepts: [exclusivity]
        required: true
    ```
    """
    rejected = _rejected_paths(ctx)
    for file_name, note in _notes(ctx):
        if note.reading in _TYPE_READINGS and not _changes_type(note, file_name, rejected):
            hint = (
                "write true or false"
                if note.reading is Reading.TRUTHY
                else f'quote it ("{note.text}") so that every tool reads the same text'
            )
            yield Finding(
                f"the engine (YAML 1.1) reads `{note.text}` as {_engine_reading(note)}, "
                f"YAML 1.2 tools as {_other_reading(note)}",
                ctx.file_path(file_name),
                note.span,
                hint,
            )


@rule(YAML_UNCONSTRUCTIBLE)
def yaml_unconstructible(ctx: LintContext) -> Iterator[Finding]:
    """A YAML value the engine's loader (PyYAML `safe_load`) refuses, so the matter cannot load.

    What it catches: custom tags (`!custom`, `!!python/object`), a value its tag
    cannot hold (`!!int June 1`, an invalid `!!timestamp`), the YAML 1.1 value key
    `=`, a merge key `<<` whose value is not a mapping, a list or mapping used as a
    key. The finding points at the value.

    Why it matters: `safe_load` raises on the whole file, so the reference engine
    cannot load the matter at all. The toolkit keeps the written text so the other
    rules still run.

    Bad:

    ```yaml
    client_answers:
      q_deadline: !!int June 1
    ```

    Good:

    ```yaml
    client_answers:
      q_deadline: June 1
    ```
    """
    yield from ctx.loader_findings(YAML_UNCONSTRUCTIBLE)


@rule("Y006", "yaml-merge-key", Severity.WARNING)
def yaml_merge_key(ctx: LintContext) -> Iterator[Finding]:
    """A merge key `<<`, which only YAML 1.1 loaders understand.

    What it catches: `<<: *anchor` in a mapping. The engine (YAML 1.1) copies the
    anchored mapping's keys in; YAML 1.2 has no merge keys, so schema validators and
    many editors see a key named `<<` instead.

    Why it matters: the matter scores as intended, but the values it gets through
    the merge are invisible to tools that read YAML 1.2, and a reviewer reading the
    issue does not see its real `base_points`.

    Bad:

    ```yaml
    defaults: &defaults {base_points: 2.0}
    issues:
      - <<: *defaults
        id: cap
    ```

    Good:

    ```yaml
    issues:
      - id: cap
        base_points: 2.0
    ```
    """
    for file_name, note in _notes(ctx):
        if note.reading is Reading.MERGE:
            yield Finding(
                "the engine (YAML 1.1) merges the keys of this mapping in; YAML 1.2 tools see a key named '<<'",
                ctx.file_path(file_name),
                note.span,
                "write the keys out in the mapping",
            )
