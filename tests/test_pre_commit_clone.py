"""AUTHORING's pre-commit and CI snippets, exactly as written, on a fresh repository.

pre-commit builds the hook environment itself: it clones rubric-tools (a local clone of
this repository's HEAD stands in for the URL), checks out `rev:` and pip-installs the
package with its dependencies, as it would for an author. This needs pip to reach a
package index; it takes a minute at most. Deselect locally with `-m "not network"`.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from ruamel.yaml import YAML

from tests.conftest import REPO_ROOT

pytestmark = pytest.mark.network

AUTHORING = REPO_ROOT / "AUTHORING.md"


def _section_blocks(title: str) -> list[str]:
    text = AUTHORING.read_text(encoding="utf-8")
    section = text.split(f"## {title}\n", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"```yaml\n(.*?)```", section, flags=re.S)


def _run(args: list[str], cwd: Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, check=False, timeout=300)


def _git(cwd: Path, *args: str) -> str:
    result = _run(["git", *args], cwd)
    assert result.returncode == 0, result.stderr
    return result.stdout.strip()


def _hook_source(tmp: Path) -> tuple[Path, str]:
    """A git repository holding this source tree at a commit: a clone of HEAD, or (for a
    plain source tree) a fresh commit of it."""
    clone = tmp / "rubric-tools"
    if _run(["git", "rev-parse", "HEAD"], REPO_ROOT).returncode == 0:
        _git(tmp, "clone", "--quiet", "--no-hardlinks", str(REPO_ROOT), str(clone))
    else:
        shutil.copytree(REPO_ROOT, clone, ignore=shutil.ignore_patterns(".venv", "*.egg-info", "__pycache__"))
        _git(clone, "init", "-q")
        _git(clone, "add", "-A")
        _git(clone, "-c", "user.email=t@example.com", "-c", "user.name=t", "commit", "-qm", "source")
    return clone, _git(clone, "rev-parse", "HEAD")


@pytest.fixture
def fresh_repo(tmp_path: Path) -> Path:
    if shutil.which("git") is None:
        pytest.skip("git is needed")
    repo = tmp_path / "rubrics"
    repo.mkdir()
    (repo / "pyproject.toml").write_text(
        '[tool.rubric]\nmatter-dirs = ["matters"]\ncanary = "fresh-canary-1"\n', encoding="utf-8"
    )
    rubric = Path(sys.executable).parent / "rubric"
    assert _run([str(rubric), "new", "first_matter_001"], repo).returncode == 0
    # Files the hooks' patterns match that belong to no matter: skipped, never exit 2.
    (repo / "README.md").write_text("# Our rubrics\n", encoding="utf-8")
    (repo / "fixtures").mkdir()
    (repo / "fixtures" / "sample.jsonl").write_text('{"not": "a trajectory"}\n', encoding="utf-8")
    (repo / "notes" / "documents").mkdir(parents=True)
    (repo / "notes" / "documents" / "draft.md").write_text("# notes\n", encoding="utf-8")
    _git(repo, "init", "-q")
    _git(repo, "add", "-A")
    return repo


def test_pre_commit_snippet_builds_the_hooks_from_a_clone(fresh_repo: Path, tmp_path: Path) -> None:
    clone, sha = _hook_source(tmp_path)
    snippet = next(block for block in _section_blocks("Pre-commit and CI") if "repos:" in block)
    config = YAML(typ="safe").load(snippet)
    assert [hook["id"] for hook in config["repos"][0]["hooks"]] == ["rubric-lint", "rubric-check"]
    # Exactly as written, with the two placeholders an author fills in.
    written = re.sub(r"(?m)^(\s*- repo: )\S+", lambda m: m.group(1) + str(clone), snippet)
    written = re.sub(r"(?m)^(\s*rev: )\S+", lambda m: m.group(1) + sha, written)
    (fresh_repo / ".pre-commit-config.yaml").write_text(written, encoding="utf-8")
    env = {
        **os.environ,
        "PRE_COMMIT_HOME": str(tmp_path / "pre-commit-home"),
        "NO_COLOR": "1",
        "PIP_DISABLE_PIP_VERSION_CHECK": "1",
    }
    result = _run([sys.executable, "-m", "pre_commit", "run", "--all-files"], fresh_repo, env)
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.count("Passed") == 2, result.stdout
    # The environment pre-commit built holds rubric-tools installed from the clone.
    installed = list((tmp_path / "pre-commit-home").glob("repo*/py_env-*/bin/rubric"))
    assert installed, "pre-commit did not build a python environment with `rubric`"
    # That install is a built wheel, not a checkout: its templates are package data.
    built = _run([str(installed[0]), "new", "second_matter_002"], fresh_repo)
    assert built.returncode == 0, built.stdout + built.stderr

    # A seeded defect in a matter file fails the hook.
    rubric = fresh_repo / "matters" / "first_matter_001" / "rubric.yaml"
    rubric.write_text(
        rubric.read_text(encoding="utf-8").replace('anchor: "contract §3"', 'anchor: "contract § 3"'), encoding="utf-8"
    )
    failing = _run([sys.executable, "-m", "pre_commit", "run", "--all-files"], fresh_repo, env)
    assert failing.returncode == 1 and "Failed" in failing.stdout, failing.stdout


def test_ci_snippet_commands_run_on_a_fresh_repository(fresh_repo: Path) -> None:
    snippet = next(block for block in _section_blocks("Pre-commit and CI") if "jobs:" in block)
    steps = YAML(typ="safe").load(snippet)["jobs"]["check"]["steps"]
    commands = [step["run"] for step in steps if "run" in step]
    install, *checks = commands
    assert re.fullmatch(r'pip install "rubric-tools @ git\+\S+@[0-9a-f]{40}"', install)
    bin_dir = str(Path(sys.executable).parent)
    env = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}", "NO_COLOR": "1"}
    for command in checks:  # the installed rubric stands in for the pip line
        result = subprocess.run(
            command, shell=True, cwd=fresh_repo, env=env, capture_output=True, text=True, check=False, timeout=120
        )
        assert result.returncode == 0, f"{command}: {result.stdout}{result.stderr}"
    assert (fresh_repo / "rubric-check.xml").is_file() and (fresh_repo / "rubric.sarif").is_file()
