"""Every `rubric lint` output format, on a fixture matter with seeded defects."""

from __future__ import annotations

import io
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from rich.cells import cell_len

from rubric_tools.commands.lint import LintOptions, OutputFormat, run_lint
from rubric_tools.config.lint import LintSection
from rubric_tools.diagnostics import Diagnostic, Severity, Span
from rubric_tools.lint.engine import LintReport, MatterReport, lint_paths
from rubric_tools.lint.registry import find_rule
from rubric_tools.reporting.lint_common import make_snippet
from rubric_tools.reporting.lint_concise import render_concise
from rubric_tools.reporting.lint_full import render_full
from rubric_tools.reporting.lint_github import escape_data, escape_property, github_command, render_github
from rubric_tools.reporting.lint_sarif import sarif_log
from tests.conftest import REPO_ROOT, require_conformance
from tests.lint_support import (
    QUESTION_COLUMN,
    QUESTION_LINE,
    SEVERITY_COLUMN,
    SEVERITY_END_COLUMN,
    SEVERITY_LINE,
    TODO_COLUMN,
    TODO_LINE,
    TODO_TEXT,
    make_project,
    seeded_rules,
)

LINT_SCHEMA = json.loads((REPO_ROOT / "schemas" / "lint-output.schema.json").read_text(encoding="utf-8"))
SARIF_SUBSET = json.loads(
    (Path(__file__).parent / "data" / "sarif-2.1.0-subset.schema.json").read_text(encoding="utf-8")
)
ANSI = re.compile(r"\x1b\[[0-9;]*m")


@pytest.fixture
def project(tmp_path: Path) -> Iterator[Path]:
    with seeded_rules():
        yield make_project(tmp_path)


def lint(project: Path, output_format: OutputFormat, *paths: str) -> tuple[int, str, str]:
    stdout, stderr = io.StringIO(), io.StringIO()
    options = LintOptions(
        paths=[Path(p) for p in paths or ("matters",)], output_format=output_format, select=["Z9"], cwd=project
    )
    code = run_lint(options, stdout, stderr)
    return code, stdout.getvalue(), stderr.getvalue()


def block_of(output: str, header_start: str) -> list[str]:
    """The lines of one diagnostic in `full` output, from its header to the blank line."""
    lines = output.split("\n")
    start = next(i for i, line in enumerate(lines) if line.startswith(header_start))
    end = lines.index("", start)
    return lines[start:end]


def marked_text(block: list[str]) -> tuple[str, str]:
    """(the source text above the carets, what follows the carets) of a `full` block."""
    source_line = next(line for line in block if re.match(r"^\s*\d+ \| ", line))
    caret_line = next(line for line in block if "^" in line)
    first = caret_line.index("^")
    width = len(caret_line[first:]) - len(caret_line[first:].lstrip("^"))
    return source_line[first : first + width], caret_line[first + width :]


# --------------------------------------------------------------------------- full
def test_full_output_points_carets_at_the_exact_span_and_shows_help(project: Path) -> None:
    code, out, err = lint(project, OutputFormat.FULL)
    assert code == 1 and err == ""
    severity = block_of(out, f"matters/acme/rubric.yaml:{SEVERITY_LINE}:{SEVERITY_COLUMN}:")
    assert severity[0] == (
        f"matters/acme/rubric.yaml:{SEVERITY_LINE}:{SEVERITY_COLUMN}: Z901 [test-issue-severity] "
        "severity 'urgent' is not a severity"
    )
    assert f"{SEVERITY_LINE} |     severity: urgent" in severity
    assert marked_text(severity) == ("urgent", " Z901")
    assert SEVERITY_END_COLUMN - SEVERITY_COLUMN == len("urgent")
    assert severity[-1].strip() == "= help: use one of low, medium, high, critical"


