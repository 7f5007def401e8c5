"""`rubric lint --fix` as a pre-commit hook: the published `rubric-lint` hook with
`args: [--fix]` fixes the staged matter, fails the commit once (files were modified),
and passes on the next run."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from ruamel.yaml import YAML

from tests.conftest import REPO_ROOT
from tests.fix_support import BASE, CANARY


def _run(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PRE_COMMIT_HOME": str(cwd.parent / "pre-commit-cache"), "NO_COLOR": "1"}
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    return subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, check=False)


def test_the_lint_hook_with_fix_args_fixes_the_matter(tmp_path: Path) -> None:
    if shutil.which("git") is None or shutil.which("rubric", path=f"{Path(sys.executable).parent}") is None:
        pytest.skip("git and an installed `rubric` are needed")
    repo = tmp_path / "rubrics"
    matter = repo / "matters" / "base_fixture"
    shutil.copytree(BASE, matter)
    hooks = YAML(typ="safe").load((REPO_ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    hook = next(h for h in hooks if h["id"] == "rubric-lint")
    hook.update(language="system", args=["--fix"])
    with (repo / ".pre-commit-config.yaml").open("w", encoding="utf-8") as stream:
        YAML().dump({"repos": [{"repo": "local", "hooks": [hook]}]}, stream)
    (repo / "rubric.toml").write_text(f'canary = "{CANARY}"\n', encoding="utf-8")
    rubric = matter / "rubric.yaml"
    rubric.write_text(rubric.read_text("utf-8").replace('"hosting §3.1"', '"hosting § 3.1"', 1), encoding="utf-8")
    for command in (
        ["git", "init", "-q"],
        ["git", "config", "user.email", "t@example.com"],
        ["git", "config", "user.name", "t"],
        ["git", "add", "-A"],
    ):
        assert _run(command, repo).returncode == 0

    first = _run([sys.executable, "-m", "pre_commit", "run", "--all-files"], repo)
    assert first.returncode == 1, first.stdout + first.stderr
    assert "files were modified by this hook" in first.stdout
    assert rubric.read_bytes() == (BASE / "rubric.yaml").read_bytes()
    _run(["git", "add", "-A"], repo)
    second = _run([sys.executable, "-m", "pre_commit", "run", "--all-files"], repo)
    assert second.returncode == 0, second.stdout + second.stderr
