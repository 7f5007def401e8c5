"""`rubric coverage`: items credited from the scorer's events, thresholds, JSON, mutation."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import jsonschema
import pytest

from rubric_tools.checking.expectations import Expectation
from rubric_tools.cli import main
from rubric_tools.config.errors import ConfigError
from rubric_tools.config.project import config_from_mapping
from rubric_tools.coverage.analysis import AnalysisOptions, analyze_matter, analyze_matters
from rubric_tools.coverage.exercise import exercise_suite
from rubric_tools.coverage.items import scorable_items
from rubric_tools.coverage.mutation import MutationBudget
from rubric_tools.coverage.suite import Suite, SuiteTrajectory
from rubric_tools.lint.vocabulary import CONFIG_VOCABULARY
from rubric_tools.loading.matter import load_matter_source
from rubric_tools.scoring import replay
from tests.conftest import MATTERS_DIR, REPO_ROOT

OURS = ("ai_saas_001", "clean_saas_002")
SCHEMA = json.loads((REPO_ROOT / "schemas" / "coverage-output.schema.json").read_text(encoding="utf-8"))
NEW_GATE = "      - '\\bnothing in this agreement matters\\b'\n"


def copy_matter(tmp_path: Path, name: str = "ai_saas_001") -> Path:
    root = tmp_path / "matters" / name
    shutil.copytree(MATTERS_DIR / name, root)
    return root


def write_config(folder: Path, body: str) -> Path:
    config = folder / "rubric.toml"
    config.write_text(body, encoding="utf-8")
    return config


@pytest.mark.parametrize("name", OURS)
def test_our_matters_are_fully_covered_and_kill_every_mutant(name: str) -> None:
    coverage = analyze_matter(MATTERS_DIR / name, AnalysisOptions(mutation=True))
    assert coverage.items and coverage.percent == 100.0, [i.id for i in coverage.missing]
    assert coverage.mutation is not None and coverage.mutation.mutants
    assert coverage.mutation.survivors == [], [m.id for m in coverage.mutation.survivors]
    assert coverage.mutation.baseline_failures == []


def test_every_operator_and_item_kind_is_exercised_by_our_negotiated_matter() -> None:
    from rubric_tools.coverage.operators import OPERATORS

    coverage = analyze_matter(MATTERS_DIR / "ai_saas_001", AnalysisOptions(mutation=True))
    assert coverage.mutation is not None
    assert {m.operator for m in coverage.mutation.mutants} == set(OPERATORS)
    item_schema = SCHEMA["properties"]["matters"]["items"]["properties"]["detail"]["items"]
    assert {item.kind for item in coverage.items} == set(item_schema["properties"]["kind"]["enum"])
    mutant_schema = SCHEMA["properties"]["matters"]["items"]["properties"]["mutation"]["properties"]["results"]
    assert set(mutant_schema["items"]["properties"]["operator"]["enum"]) == set(OPERATORS)


def test_removing_a_trajectory_lowers_coverage(tmp_path: Path) -> None:
    root = copy_matter(tmp_path)
    before = analyze_matter(root, AnalysisOptions())
    (root / "trajectories" / "incident_counters_exhausted.jsonl").unlink()
    after = analyze_matter(root, AnalysisOptions())
    assert after.percent < before.percent == 100.0
    missing = {item.id for item in after.missing}
    assert "positions.incident_notice.rejected" in missing
    # The trap counter is still served to bad_accepts_trap, so its path stays covered.
    assert "positions.incident_notice.counters[1].countered" not in missing


def test_an_untested_gate_is_reported_at_its_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = copy_matter(tmp_path)
    rubric = root / "rubric.yaml"
    lines = rubric.read_text(encoding="utf-8").splitlines(keepends=True)
    # Append a gate to the first issue's critical_failure_patterns, after its last entry.
    start = next(i for i, line in enumerate(lines) if line.strip() == "critical_failure_patterns:")
    end = next(i for i in range(start + 1, len(lines)) if lines[i].strip().startswith("redline_critical"))
    lines.insert(end, NEW_GATE)
    rubric.write_text("".join(lines), encoding="utf-8")
    code = main(["coverage", str(root), "--no-color", "--config", str(write_config(tmp_path, ""))])
    out = capsys.readouterr().out
    assert code == 0  # no threshold configured
    expected = f"rubric.yaml:{end + 1}  missing   issues.data_training.critical_failure_patterns[2].fires"
    assert expected in out
    # Its silent side is covered: a plain gate stays silent on every must-not-fire text of its surface.
    assert "critical_failure_patterns[2].silent" not in out


def test_a_mention_is_not_coverage() -> None:
    """Searching for a question's words, or saying them in a summary, earns nothing."""
    source = load_matter_source(MATTERS_DIR / "clean_saas_002")
    table = scorable_items(source)
    actions = [
        {"type": "search_matter", "query": "deadline what data go-live loyalty"},
        {"type": "submit_final", "summary": "deadline, what data, loyalty, go-live"},
    ]
    suite = Suite([SuiteTrajectory("mentions.jsonl", tuple(actions), Expectation("mentions"))])
    exercise_suite(table, source.matter, suite)
    assert not any(item.covered for item in table.items.values() if item.kind == "question-variant")


