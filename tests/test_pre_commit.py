"""Drive pre-commit for real on a temporary rubric repository.

The hooks are this repo's `.pre-commit-hooks.yaml` entries, run as a local repo with
`language: system` (the installed `rubric`), so their ids, entries and file patterns
are exercised exactly as published without pre-commit building a virtualenv.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from ruamel.yaml import YAML

from tests.conftest import REPO_ROOT

BASE = Path(__file__).parent / "rule_cases" / "_base"


def _run(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PRE_COMMIT_HOME": str(cwd.parent / "pre-commit-cache"), "NO_COLOR": "1"}
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    return subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, check=False)


@pytest.fixture
def rubric_repo(tmp_path: Path) -> Path:
    if shutil.which("git") is None or shutil.which("rubric", path=f"{Path(sys.executable).parent}") is None:
        pytest.skip("git and an installed `rubric` are needed")
    repo = tmp_path / "rubrics"
    shutil.copytree(BASE, repo / "matters" / "base_fixture")
    hooks = YAML(typ="safe").load((REPO_ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    for hook in hooks:
        hook["language"] = "system"
    config = {"repos": [{"repo": "local", "hooks": hooks}]}
    with (repo / ".pre-commit-config.yaml").open("w", encoding="utf-8") as stream:
        YAML().dump(config, stream)
    (repo / "rubric.toml").write_text('canary = "base-fixture-canary"\n', encoding="utf-8")
    for command in (
        ["git", "init", "-q"],
        ["git", "config", "user.email", "t@example.com"],
        ["git", "config", "user.name", "t"],
        ["git", "add", "-A"],
    ):
        assert _run(command, repo).returncode == 0
    return repo


def test_hooks_fail_on_a_seeded_defect_and_pass_once_fixed(rubric_repo: Path) -> None:
    rubric = rubric_repo / "matters" / "base_fixture" / "rubric.yaml"
    good = rubric.read_text(encoding="utf-8")
    rubric.write_text(good.replace('anchor: "hosting §3.1"', 'anchor: "hosting § 3.1"'), encoding="utf-8")
    _run(["git", "add", "-A"], rubric_repo)
    failing = _run([sys.executable, "-m", "pre_commit", "run", "--all-files"], rubric_repo)
    assert failing.returncode == 1, failing.stdout + failing.stderr
    assert "rubric lint" in failing.stdout and "Failed" in failing.stdout
    assert "hosting § 3.1" in failing.stdout or "A005" in failing.stdout

    rubric.write_text(good, encoding="utf-8")
    _run(["git", "add", "-A"], rubric_repo)
    passing = _run([sys.executable, "-m", "pre_commit", "run", "--all-files"], rubric_repo)
    assert passing.returncode == 0, passing.stdout + passing.stderr
    assert passing.stdout.count("Passed") == 2


def test_a_changed_document_checks_its_whole_matter(rubric_repo: Path) -> None:
    hosting = rubric_repo / "matters" / "base_fixture" / "documents" / "hosting.md"
    # Renaming the anchor's section breaks the rubric, which is not among the changed files.
    hosting.write_text(
        hosting.read_text(encoding="utf-8").replace("## 3.1 Availability", "## 3.2 Availability"), encoding="utf-8"
    )
    _run(["git", "add", "-A"], rubric_repo)
    result = _run([sys.executable, "-m", "pre_commit", "run", "rubric-lint", "--files", str(hosting)], rubric_repo)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "rubric.yaml" in result.stdout
