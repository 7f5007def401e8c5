"""`rubric lint`, `rubric explain` and `rubric rules` through the real command line."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from rubric_tools.cli import app, main
from rubric_tools.diagnostics import Severity
from rubric_tools.lint.context import Finding, LintContext
from rubric_tools.lint.registry import RULES, all_rules, rule
from tests.lint_support import SEVERITY_COLUMN, SEVERITY_LINE, make_matter, make_project, seeded_rules


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """The seeded project as the working directory, with the Z9 test rules registered."""
    with seeded_rules():
        root = make_project(tmp_path)
        monkeypatch.chdir(root)
        monkeypatch.delenv("NO_COLOR", raising=False)
        yield root


def rubric(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, list(args))
    assert not isinstance(result.exception, Exception) or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.stdout, result.stderr


# --------------------------------------------------------------------------- exit codes
def test_exit_codes_through_main(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["lint", "matters/clean", "--select", "Z9"]) == 0
    assert main(["lint", "matters", "--select", "Z9"]) == 1
    assert main(["lint", "matters", "--select", "Z902"]) == 0  # a warning, below the fail level
    assert main(["lint", "matters", "--select", "Z902", "--fail-level", "warning"]) == 1
    assert main(["lint", "matters", "--select", "Z903", "--fail-level", "info"]) == 1
    assert main(["lint", "matters", "--select", "Z999"]) == 2
    assert main(["lint", "matters", "--output-format", "xml"]) == 2
    assert main(["lint", "matters", "--fail-level", "fatal"]) == 2
    captured = capsys.readouterr()
    assert "unknown rule code, prefix or name 'Z999' in '--select'" in captured.err


def test_a_missing_path_exits_2_but_the_others_are_still_linted(project: Path) -> None:
    code, out, err = rubric("lint", "matters/acme", "matters/nowhere", "--select", "Z9", "--output-format", "concise")
    assert code == 2
    assert "error: " in err and "matters/nowhere: no such file or directory" in err
    assert f"matters/acme/rubric.yaml:{SEVERITY_LINE}:{SEVERITY_COLUMN}: Z901 " in out


def test_a_crashing_rule_exits_2_with_a_message_not_a_traceback(project: Path) -> None:
    def explode(ctx: LintContext) -> Iterator[Finding]:
        """Test-only: a rule with a bug."""
        raise RuntimeError("boom")
        yield  # pragma: no cover

    rule("Z990", "test-explodes", Severity.ERROR)(explode)
    try:
        code, out, err = rubric("lint", "matters/clean", "--select", "Z990", "--output-format", "concise")
    finally:
        RULES.pop("Z990")
    assert code == 2 and "Traceback" not in out + err
    assert "I002 rule Z990 (test-explodes) crashed: RuntimeError('boom')" in out


def test_broken_yaml_next_to_a_good_matter_reports_both(project: Path) -> None:
    broken = make_matter(project / "matters", "broken", seeded=False)
    (broken / "rubric.yaml").write_text("questions:\n  - id: q1\n    concepts: [backup\n", encoding="utf-8")
    code, out, _ = rubric("lint", "matters", "--select", "L001,Z9", "--output-format", "json")
    document = json.loads(out)
    assert code == 1
    assert [m["matter_id"] for m in document["matters"]] == ["acme", "broken", "clean"]
    found = {(d["matter"], d["code"]) for d in document["diagnostics"]}
    assert ("broken", "L001") in found and ("acme", "Z901") in found
    syntax = next(d for d in document["diagnostics"] if d["code"] == "L001")
    assert syntax["file"] == "matters/broken/rubric.yaml" and syntax["line"] is not None


# --------------------------------------------------------------------------- options
def test_select_accepts_commas_and_repetition_and_ignore_removes(project: Path) -> None:
    code, out, _ = rubric(
        "lint",
        "--select",
        "Z901,Z902",
        "--select",
        "test-long-alias",
        "--ignore",
        "Z902",
        "--output-format",
        "concise",
        "matters",
    )
    assert code == 1
    assert re.findall(r" (Z90\d) ", out) == ["Z903", "Z901"]


def test_output_file_gets_the_report_and_stdout_stays_empty(project: Path) -> None:
    code, out, _ = rubric("lint", "matters", "--select", "Z9", "--output-format", "sarif", "--output", "lint.sarif")
    assert code == 1 and out == ""
    assert json.loads((project / "lint.sarif").read_text(encoding="utf-8"))["version"] == "2.1.0"


def test_unwritable_output_file_exits_2(project: Path) -> None:
    code, _, err = rubric("lint", "matters", "--select", "Z9", "--output", "no/such/dir/out.json")
    assert code == 2 and "cannot write no/such/dir/out.json" in err


def test_without_paths_lints_the_working_directory(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(project / "matters" / "acme")
    code, out, _ = rubric("lint", "--select", "Z901", "--output-format", "concise")
    assert code == 1 and out.startswith(f"rubric.yaml:{SEVERITY_LINE}:{SEVERITY_COLUMN}: Z901 ")


def test_default_output_is_full_with_summary_and_no_colour_when_piped(project: Path) -> None:
    code, out, _ = rubric("lint", "matters", "--select", "Z9")
    assert code == 1 and "\x1b[" not in out
    assert "[test-issue-severity]" in out and "^^^^^^ Z901" in out
    assert out.rstrip().endswith("Found 1 error, 1 warning, 1 info in 1 of 2 matters.")


def test_configuration_from_pyproject_applies_on_the_command_line(project: Path) -> None:
    (project / "pyproject.toml").write_text(
        '[tool.rubric]\nselect = ["Z9"]\nignore = ["Z901"]\n\n[tool.rubric.attack]\nmax-fraction-of-reference = 0.9\n',
        encoding="utf-8",
    )
    code, out, _ = rubric("lint", "matters", "--output-format", "concise")
    assert code == 0 and "Z901" not in out and "Z902" in out
    # Every section is validated when the file is read, whichever command reads it.
    (project / "pyproject.toml").write_text("[tool.rubric.attack]\nrounds = 5\n", encoding="utf-8")
    code, out, err = rubric("lint", "matters", "--output-format", "concise")
    assert (code, out) == (2, "") and "pyproject.toml:2: unknown setting attack.rounds" in err


def test_configuration_error_on_the_command_line(project: Path) -> None:
    (project / "rubric.toml").write_text('select = ["Z9"]\n[severity]\nZ901 = "loud"\n', encoding="utf-8")
    code, out, err = rubric("lint", "matters")
    assert (code, out) == (2, "")
    assert "rubric.toml:3: 'severity.Z901' must be one of error, warning, info, got 'loud'" in err


# --------------------------------------------------------------------------- explain
def test_explain_by_code_and_by_name(project: Path) -> None:
    for query in ("Z901", "z901", "test-issue-severity"):
        code, out, _ = rubric("explain", query)
        assert code == 0
        lines = [line.strip() for line in out.split("\n")]
        assert lines[0] == "Z901 (test-issue-severity)"
        assert {"Default severity: error", "Family: lint_support", "Fixable: no"} <= set(lines)
        assert "Test-only: an issue severity outside low, medium, high and critical." in lines


def test_explain_unknown_rule_suggests_and_exits_2(project: Path) -> None:
    code, out, err = rubric("explain", "test-isue-severity")
    assert (code, out) == (2, "")
    assert "unknown rule 'test-isue-severity'" in err and "Did you mean Z901 (test-issue-severity)" in err


def test_explain_renders_an_indented_example_as_code(project: Path) -> None:
    def documented(ctx: LintContext) -> Iterator[Finding]:
        """Test-only: documented with an indented example.

        Bad:
            constraints:
              negotiation_rounds: 4
        """
        return iter(())

    rule("Z991", "test-documented", Severity.WARNING)(documented)
    try:
        code, out, _ = rubric("explain", "Z991")
    finally:
        RULES.pop("Z991")
    lines = [line.rstrip() for line in out.split("\n")]
    assert code == 0
    assert "Bad:" in [line.strip() for line in lines]  # not folded into one paragraph with the YAML
    assert any(line.strip() == "negotiation_rounds: 4" and line.startswith("   ") for line in lines)


# --------------------------------------------------------------------------- rules
def test_rules_table_lists_every_rule(project: Path) -> None:
    code, out, _ = rubric("rules")
    assert code == 0
    row = next(line for line in out.split("\n") if " Z902 " in line)
    assert re.findall(r"[\w-]+", row) == ["Z902", "test-document-todo", "lint_support", "warning", "no"]
    for registered in all_rules():
        assert f" {registered.code} " in out


def test_rules_json(project: Path) -> None:
    code, out, _ = rubric("rules", "--output-format", "json")
    records = json.loads(out)
    assert code == 0
    assert [r["code"] for r in records] == sorted(r.code for r in all_rules())
    assert next(r for r in records if r["code"] == "Z903") == {
        "code": "Z903",
        "name": "test-long-alias",
        "family": "lint_support",
        "severity": "info",
        "fixable": False,
        "summary": "Test-only: a question with an alias of three concepts or more.",
    }
