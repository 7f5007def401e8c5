"""Helpers for the fix, suppression and baseline tests: seeded copies of the base matter."""

from __future__ import annotations

import io
import shutil
from pathlib import Path

from rubric_tools.commands.lint import LintOptions, run_lint
from rubric_tools.config.lint import LintSection
from rubric_tools.lint.engine import lint_paths
from rubric_tools.reporting.formats import OutputFormat

BASE = Path(__file__).parent / "rule_cases" / "_base"
CANARY = "base-fixture-canary"
CONFIG = LintSection(canary=CANARY)


def base_copy(tmp_path: Path, name: str = "base_fixture") -> Path:
    """A copy of the clean base matter at `<tmp>/matters/<name>` (the repository layout)."""
    root = tmp_path / "matters" / name
    shutil.copytree(BASE, root)
    return root


def seed(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} not in {path}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def codes(root: Path, config: LintSection = CONFIG) -> list[str]:
    return [d.code for d in lint_paths([root], config).diagnostics]


def run(cwd: Path, *paths: Path, **options: object) -> tuple[int, str, str]:
    """`rubric lint` in-process, with a rubric.toml-free configuration (the canary is passed)."""
    if not (cwd / "rubric.toml").exists():
        (cwd / "rubric.toml").write_text(f'canary = "{CANARY}"\n', encoding="utf-8")
    stdout, stderr = io.StringIO(), io.StringIO()
    settings = {"output_format": OutputFormat.CONCISE, **options}
    code = run_lint(LintOptions(paths=list(paths), cwd=cwd, no_color=True, **settings), stdout, stderr)  # type: ignore[arg-type]
    return code, stdout.getvalue(), stderr.getvalue()
