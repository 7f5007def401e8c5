"""One generic test runs every rule case under tests/rule_cases/.

A case file names a rule and lists cases. Each case starts from the clean matter
in `_base/`, replaces or deletes files, lints it with that one rule, and compares
the findings (file, line, column, optionally end_line/end_column) with `expect`.

    rule: G003
    cases:
      - name: invalid regex fires at the column inside the pattern
        files:
          rubric.yaml: |
            ...whole file...
        delete: [counterparty.yaml]
        symlinks: {rubric.yaml: /etc/passwd}   # optional: links (relative targets are kept relative)
        fifos: [hidden_facts.yaml]             # optional: named pipes (replacing any file)
        config: {canary: "x"}      # optional LintSection keyword arguments
        expect:
          - {file: rubric.yaml, line: 12, column: 20}
      - name: a valid regex is silent
        files: {...}
        expect: []
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any

import pytest
from ruamel.yaml import YAML

from rubric_tools.config.lint import LintSection
from rubric_tools.diagnostics import Severity
from rubric_tools.lint import all_rules, find_rule, lint_source
from rubric_tools.loading import load_matter_source
from tests.code_support import assert_as_declared

CASES_DIR = Path(__file__).parent / "rule_cases"
BASE_MATTER = CASES_DIR / "_base"


def _case_files() -> list[Path]:
    return sorted(p for p in CASES_DIR.rglob("*.yaml") if "_base" not in p.parts)


def _load(path: Path) -> dict[str, Any]:
    return YAML(typ="safe", pure=True).load(path.read_text(encoding="utf-8"))


def _cases() -> list[Any]:
    params = []
    for path in _case_files():
        spec = _load(path)
        for index, case in enumerate(spec["cases"]):
            case_id = f"{spec['rule']}:{case.get('name', index)}"
            # `also_run` (per file): rules whose findings the case's rule depends on (X103).
            case = {**case, "also_run": spec.get("also_run", [])}
            params.append(pytest.param(spec["rule"], case, id=case_id))
    return params


def _build_matter(tmp_path: Path, case: dict[str, Any]) -> Path:
    root = tmp_path / "matter"
    shutil.copytree(BASE_MATTER, root)
    for relative in case.get("delete", []):
        target = root / relative
        if target.is_dir():
            shutil.rmtree(target)
        else:
            target.unlink()
    for relative, content in (case.get("files") or {}).items():
        target = root / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, str):
            target.write_text(content, encoding="utf-8")
        elif "repeat" in content:  # {"prefix", "repeat", "times", "suffix"}: big or deep files
            text = content.get("prefix", "") + content["repeat"] * content["times"] + content.get("suffix", "")
            target.write_text(text, encoding="utf-8")
        else:  # {"bytes_hex": "..."} writes raw bytes, for encoding cases
            target.write_bytes(bytes.fromhex(content["bytes_hex"]))
    for relative in case.get("fifos", []):
        fifo = root / relative
        fifo.parent.mkdir(parents=True, exist_ok=True)
        fifo.unlink(missing_ok=True)
        os.mkfifo(fifo)
    for relative, link_target in (case.get("symlinks") or {}).items():
        link = root / relative
        link.unlink(missing_ok=True)
        link.symlink_to(link_target)
    return root


def _config(case: dict[str, Any]) -> LintSection:
    settings = dict(case.get("config") or {})
    if "severity" in settings:
        settings["severity"] = {k: Severity(v) for k, v in settings["severity"].items()}
    return LintSection(**settings)


@pytest.mark.parametrize(("code", "case"), _cases())
def test_rule_case(tmp_path: Path, code: str, case: dict[str, Any]) -> None:
    rule = find_rule(code)
    assert rule is not None, f"no rule registered as {code}"
    root = _build_matter(tmp_path, case)
    also = [find_rule(other) for other in case["also_run"]]
    source = load_matter_source(root)
    assert_as_declared(source.diagnostics)  # the loader's findings: name and severity as their codes declare
    report = lint_source(source, _config(case), [rule, *(r for r in also if r is not None)])
    got = []
    for diagnostic in report.diagnostics:
        if diagnostic.code in case["also_run"]:
            continue
        assert diagnostic.code == code, diagnostic
        assert diagnostic.span is not None, f"{code} finding without a position: {diagnostic}"
        got.append(
            {
                # The folder resolved, not the file: a finding may sit on a symlink leading out.
                "file": (diagnostic.file.parent.resolve() / diagnostic.file.name)
                .relative_to(root.resolve())
                .as_posix(),
                "line": diagnostic.span.line,
                "column": diagnostic.span.column,
                "end_line": diagnostic.span.end_line,
                "end_column": diagnostic.span.end_column,
            }
        )
    expected = case.get("expect") or []
    trimmed = [
        {k: g[k] for k in ("file", "line", "column", *(k for k in e if k.startswith("end_")))}
        for g, e in zip(sorted(got, key=_key), sorted(expected, key=_key), strict=False)
    ]
    assert len(got) == len(expected), f"expected {expected}, got {got}"
    assert trimmed == sorted(expected, key=_key)


def _key(item: dict[str, Any]) -> tuple[str, int, int]:
    return (item["file"], item["line"], item["column"])


def test_base_matter_is_clean() -> None:
    report = lint_source(load_matter_source(BASE_MATTER), LintSection(canary="base-fixture-canary"))
    assert report.diagnostics == []


def test_every_rule_has_a_firing_and_a_silent_case() -> None:
    coverage: dict[str, set[bool]] = {}
    for path in _case_files():
        spec = _load(path)
        for case in spec["cases"]:
            coverage.setdefault(spec["rule"], set()).add(bool(case.get("expect")))
    missing = [r.code for r in all_rules() if r.code != "I002" and coverage.get(r.code) != {True, False}]
    assert not missing, f"rules without both a firing and a silent case: {missing}"
