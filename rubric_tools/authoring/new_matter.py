"""A complete, lint-clean matter skeleton for `rubric new MATTER_ID`.

The templates are package data (`rubric_tools/templates/matter/`). Placeholders are
`{{name}}` tokens, replaced literally so that regexes such as `{0,60}` in the templates
need no escaping. The reference trajectory is not a template: the solver builds it from
the freshly written rubric, documents and counterparty script, so it always matches them.
"""

from __future__ import annotations

import os
import re
import shutil
from dataclasses import dataclass, field
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import TextIO

from rubric_tools.loading.layout import MATTERS_FOLDER, TRAJECTORIES_FOLDER

# A folder name that works on every platform and in a citation-free YAML scalar.
MATTER_ID = re.compile(r"^[a-z0-9][a-z0-9_-]{0,63}$")
SCHEMA_FOLDER = "schemas"
SCHEMA_NAMES = ("matter", "rubric", "hidden_facts", "counterparty", "expectations", "probes", "action", "trajectory")
REFERENCE_TRAJECTORY = Path(TRAJECTORIES_FOLDER) / "reference.yaml"


@dataclass
class NewMatterOptions:
    matter_id: str
    directory: Path = Path(MATTERS_FOLDER)
    config_file: Path | None = None


@dataclass
class NewMatterResult:
    root: Path
    written: list[Path] = field(default_factory=list)
    schemas_written: Path | None = None


def _template_root() -> Traversable:
    return resources.files("rubric_tools").joinpath("templates", "matter")


def _template_files(folder: Traversable, prefix: Path = Path()) -> list[tuple[Path, str]]:
    found: list[tuple[Path, str]] = []
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        if entry.is_dir():
            found += _template_files(entry, prefix / entry.name)
        elif entry.name.endswith((".yaml", ".md")):
            found.append((prefix / entry.name, entry.read_text(encoding="utf-8")))
    return found


def id_problem(matter_id: str) -> str | None:
    """Why `matter_id` cannot name a new matter folder, or None when it can."""
    if MATTER_ID.match(matter_id):
        return None
    return (
        f"{matter_id!r} is not a valid matter id: use 1-64 lower-case letters, digits, '_' or '-', "
        "starting with a letter or digit (it is also the folder name)"
    )


def _folder_declaring(directory: Path, matter_id: str) -> Path | None:
    """A matter under `directory` whose matter.yaml already declares `matter_id` (under
    another folder name), which `rubric check` would report as a duplicate (M001)."""
    from rubric_tools.loading.layout import matter_files_below
    from rubric_tools.loading.yaml_source import load_yaml

    for matter_file in matter_files_below(directory):
        data = load_yaml(matter_file).data
        if isinstance(data, dict) and data.get("matter_id") == matter_id:
            return matter_file.parent
    return None


def _existing_schema_folder(start: Path) -> Path | None:
    """The nearest `schemas/` folder at or above `start` that holds our schemas."""
    for folder in (start, *start.parents):
        candidate = folder / SCHEMA_FOLDER
        if (candidate / "matter.schema.json").is_file():
            return candidate
    return None


def _vendor_schemas(destination: Path) -> None:
    """Copy the shipped schemas so that the repository's schema lines resolve for anyone
    who clones it, with no network and no installed package path baked in."""
    from rubric_tools.schemas import schema_path

    destination.mkdir(parents=True, exist_ok=True)
    for name in SCHEMA_NAMES:
        shutil.copyfile(schema_path(name), destination / f"{name}.schema.json")


def _render(text: str, values: dict[str, str]) -> str:
    for key, value in values.items():
        text = text.replace("{{" + key + "}}", value)
    return text


def create_matter(options: NewMatterOptions, canary: str | None) -> NewMatterResult:
    """Write the skeleton (no reference trajectory yet). Raises ValueError on a bad id or
    an existing folder."""
    problem = id_problem(options.matter_id)
    if problem is not None:
        raise ValueError(problem)
    root = options.directory / options.matter_id
    if root.exists():
        raise ValueError(f"{root} already exists: choose a new matter id")
    taken = _folder_declaring(options.directory, options.matter_id)
    if taken is not None:
        raise ValueError(f"{taken} already declares matter_id {options.matter_id!r}: choose a new matter id")
    result = NewMatterResult(root)
    schemas = _existing_schema_folder(options.directory.resolve())
    if schemas is None:
        schemas = options.directory.resolve().parent / SCHEMA_FOLDER
        _vendor_schemas(schemas)
        result.schemas_written = schemas
    values = {
        "matter_id": options.matter_id,
        "schema_base": Path(os.path.relpath(schemas, root.resolve())).as_posix(),
        "canary_line": f"canary: {canary}" if canary else "# canary: set [tool.rubric] canary and copy it here",
    }
    for relative, text in _template_files(_template_root()):
        target = root / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(_render(text, values), encoding="utf-8")
        result.written.append(target)
    return result


def write_reference(result: NewMatterResult, err: TextIO) -> bool:
    """Solve the new matter and save the solver's trajectory as its reference."""
    from rubric_tools.loading.matter import load_matter_source
    from rubric_tools.loading.trajectory_writer import actions_to_yaml
    from rubric_tools.prove.solver import solve

    source = load_matter_source(result.root)
    if not source.ok:
        for diagnostic in source.diagnostics:
            err.write(f"error: {diagnostic.file}:{diagnostic.line}: {diagnostic.code} {diagnostic.message}\n")
        return False
    solution = solve(source.matter)
    target = result.root / REFERENCE_TRAJECTORY
    target.parent.mkdir(parents=True, exist_ok=True)
    schema = Path(os.path.relpath(_existing_schema_folder(result.root.resolve()) or Path(), target.parent.resolve()))
    target.write_text(
        actions_to_yaml(solution.actions, (schema / "trajectory.schema.json").as_posix()), encoding="utf-8"
    )
    result.written.append(target)
    return solution.exit_code == 0
