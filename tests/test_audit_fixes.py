"""A verified `rubric audit` guard proposal is an unsafe fix of the gate entry (issue 11)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from jsonschema import Draft202012Validator

from rubric_tools.cli import main
from rubric_tools.lint.engine import lint_paths
from rubric_tools.schemas import load_schema
from tests.audit_support import audit, make_matter

GATES = "    critical_failure_patterns:\n      - 'uptime commitments are unenforceable'  # the sin\n"
NEGATED_GUIDE = "Never agree that uptime commitments are unenforceable; the credit is the remedy."
GUARDED = "      - {pattern: 'uptime commitments are unenforceable', negation_guard: true}  # the sin\n"


@pytest.fixture
def matter(tmp_path: Path) -> Path:
    return make_matter(tmp_path / "defective", GATES, guide=NEGATED_GUIDE)


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_diff_shows_the_guard_only_with_unsafe_fixes(matter: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rubric = matter / "rubric.yaml"
    before = rubric.read_bytes()
    code, out, err = _run(capsys, "audit", str(matter), "--diff")
    assert code == 0 and out == "" and "unsafe fix available with --unsafe-fixes" in err
    code, out, err = _run(capsys, "audit", str(matter), "--diff", "--unsafe-fixes")
    assert code == 1 and "-" + GATES.splitlines()[1] in out and "exclude_context: '" in out
    assert "Would apply" in err and "audit round" in err
    assert rubric.read_bytes() == before


def test_fix_writes_the_guard_and_the_finding_is_gone(matter: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rubric = matter / "rubric.yaml"
    assert {"U002", "U003"} & {d.code for d in audit(matter)}
    code, _out, err = _run(capsys, "audit", str(matter), "--fix", "--unsafe-fixes")
    assert "Applied" in err
    assert "exclude_context: '" in rubric.read_text(encoding="utf-8")
    assert not {"U002", "U003"} & {d.code for d in audit(matter)}
    # The fixed gate passes lint: it compiles, is not too costly (G016), cannot backtrack
    # (G012) and has a witness (U001); the reference's own reader loads the file.
    assert not [d for d in lint_paths([matter]).diagnostics if d.code[0] in "LSG" or d.code == "U001"]
    yaml.load(rubric.read_text(encoding="utf-8"), Loader=yaml.SafeLoader)


def test_one_fix_run_reaches_the_fixed_point(matter: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rubric = matter / "rubric.yaml"
    _run(capsys, "audit", str(matter), "--fix", "--unsafe-fixes")
    once = rubric.read_bytes()
    code, out, err = _run(capsys, "audit", str(matter), "--diff", "--unsafe-fixes")
    assert (code, out) == (0, "") and "No fixes available." in err
    _run(capsys, "audit", str(matter), "--fix", "--unsafe-fixes")
    assert rubric.read_bytes() == once


def test_the_json_finding_carries_the_fix(matter: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = _run(capsys, "audit", str(matter), "--output-format", "json", "--unsafe-fixes")
    document = json.loads(out)
    Draft202012Validator(load_schema("audit-output")).validate(document)
    fixes = [f["fix"] for m in document["matters"] for f in m["findings"] if f["fix"]]
    assert fixes and all(fix["applicability"] == "unsafe" for fix in fixes)


def test_an_inline_suppression_silences_an_audit_finding(matter: Path) -> None:
    assert "U003" in {d.code for d in audit(matter)}
    rubric = matter / "rubric.yaml"
    text = rubric.read_text(encoding="utf-8")
    rubric.write_text(
        text.replace("  # the sin\n", "  # rubric: ignore[U002, U003] -- recitals are scored by hand\n"),
        encoding="utf-8",
    )
    assert not {"U002", "U003"} & {d.code for d in audit(matter)}


def test_one_edit_per_gate_entry_merges_its_guard_and_its_widening(tmp_path: Path) -> None:
    gates = "    redline_critical_failure_patterns:\n      - 'customer may use provider data'\n"
    root = make_matter(tmp_path / "m", gates)
    found = [d for d in audit(root) if d.code in ("U003", "U004")]
    assert {d.code for d in found} == {"U003", "U004"}
    fixes = [d.fix for d in found if d.fix is not None]
    assert len(fixes) == 1 and len(fixes[0].edits) == 1
    change = found[0].extra["proposal"]["change"]  # type: ignore[index]
    assert {"pattern", "exclude_context"} <= set(change)
    assert found[0].extra["proposal"]["before"] == {"pattern": "customer may use provider data"}  # type: ignore[index]
    assert found[0].extra["proposal"]["after"]["pattern"] == change["pattern"]  # type: ignore[index]
