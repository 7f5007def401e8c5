"""Baselines: today's findings are recorded without line numbers; only new ones report."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from rubric_tools.reporting.formats import OutputFormat
from tests.conftest import REPO_ROOT
from tests.fix_support import base_copy, run, seed

SCHEMA = json.loads((REPO_ROOT / "schemas" / "lint-baseline.schema.json").read_text(encoding="utf-8"))


def _defective(tmp_path: Path) -> Path:
    root = base_copy(tmp_path)
    seed(
        root / "rubric.yaml",
        'anchor: "hosting §3.1"\n    severity: medium\n    required_citations: ["hosting §3.1", "guide §2"]',
        'anchor: "hosting §full"\n    severity: medium\n    required_citations: ["hosting §full", "guide §2"]',
    )
    seed(root / "documents" / "hosting.md", "## 4 Term", "## 3.1 Term")  # D006 in a document
    return root


def _write(tmp_path: Path, root: Path) -> Path:
    baseline = tmp_path / "lint-baseline.json"
    code, _, err = run(tmp_path, root, write_baseline=baseline)
    assert code == 0 and "Wrote 2 findings to baseline lint-baseline.json." in err
    return baseline


def test_the_written_baseline_matches_its_schema_and_hides_todays_findings(tmp_path: Path) -> None:
    root = _defective(tmp_path)
    baseline = _write(tmp_path, root)
    data = json.loads(baseline.read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator(SCHEMA).validate(data)
    keys = {(e["code"], e["file"], e.get("path"), e.get("section")) for e in data["entries"]}
    assert keys == {
        ("A006", "matters/base_fixture/rubric.yaml", "issues[id=uptime_credit].anchor", None),
        ("D006", "matters/base_fixture/documents/hosting.md", None, "3.1"),
    }
    assert "A006" in run(tmp_path, root)[1]
    code, out, _ = run(tmp_path, root, baseline=baseline)
    assert code == 0 and "All checks passed" in out and "2 findings hidden by the baseline." in out


def test_unrelated_edits_do_not_unbaseline_and_new_findings_report(tmp_path: Path) -> None:
    root = _defective(tmp_path)
    baseline = _write(tmp_path, root)
    # Lines inserted above both findings (an issue before the others, a document paragraph).
    seed(
        root / "rubric.yaml",
        "issues:\n",
        'issues:\n  - id: new_issue\n    anchor: "hosting §4"\n'
        '    severity: low\n    required_citations: ["hosting §4"]\n',
    )
    seed(root / "documents" / "hosting.md", "# Hosting Agreement\n", "# Hosting Agreement\n\nA new recital.\n")
    code, out, _ = run(tmp_path, root, baseline=baseline)
    assert "A006" not in out and "D006" not in out
    # A new finding of a baselined rule on another node is new.
    seed(root / "rubric.yaml", 'anchor: "hosting §4"', 'anchor: "hosting §full"')
    code, out, _ = run(tmp_path, root, baseline=baseline)
    new = [line for line in out.splitlines() if " A006 " in line]
    assert len(new) == 1 and "'new_issue'" in new[0]


def test_stale_entries_are_reported_and_pruned(tmp_path: Path) -> None:
    root = _defective(tmp_path)
    baseline = _write(tmp_path, root)
    seed(root / "documents" / "hosting.md", "## 3.1 Term", "## 4 Term")  # D006 fixed
    code, out, _ = run(tmp_path, root, baseline=baseline, output_format=OutputFormat.JSON)
    stale = [d for d in json.loads(out)["diagnostics"] if d["code"] == "X201"]
    assert len(stale) == 1 and stale[0]["file"] == "lint-baseline.json" and stale[0]["line"] is not None
    assert '"D006"' in baseline.read_text(encoding="utf-8").splitlines()[stale[0]["line"] - 1]
    code, _, err = run(tmp_path, root, baseline=baseline, prune_baseline=True)
    assert code == 0 and "Pruned 1 stale baseline entry" in err
    assert [e["code"] for e in json.loads(baseline.read_text(encoding="utf-8"))["entries"]] == ["A006"]
    assert "X201" not in run(tmp_path, root, baseline=baseline)[1]


def test_entries_of_matters_not_linted_are_neither_stale_nor_pruned(tmp_path: Path) -> None:
    root = _defective(tmp_path)
    other = base_copy(tmp_path, "other")
    baseline = _write(tmp_path, root)
    code, out, _ = run(tmp_path, other, baseline=baseline, prune_baseline=True)
    assert code == 0 and "X201" not in out
    assert len(json.loads(baseline.read_text(encoding="utf-8"))["entries"]) == 2


def test_the_baseline_can_be_configured(tmp_path: Path) -> None:
    root = _defective(tmp_path)
    _write(tmp_path, root)
    (tmp_path / "rubric.toml").write_text(
        'canary = "base-fixture-canary"\n\n[lint]\nbaseline = "lint-baseline.json"\n', encoding="utf-8"
    )
    assert run(tmp_path, root)[0] == 0
    (tmp_path / "rubric.toml").write_text(
        'canary = "base-fixture-canary"\nbaseline = "lint-baseline.json"\n', encoding="utf-8"
    )
    assert run(tmp_path, root)[0] == 0


def test_a_broken_baseline_is_a_usage_error(tmp_path: Path) -> None:
    root = _defective(tmp_path)
    for content, problem in (
        ("{", "not valid JSON"),
        ('{"version": 7, "entries": []}', "not a version 1"),
        ('{"version": 1, "entries": [{"code": "A006"}]}', "string `code` and `file`"),
    ):
        (tmp_path / "bad.json").write_text(content, encoding="utf-8")
        code, out, err = run(tmp_path, root, baseline=tmp_path / "bad.json")
        assert code == 2 and problem in err and "Traceback" not in err
    code, _, err = run(tmp_path, root, baseline=tmp_path / "missing.json")
    assert code == 2 and "cannot read baseline" in err
    assert run(tmp_path, root, prune_baseline=True)[0] == 2


def test_check_gates_only_new_findings_under_a_configured_baseline(tmp_path: Path) -> None:
    from rubric_tools.checking.runner import check_paths
    from rubric_tools.config.resolve import resolve_config
    from rubric_tools.lint.vocabulary import CONFIG_VOCABULARY

    root = _defective(tmp_path)
    seed(root / "rubric.yaml", "critical_failure_score_cap: 0.25", "critical_failure_score_cap: 0.25\nmax_score: 1.0")
    assert run(tmp_path, root)[0] == 1  # P001/P100 are errors: the lint row would fail
    assert run(tmp_path, root, write_baseline=tmp_path / "lint-baseline.json")[0] == 0
    (tmp_path / "rubric.toml").write_text(
        'canary = "base-fixture-canary"\nbaseline = "lint-baseline.json"\n', encoding="utf-8"
    )
    config = resolve_config([root], CONFIG_VOCABULARY, cwd=tmp_path)
    lint_row = next(row for row in check_paths([root], config).matters[0].rows if row.kind == "lint")
    assert lint_row.passed
    (tmp_path / "lint-baseline.json").write_text("{", encoding="utf-8")
    broken = check_paths([root], config).matters[0]
    assert not next(row for row in broken.rows if row.kind == "lint").passed
    assert broken.lint is not None and [d.code for d in broken.lint.diagnostics][-1] == "X202"


@pytest.mark.parametrize(
    ("toml", "problem"),
    [
        ("baseline = 3\n", "'baseline' must be a file name"),
        ('[lint]\nbase-line = "x.json"\n', "unknown key 'base-line' in 'lint'"),
        ('lint = "x.json"\n', "'lint' must be a table"),
    ],
)
def test_a_bad_baseline_setting_is_a_configuration_error(tmp_path: Path, toml: str, problem: str) -> None:
    root = _defective(tmp_path)
    (tmp_path / "rubric.toml").write_text('canary = "base-fixture-canary"\n' + toml, encoding="utf-8")
    code, _, err = run(tmp_path, root)
    assert code == 2 and problem in err and "rubric.toml:" in err
