"""The package's dependency direction, enforced over the import graph.

Every module of `rubric_tools` belongs to a top-level package (or module). The packages
are ordered in layers, lowest first; a module may import (at module level or inside a
function — a lazy import is still a dependency) only from its own package or from a
lower layer. A back-edge or a cycle between packages fails this test, and so does a new
package nobody has placed in a layer. README's "Architecture" section describes the same
order.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

PACKAGE_DIR = Path(__file__).resolve().parents[1] / "rubric_tools"

# Lowest first. Packages in one layer do not import each other.
LAYERS: tuple[frozenset[str], ...] = (
    frozenset({"_accelerator", "_lazy", "_version", "defaults", "diagnostics", "regular_files"}),
    frozenset({"config"}),  # finding and reading rubric.toml / [tool.rubric]
    frozenset({"catalogue", "schemas"}),
    frozenset({"codes", "authoring_codes", "internal_codes"}),
    frozenset({"scoring"}),  # the pure core: no I/O (see the test below)
    frozenset({"loading"}),
    # shared below lint and audit: regex and gate analysis; fixes as data and YAML edits
    frozenset({"gate_analysis", "fixing"}),
    frozenset({"prove", "replaying", "suppressions"}),  # suppressions: `# rubric: ignore[...]`, lint's and audit's
    frozenset({"lint"}),  # rule P100 runs the solver
    frozenset({"audit"}),  # `rubric audit`: executes gates and concepts (lint's U001/U005 run its cheap part)
    frozenset({"checking", "rescore", "authoring"}),  # rescore: re-scoring archives (replaying finds matters)
    frozenset({"coverage"}),  # replays and re-runs checks; reporting renders its results
    frozenset({"reporting", "docs"}),
    frozenset({"commands"}),
    frozenset({"cli"}),
    frozenset({"__main__"}),
)
# The package's own __init__ is the public API facade: it may import anything, and
# nothing inside the package imports it.
FACADE = "__init__"

_IO_MODULES = frozenset({"os", "io", "pathlib", "shutil", "subprocess", "tempfile", "glob", "socket", "sys"})


def _layer_of(package: str) -> int:
    for index, layer in enumerate(LAYERS):
        if package in layer:
            return index
    raise AssertionError(f"rubric_tools.{package} is in no layer: place it in LAYERS (tests/test_architecture.py)")


def _package_of(path: Path) -> str:
    relative = path.relative_to(PACKAGE_DIR)
    return relative.parts[0].removesuffix(".py")


def _imported_modules(tree: ast.AST) -> Iterator[tuple[str, int]]:
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if node.module == "rubric_tools":
                for alias in node.names:  # a submodule, or a name of the facade
                    submodule = (PACKAGE_DIR / alias.name).is_dir() or (PACKAGE_DIR / f"{alias.name}.py").is_file()
                    yield (f"rubric_tools.{alias.name}" if submodule else "rubric_tools"), node.lineno
            else:
                yield node.module, node.lineno
        elif isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, node.lineno


def _modules() -> list[Path]:
    return sorted(PACKAGE_DIR.rglob("*.py"))


def _edges() -> Iterator[tuple[str, str, str]]:
    """(importing package, imported package, where) for every cross-package import."""
    for path in _modules():
        source = _package_of(path)
        if source == FACADE:
            continue
        for module, line in _imported_modules(ast.parse(path.read_text(encoding="utf-8"))):
            parts = module.split(".")
            if parts[0] != "rubric_tools":
                continue
            target = parts[1] if len(parts) > 1 else FACADE
            if target != source:
                yield source, target, f"{path.relative_to(PACKAGE_DIR.parent)}:{line}"


def test_every_package_has_a_layer() -> None:
    for path in _modules():
        package = _package_of(path)
        if package != FACADE:
            _layer_of(package)


def test_imports_point_down_the_layers() -> None:
    back_edges = [
        f"{where}: {source} imports {target}"
        for source, target, where in _edges()
        if target == FACADE or _layer_of(target) >= _layer_of(source)
    ]
    assert back_edges == [], "imports against the documented direction:\n" + "\n".join(back_edges)


def test_the_scoring_core_does_no_io() -> None:
    offenders = []
    for path in (PACKAGE_DIR / "scoring").rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for module, line in _imported_modules(tree):
            if module.split(".")[0] in _IO_MODULES:
                offenders.append(f"{path.name}:{line} imports {module}")
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("open", "print"):
                offenders.append(f"{path.name}:{node.lineno} calls {node.func.id}()")
    assert offenders == []


@pytest.mark.parametrize(
    ("source", "target", "allowed"),
    [("lint", "prove", True), ("prove", "lint", False), ("scoring", "loading", False), ("cli", "commands", True)],
)
def test_the_layer_order_itself(source: str, target: str, allowed: bool) -> None:
    assert (_layer_of(target) < _layer_of(source)) is allowed