def test_full_output_snippet_of_a_markdown_document(project: Path) -> None:
    _, out, _ = lint(project, OutputFormat.FULL)
    todo = block_of(out, f"matters/acme/documents/hosting.md:{TODO_LINE}:{TODO_COLUMN}:")
    assert f"{TODO_LINE} | {TODO_TEXT}" in todo  # brackets in the source are printed as written
    assert marked_text(todo)[0] == "TODO"
    assert not any("help" in line for line in todo)  # no fix hint, no help line


def test_full_output_multi_line_span_marks_the_first_line_to_its_end(project: Path) -> None:
    _, out, _ = lint(project, OutputFormat.FULL)
    question = block_of(out, f"matters/acme/rubric.yaml:{QUESTION_LINE}:{QUESTION_COLUMN}:")
    marked, after = marked_text(question)
    assert marked == "id: q_backup_region" and after == " Z903"


def test_full_output_ends_with_the_summary_and_has_no_colour_off_a_terminal(project: Path) -> None:
    _, out, _ = lint(project, OutputFormat.FULL)
    assert out.rstrip("\n").split("\n")[-1] == "Found 1 error, 1 warning, 1 info in 1 of 2 matters."
    assert not ANSI.search(out)


def test_colour_changes_nothing_but_the_escape_codes(project: Path) -> None:
    report = lint_paths([project / "matters"], LintSection(select=("Z9",)))
    coloured = render_full(report, color=True, cwd=project)
    assert ANSI.search(coloured)
    assert ANSI.sub("", coloured) == render_full(report, color=False, cwd=project)
    source_line = next(line for line in coloured.split("\n") if "severity: urgent" in line)
    # Only the gutter is coloured: the source text comes after the last escape code.
    assert ANSI.split(source_line)[-1] == "    severity: urgent"


def test_clean_run_says_all_checks_passed(project: Path) -> None:
    code, out, _ = lint(project, OutputFormat.FULL, "matters/clean")
    assert code == 0 and out == "All checks passed (1 matter).\n"


def test_findings_below_the_fail_level_are_explained_in_the_summary(tmp_path: Path) -> None:
    with seeded_rules():
        project = make_project(tmp_path)
        stdout = io.StringIO()
        options = LintOptions(paths=[Path("matters")], select=["Z902"], output_format=OutputFormat.CONCISE, cwd=project)
        assert run_lint(options, stdout, io.StringIO()) == 0
    assert stdout.getvalue().endswith(
        "Found 1 warning in 1 of 2 matters. None is at or above the fail level (error).\n"
    )


def test_snippet_of_an_unreadable_or_vanished_file_is_skipped(tmp_path: Path) -> None:
    gone = tmp_path / "gone.yaml"
    diagnostic = Diagnostic("Z901", "test-issue-severity", Severity.ERROR, "m", gone, Span(3, 1, 3, 4), "hint")
    report = LintReport(matters=[MatterReport(tmp_path, "m", [diagnostic])])
    out = render_full(report, cwd=tmp_path)
    assert out.split("\n")[:2] == ["gone.yaml:3:1: Z901 [test-issue-severity] m", "  = help: hint"]


@pytest.mark.parametrize(
    ("line", "span", "expected_marked"),
    [
        ("\tkey: value", Span(1, 7, 1, 12), "value"),  # a tab before the span
        ("名前: 値です", Span(1, 5, 1, 8), "値です"),  # wide characters take two cells each
        ("a\x1b[31mb: c", Span(1, 10, 1, 11), "c"),  # an escape sequence cannot drive the terminal
        ("key: value", Span(1, 11, 1, 11), " "),  # an empty span at the end still gets a caret
        ("key: value", Span(1, 6, 1, 6), "v"),  # an empty span gets one caret
        ("x" * 300 + "NEEDLE" + "y" * 300, Span(1, 301, 1, 307), "NEEDLE"),  # long lines are windowed
    ],
    ids=["tab", "wide-characters", "escape-sequence", "empty-at-end", "empty", "long-line"],
)
def test_snippet_carets_stay_under_the_span(line: str, span: Span, expected_marked: str) -> None:
    snippet = make_snippet([line], span)
    assert snippet is not None and "\x1b" not in snippet.text and "\t" not in snippet.text
    padded = snippet.text + " "
    # Walk the displayed text cell by cell to find what sits above the carets.
    cells, marked = 0, ""
    for char in padded:
        if snippet.caret_start <= cells < snippet.caret_start + snippet.caret_width:
            marked += char
        cells += cell_len(char)
    assert marked == expected_marked


