"""The alternatives of a regex, each as a pattern of its own: `a|b` gives `a` and `b`;
`x (?:a|b) y` gives `x (?:a) y` and `x (?:b) y`. A textual scan (escapes and character
classes respected), so each variant keeps the author's spelling.

Used by `rubric audit` to find an alternative that can never fire while the rest of the
gate can (an unescaped `$5` or YAML's backspace in one branch), and by the seeded-defect
benchmark to narrow an alternation.
"""

from __future__ import annotations

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
    cuts = [offset, *(bar + 1 for bar in bars)]
    ends = [*bars, offset + len(text)]
    return [text[start - offset : end - offset] for start, end in zip(cuts, ends, strict=True)]


def _is_repeated(pattern: str, end: int) -> bool:
    r"""Whether the group closing at `end` repeats (`*`, `+`, `{m,n}`): its branches then
    combine within one match (`(?:[^.]|\.(?=\d)){0,60}`), so a branch alone proves nothing."""
    return pattern[end + 1 : end + 2] in ("*", "+", "{")


def _group_variants(pattern: str, skip_repeated: bool) -> list[tuple[str, str]]:
    _top, groups = scan_groups(pattern)
    variants: list[tuple[str, str]] = []
    for start, end, bars in groups:
        body = group_body_start(pattern, start)
        nested = any(s < start and end < e and b for s, e, b in groups)
        if skip_repeated and any(
            _is_repeated(pattern, e) for s, e, _b in groups if s <= start and end <= e
        ):  # repeated itself, or inside a repeated group (`(?:(?!no)(?:[^.;]|\.\d)){1,30}?`)
            continue
        if bars and body is not None and not nested:
            variants += [
                (branch, pattern[:body] + branch + pattern[end:]) for branch in _branches(pattern[body:end], body, bars)
            ]
    return variants


def alternative_patterns(pattern: str, *, skip_repeated: bool = False) -> list[tuple[str, str]]:
    """(branch, pattern with only that branch) for every branch of the top-level alternation
    and of every group that is not inside another group's alternation (within each top-level
    branch on its own); at most MAX_VARIANTS. With `skip_repeated`, leave out the branches
    of repeated groups and of groups inside them, whose branches only work together."""
    top, _groups = scan_groups(pattern)
    if not top:
        return _group_variants(pattern, skip_repeated)[:MAX_VARIANTS]
    variants: list[tuple[str, str]] = []
    for branch in _branches(pattern, 0, top):
        variants += [(branch, branch), *_group_variants(branch, skip_repeated)]
    return variants[:MAX_VARIANTS]
