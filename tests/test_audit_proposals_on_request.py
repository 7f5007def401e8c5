"""`rubric audit` makes its guard proposals only when asked (`--unsafe-fixes`, `--fix`,
`--diff`): every proposal is an unsafe fix, and ruff shows unsafe fixes only with
`--unsafe-fixes`. Without them the findings are the same, with their evidence; what is
left out is each proposal, its fix and the robustness figure after the proposals, and a
line on stderr says how to see them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from rubric_tools.cli import main
from rubric_tools.schemas import load_schema
from tests.audit_support import GUARDED_GATES, make_matter


@pytest.fixture
def weak(tmp_path: Path) -> Path:
    return make_matter(tmp_path / "weak", GUARDED_GATES)


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def _findings(out: str) -> list[tuple[object, ...]]:
    return [
        (f["code"], f["line"], f["column"], f["message"], f["severity"], json.dumps(f["evidence"]))
        for matter in json.loads(out)["matters"]
        for f in matter["findings"]
    ]


def test_the_default_run_has_the_same_findings_without_proposals(
    capsys: pytest.CaptureFixture[str], weak: Path
) -> None:
    code, out, err = _run(capsys, "audit", "--output-format", "json", str(weak))
    full_code, full, _ = _run(capsys, "audit", "--output-format", "json", "--unsafe-fixes", str(weak))
    assert (code, _findings(out)) == (full_code, _findings(full)) and _findings(out)
    document = json.loads(out)
    Draft202012Validator(load_schema("audit-output")).validate(document)
    findings = document["matters"][0]["findings"]
    assert all(f["proposal"] is None and f["fix"] is None and f["fix_hint"] is None for f in findings)
    [figure] = document["matters"][0]["robustness"]
    assert figure["after_is"] == "none" and figure["after"] == figure["before"] and figure["changed_entries"] == []
    [full_figure] = json.loads(full)["matters"][0]["robustness"]
    assert full_figure["before"] == figure["before"] and full_figure["after_is"] == "proposal"
    assert err == ""  # machine-readable formats: nothing on stderr


def test_the_text_report_says_how_to_see_the_proposals(capsys: pytest.CaptureFixture[str], weak: Path) -> None:
    _code, out, err = _run(capsys, "audit", str(weak))
    assert "fix: " not in out and "paste-ready entry" not in out
    assert "  robustness of each gate list:\n" in out and "→" not in out.split("robustness of each gate list")[1]
    assert "robustness: sins caught " in out
    assert "`--unsafe-fixes` shows them, `--fix --unsafe-fixes` writes them." in err
    _code, shown, shown_err = _run(capsys, "audit", "--unsafe-fixes", str(weak))
    assert "paste-ready entry" in shown and "before → after the proposals" in shown and shown_err == ""
