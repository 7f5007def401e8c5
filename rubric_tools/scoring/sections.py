"""Split a Markdown document into citable sections (engine.md §2).

A line starting with `## ` opens a section whose token is the first word of the
heading with trailing dots removed. Text before the first heading is the `full`
section. A token seen twice has its text appended to the first occurrence.

Lines are what `str.splitlines()` makes of the text, as in the reference engine: a
form feed, `\\v`, `\\x1c`-`\\x1e`, `\\x85`, U+2028, U+2029 and a lone `\\r` all start a
new line there, so a `## ` after one of them is a heading. Positions reported to an
author are editor positions: the line counted by `\\n`, `\\r\\n` or `\\r` breaks, and
the column where the reference's line starts in it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

PREAMBLE_TOKEN = "full"
HEADING_PREFIX = "## "


@dataclass(frozen=True)
class Heading:
    """A `## ` heading line as found in the source (1-based editor line and column)."""

    line: int
    text: str
    token: str | None  # None when the heading has no word at all
    column: int = 1


@dataclass(frozen=True)
class ParsedDocument:
    """Sections by token (in first-seen order) plus what a linter needs to know."""

    sections: dict[str, str]
    headings: tuple[Heading, ...] = ()
    duplicate_tokens: tuple[Heading, ...] = ()
    empty_headings: tuple[Heading, ...] = ()
    token_lines: dict[str, int] = field(default_factory=dict)


def heading_token(line: str) -> str | None:
    """The token of a heading line, or None when the heading carries no word."""
    words = line[len(HEADING_PREFIX) :].split()
    if not words:
        return None
    return words[0].rstrip(".")


#: What editors break lines at; the other `splitlines()` separators stay inside a line.
_EDITOR_BREAK = re.compile("\r\n|\r|\n")


def editor_lines(text: str) -> list[str]:
    """The lines an editor shows (and diagnostics number)."""
    return _EDITOR_BREAK.split(text)


def _editor_positions(chunks: list[str]) -> list[tuple[int, int]]:
    """Where each `splitlines(keepends=True)` chunk starts, as (editor line, column)."""
    positions: list[tuple[int, int]] = []
    line = column = 1
    for chunk in chunks:
        positions.append((line, column))
        if chunk.endswith(("\n", "\r")):
            line, column = line + 1, 1
        else:  # ended by a separator editors show inside the line
            column += len(chunk)
    return positions


def parse_sections(text: str) -> ParsedDocument:
    """Parse `text` into sections the way the reference engine does.

    The engine crashes on a heading with no token; we keep such a line as ordinary
    text of the current section and report it in `empty_headings` instead.
    """
    chunks: dict[str, list[str]] = {PREAMBLE_TOKEN: []}
    token_lines: dict[str, int] = {PREAMBLE_TOKEN: 1}
    headings: list[Heading] = []
    duplicates: list[Heading] = []
    empty: list[Heading] = []
    current: list[str] = chunks[PREAMBLE_TOKEN]
    positions = _editor_positions(text.splitlines(keepends=True))
    for index, line in enumerate(text.splitlines()):
        if line.startswith(HEADING_PREFIX):
            token = heading_token(line)
            number, column = positions[index]
            heading = Heading(number, line, token, column)
            if token is None:
                empty.append(heading)
                current.append(line)
                continue
            headings.append(heading)
            if token in chunks:
                duplicates.append(heading)
                current = chunks[token]
                # A merged chunk starts on a new line of the first one.
                current.append(line)
                continue
            chunks[token] = [line]
            token_lines[token] = number
            current = chunks[token]
        else:
            current.append(line)
    sections = {token: "\n".join(chunk).strip() for token, chunk in chunks.items()}
    return ParsedDocument(
        sections=sections,
        headings=tuple(headings),
        duplicate_tokens=tuple(duplicates),
        empty_headings=tuple(empty),
        token_lines=token_lines,
    )
