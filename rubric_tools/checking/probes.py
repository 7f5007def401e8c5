"""Gate probes: sentences each gate list must fire on, or stay silent on."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rubric_tools.loading.files import Overlay
from rubric_tools.loading.probe_file import probe_entries, well_formed
from rubric_tools.loading.yaml_source import load_yaml
from rubric_tools.scoring.gates import run_gates
from rubric_tools.scoring.model import Matter
from rubric_tools.scoring.text import normalize


@dataclass(frozen=True)
class ProbeOutcome:
    line: int
    surface: str
    criterion: str
    text: str
    expect_fire: bool | None
    fired: tuple[str, ...] = ()
    problem: str | None = None  # malformed probe, unknown issue, timeout

    @property
    def passed(self) -> bool:
        return self.problem is None and bool(self.fired) == self.expect_fire


@dataclass(frozen=True)
class ProbeFileResult:
    path: Path
    outcomes: tuple[ProbeOutcome, ...]
    problem: str | None = None  # the file itself could not be read
    schema_errors: tuple[str, ...] = ()  # "line N: message", against probes.schema.json

    @property
    def failures(self) -> list[ProbeOutcome]:
        return [o for o in self.outcomes if not o.passed]

    @property
    def passed(self) -> bool:
        return self.problem is None and not self.schema_errors and not self.failures


def run_probe_file(path: Path, matter: Matter, overlay: Overlay | None = None) -> ProbeFileResult:
    """Run every probe of the file (its unsaved buffer in `overlay`, if any) on the matter's gates."""
    source = load_yaml(path, overlay=overlay)
    if source.diagnostics and source.data is None:
        first = source.diagnostics[0]
        return ProbeFileResult(path, (), f"line {first.line}: {first.message}")
    entries = probe_entries(source)
    if entries is None:
        return ProbeFileResult(path, (), "expected a `probes:` list")
    from rubric_tools.loading.schema_check import validate_yaml  # with jsonschema: see `expectations`

    schema_errors = tuple(f"line {e.span.line}: {e.message}" for e in validate_yaml(source, "probes"))
    outcomes = [_run_probe(line, entry, matter) for line, entry in entries]
    return ProbeFileResult(path, tuple(outcomes), schema_errors=schema_errors)


def _run_probe(line: int, entry: Any, matter: Matter) -> ProbeOutcome:
    probe = well_formed(line, entry)
    if probe is None:
        if not isinstance(entry, Mapping):
            return ProbeOutcome(line, "?", "?", "", None, problem="a probe must be a mapping")
        return ProbeOutcome(
            line,
            str(entry.get("surface")),
            str(entry.get("criterion")),
            str(entry.get("text")),
            None,
            problem="a probe needs surface (issue|redline|settlement), text and expect_fire",
        )
    surface, criterion, text, expect = probe.surface, probe.criterion, probe.text, probe.expect_fire
    issue = matter.rubric.issues_by_id.get(criterion)
    if issue is None:
        return ProbeOutcome(line, surface, criterion, text, expect, problem=f"no issue {criterion!r} in the rubric")
    check = run_gates(issue.gates(surface), normalize(text))
    problem = None
    if check.timed_out:
        problem = f"gate search timed out: {check.timed_out[0]!r}"
    elif check.errors:
        problem = f"invalid gate: {check.errors[0]}"
    return ProbeOutcome(line, surface, criterion, text, expect, check.fired, problem)
