"""One reader of probe files for `rubric check`, the audit, coverage and the language server."""

from __future__ import annotations

from pathlib import Path

from rubric_tools.loading.probe_file import Probe, probe_entries, well_formed, well_formed_probes
from rubric_tools.loading.yaml_source import YamlSource, parse_yaml_text

NESTED = """\
probes:
  - surface: issue
    criterion: rent_review
    text: The tenant may sublet the premises.
    expect_fire: true
  - surface: sideways
    criterion: rent_review
    text: not a gate surface
    expect_fire: true
  - just a string
  - surface: redline
    text: no verdict given
  - surface: settlement
    text: The landlord pays the repairs.
    expect_fire: false
"""


def _source(text: str) -> YamlSource:
    return parse_yaml_text(Path("probes.yaml"), text)


def test_nested_list_entries_keep_their_lines_and_only_well_formed_probes_are_read() -> None:
    source = _source(NESTED)
    assert [line for line, _ in probe_entries(source) or []] == [2, 6, 10, 11, 13]
    assert well_formed_probes(source) == [
        Probe(2, "issue", "rent_review", "The tenant may sublet the premises.", True),
        Probe(13, "settlement", "None", "The landlord pays the repairs.", False),
    ]


def test_a_bare_list_is_a_probe_list_and_anything_else_is_none() -> None:
    bare = _source("- surface: issue\n  criterion: x\n  text: t\n  expect_fire: false\n")
    assert well_formed_probes(bare) == [Probe(1, "issue", "x", "t", False)]
    assert probe_entries(_source("probes: 3\n")) is None
    assert probe_entries(_source("just text\n")) is None
    assert well_formed_probes(_source("probes: 3\n")) == []


def test_an_unhashable_surface_or_a_non_boolean_verdict_is_not_a_probe() -> None:
    assert well_formed(1, {"surface": ["issue"], "text": "t", "expect_fire": True}) is None
    assert well_formed(1, {"surface": "issue", "text": "t", "expect_fire": "yes"}) is None
    assert well_formed(1, {"surface": "issue", "text": 5, "expect_fire": True}) is None
