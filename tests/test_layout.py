"""One module decides the matter-folder layout (`rubric_tools/loading/layout.py`).

Which files belong to which matter, where trajectories, probes and expectations live, the
`examples/<id>` and `trajectories/<id>` conventions: everything else asks the layout
module. A module that lists folders itself (`glob`, `rglob`, `iterdir`, `os.scandir`,
`os.listdir`, `os.walk`, `glob.glob`/`glob.iglob`) fails the first test, unless it is
allowed below with its reason.
"""

from __future__ import annotations

import ast
import os
from pathlib import Path
from typing import Any

import pytest

from rubric_tools.loading import layout

PACKAGE = Path(__file__).resolve().parents[1] / "rubric_tools"
LAYOUT_MODULE = "loading/layout.py"

#: Listing a folder outside the layout module, and why it is no layout decision:
#: (module, function) -> reason.
ALLOWED = {
    ("schemas.py", "available_schemas"): "the package's own schema files, not a matter's",
    ("authoring/new_matter.py", "_template_files"): "the package's matter template (package data)",
    ("lint/result_cache.py", "_hash_tree"): "fingerprints every byte under a matter folder, whatever the layout says",
    ("lint/result_cache.py", "_source_files"): "fingerprints the installed tool's own source files",
    ("fixing/working_copy.py", "copy_matter"): "copies a whole matter folder for the fix proof",
    ("fixing/working_copy.py", "changed_files"): "brings back every file of the working copy the fixes changed",
    ("rescore/ray_backend.py", "run_ray"): "reads back its own Parquet output",
    ("commands/replay_inputs.py", "_expand_one"): "expands a glob pattern the user typed",
}
LISTING_METHODS = frozenset({"glob", "rglob", "iterdir"})
LISTING_FUNCTIONS = frozenset(
    {("os", "scandir"), ("os", "listdir"), ("os", "walk"), ("glob", "glob"), ("glob", "iglob")}
)


def _listings(tree: ast.AST) -> list[tuple[str, int]]:
    """(enclosing function, line) of every call that lists a folder."""
    found: list[tuple[str, int]] = []

    def visit(node: ast.AST, function: str) -> None:
        for child in ast.iter_child_nodes(node):
            name = child.name if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef) else function
            if isinstance(child, ast.Call) and isinstance(child.func, ast.Attribute):
                owner = child.func.value
                module_call = isinstance(owner, ast.Name) and (owner.id, child.func.attr) in LISTING_FUNCTIONS
                if child.func.attr in LISTING_METHODS or module_call:
                    found.append((function, child.lineno))
            visit(child, name)

    visit(tree, "<module>")
    return found


def test_only_the_layout_module_lists_folders() -> None:
    offenders = []
    used: set[tuple[str, str]] = set()
    for path in sorted(PACKAGE.rglob("*.py")):
        module = path.relative_to(PACKAGE).as_posix()
        if module == LAYOUT_MODULE:
            continue
        for function, line in _listings(ast.parse(path.read_text(encoding="utf-8"))):
            if (module, function) in ALLOWED:
                used.add((module, function))
            else:
                offenders.append(f"rubric_tools/{module}:{line} ({function}) lists a folder: ask loading/layout.py")
    assert offenders == []
    assert set(ALLOWED) - used == set(), "allowed listings that no longer exist: drop them from ALLOWED"


def test_the_check_catches_a_listing() -> None:
    tree = ast.parse("import os\ndef find(root):\n    return sorted(root.rglob('*.jsonl')) + os.listdir(root)\n")
    assert _listings(tree) == [("find", 3), ("find", 3)]


def _touch(path: Path, text: str = "") -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture
def repository(tmp_path: Path) -> Path:
    """A rubric repository: one matter with files in every layout."""
    matter = tmp_path / "matters" / "m1"
    _touch(matter / "matter.yaml", "matter_id: m1\n")
    _touch(matter / "trajectories" / "own.jsonl")
    _touch(matter / "trajectories" / "own.yaml")
    _touch(matter / "trajectories" / "notes.txt")
    _touch(matter / "probes.yaml")
    _touch(matter / "expectations.yaml")
    _touch(tmp_path / "examples" / "m1" / "example.jsonl")
    _touch(tmp_path / "trajectories" / "m1" / "beside.yml")
    _touch(tmp_path / "tests" / "gate_probes" / "m1.yaml")
    _touch(tmp_path / "probes" / "m1.yaml")
    return tmp_path


