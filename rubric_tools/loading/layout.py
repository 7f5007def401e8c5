"""Where matters are on disk: cheap to import, for commands that only need to find them
(a warm `rubric lint` finds its matters, then restores their findings from the cache)."""

from __future__ import annotations

from pathlib import Path

MATTER_FILE = "matter.yaml"
YAML_SUFFIXES = (".yaml", ".yml")
#: A trajectory is JSONL or YAML (`rubric_tools.loading.trajectory` reads both).
TRAJECTORY_SUFFIXES = (".jsonl", *YAML_SUFFIXES)


def find_matter_root(path: Path) -> Path | None:
    """The nearest folder at or above `path` that holds matter.yaml."""
    current = path if path.is_dir() else path.parent
    for folder in (current, *current.parents):
        if (folder / MATTER_FILE).is_file():
            return folder
    return None
