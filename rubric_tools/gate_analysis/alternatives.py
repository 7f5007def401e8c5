"""The alternatives of a regex, each as a pattern of its own: `a|b` gives `a` and `b`;
`x (?:a|b) y` gives `x (?:a) y` and `x (?:b) y`. A textual scan (escapes and character
classes respected), so each variant keeps the author's spelling.

Used by `rubric audit` to find an alternative that can never fire while the rest of the
gate can (an unescaped `$5` or YAML's backspace in one branch), and by the seeded-defect
benchmark to narrow an alternation.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

#: At most this many variants per pattern: bounded work on a long alternation.
MAX_VARIANTS = 24


def scan_groups(pattern: str) -> tuple[list[int], list[tuple[int, int, list[int]]]]:
    """Top-level `|` positions, and every group as (open, close, its own `|` positions),
    sorted by where the group opens."""
    top: list[int] = []
    groups: list[tuple[int, int, list[int]]] = []
    stack: list[tuple[int, list[int]]] = []
    index, in_class = 0, False
    while index < len(pattern):
        char = pattern[index]
        if char == "\\":
            index += 2
            continue
        if in_class:
            in_class = char != "]"
        elif char == "[":
            in_class = True
            if pattern[index + 1 : index + 2] == "^":
                index += 1
            if pattern[index + 1 : index + 2] == "]":
                index += 1  # a leading `]` is a literal
        elif char == "(":
            stack.append((index, []))
        elif char == ")" and stack:
            start, bars = stack.pop()
            groups.append((start, index, bars))
        elif char == "|":
            (stack[-1][1] if stack else top).append(index)
        index += 1
    return top, sorted(groups)


def group_body_start(pattern: str, start: int) -> int | None:
    """Where a capturing or non-capturing group's body starts; None for lookarounds and flags."""
    if pattern.startswith("(?:", start):
        return start + 3
    if pattern.startswith("(?P<", start):
        end = pattern.find(">", start)
        return end + 1 if end > 0 else None
    return None if pattern.startswith("(?", start) else start + 1


def _branches(text: str, offset: int, bars: list[int]) -> list[str]:
    return [text[start - offset : end - offset] for start, end in _branch_spans(text, offset, bars)]


def _branch_spans(text: str, offset: int, bars: list[int]) -> list[tuple[int, int]]:
    """Where each branch of `text` (at `offset`, its `|` at `bars`) starts and ends."""
    cuts = [offset, *(bar + 1 for bar in bars)]
    ends = [*bars, offset + len(text)]
    return list(zip(cuts, ends, strict=True))


def _is_repeated(pattern: str, end: int) -> bool:
    r"""Whether the group closing at `end` repeats (`*`, `+`, `{m,n}`): its branches then
    combine within one match (`(?:[^.]|\.(?=\d)){0,60}`), so a branch alone proves nothing."""
    return pattern[end + 1 : end + 2] in ("*", "+", "{")


@dataclass(frozen=True)
class Alternative:
    """One branch of an alternation, and the pattern with only that branch."""

    branch: str
    pattern: str
    #: Where, in the whole pattern, the branches it keeps start: the group's branch, and the
    #: top-level branch around it when the pattern has several. A match of the whole pattern
    #: that went through all of them is a match of `pattern`.
    starts: tuple[int, ...]


def _group_variants(pattern: str, skip_repeated: bool, offset: int = 0) -> list[Alternative]:
    """The alternatives of the groups of `pattern` (found at `offset` in the whole pattern)."""
    _top, groups = scan_groups(pattern)
    variants: list[Alternative] = []
    for start, end, bars in groups:
        body = group_body_start(pattern, start)
        nested = any(s < start and end < e and b for s, e, b in groups)
        if skip_repeated and any(
            _is_repeated(pattern, e) for s, e, _b in groups if s <= start and end <= e
        ):  # repeated itself, or inside a repeated group (`(?:(?!no)(?:[^.;]|\.\d)){1,30}?`)
            continue
        if bars and body is not None and not nested:
            variants += [
                Alternative(
                    pattern[first:last], pattern[:body] + pattern[first:last] + pattern[end:], (offset + first,)
                )
                for first, last in _branch_spans(pattern[body:end], body, bars)
            ]
    return variants


def alternatives(pattern: str, *, skip_repeated: bool = False) -> list[Alternative]:
    """Every branch of the top-level alternation and of every group that is not inside another
    group's alternation (within each top-level branch on its own), each with the pattern
    that keeps only it; at most MAX_VARIANTS. With `skip_repeated`, leave out the branches
    of repeated groups and of groups inside them, whose branches only work together."""
    top, _groups = scan_groups(pattern)
    if not top:
        return _group_variants(pattern, skip_repeated)[:MAX_VARIANTS]
    variants: list[Alternative] = []
    for first, last in _branch_spans(pattern, 0, top):
        branch = pattern[first:last]
        variants.append(Alternative(branch, branch, (first,)))
        variants += [
            replace(variant, starts=(first, *variant.starts))
            for variant in _group_variants(branch, skip_repeated, first)
        ]
    return variants[:MAX_VARIANTS]


def alternative_patterns(pattern: str, *, skip_repeated: bool = False) -> list[tuple[str, str]]:
    """(branch, pattern with only that branch) of each of `alternatives`."""
    return [(found.branch, found.pattern) for found in alternatives(pattern, skip_repeated=skip_repeated)]