def test_snippet_outside_the_file_is_none() -> None:
    assert make_snippet(["one line"], Span(5, 1, 5, 2)) is None
    assert make_snippet(None, Span(1, 1, 1, 2)) is None
    assert make_snippet(["x"], None) is None


# --------------------------------------------------------------------------- concise
def test_concise_is_one_line_per_diagnostic_then_the_summary(project: Path) -> None:
    code, out, _ = lint(project, OutputFormat.CONCISE)
    assert code == 1
    assert out.split("\n") == [
        f"matters/acme/documents/hosting.md:{TODO_LINE}:{TODO_COLUMN}: Z902 TODO left in the document",
        f"matters/acme/rubric.yaml:{QUESTION_LINE}:{QUESTION_COLUMN}: Z903 question has a long alias",
        f"matters/acme/rubric.yaml:{SEVERITY_LINE}:{SEVERITY_COLUMN}: Z901 severity 'urgent' is not a severity",
        "Found 1 error, 1 warning, 1 info in 1 of 2 matters.",
        "",
    ]


def test_a_message_with_a_newline_stays_on_one_line(tmp_path: Path) -> None:
    diagnostic = Diagnostic("Z901", "n", Severity.ERROR, "two\nlines", tmp_path / "f.yaml", Span(1, 1, 1, 2))
    report = LintReport(matters=[MatterReport(tmp_path, "m", [diagnostic])])
    assert render_concise(report, cwd=tmp_path).split("\n")[0] == "f.yaml:1:1: Z901 two\u240alines"


# --------------------------------------------------------------------------- json
def _validate_lint_json(document: dict[str, Any]) -> None:
    jsonschema.Draft202012Validator.check_schema(LINT_SCHEMA)
    jsonschema.Draft202012Validator(LINT_SCHEMA).validate(document)


def test_json_output_is_one_schema_valid_document(project: Path) -> None:
    code, out, err = lint(project, OutputFormat.JSON)
    document = json.loads(out)  # the whole of stdout is the document: no summary line
    _validate_lint_json(document)
    assert code == 1 and err == ""
    assert document["summary"] == {
        "matters": 2,
        "matters_with_diagnostics": 1,
        "diagnostics": 3,
        "errors": 1,
        "warnings": 1,
        "infos": 1,
        "fail_level": "error",
        "failed": True,
        "exit_code": 1,
        "fixable": 0,
        "unsafe_fixable": 0,
        "fixed": 0,
        "baselined": 0,
    }
    assert [m["matter_id"] for m in document["matters"]] == ["acme", "clean"]
    severity = next(d for d in document["diagnostics"] if d["code"] == "Z901")
    assert severity == {
        "code": "Z901",
        "name": "test-issue-severity",
        "severity": "error",
        "message": "severity 'urgent' is not a severity",
        "fix_hint": "use one of low, medium, high, critical",
        "file": "matters/acme/rubric.yaml",
        "line": SEVERITY_LINE,
        "column": SEVERITY_COLUMN,
        "end_line": SEVERITY_LINE,
        "end_column": SEVERITY_END_COLUMN,
        "matter": "acme",
        "fix": None,
    }


