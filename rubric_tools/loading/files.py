"""The file-system policy: what the loader, the caches and the reporters may read.

A rubric repository is untrusted input (`rubric check` runs on pull requests from
forks), so a matter file is read only when it is a regular file inside the matter
folder once symlinks are resolved, and no larger than a cap. Anything else — a
symlink leading out of the matter, a FIFO (opening one blocks forever), a device such
as `/dev/zero` (endless), a directory, a name the OS refuses — is refused with a
reason, without ever opening it. The check is made with `stat` before `open`, and the
open itself uses `O_NONBLOCK` and `O_NOFOLLOW` and re-checks the opened descriptor, so a
file swapped between the check and the open is still refused.
"""

from __future__ import annotations

import errno
import os
import stat
from dataclasses import dataclass
from enum import Enum
from pathlib import Path

#: The largest matter YAML file read (real ones are a few kilobytes).
MAX_YAML_BYTES = 2 * 1024 * 1024
#: The largest Markdown document read.
MAX_DOCUMENT_BYTES = 16 * 1024 * 1024


class Refusal(Enum):
    """Why a path was not read."""

    MISSING = "missing"
    OUTSIDE = "outside"  # resolves outside the matter folder
    DIRECTORY = "directory"
    SPECIAL = "special"  # FIFO, device, socket
    TOO_LARGE = "too-large"
    BAD_NAME = "bad-name"  # the OS refuses the name (NUL, surrogate, too long)
    UNREADABLE = "unreadable"  # permissions, I/O error


@dataclass(frozen=True)
class Refused:
    """A path the policy refused, and why: a predicate to follow the file's name ("is a FIFO ...")."""

    reason: Refusal
    detail: str


_KIND_NAMES = {
    stat.S_IFIFO: "a FIFO (named pipe)",
    stat.S_IFCHR: "a character device",
    stat.S_IFBLK: "a block device",
    stat.S_IFSOCK: "a socket",
}


def printable_path(path: Path | str) -> str:
    """`path` as text any output can encode (undecodable bytes and lone surrogates escaped)."""
    return str(path).encode("utf-8", "backslashreplace").decode("utf-8")


def _kind(mode: int) -> str:
    return _KIND_NAMES.get(stat.S_IFMT(mode), "not a regular file")


def _os_refusal(exc: OSError) -> Refused:
    if isinstance(exc, FileNotFoundError):
        return Refused(Refusal.MISSING, "does not exist")
    if isinstance(exc, IsADirectoryError):
        return Refused(Refusal.DIRECTORY, "is a directory, not a file")
    if exc.errno in (errno.ENAMETOOLONG, errno.EILSEQ):
        return Refused(Refusal.BAD_NAME, f"has a name the operating system refuses ({exc.strerror or exc})")
    return Refused(Refusal.UNREADABLE, f"cannot be read: {exc.strerror or exc}")


def _checked_stat(path: Path) -> os.stat_result | Refused:
    """`stat` of `path` (following links), or why it cannot be read as a file."""
    try:
        info = os.stat(path)
    except (ValueError, UnicodeEncodeError) as exc:  # NUL byte, lone surrogate
        return Refused(Refusal.BAD_NAME, f"has a name the operating system refuses ({exc.__class__.__name__})")
    except OSError as exc:
        return _os_refusal(exc)
    if stat.S_ISDIR(info.st_mode):
        return Refused(Refusal.DIRECTORY, "is a directory, not a file")
    if not stat.S_ISREG(info.st_mode):
        return Refused(Refusal.SPECIAL, f"is {_kind(info.st_mode)}, not a regular file")
    return info


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
    info = _checked_stat(resolved)
    if isinstance(info, Refused):
        if info.reason is Refusal.MISSING and path.is_symlink():
            return Refused(Refusal.MISSING, "is a broken symlink: its target does not exist")
        return info
    if info.st_size > limit:
        return Refused(Refusal.TOO_LARGE, f"is {info.st_size:,} bytes, over the {limit:,}-byte limit")
    return resolved


def read_regular_file(path: Path, limit: int) -> bytes | Refused:
    """The bytes of `path` if it is a regular file of at most `limit` bytes.

    Never blocks on a FIFO and never reads more than `limit + 1` bytes.
    """
    info = _checked_stat(path)
    if isinstance(info, Refused):
        return info
    if info.st_size > limit:
        return Refused(Refusal.TOO_LARGE, f"is {info.st_size:,} bytes, over the {limit:,}-byte limit")
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        descriptor = os.open(path, flags)
    except (ValueError, UnicodeEncodeError):
        return Refused(Refusal.BAD_NAME, "has a name the operating system refuses")
    except OSError as exc:
        return _os_refusal(exc)
    try:
        opened = os.fstat(descriptor)
        if not stat.S_ISREG(opened.st_mode):  # swapped after the check
            return Refused(Refusal.SPECIAL, f"is {_kind(opened.st_mode)}, not a regular file")
        with os.fdopen(descriptor, "rb", closefd=False) as stream:
            data = stream.read(limit + 1)
    except OSError as exc:
        return _os_refusal(exc)
    finally:
        os.close(descriptor)
    if len(data) > limit:
        return Refused(Refusal.TOO_LARGE, f"is over the {limit:,}-byte limit")
    return data


def read_matter_file(path: Path, root: Path, limit: int) -> bytes | Refused:
    """The bytes of a file of the matter at `root`, under the whole policy."""
    resolved = check_file(path, root, limit)
    if isinstance(resolved, Refused):
        return resolved
    return read_regular_file(resolved, limit)
