"""Messages that finish the job: option names, placeholders, help markup, plurals,
usage errors on stderr, and `solve`/`attack` on a matter that does not lint."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from rubric_tools.cli import main
from tests.conftest import MATTERS_DIR
from tests.prove_support import base_data, issue, write_matter

COMMANDS_WITH_OUTPUT = ["lint", "rules", "explain", "replay", "check", "max-score", "solve", "attack"]
FORMAT_COMMANDS = ["lint", "rules", "replay", "check", "max-score", "solve", "attack"]


def _help(capsys: pytest.CaptureFixture[str], command: str) -> str:
    with pytest.raises(SystemExit):
        from rubric_tools.cli.app import app

        app([command, "--help"], prog_name="rubric", standalone_mode=True)
    return capsys.readouterr().out


@pytest.mark.parametrize("command", [*COMMANDS_WITH_OUTPUT, "new", "convert", "audit", "rescore"])
def test_help_shows_plain_placeholders(capsys: pytest.CaptureFixture[str], command: str) -> None:
    text = _help(capsys, command)
    assert not re.search(r"<(?:list\[|bool|str|path|file|float|int)|\bint range\b", text, flags=re.I), text


@pytest.mark.parametrize("command", COMMANDS_WITH_OUTPUT)
def test_every_command_takes_no_color(capsys: pytest.CaptureFixture[str], command: str) -> None:
    assert "--no-color" in _help(capsys, command)


@pytest.mark.parametrize("command", FORMAT_COMMANDS)
def test_output_format_with_format_alias(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, command: str
) -> None:
    monkeypatch.setenv("COLUMNS", "160")  # room for both names in the option column
    text = _help(capsys, command)
    assert "--output-format" in text and "--format" in text.replace("--output-format", "")


def test_help_renders_configuration_table_names(capsys: pytest.CaptureFixture[str]) -> None:
    assert _help(capsys, "attack").count("[tool.rubric.attack]") == 2
    assert "[tool.rubric.check]" in _help(capsys, "check")


def test_format_alias_gives_the_same_output(capsys: pytest.CaptureFixture[str]) -> None:
    trajectory = str(MATTERS_DIR / "clean_saas_002" / "trajectories" / "reference.jsonl")
    assert main(["replay", trajectory, "--format", "json"]) == 0
    first = json.loads(capsys.readouterr().out)
    assert main(["replay", trajectory, "--output-format", "json"]) == 0
    assert json.loads(capsys.readouterr().out) == first


@pytest.mark.parametrize(
    "argv",
    [
        ["check", "no/such/folder"],
        ["lint", "no/such/folder"],
        ["replay", "no/such/file.jsonl"],
        ["solve", "no/such/folder"],
        ["attack", "no/such/folder"],
        ["max-score", "no/such/folder"],
        ["convert", "no/such/file.jsonl", "out.yaml"],
        ["new", "Not Valid"],
        ["check", "--output-format", "xml"],
        ["audit", "no/such/folder"],
    ],
)
def test_usage_errors_go_to_stderr(capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert captured.err.strip()
    assert "error:" not in captured.out.lower()


def test_counts_are_singular_and_plural(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", str(MATTERS_DIR / "clean_saas_002"), "--no-color"]) == 0
    out = capsys.readouterr().out
    assert re.search(r"\d+/\d+ checks passed in 1 matter\.", out), out


def test_one_step_is_singular(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import shutil

    matter = tmp_path / "clean_saas_002"
    shutil.copytree(MATTERS_DIR / "clean_saas_002", matter)
    one = matter / "trajectories" / "one.jsonl"
    one.write_text('{"type": "submit_final", "summary": "x"}\n', encoding="utf-8")
    assert main(["replay", str(one), "--no-color"]) == 0
    assert "terminated after 1 step" in capsys.readouterr().out.replace("1 steps", "")


@pytest.fixture
def unlinted(tmp_path: Path) -> Path:
    """A matter whose rubric does not lint (an anchor written `hosting § 3.1`)."""
    data = base_data()
    issue(data)["anchor"] = issue(data)["anchor"].replace("§", "§ ")
    write_matter(tmp_path / "unlinted", data)
    return tmp_path / "unlinted"


@pytest.mark.parametrize("command", ["solve", "attack"])
def test_proof_of_a_matter_with_lint_errors_exits_1(
    capsys: pytest.CaptureFixture[str], unlinted: Path, command: str
) -> None:
    assert main([command, str(unlinted), "--no-color"]) == 1
    err = capsys.readouterr().err
    assert "lint error" in err and "exits 1" in err and "A00" in err


AI_SAAS = MATTERS_DIR / "ai_saas_001"


def _altered_reference(tmp_path: Path, old: str, new: str) -> Path:
    import shutil

    matter = tmp_path / "ai_saas_001"
    shutil.copytree(AI_SAAS, matter)
    reference = matter / "trajectories" / "reference.jsonl"
    text = reference.read_text(encoding="utf-8")
    assert old in text
    reference.write_text(text.replace(old, new, 1), encoding="utf-8")
    return matter


def test_unverified_quote_shows_the_closest_text_and_first_difference(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    matter = _altered_reference(tmp_path, "Provider's internal investigation", "Provider’s internal investigation")
    assert main(["replay", str(matter / "trajectories" / "reference.jsonl"), "--no-color"]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    head = next(i for i, line in enumerate(lines) if "quote cited as 'msa §5.1'" in line)
    assert "step 12" in lines[head] and "not verbatim" in lines[head]
    quote, section, caret = lines[head + 1 : head + 4]
    assert "provider’s internal" in quote and "provider's internal" in section
    column = caret.index("^")
    assert quote[column] == "’" and section[column] == "'"
    assert "U+2019" in caret and "U+0027" in caret


def test_check_failure_cause_names_the_differing_words(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    matter = _altered_reference(
        tmp_path, "This limitation applies to every claim", "This limitation applies to each claim"
    )
    assert main(["check", str(matter), "--output-format", "json"]) == 1
    document = json.loads(capsys.readouterr().out)
    reference = next(c for c in document["matters"][0]["checks"] if c["name"] == "reference.jsonl")
    assert not reference["passed"]
    assert "'each' vs 'every'" in reference["detail"] and "step 14" in reference["detail"]


def test_numbers_against_words_are_named() -> None:
    from rubric_tools.scoring.quote_check import QuoteMismatch, closest_passage
    from rubric_tools.scoring.text import normalize

    section = normalize("Fees paid by Customer in the twelve (12) months before the claim.")
    quote = normalize("Fees paid by Customer in the 12 months before the claim")
    aligned = closest_passage(quote, section)
    assert aligned is not None
    caret = QuoteMismatch(1, "msa §10.2", quote, "is not verbatim", section).lines()[3]
    assert "'12' vs 'twelve'" in caret
    assert closest_passage(normalize("An unrelated sentence entirely"), section) is None


def test_patterns_print_as_written_on_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    trajectory = AI_SAAS / "trajectories" / "bad_reversed_redline.jsonl"
    assert main(["replay", str(trajectory), "--no-color"]) == 0
    out = capsys.readouterr().out
    pattern = r"'\bcustomer (?:shall|will|must) (?:promptly )?notify (?:provider|sablewing)\b'"
    assert any(line.endswith(pattern) for line in out.splitlines()), out
    assert "\\\\b" not in out


def _lint(root: Path, select: str = "") -> list[dict[str, object]]:
    from rubric_tools.config.lint import LintSection
    from rubric_tools.lint import lint_source
    from rubric_tools.loading import load_matter_source

    report = lint_source(load_matter_source(root), LintSection(select=tuple(select.split(",")) if select else ()))
    return [{"code": d.code, "line": d.line, "column": d.column, "message": d.message} for d in report.diagnostics]


def test_p100_refers_to_the_rule_that_already_explains_the_node(tmp_path: Path) -> None:
    data = base_data()
    issue(data)["anchor"] = issue(data)["anchor"].replace("3.1", "3.9")  # a section the document lacks
    write_matter(tmp_path / "m", data)
    found = _lint(tmp_path / "m")
    a002 = next(d for d in found if d["code"] == "A002")
    p100 = [d for d in found if d["code"] == "P100" and (d["line"], d["column"]) == (a002["line"], a002["column"])]
    assert p100 and all("see A002" in str(d["message"]) and "point" in str(d["message"]) for d in p100)
    assert all("§3.9" not in str(d["message"]) for d in p100)  # the defect is explained once, by A002
    # With A002 deselected, P100 explains the defect itself.
    alone = [d for d in _lint(tmp_path / "m", "P100") if d["code"] == "P100"]
    assert alone and not any("see A" in str(d["message"]) for d in alone)
    assert any("3.9" in str(d["message"]) for d in alone)
