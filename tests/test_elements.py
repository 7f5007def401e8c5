"""The located model (`loading.elements`): typed values, file indices, links to the scorer, spans."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from rubric_tools.config.lint import LintSection
from rubric_tools.lint.context import LintContext
from rubric_tools.lint.schema_stage import SchemaReport
from rubric_tools.loading.matter import MatterSource, load_matter_source
from rubric_tools.scoring.model import GATE_SURFACES
from tests.conftest import MATTERS_DIR, require_conformance

RUBRIC = """\
issues:
  - "not an issue"
  - id: cap
    anchor: "msa §1"
    required_citations: ["msa §1", 7]
    required_concepts: ["liability cap", 12]
    critical_failure_patterns:
      - "uncapped"
      - [1, 2]
      - pattern: 'cap is fine'
        negation_guard: "yes"
        negation_scope: sideways
        exclude_context: 5
        negation_gaurd: true
    settlement_critical_failure_patterns:
      - pattern: 'waive'
        negation_guard: true
        negation_scope: before
  - id: second
    anchor:
questions:
  - 3
  - id: q1
    concepts: ["backup region"]
    aliases: [["where backups"], "not a list"]
  - concepts: "oops"
final_submission:
  required_concepts: ["summary"]
"""

MATTER = """\
matter_id: m1
title: A matter
documents:
  - id: msa
    path: msa.md
constraints:
  maximum_steps: 12
"""


def _write_matter(root: Path, counterparty: str | None = None) -> MatterSource:
    root.mkdir(parents=True, exist_ok=True)
    (root / "matter.yaml").write_text(MATTER, encoding="utf-8")
    (root / "rubric.yaml").write_text(RUBRIC, encoding="utf-8")
    (root / "hidden_facts.yaml").write_text("client_answers:\n  q1: eu-west\n", encoding="utf-8")
    (root / "msa.md").write_text("# MSA\n\n## 1. Cap\nLiability is capped.\n", encoding="utf-8")
    if counterparty is not None:
        (root / "counterparty.yaml").write_text(counterparty, encoding="utf-8")
    return load_matter_source(root)


def test_rubric_lists_hold_the_mapping_entries_with_their_file_indices(tmp_path: Path) -> None:
    source = _write_matter(tmp_path / "m1")
    model = source.model
    assert [issue.index for issue in model.issues] == [1, 2]
    assert [issue.id for issue in model.issues] == ["cap", "second"]
    assert [issue.scored for issue in model.issues] == list(source.matter.rubric.issues)
    assert all(e.scored is s for e, s in zip(model.issues, source.matter.rubric.issues, strict=True))
    assert [item.index for item in model.questions] == [1, 2]
    assert model.questions[0].scored is source.matter.rubric.questions[0]
    assert model.questions[0].location.path == ("questions", 1)
    assert model.questions[1].id is None and model.questions[1].malformed and model.questions[1].concepts is None
    assert [v.texts for v in model.questions[0].variants] == [("backup region",), ("where backups",)]


def test_typed_values_are_none_when_the_yaml_value_has_the_wrong_type(tmp_path: Path) -> None:
    model = _write_matter(tmp_path / "m1").model
    cap = model.issues[0]
    assert cap.anchor is not None and cap.anchor.text == "msa §1" and cap.anchor.is_text
    assert model.issues[1].anchor is None and model.issues[1].has("anchor")
    assert cap.required_citations is not None
    assert [(c.text, c.is_text) for c in cap.required_citations] == [("msa §1", True), ("7", False)]
    assert cap.required_concepts is not None and cap.required_concepts.texts == ("liability cap", "12")
    plain, listed, mapping = cap.gate_list("issue")
    assert (plain.form, plain.pattern, plain.kind) == ("string", "uncapped", "a string")
    assert (listed.form, listed.pattern, listed.kind, listed.gate) == ("invalid", None, "a list", None)
    assert mapping.form == "mapping" and mapping.pattern == "cap is fine"
    assert mapping.negation_guard is None and mapping.negation_scope is None and mapping.exclude_context is None
    guard = mapping.field("negation_guard")
    assert guard is not None and guard.value == "yes"
    assert [f.key for f in mapping.fields][-1] == "negation_gaurd"
    (settlement,) = cap.gate_list("settlement")
    assert settlement.negation_guard is True and settlement.negation_scope == "before"
    assert settlement.gate is cap.scored.settlement_critical_failure_patterns[0]
    assert plain.gate is cap.scored.critical_failure_patterns[0]
    assert mapping.gate is cap.scored.critical_failure_patterns[1]
    assert mapping.name() == "critical_failure_patterns[2] of issue 'cap'"


def test_locations_point_at_the_written_nodes(tmp_path: Path) -> None:
    source = _write_matter(tmp_path / "m1")
    model = source.model
    lines = (tmp_path / "m1" / "rubric.yaml").read_text(encoding="utf-8").splitlines()
    mapping = model.issues[0].gate_list("issue")[2]
    span = mapping.at("negation_scope").span
    key_span = mapping.at("negation_scope").key_span
    assert span is not None and key_span is not None
    assert lines[span.line - 1][span.column - 1 : span.end_column - 1] == "sideways"
    assert lines[key_span.line - 1][key_span.column - 1 : key_span.end_column - 1] == "negation_scope"
    assert mapping.pattern_location.span == source.files["rubric.yaml"].span(mapping.location.path + ("pattern",))
    # An absent node falls back to its nearest written ancestor, as findings about missing keys need.
    assert not model.issues[1].at("required_citations").written
    assert model.issues[1].at("required_citations").span == model.issues[1].location.span
    assert model.constraints.scored.maximum_steps == 12 and model.constraints.has("maximum_steps")
    assert [(n.location.file_name, n.location.path, n.value) for n in model.numbers][:2] == [
        ("matter.yaml", ("constraints", "maximum_steps"), 12),
        ("rubric.yaml", ("issues", 1, "required_citations", 1), 7),
    ]
    assert all(not isinstance(n.value, bool) for n in model.numbers)
    assert [(a.id, a.text, a.location.path) for a in model.client_answers] == [
        ("q1", "eu-west", ("client_answers", "q1"))
    ]
    (document,) = model.documents
    assert document.id == "msa" and [s.token for s in document.sections] == ["full", "1"]


def test_positions_and_counters_link_to_the_scorer(tmp_path: Path) -> None:
    counterparty = """\