def test_json_output_with_a_usage_error_is_still_valid_and_exits_2(project: Path) -> None:
    code, out, err = lint(project, OutputFormat.JSON, "matters", "no-such-folder")
    document = json.loads(out)
    _validate_lint_json(document)
    assert code == 2 and document["summary"]["exit_code"] == 2
    assert document["usage_errors"] == [f"{project / 'no-such-folder'}: no such file or directory"]
    assert "no-such-folder" in err and document["summary"]["matters"] == 2


def test_json_schema_rejects_a_malformed_document(project: Path) -> None:
    _, out, _ = lint(project, OutputFormat.JSON)
    document = json.loads(out)
    document["diagnostics"][0]["severity"] = "fatal"
    with pytest.raises(jsonschema.ValidationError):
        _validate_lint_json(document)


# --------------------------------------------------------------------------- sarif
def test_sarif_output_validates_and_has_the_required_structure(project: Path) -> None:
    code, out, _ = lint(project, OutputFormat.SARIF)
    log = json.loads(out)
    jsonschema.Draft7Validator.check_schema(SARIF_SUBSET)
    jsonschema.Draft7Validator(SARIF_SUBSET).validate(log)
    assert code == 1 and log["version"] == "2.1.0" and len(log["runs"]) == 1
    run = log["runs"][0]
    driver = run["tool"]["driver"]
    assert driver["name"] == "rubric-tools"
    ids = [descriptor["id"] for descriptor in driver["rules"]]
    assert len(ids) == len(set(ids))
    for result in run["results"]:
        assert driver["rules"][result["ruleIndex"]]["id"] == result["ruleId"]
        location = result["locations"][0]["physicalLocation"]
        assert location["artifactLocation"]["uriBaseId"] == "%SRCROOT%"
        assert not location["artifactLocation"]["uri"].startswith(("/", "file:"))
    by_rule = {result["ruleId"]: result for result in run["results"]}
    assert {code: result["level"] for code, result in by_rule.items()} == {
        "Z901": "error",
        "Z902": "warning",
        "Z903": "note",
    }
    assert by_rule["Z901"]["locations"][0]["physicalLocation"] == {
        "artifactLocation": {"uri": "matters/acme/rubric.yaml", "uriBaseId": "%SRCROOT%"},
        "region": {
            "startLine": SEVERITY_LINE,
            "startColumn": SEVERITY_COLUMN,
            "endLine": SEVERITY_LINE,
            "endColumn": SEVERITY_END_COLUMN,
        },
    }
    assert run["originalUriBaseIds"]["%SRCROOT%"]["uri"] == project.as_uri() + "/"


def test_sarif_rule_descriptors_carry_the_rule_documentation(project: Path) -> None:
    log = json.loads(lint(project, OutputFormat.SARIF)[1])
    descriptor = next(d for d in log["runs"][0]["tool"]["driver"]["rules"] if d["id"] == "Z903")
    rule = find_rule("Z903")
    assert rule is not None
    assert descriptor["name"] == "test-long-alias"
    assert descriptor["shortDescription"]["text"] == rule.summary
    assert descriptor["fullDescription"]["text"] == rule.doc == descriptor["help"]["text"]
    assert descriptor["defaultConfiguration"] == {"level": "note"}


def test_sarif_gives_unregistered_codes_a_descriptor(tmp_path: Path) -> None:
    crash = Diagnostic("I002", "rule-crashed", Severity.ERROR, "rule crashed", tmp_path / "matter.yaml")
    log = sarif_log(LintReport(matters=[MatterReport(tmp_path, "m", [crash])]), cwd=tmp_path)
    jsonschema.Draft7Validator(SARIF_SUBSET).validate(log)
    run = log["runs"][0]
    result = run["results"][0]
    assert run["tool"]["driver"]["rules"][result["ruleIndex"]]["id"] == "I002"
    assert "region" not in result["locations"][0]["physicalLocation"]  # no span, no region
    assert run["invocations"][0]["executionSuccessful"] is False


