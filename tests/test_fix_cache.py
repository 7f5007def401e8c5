"""The lint result cache keeps fixes, suppressions and proofs exactly as a fresh run has them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rubric_tools.config.lint import LintSection
from rubric_tools.lint import engine as lint_engine
from rubric_tools.lint import lint_paths, result_cache
from tests.fix_support import CONFIG, base_copy, seed


@pytest.fixture(autouse=True)
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv("RUBRIC_CACHE_DIR", str(folder))
    monkeypatch.delenv("RUBRIC_NO_CACHE", raising=False)
    return folder


def _count_lints(monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    calls: list[Path] = []
    real = lint_engine.lint_source

    def counting(source, *args, **kwargs):  # type: ignore[no-untyped-def]
        calls.append(source.root)
        return real(source, *args, **kwargs)

    monkeypatch.setattr(lint_engine, "lint_source", counting)
    return calls


def test_a_restored_report_carries_the_same_fixes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = base_copy(tmp_path)
    seed(root / "rubric.yaml", 'anchor: "hosting §3.1"', 'anchor: "hosting § 3.1"')
    first = lint_paths([root], CONFIG)
    calls = _count_lints(monkeypatch)
    second = lint_paths([root], CONFIG)
    assert calls == []
    assert [d.fix for d in second.diagnostics] == [d.fix for d in first.diagnostics]
    assert any(d.fix is not None for d in second.diagnostics)


def test_a_new_trajectory_beside_the_matter_invalidates_the_proof(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = base_copy(tmp_path)
    seed(root / "rubric.yaml", 'anchor: "hosting §3.1"', 'anchor: "hosting § 3.1"')
    [finding] = [d for d in lint_paths([root], CONFIG).diagnostics if d.code == "A005"]
    assert finding.fix is not None and finding.fix.safe
    folder = tmp_path / "trajectories" / "base_fixture"
    folder.mkdir(parents=True)
    actions = [
        {"type": "read_document", "document_id": "hosting", "section": "3.1"},
        {
            "type": "submit_issue",
            "issue_id": "c",
            "title": "credit",
            "severity": "medium",
            "citations": ["hosting §3.1"],
            "analysis": "No credit.",
            "recommendation": "Add one.",
        },
    ]
    (folder / "agent.jsonl").write_text("".join(json.dumps(a) + "\n" for a in actions), encoding="utf-8")
    calls = _count_lints(monkeypatch)
    [finding] = [d for d in lint_paths([root], CONFIG).diagnostics if d.code == "A005"]
    assert calls == [root] and finding.fix is not None and not finding.fix.safe


def test_suppressions_and_settings_are_part_of_the_key(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = base_copy(tmp_path)
    seed(root / "rubric.yaml", 'anchor: "hosting §3.1"', 'anchor: "hosting § 3.1"')
    lint_paths([root], CONFIG)
    seed(root / "rubric.yaml", 'anchor: "hosting § 3.1"', 'anchor: "hosting § 3.1"  # rubric: ignore[A005] -- legacy')
    assert "A005" not in [d.code for d in lint_paths([root], CONFIG).diagnostics]
    keys = {result_cache.matter_key(root, LintSection(canary="c", prove_fixes=flag)) for flag in (True, False)}
    assert len(keys) == 2