positions:
  cap:
    resist_rounds: 1
    accept_concepts: [["cap"], "bad"]
    counters:
      - "not a counter"
      - message: "no"
        text: "cap at fees"
        trap: true
"""
    source = _write_matter(tmp_path / "m1", counterparty)
    (position,) = source.model.positions
    assert position.scored is source.matter.positions["cap"] and position.issue_id == "cap"
    assert [v.location.path for v in position.accept_concepts] == [("positions", "cap", "accept_concepts", 0)]
    (counter,) = position.counters
    assert counter.index == 1 and counter.scored.trap and counter.scored is position.scored.counters[0]
    assert source.model.position("cap") is position and source.model.position("other") is None


def test_report_is_the_finding_at_the_element(tmp_path: Path) -> None:
    source = _write_matter(tmp_path / "m1")
    ctx = LintContext(source, LintSection(), SchemaReport())  # the engine's schema stage is not under test here
    gate = ctx.model.issues[0].gate_list("issue")[2]
    path = ("issues", 1, "critical_failure_patterns", 2, "negation_guard")
    assert ctx.report(gate.at("negation_guard"), "m", key=True, hint="h") == ctx.at(
        "rubric.yaml", path, "m", key=True, hint="h"
    )
    assert ctx.report(gate, "m") == ctx.at("rubric.yaml", path[:-1], "m")
    assert ctx.yaml_file("rubric.yaml") is source.files["rubric.yaml"]
    assert ctx.yaml_file("counterparty.yaml") is None


def _raw_gate_count(data: Any) -> int:
    issues = data.get("issues") if isinstance(data, Mapping) else None
    return sum(
        len(issue.get(name)) if isinstance(issue.get(name), list) else 0
        for issue in (issues if isinstance(issues, list) else [])
        if isinstance(issue, Mapping)
        for name in GATE_SURFACES.values()
    )


def _corpus_matters() -> list[Path]:
    found = sorted(p for p in MATTERS_DIR.iterdir() if (p / "matter.yaml").is_file())
    return found


@pytest.mark.parametrize("use_conformance", [False, True])
def test_the_model_of_every_real_matter_agrees_with_the_scorer(use_conformance: bool) -> None:
    roots = _corpus_matters()
    if use_conformance:
        roots = sorted(p for p in (require_conformance() / "matters").iterdir() if (p / "matter.yaml").is_file())
    assert roots
    for root in roots:
        source = load_matter_source(root)
        model = source.model
        assert model.matter_id == source.matter.matter_id
        assert tuple(issue.scored for issue in model.issues) == source.matter.rubric.issues
        assert len(list(model.gates())) == _raw_gate_count(source.data("rubric.yaml"))
        for issue in model.issues:
            for surface in GATE_SURFACES:
                linked = tuple(g.gate for g in issue.gate_list(surface) if g.gate is not None)
                assert linked == issue.scored.gates(surface)
        assert {p.issue_id for p in model.positions} == set(source.matter.positions)
        for gate in model.gates():
            assert gate.location.written and gate.location.span is not None


@pytest.mark.parametrize("use_conformance", [False, True])
def test_gate_lists_hold_the_scored_runnable_gates_at_their_entries(use_conformance: bool) -> None:
    from rubric_tools.gate_analysis.gate_firing import gate_lists, runnable

    roots = _corpus_matters()
    if use_conformance:
        roots = sorted(p for p in (require_conformance() / "matters").iterdir() if (p / "matter.yaml").is_file())
    checked = 0
    for root in roots:
        source = load_matter_source(root)
        lists = {(g.issue_index, g.surface): g for g in gate_lists(source.model)}
        for issue in source.model.issues:
            for surface in GATE_SURFACES:
                listed = lists.get((issue.index, surface))
                expected = tuple(gate for gate in issue.scored.gates(surface) if runnable(gate))
                assert (listed.gates if listed is not None else ()) == expected
        entries = [entry for g in lists.values() for entry in g.entries]
        assert all(e.element.gate is e.gate and e.path == e.element.location.path for e in entries)
        checked += len(entries)
    assert checked