def test_the_observer_never_changes_a_result() -> None:
    source = load_matter_source(MATTERS_DIR / "ai_saas_001")
    for path in sorted((MATTERS_DIR / "ai_saas_001" / "trajectories").glob("*.jsonl")):
        actions = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
        seen: list[object] = []
        assert replay(source.matter, actions, observer=seen.append).result == replay(source.matter, actions).result


def test_json_output_matches_its_schema(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["coverage", str(MATTERS_DIR), "--mutation", "--format", "json"])
    data = json.loads(capsys.readouterr().out)
    jsonschema.validate(data, SCHEMA)
    assert code == 0 and data["passed"]
    assert [m["matter_id"] for m in data["matters"]] == list(OURS)
    gate = next(i for i in data["matters"][0]["detail"] if i["kind"] == "gate-fires")
    assert gate["covered"] and gate["line"] > 1 and gate["file"].endswith("rubric.yaml")


def test_fail_under_fails_the_run_and_the_check(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = copy_matter(tmp_path, "clean_saas_002")
    (root / "trajectories" / "questions_alias_2.jsonl").unlink()
    config = write_config(tmp_path, "[coverage]\nfail-under = 50\nfail-under-matter = 99\n")
    assert main(["coverage", str(root), "--config", str(config), "--no-color"]) == 1
    out = capsys.readouterr().out
    assert "C001" in out and "fail-under-matter 99%" in out
    assert "fail-under 50%" not in out  # the overall figure is above 50
    assert main(["check", str(root), "--coverage", "--config", str(config), "--output-format", "json"]) == 1
    rows = [r for m in json.loads(capsys.readouterr().out)["matters"] for r in m["checks"] if r["kind"] == "coverage"]
    assert [r["passed"] for r in rows] == [False, True]


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ("[coverage]\nfail-undr = 90\n", "did you mean 'fail-under'"),
        ("[coverage]\nfail-under = 120\n", "must be a percentage"),
        ("[coverage]\nmax-mutants = 0\n", "positive integer"),
        ("coverage = 3\n", "'coverage' must be a table"),
    ],
)
def test_bad_settings_are_usage_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], body: str, message: str
) -> None:
    config = write_config(tmp_path, body)
    assert main(["coverage", str(MATTERS_DIR / "clean_saas_002"), "--config", str(config)]) == 2
    assert message in capsys.readouterr().err


def test_settings_reject_non_finite_numbers() -> None:
    with pytest.raises(ConfigError, match="coverage.fail-under must be a finite number"):
        config_from_mapping({"coverage": {"fail-under": float("nan")}}, CONFIG_VOCABULARY)


