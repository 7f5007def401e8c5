"""Repository-level matter findings of `rubric check` (codes M001-M002).

They are check rows, not lint rules: a lint rule sees one matter, while a duplicate id
needs every matter of the repository, and fixture matters (rule cases, corpora copied
under another folder name) are linted on their own without these repository rules.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import Protocol

from rubric_tools.authoring_codes import MATTER_ID_FOLDER_MISMATCH

REPOSITORY_MARKERS = (".git", "pyproject.toml", "rubric.toml")


class _Matter(Protocol):
    root: Path
    matter_id: str


def repository_root(matter_root: Path) -> Path:
    """The nearest folder above the matter holding `.git` or a configuration file; the
    file system root when there is none (every matter checked together then counts)."""
    for folder in matter_root.resolve().parents:
        if any((folder / marker).exists() for marker in REPOSITORY_MARKERS):
            return folder
    return Path(matter_root.resolve().anchor)


def id_mismatch(root: Path, declared_id: object) -> str | None:
    """M002: why the declared matter_id does not name its folder, or None."""
    if not isinstance(declared_id, str) or declared_id == root.name:
        return None
    return f"{MATTER_ID_FOLDER_MISMATCH.code} matter_id {declared_id!r} differs from the folder name {root.name!r}"


def duplicate_ids(matters: Sequence[_Matter]) -> dict[Path, list[Path]]:
    """M001: for each matter root, the other roots of the same repository sharing its id."""
    groups: dict[tuple[Path, str], list[Path]] = defaultdict(list)
    for matter in matters:
        groups[(repository_root(matter.root), matter.matter_id)].append(matter.root)
    clashes: dict[Path, list[Path]] = {}
    for roots in groups.values():
        if len(roots) > 1:
            for root in roots:
                clashes[root] = [other for other in roots if other != root]
    return clashes
