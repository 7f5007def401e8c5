"""The matter-folder layout: the one module that decides which files belong to which matter.

Everything that finds matters, their files, their trajectories, probes or expectations
asks this module (`tests/test_layout.py` fails when another module lists folders for
them). It is cheap to import (no YAML parser, no scorer): a warm `rubric lint` finds its
matters here, then restores their findings from the cache.

A matter is a folder holding `matter.yaml` (with `rubric.yaml`, `hidden_facts.yaml`,
optional `counterparty.yaml`, and the Markdown documents `matter.yaml` lists). Its
trajectories, gate probes and expectations live

- inside the matter: `trajectories/*.jsonl` (or `.yaml`/`.yml`), `probes.yaml`,
  `expectations.yaml`;
- or, for a matter at `<repo>/matters/<id>/`, in the rubric-repo layouts beside
  `matters/`: `examples/<id>/` and `trajectories/<id>/` (trajectories),
  `tests/gate_probes/<id>.yaml` and `probes/<id>.yaml` (probes).

A trajectory anywhere else finds its matter as the nearest folder above it holding
`matter.yaml`, or as `matters/<id>` beside the `<dir>/<id>/` folder that holds it.

Every look at the disk goes through `DISK` (a `FolderView`), so that a view with an
editor's unsaved buffers laid over the disk can later be handed in where a function
takes one; today only the disk exists.
"""

from __future__ import annotations

import fnmatch
import os
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Literal

MATTER_FILE = "matter.yaml"
RUBRIC_FILE = "rubric.yaml"
HIDDEN_FACTS_FILE = "hidden_facts.yaml"
COUNTERPARTY_FILE = "counterparty.yaml"
REQUIRED_FILES = (MATTER_FILE, RUBRIC_FILE, HIDDEN_FACTS_FILE)
#: The matter's own YAML files, in the order the loader reads them.
YAML_FILES = (*REQUIRED_FILES, COUNTERPARTY_FILE)
EXPECTATIONS_FILE = "expectations.yaml"
PROBES_FILE = "probes.yaml"

YAML_SUFFIXES = (".yaml", ".yml")
JSONL_SUFFIX = ".jsonl"
#: A trajectory is JSONL or YAML (`rubric_tools.loading.trajectory` reads both).
TRAJECTORY_SUFFIXES = (JSONL_SUFFIX, *YAML_SUFFIXES)

#: The folder of matters in a rubric repository, beside the layouts below.
MATTERS_FOLDER = "matters"
#: A matter's own folder of trajectories (inside it), also a repository layout (`trajectories/<id>/`).
TRAJECTORIES_FOLDER = "trajectories"
#: Repository layouts holding trajectories, `<folder>/<matter id>/<name>.jsonl`, in search order.
TRAJECTORY_FOLDERS = ("examples", TRAJECTORIES_FOLDER)
#: Repository layouts holding probes, `<folder>/<matter id>.yaml`, in search order.
PROBE_FOLDERS = (("tests", "gate_probes"), ("probes",))
#: Files and folders of a matter that do not shape its scores (left out of its digest).
UNSCORED_PARTS = frozenset({*TRAJECTORY_FOLDERS, EXPECTATIONS_FILE, PROBES_FILE})


# ----------------------------------------------------------------- files below a folder, sorted, streamed

# Every file below a folder, in sorted order, without a list of them all.
#
# `rubric replay` and `rubric rescore` take folders of 100,000 trajectories. Listing them all
# and sorting the list held every path in memory for the whole run; this walk holds only the
# names of the folders it is inside (one sorted listing per level) and yields each file as it
# comes, in exactly the order `sorted()` would have put the full list:
#
# - `order="text"`: the order of the paths as strings (`sorted()` of `os.path.join` results).
#   A folder's files and subfolders are sorted together, a subfolder by its name followed by
#   the separator: every path below `b/` begins with `b/`, and `b/…` sorts after `b-c` and
#   before `b0` exactly as its name plus "/" does.
# - `order="parts"`: the order of `pathlib.Path` objects (component by component): a subfolder
#   by its name alone.
#
# As `os.walk` and `Path.rglob` do by default, links to folders are not followed (nor
# listed), a folder that cannot be listed contributes nothing, and every other entry
# (a link to a file, a dangling link) is a file.

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


