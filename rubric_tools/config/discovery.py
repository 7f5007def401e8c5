"""Find and read the project configuration file, the way ruff finds `[tool.ruff]`.

The settings live in `[tool.rubric]` of a `pyproject.toml`, or at the top level of a
`rubric.toml`. Discovery walks upward from a start folder; the first folder that has
either wins, `rubric.toml` beating `pyproject.toml` in the same folder, and a
`pyproject.toml` without `[tool.rubric]` is skipped. Reading returns the settings table
together with the TOML line positions of its keys, so that validation can point every
error at `file:line`.

The files are read like a matter's files (`rubric_tools.regular_files`): only a regular
file no larger than a cap, so a FIFO, a device or a huge file named `rubric.toml` is a
`ConfigError`, never a hang. Unlike a matter's files they may be symlinks leading
anywhere: the configuration belongs to whoever runs the tool, not to the matter.
"""

from __future__ import annotations

import os
import re
import tomllib
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from rubric_tools.config.errors import ConfigError
from rubric_tools.regular_files import Refusal, Refused, read_regular_file

RUBRIC_TOML = "rubric.toml"
PYPROJECT_TOML = "pyproject.toml"
PYPROJECT_TABLE = ("tool", "rubric")
#: The largest configuration file read (real ones are a few kilobytes).
MAX_CONFIG_BYTES = 1024 * 1024

KeyPath = tuple[str, ...]


# --------------------------------------------------------------------------- line lookup
_HEADER = re.compile(r"^\s*\[\[?(?P<name>[^\[\]]+)\]\]?\s*(?:#.*)?$")
_KEY_PART = r"""(?:[A-Za-z0-9_-]+|"[^"\n]*"|'[^'\n]*')"""
_KEY_LINE = re.compile(rf"^\s*(?P<key>{_KEY_PART}(?:\s*\.\s*{_KEY_PART})*)\s*=")


def _key_parts(dotted: str) -> KeyPath:
    return tuple(part.strip("\"'") for part in re.findall(_KEY_PART, dotted))


class TomlKeyLines:
    """Line numbers of keys and values in TOML text, found by a simple line scan.

    tomllib gives data without positions; a scan of headers and `key =` lines is
    enough to point an error at the right line, including keys of inline tables and
    items of multi-line arrays (found by searching forward from their parent key).
    """

    def __init__(self, text: str) -> None:
        self.lines = text.splitlines()
        self.first_line: dict[KeyPath, int] = {}
        self.boundaries: list[int] = []  # lines where a new key or table starts
        table: KeyPath = ()
        in_multiline_string = False
        for number, line in enumerate(self.lines, start=1):
            # Lines inside a multi-line string are data, not keys.
            quotes = line.count('"""') + line.count("'''")
            if in_multiline_string:
                in_multiline_string = quotes % 2 == 0
                continue
            if quotes % 2 == 1:
                in_multiline_string = True
            header = _HEADER.match(line)
            if header:
                table = _key_parts(header.group("name"))
                self.first_line.setdefault(table, number)
                self.boundaries.append(number)
                continue
            key = _KEY_LINE.match(line)
            if key:
                self.first_line.setdefault((*table, *_key_parts(key.group("key"))), number)
                self.boundaries.append(number)

    def line(self, path: KeyPath, value: str | None = None) -> int | None:
        """The line of key `path` (or of `value` written under it), best effort."""
        if path in self.first_line and value is None:
            return self.first_line[path]
        ancestor = path
        while ancestor and ancestor not in self.first_line:
            ancestor = ancestor[:-1]
        if ancestor not in self.first_line:
            return None
        start = self.first_line[ancestor]
        end = next((b for b in self.boundaries if b > start), len(self.lines) + 1)
        if value is not None:
            needle = re.compile("[\"']" + re.escape(value) + "[\"']")
        else:
            needle = re.compile(r"(?<![\w-])[\"']?" + re.escape(path[-1]) + r"[\"']?\s*=")
        for number in range(start, end):
            text = self.lines[number - 1]
            if number == start and "=" in text:
                text = text.split("=", 1)[1]  # skip the parent key itself
            if needle.search(text):
                return number
        return start


