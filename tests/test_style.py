"""The code is `ruff check` and `ruff format --check` clean (the configuration is `[tool.ruff]`
in pyproject.toml; ruff's version is bounded in the test extra, since its style can change
between minor releases)."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys

import pytest

from tests.conftest import REPO_ROOT


@pytest.mark.parametrize("command", [["check", "--no-cache"], ["format", "--check", "--no-cache"]])
def test_ruff_is_clean(command: list[str]) -> None:
    if importlib.util.find_spec("ruff") is None:
        if os.environ.get("CI") or os.environ.get("RUBRIC_REQUIRE_CONFORMANCE") == "1":
            pytest.fail("ruff is not installed: install the test extra (pip install -e '.[test]')")
        pytest.skip("ruff is not installed")
    completed = subprocess.run(
        [sys.executable, "-m", "ruff", *command, "."],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert completed.returncode == 0, completed.stdout + completed.stderr
