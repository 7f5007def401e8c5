"""A settings table read from a configuration file, able to locate its own keys.

Validation raises `table.error(message, key)`: a `ConfigError` at the file and line of
`key` (or of a `value` written under it), so every section's check points at the text.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from rubric_tools.config.discovery import KeyPath, TomlKeyLines
from rubric_tools.config.errors import ConfigError


class SettingsTable:
    """The raw settings table of one file plus what is needed to locate its keys."""

    def __init__(
        self,
        table: Mapping[str, Any],
        file: Path | None,
        lines: TomlKeyLines | None,
        prefix: KeyPath,
    ) -> None:
        self.table = table
        self.file = file
        self.lines = lines
        self.prefix = prefix

    def error(self, message: str, key: KeyPath = (), value: str | None = None) -> ConfigError:
        line = self.lines.line((*self.prefix, *key), value) if self.lines is not None else None
        return ConfigError(message, self.file, line)


def suggest(word: str, choices: Iterable[str]) -> str:
    """`; did you mean 'x'?` for the closest choice, or nothing."""
    close = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.6)
    return f"; did you mean {close[0]!r}?" if close else ""


def suggest_in_parentheses(word: str, choices: Iterable[str]) -> str:
    """` (did you mean 'x'?)` for the closest choice, or nothing: the form the messages of
    the command sections (`attack`, `audit`, `coverage`) have always used."""
    close = difflib.get_close_matches(word, list(choices), n=1)
    return f" (did you mean {close[0]!r}?)" if close else ""
