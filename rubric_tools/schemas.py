"""Find and load the JSON Schemas shipped with rubric-tools.

In a wheel the top-level `schemas/` folder is force-included as the package data
folder `rubric_tools/_schemas`; in a source checkout or an editable install that
folder does not exist, so we fall back to the repository's `schemas/` next to
the package. The lookup order is therefore: package data first (what users of
an installed tool get), then the checkout.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from importlib.resources.abc import Traversable

#: The folder name of the schemas inside the installed package.
PACKAGE_SCHEMA_FOLDER = "_schemas"
#: The repository folder that holds the schemas in a source checkout.
CHECKOUT_SCHEMA_FOLDER = Path(__file__).resolve().parent.parent / "schemas"
SCHEMA_SUFFIX = ".schema.json"


class SchemaNotFoundError(LookupError):
    """Raised for a schema name that rubric-tools does not ship."""


def _file_name(name: str) -> str:
    """`rubric`, `rubric.schema.json` and `rubric.yaml` all mean rubric.schema.json."""
    base = name.strip()
    for suffix in (SCHEMA_SUFFIX, ".yaml", ".yml", ".json"):
        base = base.removesuffix(suffix)
    return base + SCHEMA_SUFFIX


def _package_data() -> Traversable:
    """The package's data folder of schemas. A package on the file system (every pip install)
    has it beside this module, which is what `importlib.resources` answers for one; that module
    and what it imports (zipfile, tempfile, ...) are loaded only for another loader's package
    (a zipped install)."""
    package = Path(__file__).parent
    if package.is_dir():
        return package / PACKAGE_SCHEMA_FOLDER
    from importlib import resources

    return resources.files("rubric_tools").joinpath(PACKAGE_SCHEMA_FOLDER)


def _schema_folders() -> list[Traversable]:
    folders: list[Traversable] = []
    try:
        packaged = _package_data()
        if packaged.is_dir():
            folders.append(packaged)
    except (ModuleNotFoundError, OSError):  # an unusual loader: use the checkout
        pass
    if CHECKOUT_SCHEMA_FOLDER.is_dir():
        folders.append(CHECKOUT_SCHEMA_FOLDER)
    return folders


def _locate(name: str) -> Traversable:
    file_name = _file_name(name)
    for folder in _schema_folders():
        candidate = folder.joinpath(file_name)
        if candidate.is_file():
            return candidate
    raise SchemaNotFoundError(f"no schema named {name!r}; available: {', '.join(available_schemas()) or 'none found'}")


def available_schemas() -> list[str]:
    """Short names (`matter`, `rubric`, ...) of every schema that can be loaded."""
    names: set[str] = set()
    for folder in _schema_folders():
        names.update(
            entry.name.removesuffix(SCHEMA_SUFFIX) for entry in folder.iterdir() if entry.name.endswith(SCHEMA_SUFFIX)
        )
    return sorted(names)


def schema_path(name: str) -> Path:
    """The file system path of schema `name`, e.g. for a `$schema=` editor comment.

    Package data that is not on the file system (a zipped install) has no path;
    that raises SchemaNotFoundError rather than returning something unusable.
    """
    located = _locate(name)
    if isinstance(located, Path):
        return located
    as_path = Path(str(located))
    if as_path.is_file():
        return as_path
    raise SchemaNotFoundError(f"schema {name!r} is packaged without a file system path")


def load_schema(name: str) -> dict[str, Any]:
    """Schema `name` (`rubric` or `rubric.schema.json`) as a dict, parsed once per process.

    The same dict is returned on every call (validators are built on it), so
    callers must treat it as read-only.
    """
    return _load_file(_file_name(name))


@cache
def _load_file(file_name: str) -> dict[str, Any]:
    located = _locate(file_name)
    schema: dict[str, Any] = json.loads(located.read_text(encoding="utf-8"))
    return schema
