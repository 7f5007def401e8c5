"""A gate regex as the author wrote it, split into items the widening steps can rewrite:
literal characters, groups with their branches, classes, escapes and the rest, each
with its quantifier. `render` writes the items back; a pattern parsed and rendered
unchanged is the same text, so an edit changes only what it rewrites and the rest
keeps the author's spelling.

This is a textual scan of `re` syntax (escapes, classes, groups, lookarounds,
quantifiers); `parse_items` returns None for what it does not read (a flag group in
the middle, a conditional group), and such a pattern is left alone.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import lru_cache

_QUANTIFIER = re.compile(r"(?:[?*+]|\{\d*(?:,\d*)?\})[?+]?")


@dataclass
class Item:
    """One element of a sequence. `kind` is "lit" (one literal character, `text` its
    source, `char` what it matches), "group" (`branches`, `opener` such as "(?:" or "("),
    "class" (`[...]`), "escape" (`\\b`, `\\s`, ...), "dot", "look" (a lookaround: kept
    as text), "anchor" (`^`, `$`) or "raw" (regex text an edit put in, written as is).
    `frozen`: an edit's group whose words later edits leave alone."""

    kind: str
    text: str = ""
    char: str = ""
    opener: str = ""
    branches: list[list[Item]] = field(default_factory=list)
    quant: str = ""
    frozen: bool = False

    def render(self) -> str:
        if self.kind == "group":
            return self.opener + "|".join(render(branch) for branch in self.branches) + ")" + self.quant
        return self.text + self.quant

    @property
    def is_letter(self) -> bool:
        return self.kind == "lit" and not self.quant and (self.char.isalpha() or self.char in "'’")


def render(items: list[Item]) -> str:
    return "".join(item.render() for item in items)


class _Scanner:
    def __init__(self, pattern: str) -> None:
        self.text = pattern
        self.pos = 0

    def sequence(self, depth: int) -> list[list[Item]] | None:
        branches: list[list[Item]] = [[]]
        while self.pos < len(self.text):
            char = self.text[self.pos]
            if char == ")":
                if depth == 0:
                    return None
                return branches
            if char == "|":
                self.pos += 1
                branches.append([])
                continue
            item = self.item(depth)
            if item is None:
                return None
            branches[-1].append(item)
        return None if depth else branches

    def _quant(self) -> str:
        match = _QUANTIFIER.match(self.text, self.pos)
        if match is None:
            return ""
        self.pos = match.end()
        return match.group(0)

    def item(self, depth: int) -> Item | None:
        text, pos = self.text, self.pos
        char = text[pos]
        if char == "\\":
            if pos + 1 >= len(text):
                return None
            escaped = text[pos + 1]
            self.pos += 2
            if escaped.isalnum():
                return Item("escape", text[pos : pos + 2], quant=self._quant())
            return Item("lit", text[pos : pos + 2], escaped, quant=self._quant())
        if char == "[":
            end = pos + 1
            if text[end : end + 1] == "^":
                end += 1
            if text[end : end + 1] == "]":
                end += 1
            while end < len(text) and text[end] != "]":
                end += 2 if text[end] == "\\" else 1
            if end >= len(text):
                return None
            self.pos = end + 1
            return Item("class", text[pos : end + 1], quant=self._quant())
        if char == "(":
            return self.group(depth)
        if char in "^$":
            self.pos += 1
            return Item("anchor", char)
        if char == ".":
            self.pos += 1
            return Item("dot", ".", quant=self._quant())
        if char in "*+?{" and _QUANTIFIER.match(text, pos):
            return None  # a quantifier with nothing to repeat
        self.pos += 1
        return Item("lit", char, char, quant=self._quant())

    def group(self, depth: int) -> Item | None:
        text, pos = self.text, self.pos
        look = re.match(r"\((?:\?[=!]|\?<[=!])", text[pos:])
        if look:
            end = _group_end(text, pos)
            if end is None:
                return None
            self.pos = end + 1
            return Item("look", text[pos : end + 1])
        opener = re.match(r"\((?:\?:|\?P<\w+>|(?!\?))", text[pos:])
        if opener is None:
            return None  # flags, conditionals, comments: left alone
        self.pos += len(opener.group(0))
        branches = self.sequence(depth + 1)
        if branches is None or self.pos >= len(text) or text[self.pos] != ")":
            return None
        self.pos += 1
        return Item("group", opener=opener.group(0), branches=branches, quant=self._quant())


