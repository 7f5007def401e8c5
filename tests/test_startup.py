"""Start-up stays cheap: a command imports only what it runs. Checked by which modules a
fresh interpreter has loaded, never by timing (`benchmarks/startup.py` measures time)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.conftest import MATTERS_DIR, REPO_ROOT

#: Costly to import and needed only by the work itself (parsing, scoring, typer's adapters).
HEAVY = ("pydantic", "regex", "ruamel.yaml", "rubric_tools.scoring.episode", "rubric_tools.loading.matter")

_PROBE = """
import json, sys
from rubric_tools.cli import main
code = main(sys.argv[1:])
sys.stdout.flush()
print(json.dumps([code, sorted(name for name in {heavy!r} if name in sys.modules)]), file=sys.stderr)
"""


def _heavy_modules_after(arguments: list[str], cache_dir: Path) -> tuple[int, list[str]]:
    environment = {**os.environ, "RUBRIC_CACHE_DIR": str(cache_dir)}
    environment.pop("RUBRIC_NO_CACHE", None)
    completed = subprocess.run(
        [sys.executable, "-c", _PROBE.format(heavy=HEAVY), *arguments],
        capture_output=True,
        text=True,
        cwd=REPO_ROOT,
        env=environment,
        check=False,
    )
    code, loaded = json.loads(completed.stderr.strip().splitlines()[-1])
    return code, loaded


def test_the_package_and_help_import_nothing_heavy(tmp_path: Path) -> None:
    assert _heavy_modules_after(["--help"], tmp_path) == (0, [])
    assert _heavy_modules_after(["replay", "--help"], tmp_path) == (0, [])
    completed = subprocess.run(
        [sys.executable, "-c", f"import sys, rubric_tools; print([m for m in {HEAVY!r} if m in sys.modules])"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert completed.stdout.strip() == "[]"


def test_a_warm_lint_imports_neither_the_loader_nor_the_scorer(tmp_path: Path) -> None:
    matter = str(MATTERS_DIR / "ai_saas_001")
    first_code, first_loaded = _heavy_modules_after(["lint", matter], tmp_path)
    assert "rubric_tools.loading.matter" in first_loaded  # a cold run does the work
    assert _heavy_modules_after(["lint", matter], tmp_path) == (first_code, [])