def _names(folder: str) -> list[str]:
    """The names in `folder`; none when it cannot be listed (it vanished, or is no folder)."""
    try:
        return os.listdir(folder)
    except OSError:
        return []


def _without_separator(name: str) -> str:
    return name[:-1] if name.endswith(SEPARATOR) else name


def _sorted_files(
    top: str, accept: Accept, order: Literal["text", "parts"] = "text", _parts: tuple[str, ...] = ()
) -> Iterator[str]:
    """The path of every wanted file below `top` (joined to `top` as `os.path.join` does)."""
    folder = os.path.join(top, *_parts) if _parts else top
    for name in _listing(folder, order):
        if name.endswith(SEPARATOR):
            yield from _sorted_files(top, accept, order, (*_parts, name[:-1]))
        elif accept(_parts, name):
            yield os.path.join(folder, name)


class FolderView:
    """What the layout reads of the file system. The disk is the only view today; an
    overlay of unsaved editor buffers would answer these from memory first."""

    def is_file(self, path: Path) -> bool:
        return path.is_file()

    def is_dir(self, path: Path) -> bool:
        return path.is_dir()

    def exists(self, path: Path) -> bool:
        return path.exists()

    def size(self, path: Path) -> int:
        """The bytes of a file; raises OSError where it cannot be read."""
        return path.stat().st_size

    # The listings below skip a folder that cannot be listed, as `_listing` does: another
    # process may remove a folder between the walk finding it and reading it (a temporary
    # matter copy being cleaned up), and pathlib's glob raises FileNotFoundError there.

    def glob(self, folder: Path, pattern: str) -> Iterator[Path]:
        """The entries of `folder` whose name matches `pattern` (not recursive)."""
        for name in _names(str(folder)):
            if fnmatch.fnmatchcase(name, pattern):
                yield folder / name

    def rglob(self, folder: Path, pattern: str) -> Iterator[Path]:
        """The entries below `folder` whose name matches `pattern`, as `Path.rglob`: links
        to folders are listed but not walked."""
        for directory, folders, files in os.walk(folder):  # os.walk skips what vanished
            base = Path(directory)
            for name in (*folders, *files):
                if fnmatch.fnmatchcase(name, pattern):
                    yield base / name

    def walk(self, folder: Path) -> Iterator[tuple[str, list[str], list[str]]]:
        return os.walk(folder)

    def sorted_files(self, folder: Path, accept: Accept, order: Literal["text", "parts"] = "text") -> Iterator[str]:
        """Every wanted file below `folder`, streamed in sorted order (see `_sorted_files`)."""
        return _sorted_files(str(folder), accept, order)

    def children(self, folder: Path) -> Iterator[Path]:
        return (folder / name for name in _names(str(folder)))


DISK = FolderView()


# ----------------------------------------------------------------- matter roots


def find_matter_root(path: Path) -> Path | None:
    """The nearest folder at or above `path` that holds matter.yaml."""
    current = path if DISK.is_dir(path) else path.parent
    for folder in (current, *current.parents):
        if DISK.is_file(folder / MATTER_FILE):
            return folder
    return None


def is_matter(folder: Path) -> bool:
    return DISK.is_file(folder / MATTER_FILE)


def discover_matters(paths: Sequence[Path]) -> tuple[list[Path], list[str]]:
    """Matter folders under `paths`: folders holding matter.yaml, found recursively; a
    file (or a folder inside a matter) stands for the matter that contains it."""
    roots: dict[Path, None] = {}
    problems: list[str] = []
    for path in paths:
        if not DISK.exists(path):
            problems.append(f"{path}: no such file or directory")
            continue
        owner = find_matter_root(path)
        if owner is not None:
            roots[owner.resolve()] = None
            continue
        if DISK.is_dir(path):
            found = sorted(p.parent.resolve() for p in DISK.rglob(path, MATTER_FILE))
            if not found:
                problems.append(f"{path}: no matter (a folder holding {MATTER_FILE}) found")
            roots.update(dict.fromkeys(found))
        else:
            problems.append(f"{path}: not inside a matter (no {MATTER_FILE} above it)")
    return list(roots), problems