def _group_end(text: str, start: int) -> int | None:
    depth, index, in_class = 0, start, False
    while index < len(text):
        char = text[index]
        if char == "\\":
            index += 2
            continue
        if in_class:
            in_class = char != "]"
        elif char == "[":
            in_class = True
        elif char == "(":
            depth += 1
        elif char == ")":
            depth -= 1
            if depth == 0:
                return index
        index += 1
    return None


def parse_items(pattern: str) -> list[list[Item]] | None:
    """The top-level branches of `pattern`, each a list of items; None when the scan does
    not read it (or when rendering would not give the same text back)."""
    scanner = _Scanner(pattern)
    try:
        branches = scanner.sequence(0)
    except IndexError:
        return None
    if branches is None or "|".join(render(b) for b in branches) != pattern:
        return None
    return branches


@lru_cache(maxsize=1024)
def shared_items(pattern: str) -> list[list[Item]] | None:
    """`parse_items`, remembered: one tree per pattern for the readers that only read it (a
    gate's top-level branches and its windows are asked of the same patterns). Never edit
    it: an edit works on a tree of its own from `parse_items`."""
    return parse_items(pattern)


def top_level_branches(pattern: str) -> list[str] | None:
    """The top-level alternatives of `pattern` as written (one when it has no top-level
    alternation); None when the scan does not read it."""
    tree = shared_items(pattern)
    return None if tree is None else [render(branch) for branch in tree]


@lru_cache(maxsize=1024)  # asked again for a gate that several gate lists share
def compiled_branches(pattern: str) -> tuple[re.Pattern[str], ...]:
    """The top-level alternatives of `pattern`, each compiled (none when it has one, or does
    not compile)."""
    branches = top_level_branches(pattern) if pattern else None
    if branches is None or len(branches) < 2:
        return ()
    try:
        return tuple(re.compile(branch, re.IGNORECASE) for branch in branches)
    except re.error:
        return ()


def walk_sequences(branches: list[list[Item]]) -> Iterator[list[Item]]:
    """Every sequence of the tree: the top-level branches and every group's branches."""
    for sequence, _left, _right in walk_with_edges(branches):
        yield sequence


def walk_with_edges(
    branches: list[list[Item]], left: bool = True, right: bool = True
) -> Iterator[tuple[list[Item], bool, bool]]:
    """Every sequence with whether its two ends are open (nothing outside can add letters to
    a word at that end): a group's branches inherit what stands beside the group."""
    for sequence in branches:
        yield sequence, left, right
        for index, item in enumerate(sequence):
            if item.kind == "group":
                inner_left = _open_edge(sequence, index - 1, left, after=False)
                inner_right = _open_edge(sequence, index + 1, right, after=True)
                if item.quant:
                    inner_left = inner_left and not item.quant.startswith(("*", "+", "{"))
                    inner_right = inner_right and not item.quant.startswith(("*", "+", "{"))
                yield from walk_with_edges(item.branches, inner_left, inner_right)


def enclosing_groups(branches: list[list[Item]]) -> dict[int, tuple[Item, ...]]:
    """The groups around each sequence of the tree, innermost first, by the sequence's `id`
    (a top-level branch has none)."""
    found: dict[int, tuple[Item, ...]] = {}

    def visit(sequences: list[list[Item]], around: tuple[Item, ...]) -> None:
        for sequence in sequences:
            found[id(sequence)] = around
            for item in sequence:
                if item.kind == "group":
                    visit(item.branches, (item, *around))

    visit(branches, ())
    return found


def following_words(branches: list[list[Item]]) -> dict[int, str]:
    """The word written one space after each group of the tree, by the `id` of each of the
    group's branches: what a word at a branch's end is read with ("(?:permitted|authorized)
    to": a participle before "to")."""
    found: dict[int, str] = {}
    for sequence in walk_sequences(branches):
        for index, item in enumerate(sequence):
            space = sequence[index + 1] if index + 1 < len(sequence) else None
            if item.kind != "group" or item.quant or space is None or space.kind != "lit" or space.char != " ":
                continue
            letters = []
            for after in sequence[index + 2 :]:
                if after.kind != "lit" or after.quant or not after.char.isalpha():
                    break
                letters.append(after.char.lower())
            if letters:
                for branch in item.branches:
                    found[id(branch)] = "".join(letters)
    return found


def items_after(branches: list[list[Item]], after: Item | None = None) -> dict[int, Item | None]:
    """What follows each sequence of the tree once it ends, by the sequence's `id`: for a
    group's branch, the item after the group (None at the pattern's end)."""
    found: dict[int, Item | None] = {}
    for sequence in branches:
        found[id(sequence)] = after
        for index, item in enumerate(sequence):
            if item.kind == "group":
                found.update(items_after(item.branches, sequence[index + 1] if index + 1 < len(sequence) else after))
    return found