def test_sarif_subset_schema_is_not_vacuous(project: Path) -> None:
    log = json.loads(lint(project, OutputFormat.SARIF)[1])
    validator = jsonschema.Draft7Validator(SARIF_SUBSET)
    broken_level = json.loads(json.dumps(log))
    broken_level["runs"][0]["results"][0]["level"] = "info"
    broken_region = json.loads(json.dumps(log))
    broken_region["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"]["startLine"] = 0
    missing_message = json.loads(json.dumps(log))
    del missing_message["runs"][0]["results"][0]["message"]
    for broken in (broken_level, broken_region, missing_message):
        assert not validator.is_valid(broken)


# --------------------------------------------------------------------------- github
def test_github_output_is_one_workflow_command_per_diagnostic(project: Path) -> None:
    code, out, _ = lint(project, OutputFormat.GITHUB)
    assert code == 1
    assert out.split("\n") == [
        f"::warning file=matters/acme/documents/hosting.md,line={TODO_LINE},col={TODO_COLUMN},"
        f"endLine={TODO_LINE},endColumn={TODO_COLUMN + 4},title=Z902 test-document-todo::TODO left in the document",
        f"::notice file=matters/acme/rubric.yaml,line={QUESTION_LINE},col={QUESTION_COLUMN},endLine=8,"
        "endColumn=1,title=Z903 test-long-alias::question has a long alias",
        f"::error file=matters/acme/rubric.yaml,line={SEVERITY_LINE},col={SEVERITY_COLUMN},"
        f"endLine={SEVERITY_LINE},endColumn={SEVERITY_END_COLUMN},title=Z901 test-issue-severity::"
        "severity 'urgent' is not a severity",
        "",
    ]


def test_github_escaping() -> None:
    assert escape_data("100% done\r\nnext: a,b") == "100%25 done%0D%0Anext: a,b"
    assert escape_property("a:b,c%d\ne") == "a%3Ab%2Cc%25d%0Ae"
    assert escape_data("%0A") == "%250A"  # an existing escape is not taken for one


def test_github_escapes_properties_and_message_of_a_command(tmp_path: Path) -> None:
    diagnostic = Diagnostic("Z902", "odd-name", Severity.INFO, "50% off\nnow", tmp_path / "a,b:c.md", Span(2, 3, 4, 5))
    assert github_command(diagnostic, tmp_path) == (
        "::notice file=a%2Cb%3Ac.md,line=2,col=3,endLine=4,endColumn=5,title=Z902 odd-name::50%25 off%0Anow"
    )
    assert render_github(LintReport(matters=[MatterReport(tmp_path, "m", [diagnostic])]), cwd=tmp_path).count("\n") == 1


# --------------------------------------------------------------------------- real matters
def test_json_and_sarif_over_the_conformance_matters(tmp_path: Path) -> None:
    """Real rules on real matters: the documents stay schema-valid and every position
    the reporters print lies inside the file it names."""
    corpus = require_conformance()
    stdout, stderr = io.StringIO(), io.StringIO()
    options = LintOptions(paths=[corpus / "matters"], output_format=OutputFormat.JSON, cwd=corpus)
    run_lint(options, stdout, stderr)
    document = json.loads(stdout.getvalue())
    _validate_lint_json(document)
    assert document["summary"]["matters"] == 12 and document["usage_errors"] == []
    for diagnostic in document["diagnostics"]:
        lines = (corpus / diagnostic["file"]).read_text(encoding="utf-8").splitlines()
        if diagnostic["line"] is not None:
            assert 1 <= diagnostic["line"] <= len(lines) + 1, diagnostic
    sarif = io.StringIO()
    run_lint(LintOptions(paths=[corpus / "matters"], output_format=OutputFormat.SARIF, cwd=corpus), sarif, stderr)
    jsonschema.Draft7Validator(SARIF_SUBSET).validate(json.loads(sarif.getvalue()))
