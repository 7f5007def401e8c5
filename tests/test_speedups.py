"""The parse cache and the parallel lint change speed, never results."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from rubric_tools.config.lint import LintSection
from rubric_tools.lint import engine as lint_engine
from rubric_tools.lint import lint_paths
from rubric_tools.loading import yaml_cache
from rubric_tools.loading.yaml_source import load_yaml

BASE = Path(__file__).parent / "rule_cases" / "_base"


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv("RUBRIC_CACHE_DIR", str(folder))
    monkeypatch.delenv("RUBRIC_NO_CACHE", raising=False)
    return folder


def test_cached_parse_equals_fresh_parse(cache: Path) -> None:
    path = BASE / "rubric.yaml"
    fresh = load_yaml(path)
    assert list(cache.rglob("*.marshal")), "a clean parse is stored"
    cached = load_yaml(path)
    assert cached.data == fresh.data and cached.positions == fresh.positions
    assert cached.lines == fresh.lines


def test_files_with_diagnostics_are_not_cached(cache: Path, tmp_path: Path) -> None:
    path = tmp_path / "dup.yaml"
    path.write_text("a: 1\na: 2\n", encoding="utf-8")
    assert [d.code for d in load_yaml(path).diagnostics] == ["L002"]
    assert [d.code for d in load_yaml(path).diagnostics] == ["L002"]
    assert not list(cache.rglob("*.marshal"))


def test_a_corrupt_entry_is_ignored(cache: Path) -> None:
    path = BASE / "matter.yaml"
    fresh = load_yaml(path)
    for entry in cache.rglob("*.marshal"):
        entry.write_bytes(b"\x00garbage")
    assert load_yaml(path).data == fresh.data


def test_cache_can_be_disabled(cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RUBRIC_NO_CACHE", "1")
    assert yaml_cache.cache_dir() is None
    load_yaml(BASE / "rubric.yaml")
    assert not cache.exists()


def test_parallel_lint_reports_exactly_what_serial_lint_does(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for index in range(5):
        root = tmp_path / "matters" / f"m{index}"
        shutil.copytree(BASE, root)
        rubric = root / "rubric.yaml"
        rubric.write_text(rubric.read_text(encoding="utf-8") + f"max_score: {index + 1}\n", encoding="utf-8")
    config = LintSection()
    monkeypatch.setattr(lint_engine, "_worker_count", lambda matters: 1)
    serial = lint_paths([tmp_path / "matters"], config)
    monkeypatch.setattr(lint_engine, "_worker_count", lambda matters: 2)
    parallel = lint_paths([tmp_path / "matters"], config)
    assert [m.diagnostics for m in parallel.matters] == [m.diagnostics for m in serial.matters]
    assert sum(1 for d in serial.diagnostics if d.code == "P001") == 5


# ----------------------------------------------------------------- lint result cache


def _seeded_matter(tmp_path: Path) -> Path:
    root = tmp_path / "matters" / "m"
    shutil.copytree(BASE, root)
    rubric = root / "rubric.yaml"
    rubric.write_text(rubric.read_text(encoding="utf-8") + "max_score: 3\n", encoding="utf-8")
    return root


def _no_linting(*args: object, **kwargs: object) -> None:
    raise AssertionError("the matter was linted instead of restored from the cache")


def test_unchanged_matter_is_restored_without_linting(
    cache: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = _seeded_matter(tmp_path)
    first = lint_paths([root], LintSection())
    monkeypatch.setattr(lint_engine, "lint_source", _no_linting)
    second = lint_paths([root], LintSection())
    assert second.diagnostics == first.diagnostics and [d.code for d in first.diagnostics] == ["P001", "P100"]
    assert second.matters[0].matter_id == "base_fixture"


def test_any_change_to_files_settings_or_tool_lints_again(
    cache: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from rubric_tools.lint import result_cache

    root = _seeded_matter(tmp_path)
    lint_paths([root], LintSection())
    calls: list[Path] = []
    real = lint_engine.lint_source
    monkeypatch.setattr(lint_engine, "lint_source", lambda source, *a: calls.append(source.root) or real(source, *a))
    document = root / "documents" / "guide.md"
    document.write_text(document.read_text(encoding="utf-8") + "\nMore text.\n", encoding="utf-8")
    lint_paths([root], LintSection())
    assert len(calls) == 1
    report = lint_paths([root], LintSection(canary="another-canary"))
    assert len(calls) == 2 and "V002" in [d.code for d in report.diagnostics]
    monkeypatch.setattr(result_cache, "tool_fingerprint", lambda: "a newer tool")
    lint_paths([root], LintSection())
    assert len(calls) == 3
    lint_paths([root], LintSection())
    assert len(calls) == 3


def test_result_cache_is_off_with_the_parse_cache(cache: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from rubric_tools.lint import result_cache

    monkeypatch.setenv("RUBRIC_NO_CACHE", "1")
    assert result_cache.matter_key(_seeded_matter(tmp_path), LintSection()) is None
