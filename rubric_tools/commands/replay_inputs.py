"""Expand `rubric replay`'s arguments into trajectory files, lazily and in order.

An argument is a file, a folder (every `*.jsonl` below it, and the `*.yaml`/`*.yml`
trajectories of `trajectories/` and `examples/` folders below it, sorted, streamed
without a list of them all), a glob (`**` allowed,
matches sorted), `@LISTFILE` (one argument per line: blank lines and lines starting with
`#` skipped) or `-` (the same, read from stdin). Lists are read a line at a time, so
100,000 trajectories need neither a giant command line nor a list held in memory.
"""

from __future__ import annotations

import glob
import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from rubric_tools.loading.layout import folder_trajectories

STDIN_ARGUMENT = "-"
LIST_PREFIX = "@"
_GLOB_CHARACTERS = frozenset("*?[")


@dataclass(frozen=True)
class InputError:
    """An argument that names no trajectory."""

    message: str


def _list_lines(lines: Iterable[str]) -> Iterator[str]:
    for line in lines:
        entry = line.strip()
        if entry and not entry.startswith("#"):
            yield entry


def _expand_one(argument: str, stdin: TextIO, depth: int) -> Iterator[str | InputError]:
    if argument == STDIN_ARGUMENT and depth == 0:
        for entry in _list_lines(stdin):
            yield from _expand_one(entry, stdin, depth + 1)
        return
    if argument.startswith(LIST_PREFIX) and depth == 0:
        list_file = argument[len(LIST_PREFIX) :]
        try:
            with open(list_file, encoding="utf-8") as handle:
                for entry in _list_lines(handle):
                    yield from _expand_one(entry, stdin, depth + 1)
        except (OSError, UnicodeDecodeError) as exc:
            yield InputError(f"{list_file}: cannot read the list file: {getattr(exc, 'strerror', None) or exc}")
        return
    if os.path.isdir(argument):
        found = False
        for match in folder_trajectories(Path(argument)):  # streamed: a folder may hold 100,000
            found = True
            yield match
        if not found:
            yield InputError(f"{argument}: folder holds no trajectory")
        return
    if not os.path.exists(argument) and _GLOB_CHARACTERS & set(argument):
        matches = sorted(path for path in glob.iglob(argument, recursive=True) if os.path.isfile(path))
        if not matches:
            yield InputError(f"{argument}: pattern matches no trajectory file")
        yield from matches
        return
    if os.path.isfile(argument):
        yield argument
    else:
        yield InputError(f"{argument}: no such trajectory file")


def expand_arguments(arguments: Iterable[str], stdin: TextIO) -> Iterator[Path | InputError]:
    """Every trajectory file the arguments name, in argument order; an InputError in place
    of an argument that names none. Entries of a list are not themselves lists (no `@`
    recursion, no `-`)."""
    for argument in arguments:
        for entry in _expand_one(argument, stdin, 0):
            yield entry if isinstance(entry, InputError) else Path(entry)