def test_a_matters_trajectories_probes_and_expectations(repository: Path) -> None:
    matter = repository / "matters" / "m1"
    assert layout.trajectory_paths(matter) == [
        matter / "trajectories" / "own.jsonl",
        matter / "trajectories" / "own.yaml",
        repository / "examples" / "m1" / "example.jsonl",
        repository / "trajectories" / "m1" / "beside.yml",
    ]
    assert layout.probe_paths(matter) == [
        matter / "probes.yaml",
        repository / "tests" / "gate_probes" / "m1.yaml",
        repository / "probes" / "m1.yaml",
    ]
    assert layout.expectations_path(matter) == matter / "expectations.yaml"
    assert layout.witness_files(matter) == layout.trajectory_paths(matter) + layout.probe_paths(matter)


def test_which_matter_a_file_belongs_to(repository: Path) -> None:
    matter = (repository / "matters" / "m1").resolve()
    for file in (
        "matters/m1/rubric.yaml",
        "examples/m1/example.jsonl",
        "trajectories/m1/beside.yml",
        "tests/gate_probes/m1.yaml",
        "probes/m1.yaml",
    ):
        assert layout.matter_of_file(repository / file) == matter, file
    assert layout.matter_of_file(_touch(repository / "README.md")) is None
    assert layout.files_outside_matters([repository / "README.md", repository / "probes" / "m1.yaml"]) == [
        repository / "README.md"
    ]
    roots, problems = layout.matters_to_check([repository / "examples" / "m1" / "example.jsonl", repository])
    assert (roots, problems) == ([matter], [])


def test_matter_discovery(repository: Path) -> None:
    matter = (repository / "matters" / "m1").resolve()
    assert layout.discover_matters([repository]) == ([matter], [])
    assert layout.discover_matters([repository / "matters" / "m1" / "trajectories"]) == ([matter], [])
    roots, problems = layout.discover_matters([repository / "nowhere", repository / "examples"])
    assert roots == [] and len(problems) == 2
    assert layout.child_matters(repository / "matters") == [repository / "matters" / "m1"]
    assert layout.folder_named(repository / "matters", "m1") == repository / "matters" / "m1"
    assert layout.search_upwards(repository / "examples" / "m1", "m1") == repository / "matters" / "m1"


def test_trajectories_below_a_folder(repository: Path) -> None:
    """JSONL anywhere; YAML only in trajectories/ and examples/ folders (elsewhere it is matter files)."""
    found = [Path(path).relative_to(repository).as_posix() for path in layout.folder_trajectories(repository)]
    assert found == [
        "examples/m1/example.jsonl",
        "matters/m1/trajectories/own.jsonl",
        "matters/m1/trajectories/own.yaml",
        "trajectories/m1/beside.yml",
    ]


def test_the_scored_files_leave_out_trajectories_probes_and_expectations(repository: Path) -> None:
    matter = repository / "matters" / "m1"
    _touch(matter / "documents" / "msa.md")
    assert [relative.as_posix() for relative, _ in layout.score_shaping_files(matter)] == [
        "documents/msa.md",
        "matter.yaml",
    ]


def test_a_folder_that_vanishes_mid_walk_is_skipped(repository: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Another process may remove a folder between the walk finding it and listing it (a
    temporary matter copy being cleaned up): discovery and the listings skip it, where
    pathlib's rglob raised FileNotFoundError (reported as an internal error)."""
    _touch(repository / "scratch" / "copy" / "matter.yaml", "matter_id: copy\n")
    vanished = repository / "scratch"
    real_scandir, real_listdir = os.scandir, os.listdir

    def scandir(path: Any = ".") -> Any:
        if Path(path) == vanished:
            raise FileNotFoundError(2, "No such file or directory", str(path))
        return real_scandir(path)

    def listdir(path: Any = ".") -> list[str]:
        if Path(path) == vanished:
            raise FileNotFoundError(2, "No such file or directory", str(path))
        return real_listdir(path)

    monkeypatch.setattr(os, "scandir", scandir)
    monkeypatch.setattr(os, "listdir", listdir)
    matter = (repository / "matters" / "m1").resolve()
    assert layout.discover_matters([repository]) == ([matter], [])
    assert layout.matter_files_below(repository) == [repository / "matters" / "m1" / "matter.yaml"]
    assert layout.child_matters(vanished) == []
    assert list(layout.DISK.glob(vanished, "*")) == []
