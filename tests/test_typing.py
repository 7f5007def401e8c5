"""The package is `mypy --strict` clean (the configuration is `[tool.mypy]` in pyproject.toml)."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys

import pytest

from tests.conftest import REPO_ROOT


def test_mypy_strict_is_clean() -> None:
    if importlib.util.find_spec("mypy") is None:
        if os.environ.get("CI") or os.environ.get("RUBRIC_REQUIRE_CONFORMANCE") == "1":
            pytest.fail("mypy is not installed: install the test extra (pip install -e '.[test]')")
        pytest.skip("mypy is not installed")
    completed = subprocess.run(
        [sys.executable, "-m", "mypy", "--config-file", str(REPO_ROOT / "pyproject.toml")],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert completed.returncode == 0, completed.stdout + completed.stderr
