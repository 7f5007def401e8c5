"""The model's consumers (rules, audit, coverage, check) read elements, so what they report
sits at the element the scorer used — also when malformed entries shift the scorer's lists
against the file's — and the model tells apart what the typed values cannot (an empty
mapping from a missing one, an empty id from an absent one)."""

from __future__ import annotations

import shutil
from pathlib import Path

from rubric_tools.config.lint import LintSection
from rubric_tools.coverage.items import scorable_items
from rubric_tools.coverage.operators import mutants
from rubric_tools.lint import find_rule, lint_source
from rubric_tools.lint.registry import Rule
from rubric_tools.loading.matter import MatterSource, load_matter_source
from rubric_tools.prove.solver import solve

BASE = Path(__file__).parent / "rule_cases" / "_base"

QUESTIONS = """\
questions:
  - "not a question"
  - id: q_backup_region
    points: 0.5
    concepts: ["backup", "region"]
    aliases:
      - "not a list"
      - ["where", "backups"]
"""

COUNTERPARTY = """\
positions:
  uptime_credit:
    accept_concepts:
      - "not a variant"
      - ["service credit"]
    counters:
      - "not a counter"
      - message: We can offer a smaller credit.
        text: "  "
        trap: true
    reject_message: 7
  unknown_issue:
"""


def _matter(tmp_path: Path, **files: str) -> MatterSource:
    root = tmp_path / "matter"
    shutil.copytree(BASE, root)
    for name, text in files.items():
        (root / name.replace("_yaml", ".yaml")).write_text(text, encoding="utf-8")
    return load_matter_source(root)


def _rubric_with(questions: str) -> str:
    rubric = (BASE / "rubric.yaml").read_text(encoding="utf-8")
    start, end = rubric.index("questions:"), rubric.index("escalations:")
    return rubric[:start] + questions + rubric[end:]


def _rules(*codes: str) -> list[Rule]:
    found = [find_rule(code) for code in codes]
    assert all(rule is not None for rule in found)
    return [rule for rule in found if rule is not None]


def _line(source: MatterSource, file_name: str, text: str) -> int:
    lines = source.files[file_name].lines
    return next(number for number, line in enumerate(lines, start=1) if text in line)


def test_the_model_tells_apart_what_typed_values_cannot(tmp_path: Path) -> None:
    source = _matter(
        tmp_path,
        counterparty_yaml=COUNTERPARTY,
        hidden_facts_yaml="client_answers:\n  q_backup_region:\n  7: 12\n",
        matter_yaml=(BASE / "matter.yaml").read_text(encoding="utf-8").replace("base-fixture-canary", "5"),
    )
    model = source.model
    unknown = model.position("unknown_issue")
    assert model.file("counterparty.yaml").mapping and unknown is not None and not unknown.mapping
    position = model.position("uptime_credit")
    assert position is not None and position.mapping and position.reject_message is None
    (counter,) = position.counters
    assert (counter.index, counter.message, counter.text) == (1, "We can offer a smaller credit.", "  ")
    assert [(a.id, a.text, a.is_text, a.is_null) for a in model.client_answers] == [
        ("q_backup_region", "None", False, True),
        ("7", "12", False, False),
    ]
    assert model.issue_ids() == {"uptime_credit"}
    assert model.provenance.mapping and model.provenance.field("synthetic") is not None
    assert model.final_submission.minimum_characters == 80
    canary = model.file("matter.yaml").field("canary")
    assert canary is not None and canary.value == 5


def test_written_text_is_none_for_an_absent_or_empty_id(tmp_path: Path) -> None:
    rubric = (BASE / "rubric.yaml").read_text(encoding="utf-8").replace("  - id: uptime_credit\n", "  - id:\n")
    rubric = rubric.replace("minimum_characters: 80", "minimum_characters: 0.5")
    model = _matter(tmp_path, rubric_yaml=rubric).model
    (issue,) = model.issues
    assert issue.has("id") and issue.written_text("id") is None and model.issue_ids() == set()
    assert model.questions[0].written_text("id") == "q_backup_region"
    assert model.questions[0].written_text("missing") is None
    assert model.final_submission.minimum_characters == 0.5  # the scorer truncates it to 0


