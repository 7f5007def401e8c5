"""User text is printed as written and every output format stays valid.

Bracketed text is rich markup syntax: `[/x]` crashed the renderers and `[Customer]`
could be restyled or dropped. A lone surrogate (`\\ud800`) cannot be encoded as UTF-8,
and an `.inf` made JSON output carry `Infinity`. Every command, every format.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from rubric_tools.cli import main
from tests.prove_support import base_data, issue, write_matter

MARKUP_ID = "[/x]"
BRACKETED = "[Customer]"


def _no_constants(name: str) -> Any:
    raise AssertionError(f"JSON output contains {name}")


def _strict_json(text: str) -> Any:
    return json.loads(text, parse_constant=_no_constants)


@pytest.fixture
def hostile(tmp_path: Path) -> Path:
    data = base_data()
    data["matter.yaml"]["matter_id"] = MARKUP_ID
    data["matter.yaml"]["title"] = BRACKETED + " [bold]contract[/bold]"
    issue(data)["id"] = BRACKETED
    data["counterparty.yaml"]["positions"] = {BRACKETED: data["counterparty.yaml"]["positions"]["uptime_credit"]}
    write_matter(tmp_path / "hostile", data)
    return tmp_path / "hostile"


@pytest.fixture
def trajectory(tmp_path: Path, hostile: Path) -> Path:
    actions = [
        {"type": "read_document", "document_id": "hosting"},
        {
            "type": "submit_issue",
            "issue_id": MARKUP_ID + "\ud800",
            "title": "t \ud800",
            "severity": "high",
            "citations": ["hosting §3.1", "nowhere §\ud800"],
            "analysis": "[red]x[/red] \udfff",
            "recommendation": "r",
        },
        {"type": "ask_client", "question": "[/] where are backups \ud800 kept?"},
        {"type": "submit_final", "summary": "[/x] " * 30},
    ]
    path = tmp_path / "hostile.jsonl"
    lines = [json.dumps(action) for action in actions]  # ensure_ascii: surrogates as \\ud800 escapes
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.mark.parametrize("command", ["max-score", "solve", "attack", "lint", "check"])
def test_bracketed_ids_print_literally(capsys: pytest.CaptureFixture[str], hostile: Path, command: str) -> None:
    extra = ["--no-color"] if command in ("solve", "attack", "check") else []
    code, out, err = _run(capsys, command, str(hostile), *extra)
    assert code in (0, 1), err
    assert "Traceback" not in out + err
    if command != "lint":  # a clean matter's lint output names no matter
        assert MARKUP_ID in out or BRACKETED in out, out


@pytest.mark.parametrize(
    "argv",
    [
        ["max-score", "--output-format", "json"],
        ["solve", "--format", "json"],
        ["attack", "--output-format", "json"],
        ["lint", "--output-format", "json"],
        ["lint", "--output-format", "sarif"],
        ["check", "--output-format", "json"],
    ],
)
def test_json_formats_stay_strict(capsys: pytest.CaptureFixture[str], hostile: Path, argv: list[str]) -> None:
    code, out, err = _run(capsys, argv[0], str(hostile), *argv[1:])
    assert code in (0, 1), err
    _strict_json(out)


@pytest.mark.parametrize("output_format", ["text", "json"])
def test_replay_prints_markup_and_surrogates_safely(
    capsys: pytest.CaptureFixture[str], hostile: Path, trajectory: Path, output_format: str
) -> None:
    code, out, err = _run(
        capsys, "replay", str(trajectory), "--matter", str(hostile), "--format", output_format, "--no-color"
    )
    assert code == 0, err
    assert "Traceback" not in out + err
    out.encode("utf-8")
    if output_format == "json":
        document = _strict_json(out)
        assert document is not None
        assert "\ufffd" in out
    else:
        assert MARKUP_ID in out


def test_infinite_points_never_reach_json(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    data = base_data()
    issue(data)["citation_points"] = float("inf")
    root = tmp_path / "inf"
    write_matter(root, data)
    code, out, _ = _run(capsys, "max-score", str(root), "--output-format", "json")
    assert code in (0, 1)
    assert _strict_json(out)["derived"] is None
    code, out, _ = _run(capsys, "lint", str(root), "--output-format", "json")
    assert code == 1 and "S007" in out


def test_junit_output_is_valid_xml_with_control_characters(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    from xml.etree import ElementTree

    data = base_data()
    data["matter.yaml"]["matter_id"] = "ctl\x07[/x]"
    root = tmp_path / "ctl"
    write_matter(root, data)
    code, out, _ = _run(capsys, "check", str(root), "--output-format", "junit")
    assert code in (0, 1)
    ElementTree.fromstring(out.split("\n", 1)[1])


def test_internal_error_is_one_line_with_a_code(
    capsys: pytest.CaptureFixture[str], hostile: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import rubric_tools.commands.max_score as max_score

    def explode(*args: object, **kwargs: object) -> None:
        raise RuntimeError("boom\nsecond line")

    monkeypatch.setattr(max_score, "load_matter_source", explode)
    code, out, err = _run(capsys, "max-score", str(hostile))
    assert code == 2
    assert "Traceback" not in err
    assert err.count("\n") == 1 and "I001" in err and "RuntimeError: boom second line" in err
    code, out, err = _run(capsys, "--debug", "max-score", str(hostile))
    assert code == 2 and "Traceback" in err and "I001" in err.splitlines()[-1]


def test_check_reports_an_internal_error_in_one_line(
    capsys: pytest.CaptureFixture[str], hostile: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import rubric_tools.commands.check as check

    def explode(*args: object, **kwargs: object) -> None:
        raise KeyError("unexpected")

    monkeypatch.setattr(check, "check_paths", explode)
    code, _, err = _run(capsys, "check", str(hostile))
    assert code == 2 and "Traceback" not in err and err.count("\n") == 1 and "I001" in err


@pytest.mark.parametrize(
    ("command", "module", "attribute"),
    [
        ("audit", "rubric_tools.commands.audit", "audit_roots"),
        ("coverage", "rubric_tools.commands.coverage", "measure"),
    ],
)
def test_audit_and_coverage_report_an_internal_error_in_one_line(
    capsys: pytest.CaptureFixture[str],
    hostile: Path,
    monkeypatch: pytest.MonkeyPatch,
    command: str,
    module: str,
    attribute: str,
) -> None:
    """As every other command: one I001 line, the traceback only with --debug."""
    import importlib

    def explode(*args: object, **kwargs: object) -> None:
        raise KeyError("unexpected")

    monkeypatch.setattr(importlib.import_module(module), attribute, explode)
    code, _, err = _run(capsys, command, str(hostile))
    assert code == 2 and "Traceback" not in err and err.count("\n") == 1 and "I001" in err, err
    code, _, err = _run(capsys, "--debug", command, str(hostile))
    assert code == 2 and "Traceback" in err and "I001" in err.splitlines()[-1]


def test_huge_json_integer_is_a_t001_diagnostic(
    capsys: pytest.CaptureFixture[str], hostile: Path, tmp_path: Path
) -> None:
    bad = tmp_path / "huge.jsonl"
    bad.write_text('{"type": "read_document", "document_id": ' + "9" * 5000 + "}\n", encoding="utf-8")
    good = tmp_path / "good.jsonl"
    good.write_text('{"type": "submit_final", "summary": "done"}\n', encoding="utf-8")
    code, out, err = _run(capsys, "replay", str(bad), str(good), "--matter", str(hostile), "--no-color")
    assert code == 2
    assert "T001" in out + err and "4300 digits" in out + err and "Traceback" not in out + err
    assert "good.jsonl" in out


def test_check_rows_print_bracketed_names_literally(capsys: pytest.CaptureFixture[str], hostile: Path) -> None:
    trajectories = hostile / "trajectories"
    trajectories.mkdir()
    (trajectories / "[bold]t.jsonl").write_text('{"type": "submit_final", "summary": "[/x]"}\n', encoding="utf-8")
    (hostile / "expectations.yaml").write_text('trajectories:\n  "[bold]t": {normalized_score: 0}\n', encoding="utf-8")
    code, out, err = _run(capsys, "check", str(hostile), "--no-color")
    assert code in (0, 1, 2) and "Traceback" not in out + err
    assert any(line.startswith("trajectory") and "[bold]t.jsonl" in line for line in out.splitlines()), out


def test_max_score_error_quoting_markup_prints_literally(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    root = tmp_path / "[bold]m"
    root.mkdir()
    (root / "matter.yaml").write_text("matter_id: [/x\n", encoding="utf-8")
    code, out, err = _run(capsys, "max-score", str(root))
    assert code == 2 and "I001" not in err and "Traceback" not in err
    assert "[bold]m" in err


def test_reporters_write_json_only_through_the_safe_encoder() -> None:
    # `safe_output.dumps` turns NaN/Infinity into null and lone surrogates into U+FFFD;
    # a reporter calling json.dumps itself could emit invalid JSON or crash on encoding.
    # (The HTML report embeds its data with ensure_ascii=True for a <script> block.)
    reporting = Path(__file__).resolve().parents[1] / "rubric_tools" / "reporting"
    allowed = {"safe_output.py", "coverage_html.py"}
    offenders = [
        path.name
        for path in sorted(reporting.glob("*.py"))
        if path.name not in allowed and "json.dumps(" in path.read_text(encoding="utf-8")
    ]
    assert offenders == []
