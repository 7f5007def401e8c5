"""Split a Markdown document into citable sections (engine.md §2).

A line starting with `## ` opens a section whose token is the first word of the
heading with trailing dots removed. Text before the first heading is the `full`
section. A token seen twice has its text appended to the first occurrence.
"""

from __future__ import annotations

from dataclasses import dataclass, field

PREAMBLE_TOKEN = "full"
HEADING_PREFIX = "## "


@dataclass(frozen=True)
class Heading:
    """A `## ` heading line as found in the source (1-based line number)."""

    line: int
    text: str
    token: str | None  # None when the heading has no word at all


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
    for number, line in enumerate(text.split("\n"), start=1):
        if line.startswith(HEADING_PREFIX):
            token = heading_token(line)
            heading = Heading(number, line.rstrip("\r"), token)
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
    sections = {token: "\n".join(lines).strip() for token, lines in chunks.items()}
    return ParsedDocument(
        sections=sections,
        headings=tuple(headings),
        duplicate_tokens=tuple(duplicates),
        empty_headings=tuple(empty),
        token_lines=token_lines,
    )