# --------------------------------------------------------------------------- files
def _read_bytes(path: Path) -> bytes | Refused:
    """The bytes of a configuration file (symlinks followed) if it is a regular file under the cap."""
    try:
        resolved = path.resolve()
    except (OSError, RuntimeError, ValueError) as exc:  # a symlink loop, a name the OS refuses
        return Refused(Refusal.UNREADABLE, f"cannot be resolved: {getattr(exc, 'strerror', None) or exc}")
    return read_regular_file(resolved, MAX_CONFIG_BYTES)


def _read_toml(path: Path) -> tuple[dict[str, Any], TomlKeyLines]:
    content = _read_bytes(path)
    if isinstance(content, Refused):
        raise ConfigError(f"configuration file {content.detail}", path, 1)
    try:
        text = content.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ConfigError("configuration file is not UTF-8", path) from exc
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        position = re.search(r"\(at line (\d+), column \d+\)", str(exc))
        message = re.sub(r"\s*\(at line \d+, column \d+\)", "", str(exc))
        raise ConfigError(f"invalid TOML: {message}", path, int(position.group(1)) if position else None) from exc
    return data, TomlKeyLines(text)


def _is_pyproject(path: Path) -> bool:
    return path.name == PYPROJECT_TOML


def _pyproject_table(data: Mapping[str, Any]) -> Any:
    tool = data.get("tool")
    return tool.get("rubric") if isinstance(tool, Mapping) else None


#: Refusals that make a found pyproject.toml count as ours: its content cannot be looked
#: at, and skipping it silently could drop the project's settings; reading it then fails
#: with the reason. (A pyproject.toml we may not read, or that vanished, is skipped.)
_REPORTED_REFUSALS = frozenset({Refusal.SPECIAL, Refusal.TOO_LARGE})


def _has_rubric_table(pyproject: Path) -> bool:
    """Whether a pyproject.toml configures us; a broken one counts only if it mentions us."""
    data = _read_bytes(pyproject)
    if isinstance(data, Refused):
        return data.reason in _REPORTED_REFUSALS
    text = data.decode("utf-8", errors="replace")
    try:
        parsed = tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        return re.search(r"^\s*\[\s*tool\s*\.\s*rubric\s*[\].]", text, re.MULTILINE) is not None
    return _pyproject_table(parsed) is not None


def read_settings_table(path: Path) -> tuple[Mapping[str, Any], TomlKeyLines, KeyPath]:
    """The settings table of one configuration file (pyproject.toml's [tool.rubric], or any
    other TOML file's top level), its key lines, and the key path of the table in the file;
    raises ConfigError."""
    data, lines = _read_toml(path)
    if not _is_pyproject(path):
        return data, lines, ()
    table = _pyproject_table(data)
    if table is None:
        raise ConfigError("no [tool.rubric] table in this pyproject.toml", path)
    if not isinstance(table, Mapping):
        raise ConfigError("'tool.rubric' must be a table", path, lines.line(PYPROJECT_TABLE))
    return table, lines, PYPROJECT_TABLE


def _existing_folder(start: Path) -> Path:
    folder = start.absolute()
    while not folder.is_dir() and folder != folder.parent:
        folder = folder.parent
    return folder


def _is_candidate(path: Path) -> bool:
    """Whether something named like a configuration file is there: anything but a folder.
    A FIFO or a device counts, so that reading it reports the refusal instead of skipping."""
    try:
        return path.exists() and not path.is_dir()
    except (OSError, ValueError):
        return False


def find_config_file(start: Path) -> Path | None:
    """The configuration file that governs `start`: the nearest one upward."""
    folder = _existing_folder(start)
    for candidate in (folder, *folder.parents):
        if _is_candidate(candidate / RUBRIC_TOML):
            return candidate / RUBRIC_TOML
        pyproject = candidate / PYPROJECT_TOML
        if _is_candidate(pyproject) and _has_rubric_table(pyproject):
            return pyproject
    return None


def discovery_start(paths: Sequence[Path], cwd: Path) -> Path:
    """Where discovery begins: the deepest folder holding every linted path (or cwd)."""
    if not paths:
        return cwd
    absolute = [str(p if p.is_absolute() else cwd / p) for p in paths]
    return Path(os.path.normpath(os.path.commonpath(absolute)))
