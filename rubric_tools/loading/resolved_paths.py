"""`Path.resolve()` of many files in few folders, with one system call per file.

`Path.resolve()` checks every component of the path for a symbolic link: a `rubric replay`
of 100,000 trajectories in one folder would resolve that folder 100,000 times, twice (to find
each trajectory's matter and to show its path). A file that is not itself a link resolves to
its resolved folder joined with its name, so the folder is resolved once.
"""

from __future__ import annotations

import os
import stat
from functools import lru_cache
from pathlib import Path

#: Folders remembered at once; past this the least recently used is resolved again.
REMEMBERED_FOLDERS = 4096


@lru_cache(maxsize=REMEMBERED_FOLDERS)
def resolved_folder(folder: Path) -> Path:
    return folder.resolve()


def resolve_file(path: Path) -> Path:
    """`path.resolve()`, resolving its folder once for every file in it."""
    if path.name in ("", ".", ".."):
        return path.resolve()
    try:
        if stat.S_ISLNK(os.lstat(path).st_mode):
            return path.resolve()
    except (OSError, ValueError):  # missing, unreadable or unnameable: resolve as far as it can
        return path.resolve()
    return resolved_folder(path.parent) / path.name
