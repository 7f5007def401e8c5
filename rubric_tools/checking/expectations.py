"""What each trajectory of a matter is expected to score.

From `expectations.yaml` in the matter folder when present; otherwise the convention
of existing rubric repos: `good`/`reference` scores ≥ 0.7 with no critical failure,
every `bad_*` scores below it, and `bad_critical_*` or names containing `fabricated`
fail critically, and `fuzz_*` are deliberately malformed (schema findings expected;
they must still replay without input errors). A stem that expectations.yaml does not
name falls back to the convention; one that neither covers is reported as unchecked.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rubric_tools.codes import INVALID_EXPECTATIONS
from rubric_tools.diagnostics import Diagnostic, Span, number_text, too_large_for_a_float
from rubric_tools.loading.files import Overlay
from rubric_tools.loading.layout import expectations_path
from rubric_tools.loading.yaml_source import YamlSource, load_yaml

REFERENCE_STEMS = ("reference", "good")
CONVENTION_MIN_REFERENCE = 0.7
FUZZ_PREFIX = "fuzz_"
BOUND_KEYS = ("min_normalized", "max_normalized", "min_raw", "max_raw")
CAUSE_KINDS = ("gate", "fabricated_quote", "missed_critical_escalation", "non_negotiable")


@dataclass(frozen=True)
class ExpectedCause:
    kind: str
    pattern: str | None = None
    surface: str | None = None
    criterion: str | None = None


@dataclass(frozen=True)
class Expectation:
    """Bounds for one trajectory (by file stem); every field is optional."""

    stem: str
    description: str | None = None
    min_normalized: float | None = None
    max_normalized: float | None = None
    min_raw: float | None = None
    max_raw: float | None = None
    critical_failure: bool | None = None
    cause: ExpectedCause | None = None
    below: str | None = None
    malformed: bool = False  # schema findings (T101-T104) are deliberate and do not fail
    source: str = "expectations.yaml"  # or "convention"
    span: Span | None = None


@dataclass
class Expectations:
    by_stem: dict[str, Expectation] = field(default_factory=dict)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    file: Path | None = None


def _number(value: Any) -> float | None:
    """A bound as a float (an infinity and a NaN as they are); None when there is none, or
    it has more digits than a float holds (reported in `_parse_entry`)."""
    if too_large_for_a_float(value):
        return None
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None


def _problem(source: YamlSource, path: tuple[str | int, ...], message: str) -> Diagnostic:
    return Diagnostic.of(
        INVALID_EXPECTATIONS,
        message,
        source.path,
        source.span(path) or Span.point(1, 1),
        "see AUTHORING.md, 'Expectations'",
    )


def _parse_entry(source: YamlSource, stem: str, raw: Any, found: Expectations) -> None:
    """Read one entry leniently; the JSON Schema has already reported what is malformed."""
    if not isinstance(raw, Mapping):
        return
    cause_value = raw.get("cause")
    cause = None
    if isinstance(cause_value, Mapping) and cause_value.get("kind") in CAUSE_KINDS:
        cause = ExpectedCause(
            kind=cause_value["kind"],
            pattern=_text(cause_value.get("pattern")),
            surface=_text(cause_value.get("surface")),
            criterion=_text(cause_value.get("criterion")),
        )
    critical = raw.get("critical_failure")
    for key in BOUND_KEYS:
        value = raw.get(key)
        if too_large_for_a_float(value):
            # More digits than a float holds: no score compares with it (the schema's "number" admits it).
            message = f"`{key}` is {number_text(value)}: no score can be compared with it"
            found.diagnostics.append(_problem(source, ("trajectories", stem, key), message))
    found.by_stem[stem] = Expectation(
        stem=stem,
        description=_text(raw.get("description")),
        critical_failure=critical if isinstance(critical, bool) else None,
        cause=cause,
        below=_text(raw.get("below")),
        malformed=raw.get("malformed") is True,
        span=source.span(("trajectories", stem), key=True),
        min_normalized=_number(raw.get("min_normalized")),
        max_normalized=_number(raw.get("max_normalized")),
        min_raw=_number(raw.get("min_raw")),
        max_raw=_number(raw.get("max_raw")),
    )


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def load_expectations(matter_root: Path, overlay: Overlay | None = None) -> Expectations | None:
    """The matter's expectations.yaml, or None when it has none. Its structure is
    checked against schemas/expectations.schema.json, with positions. `overlay`: unsaved
    editor buffers to read instead of the disk."""
    path = expectations_path(matter_root)
    if path is None:
        return None
    source = load_yaml(path, overlay=overlay)
    found = Expectations(diagnostics=list(source.diagnostics), file=path)
    if source.data is None:
        return found
    # Imported here: it imports jsonschema (about 0.1 s), which `rubric audit` needs only for
    # a matter that has expectations (the lint rules import it before `rubric check` forks).
    from rubric_tools.loading.schema_check import validate_yaml

    for error in validate_yaml(source, "expectations"):
        found.diagnostics.append(Diagnostic.of(INVALID_EXPECTATIONS, error.message, path, error.span, error.hint))
    trajectories = source.data.get("trajectories") if isinstance(source.data, Mapping) else None
    for stem, raw in trajectories.items() if isinstance(trajectories, Mapping) else ():
        _parse_entry(source, str(stem), raw, found)
    for expectation in found.by_stem.values():
        if expectation.below is not None and expectation.below not in found.by_stem:
            found.diagnostics.append(
                _problem(
                    source,
                    ("trajectories", expectation.stem, "below"),
                    f"`below: {expectation.below}` names no trajectory in this file",
                )
            )
    return found


def conventional_expectations(stems: list[str]) -> Expectations:
    """The rubric-repo convention, applied to the trajectory stems present."""
    found = Expectations()
    reference = next((s for s in REFERENCE_STEMS if s in stems), None)
    for stem in stems:
        if stem == reference:
            found.by_stem[stem] = Expectation(
                stem,
                "reference trajectory (convention)",
                min_normalized=CONVENTION_MIN_REFERENCE,
                critical_failure=False,
                source="convention",
            )
        elif stem.startswith("bad_"):
            critical = True if stem.startswith("bad_critical_") or "fabricated" in stem else None
            found.by_stem[stem] = Expectation(
                stem,
                "adversarial trajectory (convention)",
                critical_failure=critical,
                below=reference,
                source="convention",
            )
        elif "fabricated" in stem:
            found.by_stem[stem] = Expectation(
                stem, "fabricated quote (convention)", critical_failure=True, source="convention"
            )
        elif stem.startswith(FUZZ_PREFIX):
            found.by_stem[stem] = Expectation(
                stem, "generated fuzz case (convention)", malformed=True, source="convention"
            )
    return found