def test_an_absent_file_or_block_is_no_mapping(tmp_path: Path) -> None:
    root = tmp_path / "matter"
    source = _matter(tmp_path, matter_yaml="matter_id: m\nprovenance: yes\n")
    (root / "counterparty.yaml").unlink()
    assert not load_matter_source(root).model.file("counterparty.yaml").mapping
    assert source.model.file("matter.yaml").mapping and not source.model.provenance.mapping
    findings = lint_source(source, LintSection(), _rules("V001")).diagnostics
    assert [(d.code, d.span.line if d.span else None) for d in findings] == [("V001", 2)]


def test_counter_findings_and_items_sit_at_the_file_entry(tmp_path: Path) -> None:
    source = _matter(tmp_path, counterparty_yaml=COUNTERPARTY)
    counter_line = _line(source, "counterparty.yaml", "message: We can offer")
    findings = lint_source(source, LintSection(), _rules("N002", "N003", "N004")).diagnostics
    blank = next(d for d in findings if d.code == "N004")
    assert "counter 2 has a blank text" in blank.message
    assert blank.span is not None and blank.span.line == counter_line + 1
    assert "N002" not in {d.code for d in findings}  # a non-empty list of variants can close it
    assert [d.code for d in findings if d.code == "N003"] == ["N003"]  # 7 is no reject message
    items = scorable_items(source).items
    assert items["positions.uptime_credit.counters[0].countered"].line == counter_line
    specs = {spec.id: spec for spec in mutants(source)}
    assert specs["positions.uptime_credit.accept_concepts[0]:delete-variant"].path[-1] == 1
    assert specs["positions.uptime_credit.counters[0]:soften-counter"].path == (
        "positions",
        "uptime_credit",
        "counters",
        1,
    )


def test_variant_items_and_mutants_sit_at_the_alias_written(tmp_path: Path) -> None:
    source = _matter(tmp_path, rubric_yaml=_rubric_with(QUESTIONS))
    alias_line = _line(source, "rubric.yaml", '["where", "backups"]')
    item = scorable_items(source).items["questions.q_backup_region.variants[1]"]
    assert (item.line, item.end_line) == (alias_line, alias_line)
    spec = next(s for s in mutants(source) if s.id == "questions.q_backup_region.variants[1]:delete-variant")
    assert spec.path == ("questions", 1, "aliases", 1)


def test_hidden_answers_are_keyed_by_text_as_the_engine_reads_them(tmp_path: Path) -> None:
    questions = QUESTIONS.replace("id: q_backup_region", "id: 7")
    source = _matter(
        tmp_path,
        rubric_yaml=_rubric_with(questions),
        hidden_facts_yaml="client_answers:\n  7: Backups stay in the region.\nescalation_answers:\n"
        "  esc_uptime_credit: yes\n",
    )
    assert source.matter.client_answers == {"7": "Backups stay in the region."}
    assert lint_source(source, LintSection(), _rules("Q005", "Q006")).diagnostics == []


def test_the_solver_places_shortfalls_at_the_file_entries(tmp_path: Path) -> None:
    questions = QUESTIONS + '  - id: q_backup_region\n    points: 0.5\n    concepts: ["retention"]\n'
    source = _matter(tmp_path, rubric_yaml=_rubric_with(questions))
    (located,) = [s for s in solve(source.matter, model=source.model).shortfalls if s.path[0] == "questions"]
    assert located.path == ("questions", 2, "id") and "shares its id with questions[1]" in located.message
    # Without the model only the scorer's indices are known: the malformed entry is not counted.
    (unlocated,) = [s for s in solve(source.matter).shortfalls if s.path[0] == "questions"]
    assert unlocated.path == ("questions", 1, "id") and "questions[0]" in unlocated.message
    (finding,) = lint_source(source, LintSection(), _rules("P100")).diagnostics
    assert finding.span is not None and finding.span.line == _line(source, "rubric.yaml", '["retention"]') - 2
    assert finding.message.endswith("see Q004")  # the same node as Q004 finds, so it defers to it
