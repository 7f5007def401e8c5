"""A temporary working copy of a matter folder, for `--fix` rounds (lint's and the audit's)
and the fix proof, and what the fixes changed in it.

Only what the loader may read is copied: regular files (read under the file-system
policy, so never past the size cap) and symlinks as links (the loader judges where they
lead). FIFOs, devices and sockets are left out: copying one would block or read without
end, and the loader refuses them anyway.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from rubric_tools.fixing.apply_fixes import BOM, read_for_edit
from rubric_tools.loading import files


@dataclass
class FileChange:
    path: Path  # the original file
    before: str
    after: str


def copy_matter(source: Path, target: Path) -> None:
    """Copy the matter folder `source` to `target` (which must not exist)."""
    target.mkdir(parents=True)
    with os.scandir(source) as scan:
        for entry in scan:
            destination = target / entry.name
            if entry.is_symlink():
                destination.symlink_to(os.readlink(entry.path))
            elif entry.is_dir(follow_symlinks=False):
                copy_matter(Path(entry.path), destination)
            elif entry.is_file(follow_symlinks=False):
                content = files.read_regular_file(Path(entry.path), files.MAX_DOCUMENT_BYTES)
                if not isinstance(content, files.Refused):
                    destination.write_bytes(content)


def changed_files(copy: Path, original: Path) -> list[FileChange]:
    """Every regular file of `copy` that differs from its original under `original`."""
    regular = [
        Path(folder) / name
        for folder, _, names in os.walk(copy)  # never into a symlinked folder
        for name in names
        if (Path(folder) / name).is_file() and not (Path(folder) / name).is_symlink()
    ]
    changes: list[FileChange] = []
    for path in sorted(regular):
        target = original / path.relative_to(copy)
        if target.is_symlink() or not target.is_file():
            continue
        before, after = read_for_edit(target), read_for_edit(path)
        if before is None or after is None:
            continue
        if before != after:
            bom = (BOM if before[1] else "", BOM if after[1] else "")
            changes.append(FileChange(target, bom[0] + before[0], bom[1] + after[0]))
    return changes


def write_back(changes: list[FileChange]) -> tuple[list[FileChange], list[str]]:
    """Write each change to its original file: the changes written, and an error for each
    file that could not be."""
    written, errors = [], []
    for change in changes:
        try:
            # Bytes, not text mode: line endings must stay exactly as they were.
            change.path.write_bytes(change.after.encode("utf-8"))
            written.append(change)
        except OSError as exc:
            errors.append(f"cannot write {change.path}: {exc.strerror or exc}")
    return written, errors
