"""A temporary working copy of a matter folder, for `--fix` rounds and the fix proof.

Only what the loader may read is copied: regular files (read under the file-system
policy, so never past the size cap) and symlinks as links (the loader judges where they
lead). FIFOs, devices and sockets are left out: copying one would block or read without
end, and the loader refuses them anyway.
"""

from __future__ import annotations

import os
from pathlib import Path

from rubric_tools.loading import files


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
