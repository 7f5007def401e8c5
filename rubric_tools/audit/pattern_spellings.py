"""Two readings of a gate regex parsed into `pattern_tree` items: every string a part of it
spells, when they are few (`spellings`: "prohibit(?:s|ed|ing)?" -> prohibit, prohibits,
prohibited, prohibiting), and the pattern written flat, without the nesting that edits
leave behind (`flattened`: "(?:may|(?:may|can))" -> "(?:may|can)")."""

from __future__ import annotations

import re

from rubric_tools.audit.pattern_tree import Item, parse_items, render

#: At most this many strings are spelled out of one part of a pattern (`spellings`).
MAX_SPELLINGS = 64


def spellings(items: list[Item], limit: int = MAX_SPELLINGS) -> tuple[str, ...] | None:
    """Every string `items` match, when they spell finitely many words or phrases (letters,
    hyphens, apostrophes and spaces; groups of those, optional or not; a class of a few
    letters, "[sz]"; a space written
    `\\s` or `\\s+` counts as one): "prohibit(?:s|ed|ing)?" -> prohibit, prohibits,
    prohibited, prohibiting. None for anything else (a window, a class), or past `limit`."""
    found: list[str] = [""]
    for item in items:
        if item.kind == "lit" and item.quant in ("", "?") and (item.char.isalpha() or item.char in " -'’"):
            options = [item.char.lower()]
        elif item.kind == "escape" and item.text == "\\s" and item.quant in ("", "+"):
            options = [" "]
        elif item.kind == "escape" and item.text == "\\b" and not item.quant:
            options = [""]  # a word's edge spells nothing
        elif item.kind == "class" and item.quant in ("", "?") and re.fullmatch(r"\[[a-z]{2,4}\]", item.text):
            options = list(item.text[1:-1])  # "penali[sz]e"
        elif item.kind == "group" and item.quant in ("", "?") and not item.opener.startswith("(?<"):
            inner = [spellings(branch, limit) for branch in item.branches]
            if any(branch is None for branch in inner):
                return None
            options = [text for branch in inner for text in branch or ()]
        else:
            return None
        if item.quant == "?":
            options = [*options, ""]
        found = list(dict.fromkeys(before + option for before in found for option in options))
        if len(found) > limit:
            return None
    return tuple(found)


def flattened(pattern: str) -> str:
    """`pattern` without the nesting edits leave behind, written as an auditor would and
    matching exactly the same texts: a non-capturing group that is a whole branch of another
    group gives its branches to it ("(?:may|(?:may|can)|has the right to)" -> "(?:may|can|has
    the right to)"), a branch written twice is written once, and a non-capturing group of
    one branch with no quantifier is written without its parentheses. The pattern itself
    when it does not parse."""
    tree = parse_items(pattern)
    if tree is None:
        return pattern
    _flatten(tree)
    return "|".join(dict.fromkeys(render(branch) for branch in tree))


def _flatten(branches: list[list[Item]]) -> None:
    for sequence in branches:
        index = 0
        while index < len(sequence):
            item = sequence[index]
            if item.kind == "group":
                _flatten(item.branches)
                item.branches = _spliced_branches(item.branches)
                if item.opener == "(?:" and not item.quant and len(item.branches) == 1:
                    sequence[index : index + 1] = item.branches[0]
                    continue  # its items are looked at in turn
            index += 1


def _spliced_branches(branches: list[list[Item]]) -> list[list[Item]]:
    spliced: list[list[Item]] = []
    for branch in branches:
        inner = branch[0] if len(branch) == 1 else None
        if inner is not None and inner.kind == "group" and inner.opener == "(?:" and not inner.quant:
            spliced.extend(inner.branches)
        else:
            spliced.append(branch)
    unique: dict[str, list[Item]] = {}
    for branch in spliced:
        unique.setdefault(render(branch), branch)
    return list(unique.values())
