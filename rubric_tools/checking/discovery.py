"""Where a matter's trajectories and gate probes live.

Supported layouts, for a matter at `<repo>/matters/<id>/`:
- inside the matter: `trajectories/*.jsonl` (or `.yaml`/`.yml`) and `probes.yaml`;
- rubric-repo layouts beside `matters/`: `examples/<id>/*.jsonl` or
  `trajectories/<id>/*.jsonl` (or YAML), and `tests/gate_probes/<id>.yaml` or
  `probes/<id>.yaml`.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from rubric_tools.lint.engine import discover_matters
from rubric_tools.lint.witnesses import MATTERS_FOLDER, probe_paths, trajectory_paths
from rubric_tools.loading.matter import MATTER_FILE, find_matter_root
from rubric_tools.replaying import locate_matter


def trajectory_files(matter_root: Path) -> list[Path]:
    # One definition of the layouts, shared with the lint engine's fix proof and cache.
    return trajectory_paths(matter_root)


def probe_files(matter_root: Path) -> list[Path]:
    return probe_paths(matter_root)


def _owner(path: Path) -> Path | None:
    """The matter a changed file belongs to (how the pre-commit hook calls us)."""
    owner = find_matter_root(path.resolve())
    if owner is not None:
        return owner
    if path.suffix == ".jsonl":
        return locate_matter(path)
    if path.suffix in (".yaml", ".yml") and path.resolve().parent.parent.name in ("examples", "trajectories"):
        return locate_matter(path)  # a YAML trajectory in examples/<id>/ or trajectories/<id>/
    if path.suffix in (".yaml", ".yml") and path.parent.name in ("gate_probes", "probes"):
        base = path.resolve().parent.parent
        base = base.parent if path.parent.name == "gate_probes" else base
        candidate = base / MATTERS_FOLDER / path.stem
        return candidate if (candidate / MATTER_FILE).is_file() else None
    return None


def files_outside_matters(paths: Sequence[Path]) -> list[Path]:
    """The given files that belong to no matter (what `--ignore-non-matter-files` drops:
    a README.md or a JSONL fixture elsewhere in the repository a hook was handed)."""
    return [path for path in paths if path.is_file() and _owner(path) is None]


def matters_to_check(paths: Sequence[Path]) -> tuple[list[Path], list[str]]:
    """Matter folders for the given paths: folders are searched recursively; a file
    stands for its whole matter."""
    roots: dict[Path, None] = {}
    problems: list[str] = []
    for path in paths:
        if path.is_file():
            owner = _owner(path)
            if owner is None:
                problems.append(f"{path}: not part of any matter")
            else:
                roots[owner.resolve()] = None
            continue
        found, issues = discover_matters([path])
        roots.update(dict.fromkeys(found))
        problems += issues
    if not roots and not problems:  # never check nothing silently
        problems.append(f"no matter to check: no path given (a matter is a folder holding {MATTER_FILE})")
    return list(roots), problems
