"""Every file below a folder, in sorted order, without a list of them all.

`rubric replay` and `rubric rescore` take folders of 100,000 trajectories. Listing them all
and sorting the list held every path in memory for the whole run; this walk holds only the
names of the folders it is inside (one sorted listing per level) and yields each file as it
comes, in exactly the order `sorted()` would have put the full list:

- `order="text"`: the order of the paths as strings (`sorted()` of `os.path.join` results).
  A folder's files and subfolders are sorted together, a subfolder by its name followed by
  the separator: every path below `b/` begins with `b/`, and `b/…` sorts after `b-c` and
  before `b0` exactly as its name plus "/" does.
- `order="parts"`: the order of `pathlib.Path` objects (component by component): a subfolder
  by its name alone.

As `os.walk` and `Path.rglob` do by default, links to folders are not followed (nor
listed), a folder that cannot be listed contributes nothing, and every other entry
(a link to a file, a dangling link) is a file.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from typing import Literal

SEPARATOR = os.sep
#: Decides, from the folder's path relative to the top (its parts) and a file's name,
#: whether the file is wanted.
Accept = Callable[[tuple[str, ...], str], bool]


def _listing(folder: str, order: Literal["text", "parts"]) -> list[str]:
    """The names in `folder`, a subfolder to descend into marked by a trailing separator, sorted."""
    names: list[str] = []
    try:
        with os.scandir(folder) as entries:
            for entry in entries:
                try:
                    is_folder = entry.is_dir()
                    if is_folder and entry.is_symlink():
                        continue  # a link to a folder: neither walked nor a file
                except OSError:
                    is_folder = False
                names.append(entry.name + SEPARATOR if is_folder else entry.name)
    except OSError:
        return []
    names.sort(key=None if order == "text" else _without_separator)
    return names


def _without_separator(name: str) -> str:
    return name[:-1] if name.endswith(SEPARATOR) else name


def sorted_files(
    top: str, accept: Accept, order: Literal["text", "parts"] = "text", _parts: tuple[str, ...] = ()
) -> Iterator[str]:
    """The path of every wanted file below `top` (joined to `top` as `os.path.join` does)."""
    folder = os.path.join(top, *_parts) if _parts else top
    for name in _listing(folder, order):
        if name.endswith(SEPARATOR):
            yield from sorted_files(top, accept, order, (*_parts, name[:-1]))
        elif accept(_parts, name):
            yield os.path.join(folder, name)
