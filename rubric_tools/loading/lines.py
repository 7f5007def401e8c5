"""How YAML numbers a file's lines, for code that shows lines without parsing them (the
snippets of a lint report restored from the cache): cheap to import, unlike the loader."""

from __future__ import annotations

import re

#: The line breaks of YAML 1.1, which the marks count (`splitlines()` knows more).
_YAML_LINE_BREAK = re.compile("\r\n|\r|\n|\x85|\u2028|\u2029")


def yaml_lines(text: str) -> list[str]:
    """The lines of a YAML text as its marks number them."""
    return _YAML_LINE_BREAK.split(text)
