"""Reading one regular file, capped: the part of the file-system policy that needs no matter.

A FIFO (opening one blocks forever), a device such as `/dev/zero` (endless), a socket,
a directory or a file over the cap is refused with a reason, never opened. The check is
made with `stat` before `open`, and the open itself uses `O_NONBLOCK` and `O_NOFOLLOW`
and re-checks the opened descriptor, so a file swapped between the check and the open is
still refused. `rubric_tools.loading.files` adds the matter confinement on top; the
configuration files (`rubric_tools.config.discovery`) are read through this module alone,
which is why it sits in the lowest layer.
"""

from __future__ import annotations

import errno
import os
import stat
from dataclasses import dataclass
from enum import Enum
from pathlib import Path


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


def checked_stat(path: Path) -> os.stat_result | Refused:
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


def read_regular_file(path: Path, limit: int) -> bytes | Refused:
    """The bytes of `path` if it is a regular file of at most `limit` bytes.

    Never blocks on a FIFO and never reads more than `limit + 1` bytes.
    """
    info = checked_stat(path)
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
        # Asked for the size the file gives (and one byte more, to see it is not longer), not for
        # the cap: a buffer of `limit` bytes, allocated and shrunk for every file, cost more than
        # reading it.
        expected = min(opened.st_size, limit) + 1
        data = _read_up_to(descriptor, expected)
        if expected <= limit and len(data) == expected:  # longer than it said (growing, or /proc)
            data += _read_up_to(descriptor, limit + 1 - expected)
    except OSError as exc:
        return _os_refusal(exc)
    finally:
        os.close(descriptor)
    if len(data) > limit:
        return Refused(Refusal.TOO_LARGE, f"is over the {limit:,}-byte limit")
    return data


def _read_up_to(descriptor: int, count: int) -> bytes:
    """`count` bytes from `descriptor`, or fewer at the end of the file."""
    chunks: list[bytes] = []
    while count > 0:
        chunk = os.read(descriptor, count)
        if not chunk:
            break
        chunks.append(chunk)
        count -= len(chunk)
    return b"".join(chunks)