def matter_files_below(directory: Path) -> list[Path]:
    """Every matter.yaml below `directory`, sorted (empty when it is no folder)."""
    if not DISK.is_dir(directory):
        return []
    return sorted(DISK.rglob(directory, MATTER_FILE))


def matter_sizes(matter_root: Path) -> tuple[int, int]:
    """The bytes of the matter's rubric, and of its other files inside its folder (its
    documents and facts, and the trajectories or probes kept there); (0, 0) for a folder
    without a readable rubric. A file that vanishes while they are counted counts nothing."""
    try:
        rubric = DISK.size(matter_root / RUBRIC_FILE)
    except OSError:
        return 0, 0
    total = 0
    for directory, _folders, files in DISK.walk(matter_root):
        for name in files:
            try:
                total += DISK.size(Path(directory) / name)
            except OSError:
                continue
    return rubric, max(total - rubric, 0)


def child_matters(folder: Path) -> list[Path]:
    """A folder of matters: the matter it is, else its sub-folders that are matters, sorted."""
    if is_matter(folder):
        return [folder]
    return sorted(p for p in DISK.children(folder) if is_matter(p))


def folder_named(matters: Path, name: str) -> Path | None:
    """The matter `name` in a folder of matters (or the folder itself when it is one matter)."""
    if is_matter(matters):
        return matters  # a single matter given as the matters folder
    return matters / name if is_matter(matters / name) else None


def search_upwards(start: Path, matter_id: str) -> Path | None:
    """`matters/<matter_id>` in `start` or the nearest folder above it that has one."""
    for folder in (start, *start.parents):
        if is_matter(folder / MATTERS_FOLDER / matter_id):
            return folder / MATTERS_FOLDER / matter_id
    return None


# ----------------------------------------------------------------- a matter's trajectories, probes, expectations


def repository_base(matter_root: Path) -> Path | None:
    """The rubric repository holding the matter at `<repo>/matters/<id>`, else None."""
    return matter_root.parent.parent if matter_root.parent.name == MATTERS_FOLDER else None


def _trajectories_in(folder: Path) -> list[Path]:
    """JSONL and YAML trajectories of one folder, sorted by name."""
    return sorted(p for p in DISK.glob(folder, "*") if p.suffix.lower() in TRAJECTORY_SUFFIXES and DISK.is_file(p))


def trajectory_paths(matter_root: Path) -> list[Path]:
    """The matter's trajectories: its own `trajectories/`, then the repository layouts."""
    found = _trajectories_in(matter_root / TRAJECTORIES_FOLDER)
    base = repository_base(matter_root)
    if base is not None:
        for layout in TRAJECTORY_FOLDERS:
            found += _trajectories_in(base / layout / matter_root.name)
    return found


def probe_paths(matter_root: Path) -> list[Path]:
    """The matter's gate-probe files that exist: `probes.yaml`, then the repository layouts."""
    candidates = [matter_root / PROBES_FILE]
    base = repository_base(matter_root)
    if base is not None:
        candidates += [base.joinpath(*folder, f"{matter_root.name}.yaml") for folder in PROBE_FOLDERS]
    return [path for path in candidates if DISK.is_file(path)]


def new_probe_file(matter_root: Path) -> Path:
    """Where probes are written when the matter has no probe file yet."""
    return matter_root / PROBES_FILE


def expectations_path(matter_root: Path) -> Path | None:
    """The matter's `expectations.yaml`, or None when it has none."""
    path = matter_root / EXPECTATIONS_FILE
    return path if DISK.is_file(path) else None


def witness_files(matter_root: Path) -> list[Path]:
    """Every file whose content decides whether a fix of the matter is proven safe."""
    return trajectory_paths(matter_root) + probe_paths(matter_root)