@dataclass(frozen=True)
class WordRun:
    """Letters of a sequence that spell one word: sequence[start:end] are literal letters
    (apostrophes and inner hyphens included), with no letter right before or after."""

    start: int
    end: int
    word: str


def words_of(sequence: list[Item], left: bool = True, right: bool = True) -> list[WordRun]:
    """The whole words written literally in a sequence (not under a quantifier, not touching
    a group or class that could add letters); `left`/`right`: whether the sequence's ends
    are open (see `walk_with_edges`)."""
    runs: list[WordRun] = []
    index = 0
    while index < len(sequence):
        if not sequence[index].is_letter or sequence[index].char in "'’":
            index += 1
            continue
        start = index
        while index < len(sequence) and (
            sequence[index].is_letter
            or (
                sequence[index].kind == "lit"
                and sequence[index].char == "-"
                and not sequence[index].quant
                and index + 1 < len(sequence)
                and sequence[index + 1].is_letter
            )
        ):
            index += 1
        if _open_edge(sequence, start - 1, left, after=False) and _open_edge(sequence, index, right, after=True):
            word = "".join(item.char for item in sequence[start:index]).lower()
            runs.append(WordRun(start, index, word))
    return runs


def _open_edge(sequence: list[Item], index: int, outside: bool = True, *, after: bool | None = None) -> bool:
    """Whether the item at `index` (beside a word) cannot add letters to it; past either
    end of the sequence, `outside` says. A window (`[^.]{0,80}`, `.*`, `\\s+`) counts as
    open: it stands between words; a letter class (`\\w*`, `[a-z]+`) does not. `after`:
    the item follows the word (None: decide from the index alone, both ends of a group)."""
    if index < 0 or index >= len(sequence):
        return outside
    item = sequence[index]
    if item.kind == "lit":
        return not (item.char.isalnum() or item.char in "'’-")
    if item.kind == "escape":
        return item.text in ("\\b", "\\s", "\\W", "\\d", "\\D")
    if item.kind in ("class", "dot"):
        return _matches_space(item.text)
    if item.kind == "group":
        if item.quant.startswith(("*", "+")):
            return False
        ends = [0] if after else [-1] if after is False else [0, -1]
        return all(not branch or _open_edge(branch, end % len(branch)) for branch in item.branches for end in ends)
    return item.kind in ("anchor", "look")


def _matches_space(source: str) -> bool:
    try:
        return re.fullmatch(source, " ") is not None
    except re.error:
        return False


def literal(text: str) -> list[Item]:
    """Items matching `text` literally (regex metacharacters escaped)."""
    items = []
    for char in text:
        source = re.escape(char) if char not in " -'’,§%" else char
        items.append(Item("lit", source, char))
    return items


def is_word_space(item: Item) -> bool:
    """A space between two words as gates write it: " " or `\\s`, `\\s+` (not an optional one)."""
    if item.kind == "lit":
        return item.char == " " and not item.quant
    return item.kind == "escape" and item.text == "\\s" and item.quant in ("", "+")


#: A window's room for an aside (`widening.widen_windows`): a clause set off by commas, never
#: into the next clause (a ";", or a ", and", ", but", ", or" that coordinates another):
#: "notify … within 48 hours" is no sin in "notify Customer of the incident promptly, and
#: deliver the report within 48 hours". A window like any other (`is_window`): measured, and
#: kept free of negators where the guard does not see inside the match.
_ASIDE_BODY = r"(?!;|, (?:and|but|or)\b)(?:[^.]|\.\d)"
ASIDE_WINDOW = f"(?:{_ASIDE_BODY})"


def is_window(item: Item) -> bool:
    """A class or wildcard repeated over several characters: `[^.]{0,60}`, `.*`, `[^.;]+`,
    `(?:[^.]|\\.\\d){0,80}` (not a letter class such as `\\w+` or `[a-z]*`)."""
    if not item.quant or item.quant.startswith("?"):
        return False
    if item.kind == "dot":
        return True
    if item.kind == "class":
        return item.text.startswith("[^")
    return item.kind == "group" and "|".join(render(b) for b in item.branches) in (
        "[^.]|\\.(?=\\d)",
        "[^.]|\\.\\d",
        "(?!\\.(?!\\d)).",
        _ASIDE_BODY,
    )