def test_a_matter_that_does_not_load_is_reported_not_raised(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = copy_matter(tmp_path, "clean_saas_002")
    (root / "rubric.yaml").write_text("issues: [\n", encoding="utf-8")
    assert main(["coverage", str(root), "--config", str(write_config(tmp_path, ""))]) == 1
    assert "C003" in capsys.readouterr().out


def test_an_unprobed_gate_survives_deletion(tmp_path: Path) -> None:
    root = copy_matter(tmp_path)
    (root / "probes.yaml").unlink()
    mutation = analyze_matter(root, AnalysisOptions(mutation=True)).mutation
    assert mutation is not None
    survivors = {m.id: m for m in mutation.survivors}
    # The plain 4.2 gate is fired only by a probe; the redline gate by bad_reversed_redline too.
    assert "issues.data_training.critical_failure_patterns[0]:delete-gate" in survivors
    assert "issues.incident_notice.redline_critical_failure_patterns[0]:delete-gate" not in survivors
    assert survivors["issues.data_training.critical_failure_patterns[0]:delete-gate"].line > 1


def test_mutation_work_is_bounded() -> None:
    options = AnalysisOptions(mutation=True, budget=MutationBudget(max_mutants=3))
    mutation = analyze_matter(MATTERS_DIR / "ai_saas_001", options).mutation
    assert mutation is not None and len(mutation.mutants) == 3 and mutation.not_run > 0


def test_matters_run_in_parallel_with_the_same_results() -> None:
    roots = [MATTERS_DIR / name for name in OURS]
    serial = analyze_matters(roots, AnalysisOptions(mutation=True), jobs=1)
    parallel = analyze_matters(roots, AnalysisOptions(mutation=True), jobs=2)
    assert [(m.matter_id, m.covered, m.mutation.killed if m.mutation else None) for m in serial] == [
        (m.matter_id, m.covered, m.mutation.killed if m.mutation else None) for m in parallel
    ]


def test_broken_trajectories_and_probes_are_reported_and_the_rest_still_counts(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = copy_matter(tmp_path)
    (root / "trajectories" / "broken.jsonl").write_text('{"type": "read_document"}\n{not json\n', encoding="utf-8")
    probes = root / "probes.yaml"
    probes.write_text(
        probes.read_text(encoding="utf-8") + "  - just a string\n  - {surface: nowhere}\n", encoding="utf-8"
    )
    coverage = analyze_matter(root, AnalysisOptions(mutation=True))
    broken = next(view for view in coverage.trajectories if view.name == "broken.jsonl")
    assert broken.problem is not None and "line 2" in broken.problem
    assert coverage.percent == 100.0
    assert coverage.mutation is not None and coverage.mutation.survivors == []
    assert main(["coverage", str(root), "--format", "json", "--config", str(write_config(tmp_path, ""))]) == 0
    jsonschema.validate(json.loads(capsys.readouterr().out), SCHEMA)


def test_a_path_that_holds_no_matter_is_a_usage_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["coverage", str(tmp_path), "--config", str(write_config(tmp_path, ""))]) == 2
    assert "no matter" in capsys.readouterr().err


def test_lone_surrogates_from_json_reach_every_output(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = copy_matter(tmp_path, "clean_saas_002")
    rubric = root / "rubric.yaml"
    rubric.write_text(
        rubric.read_text(encoding="utf-8").replace('["loyalty"]', '["loyalty", "\\ud800"]'), encoding="utf-8"
    )
    (root / "trajectories" / "surrogate.jsonl").write_text(
        '{"type": "ask_client", "question": "What data \\ud800 will you load?"}\n', encoding="utf-8"
    )
    config = str(write_config(tmp_path, ""))
    assert (
        main(["coverage", str(root), "--mutation", "--no-color", "--config", config, "--html", str(tmp_path / "html")])
        == 0
    )
    out = capsys.readouterr().out
    assert "variants[2]" in out  # the alias list with the surrogate is no longer matched by anyone
    pages = [page.read_text(encoding="utf-8") for page in (tmp_path / "html").glob("*.html")]
    assert any("\ufffd will you load?" in page for page in pages)


def test_gate_verdicts_come_from_the_scorer_unless_a_pattern_is_ambiguous() -> None:
    from rubric_tools.coverage.exercise import known_verdicts
    from rubric_tools.scoring.gates import Gate
    from rubric_tools.scoring.state import Observation

    gates = (Gate("a"), Gate("b", negation_guard=True), Gate("b"), Gate("slow"))
    seen = Observation("gates:issue", "x", "text", fired=("a",), timed_out=("slow",))
    # "b" is listed twice with different guards: its verdicts are recomputed, not guessed.
    assert known_verdicts(gates, seen) == {0: True, 3: None}
    assert known_verdicts(gates, None) == {}


def test_items_span_exactly_their_yaml_nodes() -> None:
    table = scorable_items(load_matter_source(MATTERS_DIR / "ai_saas_001"))
    lines = (MATTERS_DIR / "ai_saas_001" / "rubric.yaml").read_text(encoding="utf-8").splitlines()

    def indent(text: str) -> int:
        return len(text) - len(text.lstrip())

    gates = [item for item in table.items.values() if item.kind == "gate-fires"]
    assert len(gates) > 10
    for item in gates:
        first, last = lines[item.line - 1], lines[item.end_line - 1]
        assert first.lstrip().startswith("- "), item.id
        # The entry ends at its own last line: not at a trailing comment, and what follows
        # is a sibling entry, a comment between entries or the next key, never its own text.
        assert last.strip() and not last.lstrip().startswith("#"), item.id
        following = lines[item.end_line] if item.end_line < len(lines) else ""
        assert not following.strip() or indent(following) <= indent(first), item.id
    # An absent key (quote_points takes its default) points at the first line only.
    quotes = table.items["issues.data_training.quotes"]
    assert quotes.line == quotes.end_line and lines[quotes.line - 1].strip() == "- id: data_training"


@pytest.mark.parametrize(
    "option", [["-o", "missing/report.txt"], ["--format", "json", "-o", "missing/report.json"], ["--html", "a-file"]]
)
def test_an_unwritable_report_is_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], option: list[str]
) -> None:
    (tmp_path / "a-file").write_text("", encoding="utf-8")
    arguments = [str(tmp_path / value) if "/" in value or value == "a-file" else value for value in option]
    assert main(["coverage", str(MATTERS_DIR / "clean_saas_002"), *arguments]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error:") and "Traceback" not in err


def test_check_reports_surviving_mutants_at_their_lines(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = copy_matter(tmp_path)
    (root / "probes.yaml").unlink()
    config = write_config(tmp_path, "[coverage]\nmutation-fail-under = 100\n")
    assert main(["check", str(root), "--mutation", "--config", str(config), "--output-format", "json"]) == 1
    rows = {r["kind"]: r for m in json.loads(capsys.readouterr().out)["matters"] for r in m["checks"]}
    mutation = rows["mutation"]
    assert not mutation["passed"] and "C002" in mutation["detail"]
    assert "rubric.yaml:" in mutation["detail"] and "survived delete-gate" in mutation["detail"]