def score_shaping_files(folder: Path) -> Iterator[tuple[Path, Path]]:
    """(path relative to the matter, path) of every file inside the matter that shapes
    its scores: not its trajectories, probes or expectations, nothing outside it."""
    root = folder.resolve()
    for path in sorted(DISK.rglob(folder, "*")):
        relative = path.relative_to(folder)
        if relative.parts[0] in UNSCORED_PARTS or path.suffix == JSONL_SUFFIX or not DISK.is_file(path):
            continue
        if not path.resolve().is_relative_to(root):
            continue  # the loader refuses it too; do not read outside the matter
        yield relative, path


# ----------------------------------------------------------------- the matter of a file


def locate_matter(trajectory: Path) -> Path | None:
    """The trajectory's matter folder: the nearest ancestor holding matter.yaml; else,
    for `<dir>/<matter_id>/<name>.jsonl`, the folder `matters/<matter_id>` beside `<dir>`."""
    return locate_resolved(trajectory.resolve())


def locate_resolved(resolved: Path) -> Path | None:
    """`locate_matter` of a path already resolved."""
    owner = find_matter_root(resolved)
    if owner is not None:
        return owner
    matter_id_dir = resolved.parent
    candidate = matter_id_dir.parent.parent / MATTERS_FOLDER / matter_id_dir.name
    return candidate if is_matter(candidate) else None


def matter_of_file(path: Path) -> Path | None:
    """The matter a file belongs to: one inside it, a trajectory or a probe file of a
    repository layout (how the pre-commit hooks hand files over)."""
    owner = find_matter_root(path.resolve())
    if owner is not None:
        return owner
    if path.suffix == JSONL_SUFFIX:
        return locate_matter(path)
    if path.suffix in YAML_SUFFIXES and path.resolve().parent.parent.name in TRAJECTORY_FOLDERS:
        return locate_matter(path)  # a YAML trajectory in examples/<id>/ or trajectories/<id>/
    probe_folders = tuple(folder[-1] for folder in PROBE_FOLDERS)
    if path.suffix in YAML_SUFFIXES and path.parent.name in probe_folders:
        base = path.resolve().parent.parent
        base = base.parent if path.parent.name == PROBE_FOLDERS[0][-1] else base
        candidate = base / MATTERS_FOLDER / path.stem
        return candidate if is_matter(candidate) else None
    return None


def files_outside_matters(paths: Sequence[Path]) -> list[Path]:
    """The given files that belong to no matter (what `--ignore-non-matter-files` drops:
    a README.md or a JSONL fixture elsewhere in the repository a hook was handed)."""
    return [path for path in paths if DISK.is_file(path) and matter_of_file(path) is None]


def matters_to_check(paths: Sequence[Path]) -> tuple[list[Path], list[str]]:
    """Matter folders for the given paths: folders are searched recursively; a file
    stands for its whole matter (a trajectory or probe file of a repository layout too)."""
    roots: dict[Path, None] = {}
    problems: list[str] = []
    for path in paths:
        if DISK.is_file(path):
            owner = matter_of_file(path)
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


# ----------------------------------------------------------------- trajectories below a folder


def folder_trajectories(folder: Path) -> Iterator[str]:
    """Every trajectory below `folder`, sorted: each `*.jsonl`, and the YAML files of
    `trajectories/` and `examples/` folders (elsewhere YAML files are matter files,
    probes, expectations). Only the named folder and what is below it count, not where
    the repository sits. Streamed in sorted order, without a list of them all: a folder may
    hold 100,000 (`FolderView.sorted_files`)."""
    root_name = Path(os.path.abspath(folder)).name
    yaml_folders = frozenset(TRAJECTORY_FOLDERS)

    def accept(below: tuple[str, ...], name: str) -> bool:
        suffix = os.path.splitext(name)[1].lower()
        return suffix == JSONL_SUFFIX or (suffix in YAML_SUFFIXES and not yaml_folders.isdisjoint((root_name, *below)))

    return DISK.sorted_files(folder, accept)
