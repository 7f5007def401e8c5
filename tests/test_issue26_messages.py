"""The messages that misled a new user (issue 26), each as the user met it: what the
message said wrongly, and what it says now."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from rubric_tools.cli import main
from tests.conftest import MATTERS_DIR


@pytest.fixture
def matter(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of a bundled matter in a folder of its own (no configuration applies)."""
    root = tmp_path / "matters" / "ai_saas_001"
    shutil.copytree(MATTERS_DIR / "ai_saas_001", root)
    (tmp_path / ".git").mkdir()
    monkeypatch.chdir(tmp_path)
    return root


def _lint_json(capsys: pytest.CaptureFixture[str], *arguments: str) -> list[dict[str, object]]:
    main(["lint", "--output-format", "json", *arguments])
    diagnostics: list[dict[str, object]] = json.loads(capsys.readouterr().out)["diagnostics"]
    return diagnostics


# ------------------------------------------------ a syntax error hides what depends on the file


def _break_rubric_with_a_tab(matter: Path) -> None:
    rubric = matter / "rubric.yaml"
    text = rubric.read_text(encoding="utf-8")
    text = text.replace('    points: 0.5\n    concepts: ["pilot"]', '    points: 0.5\n\tconcepts: ["pilot"]', 1)
    rubric.write_text(text, encoding="utf-8")
    hidden = matter / "hidden_facts.yaml"  # a suppression whose finding the broken rubric hides
    lines = hidden.read_text(encoding="utf-8").splitlines(keepends=True)
    first_answer = next(i for i, line in enumerate(lines) if line.startswith("  q_"))
    lines[first_answer] = lines[first_answer].rstrip("\n") + "  # rubric: ignore[Q001] -- test\n"
    hidden.write_text("".join(lines), encoding="utf-8")


