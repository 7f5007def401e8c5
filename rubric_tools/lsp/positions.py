"""Positions: the project's spans (1-based line:column in code points, lines counted as
the loader counts them) against LSP positions (0-based, lines broken only at `\\r\\n`,
`\\r` and `\\n`, characters in the code units the client and server agreed on).

YAML lines are counted by the loader with YAML's own breaks, which include NEL, LINE
SEPARATOR and PARAGRAPH SEPARATOR; documents and trajectories as an editor counts them.
A span is therefore turned into a character offset in the text it was computed on (the
way the fixer splices edits), and the offset into the client's line and character.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable
from dataclasses import dataclass, field

from lsprotocol import types

from rubric_tools.diagnostics import Span
from rubric_tools.fixing.apply_fixes import BOM, is_yaml, line_starts

_LSP_BREAK = re.compile("\r\n|\r|\n")

#: How many code units a string takes for the client (UTF-16 unless negotiated otherwise).
Units = Callable[[str], int]


def utf16_units(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


@dataclass
class TextIndex:
    """One text as both the loader and the client number it."""

    text: str
    yaml: bool
    units: Units = utf16_units
    _lsp_starts: list[int] = field(init=False, repr=False)
    _loader_starts: list[int] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        # The loader never counts a byte-order mark, and editors do not show one.
        self.text = self.text.removeprefix(BOM)
        self._lsp_starts = [0, *(match.end() for match in _LSP_BREAK.finditer(self.text))]
        self._loader_starts = line_starts(self.text, self.yaml)

    @classmethod
    def of(cls, text: str, path_name: str, units: Units = utf16_units) -> TextIndex:
        from pathlib import Path

        return cls(text, is_yaml(Path(path_name)), units)

    # ------------------------------------------------------------------ loader side

    def offset(self, line: int, column: int) -> int:
        """The character offset of a 1-based loader line:column (clamped into the text)."""
        if line < 1:
            return 0
        if line > len(self._loader_starts):
            return len(self.text)
        start = self._loader_starts[line - 1]
        end = self._loader_starts[line] if line < len(self._loader_starts) else len(self.text)
        return min(start + max(column, 1) - 1, end, len(self.text))

    def loader_point(self, offset: int) -> tuple[int, int]:
        """The 1-based loader line:column of a character offset."""
        offset = max(0, min(offset, len(self.text)))
        line = bisect.bisect_right(self._loader_starts, offset)
        return line, offset - self._loader_starts[line - 1] + 1

    def loader_line_text(self, line: int) -> str:
        """A loader line without its line break."""
        if not 1 <= line <= len(self._loader_starts):
            return ""
        start = self._loader_starts[line - 1]
        end = self._loader_starts[line] if line < len(self._loader_starts) else len(self.text)
        return self.text[start:end].rstrip("\r\n\x85\u2028\u2029")

    # ------------------------------------------------------------------ client side

    def position(self, offset: int) -> types.Position:
        """The client's position of a character offset."""
        offset = max(0, min(offset, len(self.text)))
        line = bisect.bisect_right(self._lsp_starts, offset) - 1
        start = self._lsp_starts[line]
        prefix = self.text[start:offset]
        return types.Position(line=line, character=self.units(prefix))

    def offset_at(self, position: types.Position) -> int:
        """The character offset of a client position (clamped to its line)."""
        if position.line >= len(self._lsp_starts):
            return len(self.text)
        row: int = max(position.line, 0)
        start = self._lsp_starts[row]
        end = self._lsp_starts[row + 1] if row + 1 < len(self._lsp_starts) else len(self.text)
        line = self.text[start:end].rstrip("\r\n")
        wanted: int = position.character
        counted = 0
        for index, char in enumerate(line):
            if counted >= wanted:
                return start + index
            counted += self.units(char)
        return start + len(line)

    def range(self, span: Span | None) -> types.Range:
        """The client's range of a span (the start of the file when there is none)."""
        if span is None:
            return types.Range(start=types.Position(line=0, character=0), end=types.Position(line=0, character=0))
        start = self.offset(span.line, span.column)
        end = max(self.offset(span.end_line, span.end_column), start)
        return types.Range(start=self.position(start), end=self.position(end))

    def line_range(self, line: int) -> types.Range:
        """The client's range of a whole loader line (without its break)."""
        text = self.loader_line_text(line)
        start = self.offset(line, 1)
        return types.Range(start=self.position(start), end=self.position(start + len(text)))

    def span_of(self, start: int, end: int) -> Span:
        """The loader span of a character range."""
        line, column = self.loader_point(start)
        end_line, end_column = self.loader_point(end)
        return Span(line, column, end_line, end_column)

    def point(self, position: types.Position) -> tuple[int, int]:
        """The loader line:column of a client position."""
        return self.loader_point(self.offset_at(position))

    def lsp_line(self, line: int) -> str:
        """The client's 0-based line, without its break."""
        if not 0 <= line < len(self._lsp_starts):
            return ""
        start = self._lsp_starts[line]
        end = self._lsp_starts[line + 1] if line + 1 < len(self._lsp_starts) else len(self.text)
        return self.text[start:end].rstrip("\r\n")

    @property
    def loader_line_count(self) -> int:
        return len(self._loader_starts)

    @property
    def lsp_line_count(self) -> int:
        return len(self._lsp_starts)

    def end(self) -> types.Position:
        return self.position(len(self.text))
