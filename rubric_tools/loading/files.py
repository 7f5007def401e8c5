"""The file-system policy: what the loader, the caches and the reporters may read.

A rubric repository is untrusted input (`rubric check` runs on pull requests from
forks), so a matter file is read only when it is a regular file inside the matter
folder once symlinks are resolved, and no larger than a cap. Anything else — a
symlink leading out of the matter, a FIFO (opening one blocks forever), a device such
as `/dev/zero` (endless), a directory, a name the OS refuses — is refused with a
reason, without ever opening it. The check is made with `stat` before `open`, and the
open itself uses `O_NONBLOCK` and `O_NOFOLLOW` and re-checks the opened descriptor, so a
file swapped between the check and the open is still refused.

An *overlay* (`rubric lsp`: the unsaved buffers of an editor) maps resolved paths to the
bytes to read instead of a file's content on disk. It changes nothing else: the file must
still pass every check on disk (exist, be regular, lie inside the matter), and the buffer
is held to the same size cap.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

# The checks that need no matter folder live below the configuration package, which reads
# its files through them too; they are re-exported here as part of the policy.
from rubric_tools.regular_files import Refusal, Refused, checked_stat, printable_path, read_regular_file

__all__ = [
    "MAX_DOCUMENT_BYTES",
    "MAX_YAML_BYTES",
    "Overlay",
    "Refusal",
    "Refused",
    "check_file",
    "printable_path",
    "read_checked",
    "read_file",
    "read_matter_file",
    "read_regular_file",
    "resolve_inside",
]

#: The largest matter YAML file read (real ones are a few kilobytes).
MAX_YAML_BYTES = 2 * 1024 * 1024
#: The largest Markdown document read.
MAX_DOCUMENT_BYTES = 16 * 1024 * 1024

#: Unsaved editor buffers by resolved path: read instead of the files' content on disk.
Overlay = Mapping[Path, bytes]


def resolve_inside(path: Path, root: Path) -> Path | Refused:
    """`path` with symlinks resolved, when it stays inside the folder `root`."""
    try:
        resolved = path.resolve()
        inside = resolved.is_relative_to(root.resolve())
    except (ValueError, UnicodeEncodeError):
        return Refused(Refusal.BAD_NAME, "has a name the operating system refuses")
    except (OSError, RuntimeError) as exc:  # a symlink loop
        return Refused(Refusal.UNREADABLE, f"cannot be resolved: {getattr(exc, 'strerror', None) or exc}")
    if not inside:
        return Refused(Refusal.OUTSIDE, f"resolves to {printable_path(resolved)}, outside the matter folder")
    return resolved


def check_file(path: Path, root: Path, limit: int) -> Path | Refused:
    """The resolved path of a readable matter file, or why it may not be read."""
    resolved = resolve_inside(path, root)
    if isinstance(resolved, Refused):
        return resolved
    info = checked_stat(resolved)
    if isinstance(info, Refused):
        if info.reason is Refusal.MISSING and path.is_symlink():
            return Refused(Refusal.MISSING, "is a broken symlink: its target does not exist")
        return info
    if info.st_size > limit:
        return Refused(Refusal.TOO_LARGE, f"is {info.st_size:,} bytes, over the {limit:,}-byte limit")
    return resolved


def read_checked(resolved: Path, limit: int, overlay: Overlay | None = None) -> bytes | Refused:
    """The bytes of a file that passed the checks (`resolved` is its resolved path): its
    buffer in `overlay` when there is one, capped like the disk, else the disk's."""
    buffered = overlay.get(resolved) if overlay else None
    if buffered is None:
        return read_regular_file(resolved, limit)
    if len(buffered) > limit:
        return Refused(Refusal.TOO_LARGE, f"is {len(buffered):,} bytes, over the {limit:,}-byte limit")
    return buffered


def read_matter_file(path: Path, root: Path, limit: int, overlay: Overlay | None = None) -> bytes | Refused:
    """The bytes of a file of the matter at `root`, under the whole policy (or its buffer)."""
    resolved = check_file(path, root, limit)
    if isinstance(resolved, Refused):
        return resolved
    return read_checked(resolved, limit, overlay)


def read_file(path: Path, limit: int, overlay: Overlay | None = None) -> bytes | Refused:
    """The bytes of a regular file no matter folder confines (a trajectory, a probe file),
    or its buffer in `overlay`."""
    if not overlay:
        return read_regular_file(path, limit)
    info = checked_stat(path)
    if isinstance(info, Refused):
        return info
    try:
        resolved = path.resolve()
    except (OSError, RuntimeError, ValueError):
        return read_regular_file(path, limit)  # it refuses such a path with the reason
    return read_checked(resolved, limit, overlay)
