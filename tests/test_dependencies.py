"""Dependencies are used through their public API only (DEVELOPERS_BRIEF: never import a
dependency's private modules): a private module or name of a third-party package
(`typer._click`, `from typer import _coercion`) breaks with the dependency's next release,
as typer's vendoring of click did."""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
SOURCES = [*sorted((REPO_ROOT / "rubric_tools").rglob("*.py")), REPO_ROOT / "hatch_build.py"]


def _private(dotted: str) -> bool:
    return any(part.startswith("_") and not part.startswith("__") for part in dotted.split("."))


def _third_party(module: str) -> bool:
    top = module.split(".")[0]
    return top not in sys.stdlib_module_names and top not in ("rubric_tools", "__future__", "tests", "hatch_build")


def private_imports(tree: ast.AST) -> Iterator[tuple[int, str]]:
    """(line, what) for every import of a third-party package's private module or name."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if _third_party(alias.name) and _private(alias.name):
                    yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0 and _third_party(node.module):
            for alias in node.names:
                if _private(f"{node.module}.{alias.name}"):
                    yield node.lineno, f"{node.module}.{alias.name}"


def test_the_checker_sees_private_imports() -> None:
    found = private_imports(ast.parse("import typer._click\nfrom typer import _coercion\nfrom typer.core import x\n"))
    assert [what for _, what in found] == ["typer._click", "typer._coercion"]


def test_no_private_module_of_a_dependency_is_imported() -> None:
    offending = [
        f"{path.relative_to(REPO_ROOT)}:{line}: {what}"
        for path in SOURCES
        for line, what in private_imports(ast.parse(path.read_text(encoding="utf-8")))
    ]
    assert offending == []
