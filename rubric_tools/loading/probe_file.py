"""A probe file's entries, read one way for every reader: `rubric check` runs them, the
audit and coverage take their verdicts as known, and the language server counts them.

A probe file is a list of probes, or a mapping whose `probes:` is that list. A well-formed
probe is a mapping with a gate surface, a text and a boolean `expect_fire`; the others are
the schema check's to report (`rubric check` explains each), and the readers skip them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rubric_tools.loading.yaml_source import YamlSource
from rubric_tools.scoring.model import GATE_SURFACES


@dataclass(frozen=True)
class Probe:
    """A well-formed probe and the line it starts on."""

    line: int
    surface: str
    criterion: str  # the issue id as written ("None" when the probe names none)
    text: str
    expect_fire: bool


def probe_entries(source: YamlSource) -> list[tuple[int, Any]] | None:
    """Every entry of the file's probe list with its line (1 where the file gives none), as
    written; None when the file holds no list of probes."""
    data = source.data
    nested = isinstance(data, Mapping)
    entries = data.get("probes") if nested else data
    if not isinstance(entries, list):
        return None
    prefix: tuple[str, ...] = ("probes",) if nested else ()
    found = []
    for index, entry in enumerate(entries):
        span = source.span((*prefix, index))
        found.append((span.line if span else 1, entry))
    return found


def well_formed(line: int, entry: Any) -> Probe | None:
    """The probe `entry` states, or None when it is not a well-formed probe."""
    if not isinstance(entry, Mapping):
        return None
    surface, text, expect = entry.get("surface"), entry.get("text"), entry.get("expect_fire")
    if not (isinstance(surface, str) and surface in GATE_SURFACES and isinstance(text, str)):
        return None
    if not isinstance(expect, bool):
        return None
    return Probe(line, surface, str(entry.get("criterion")), text, expect)


def well_formed_probes(source: YamlSource) -> list[Probe]:
    """The file's well-formed probes, in order."""
    probes = (well_formed(line, entry) for line, entry in probe_entries(source) or [])
    return [probe for probe in probes if probe is not None]
