"""The one error type of project configuration: a message located at `file:line`.

The command line stops with exit code 2 on a `ConfigError` and prints `str(error)`.
"""

from __future__ import annotations

from pathlib import Path


class ConfigError(Exception):
    """A configuration problem, located at `file:line` when it comes from a file."""

    def __init__(self, message: str, file: Path | None = None, line: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.file = file
        self.line = line

    def __str__(self) -> str:
        if self.file is None:
            return self.message
        where = f"{self.file}:{self.line}" if self.line else str(self.file)
        return f"{where}: {self.message}"