def test_one_syntax_error_is_one_finding(matter: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _break_rubric_with_a_tab(matter)
    codes = [d["code"] for d in _lint_json(capsys, str(matter))]
    assert codes == ["L001"]  # no N001, Q006 in the other files, no X103 "unused suppression"


def test_fix_offers_nothing_on_a_file_that_does_not_parse(matter: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _break_rubric_with_a_tab(matter)
    assert main(["lint", "--fix", str(matter)]) == 1
    captured = capsys.readouterr()
    assert "fixable" not in captured.out and "would not parse" not in captured.err
    assert "L001" in captured.out


def test_the_other_files_are_still_checked_on_their_own(matter: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Rules that read only their own file still report there (here Y002, a YAML 1.1 octal)."""
    _break_rubric_with_a_tab(matter)
    hidden = matter / "hidden_facts.yaml"
    hidden.write_text(hidden.read_text(encoding="utf-8") + "extra_number: 0755\n", encoding="utf-8")
    codes = {d["code"] for d in _lint_json(capsys, str(matter))}
    assert "L001" in codes and codes <= {"L001", "Y002", "S005", "S006"} and codes - {"L001"}


def test_a_refused_fix_is_not_counted_as_fixable() -> None:
    from rubric_tools.commands.lint_fixing import without_refused_fixes
    from rubric_tools.diagnostics import Diagnostic, Fix, Severity

    fix = Fix("remove the unused suppression", ())
    found = Diagnostic(
        code="X103",
        name="unused-suppression",
        severity=Severity.WARNING,
        message="m",
        file=Path("/m/rubric.yaml"),
        fix=fix,
    )
    assert without_refused_fixes([found], {(Path("/m/rubric.yaml"), fix.message)})[0].fix is None
    assert without_refused_fixes([found], {(Path("/m/other.yaml"), fix.message)})[0].fix is fix


# ------------------------------------------------ a typo in a value is a bad value, not an unknown key


def _check_json(capsys: pytest.CaptureFixture[str], *arguments: str) -> dict[tuple[str, str], dict[str, object]]:
    main(["check", "--output-format", "json", *arguments])
    matters = json.loads(capsys.readouterr().out)["matters"]
    return {(row["kind"], row["name"]): row for row in matters[0]["checks"]}


def test_a_misspelt_cause_surface_is_reported_as_a_bad_value(matter: Path, capsys: pytest.CaptureFixture[str]) -> None:
    expectations = matter / "expectations.yaml"
    text = expectations.read_text(encoding="utf-8")
    assert "surface: settlement" in text
    expectations.write_text(text.replace("surface: settlement", "surface: setlement"), encoding="utf-8")
    rows = _check_json(capsys, str(matter))
    detail = str(rows[("trajectory", "expectations.yaml")]["detail"])
    assert "unknown key" not in detail
    assert "'setlement', which is not one of: issue, redline, settlement (did you mean 'settlement'?)" in detail
    trajectory = str(rows[("trajectory", "bad_accepts_trap.jsonl")]["detail"])
    assert "cause is not gate" not in trajectory  # it *was* a gate: the surface did not match
    assert "no recorded cause matches the expected one (kind: gate, surface: setlement" in trajectory


# ------------------------------------------------ audit --diff on a matter that does not load


def test_audit_diff_on_a_matter_that_does_not_load_says_so(matter: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _break_rubric_with_a_tab(matter)
    assert main(["audit", "--diff", str(matter)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "rubric.yaml:16:1: L001 YAML syntax error" in captured.err and "not audited" in captured.err


# ------------------------------------------------ a max_score below the derived one


def test_a_declared_max_score_below_the_derived_one_is_not_negative_points(
    matter: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rubric = matter / "rubric.yaml"
    text = rubric.read_text(encoding="utf-8")
    rubric.write_text(text.replace("critical_failure_score_cap:", "max_score: 12.25\ncritical_failure_score_cap:", 1))
    messages = {d["code"]: d["message"] for d in _lint_json(capsys, str(matter))}
    assert messages["P100"] == "max_score 4.75 points below what the rubric awards (declared-max-mismatch): see P001"
    assert main(["lint", "--fix", "--unsafe-fixes", str(matter)]) == 0  # P001's fix deletes the line
    capsys.readouterr()
    assert rubric.read_text(encoding="utf-8") == text


# ------------------------------------------------ patterns as written; one defect, one finding


def _add_gates(matter: Path, *lines: str) -> None:
    rubric = matter / "rubric.yaml"
    text = rubric.read_text(encoding="utf-8")
    added = "".join(f"      - {line}\n" for line in lines)
    rubric.write_text(text.replace("    critical_failure_patterns:\n", "    critical_failure_patterns:\n" + added, 1))


def test_patterns_are_shown_as_written(matter: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _add_gates(matter, "'\\bincluding source code$'")
    [finding] = [d for d in _lint_json(capsys, str(matter)) if d["code"] == "U001"]
    assert str(finding["message"]).startswith("gate '\\bincluding source code$' on data_training/issue")
    assert "\\\\b" not in str(finding["message"])


def test_a_double_quoted_gate_is_reported_once(matter: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _add_gates(matter, '"\\bincluding source code"')
    found = [d for d in _lint_json(capsys, str(matter)) if d["line"] == 59]
    assert [d["code"] for d in found] == ["X110"]  # not also U001 on the same gate
    assert main(["lint", "--ignore", "X110", "--output-format", "concise", str(matter)]) == 1
    assert "U001" in capsys.readouterr().out  # with X110 off, U001 still reports it


# ------------------------------------------------ rescore tables in a CI log


def test_rescore_tables_are_not_folded_in_a_pipe(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from tests.rescore.support import copy_matters, episodes_lines

    monkeypatch.setenv("COLUMNS", "80")  # what a CI runner reports, or nothing at all
    base = copy_matters(tmp_path / "base")
    current = copy_matters(tmp_path / "current")
    gate = "'\\bwe (?:agree|consent) to (?:the )?training on (?:our|customer) data\\b'"
    rubric = current / "ai_saas_001" / "rubric.yaml"
    text = rubric.read_text(encoding="utf-8")
    rubric.write_text(
        text.replace("    critical_failure_patterns:\n", f"    critical_failure_patterns:\n      - {gate}\n", 1)
    )
    archive = tmp_path / "run.jsonl"
    archive.write_text("\n".join(episodes_lines(base)) + "\n", encoding="utf-8")
    main(["rescore", str(archive), "--matters", str(current), "--base", str(base), "-j", "1"])
    lines = capsys.readouterr().out.splitlines()
    assert any(line.lstrip("│┃ ").startswith("ai_saas_001 ") for line in lines)  # the id on one line
    assert max(map(len, lines)) > 80  # the table is as wide as its content, not folded at 80
    why = [line for line in lines if "fired" in line or "gate" in line]
    assert all(line.count("│") in (0, 7) for line in why)  # each cause line is a whole table row


# ------------------------------------------------ small messages


def test_replay_of_a_loose_trajectory_says_its_matter_was_not_found(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    loose = tmp_path / "loose.jsonl"
    shutil.copyfile(MATTERS_DIR / "ai_saas_001" / "trajectories" / "reference.jsonl", loose)
    monkeypatch.chdir(tmp_path)
    assert main(["replay", "loose.jsonl"]) == 2
    out = capsys.readouterr().out
    assert "matter None" not in out and "matter not found (pass --matter DIR)" in out


def test_check_coverage_names_the_overall_threshold_not_all_matters(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / ".git").mkdir()
    monkeypatch.chdir(tmp_path)
    assert main(["new", "cover_nda_001"]) == 0  # a skeleton: about 70 % of its items covered
    settings = tmp_path / "settings.toml"
    settings.write_text("[coverage]\nfail-under = 90\n", encoding="utf-8")
    capsys.readouterr()
    assert main(["check", "--coverage", "--config", str(settings)]) == 1
    last = capsys.readouterr().out.strip().splitlines()[-1]
    assert last.endswith("in 1 matter; failing: overall coverage"), last


def _schema_target(yaml_file: Path) -> Path:
    first = yaml_file.read_text(encoding="utf-8").splitlines()[0]
    assert first.startswith("# yaml-language-server: $schema="), first
    target = Path(first.split("$schema=", 1)[1])
    return target if target.is_absolute() else yaml_file.parent / target


def test_convert_to_yaml_keeps_a_schema_line_where_no_schemas_folder_is(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    repository = tmp_path / "repository"
    repository.mkdir()
    monkeypatch.chdir(repository)
    assert main(["new", "conv_nda_001"]) == 0
    reference = repository / "matters" / "conv_nda_001" / "trajectories" / "reference.yaml"
    elsewhere = tmp_path / "elsewhere"
    assert main(["convert", str(reference), str(elsewhere / "copy.yaml")]) == 0
    assert _schema_target(elsewhere / "copy.yaml").resolve() == _schema_target(reference).resolve()
    assert main(["convert", str(reference), str(elsewhere / "copy.jsonl")]) == 0
    assert main(["convert", str(elsewhere / "copy.jsonl"), str(elsewhere / "back.yaml")]) == 0
    assert _schema_target(elsewhere / "back.yaml").name == "trajectory.schema.json"
    assert _schema_target(elsewhere / "back.yaml").is_file()


def test_an_unknown_suppression_code_gets_a_did_you_mean(matter: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rubric = matter / "rubric.yaml"
    text = rubric.read_text(encoding="utf-8")
    suppression = "  # rubric: ignore[A099, A06] -- test"
    rubric.write_text(
        text.replace("critical_failure_score_cap: 0.25", "critical_failure_score_cap: 0.25" + suppression)
    )
    [finding] = [d for d in _lint_json(capsys, str(matter)) if d["code"] == "X102"]
    assert finding["message"] == (
        "suppression names unknown code 'A099' (did you mean 'A008'? the A codes run A001–A008), "
        "'A06' (did you mean 'A006'?)"
    )


def test_the_html_report_counts_one_matter_and_labels_its_y_axis(
    matter: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import re

    from rubric_tools.reporting.coverage_html import axis_ticks

    assert main(["coverage", "--html", str(tmp_path / "html"), str(matter)]) == 0
    capsys.readouterr()
    assert "1 matter, overall coverage" in (tmp_path / "html" / "index.html").read_text(encoding="utf-8")
    page = (tmp_path / "html" / "m0-t0.html").read_text(encoding="utf-8")
    labels = re.findall(r'<text class="tick"[^>]*>([^<]*)</text>', page)
    assert len(labels) >= 3 and "0" in labels
    assert axis_ticks(-1.25, 6.25) == [-2.0, 0.0, 2.0, 4.0, 6.0, 8.0]
    assert axis_ticks(0.0, 17.0) == [0.0, 5.0, 10.0, 15.0, 20.0]
