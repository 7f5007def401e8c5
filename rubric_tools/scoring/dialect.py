"""Gate regexes with `re`'s meaning, run on `regex` for its time limit.

The reference engine searches with `re.search(pattern, text, re.IGNORECASE)`. The
`regex` package reads some patterns differently (`{e<=2}` is fuzzy matching there and
literal text in `re`; `[[:digit:]]` is a POSIX class there and a set followed by `]` in
`re`; `\\w` and `\\b` count combining marks as word characters there and not in `re`),
but only `regex` can stop a search after a time limit. So a pattern is parsed by `re`'s
own parser and written back out in a form `regex` cannot misread: every literal escaped,
every set spelled out, and the word, digit and space categories replaced by classes
that are `re`'s definitions. `regex` then runs a pattern that means exactly what the
reference runs, with its time limit. Case-insensitive `re` also treats a few letters
as equal that `regex` does not (ı and i, ſ and s, ϐ and β...: `re._casefix`); both
the pattern's literals and the searched text map each such letter to one
representative (`fold`), one character for one, so match positions are unchanged
(not in a pattern with a case-sensitive `(?-i:...)` or an `(?a)` scope, where folding is
off: there those letters can still differ). A random differential test
(tests/scoring/test_dialect.py) holds the two equal.

Before any of that, the pattern's compile cost is bounded: a size cap on the pattern
and a cap on its size with every counted repeat expanded, computed on the parse tree,
because `regex` expands counted repeats when compiling (`(?:a{65535}){65535}` costs
minutes and gigabytes there). A refused pattern never fires; it is reported like an
uncompilable one.
"""

from __future__ import annotations

import re
import warnings
from re import _constants as sre  # type: ignore[attr-defined]
from re import _parser as sre_parse  # type: ignore[attr-defined]
from typing import Any

#: Longer patterns are refused before they are parsed (gates in real rubrics are < 1 KB).
MAX_PATTERN_LENGTH = 10_000
#: Refused when its size, every counted repeat expanded, exceeds this many nodes.
MAX_EXPANDED_SIZE = 100_000
#: Refused when it holds a longer run of literal characters: `regex` prepares the search for
#: a literal in time that grows with the square of its length, before its time limit is
#: looked at (1,000 letters: 0.3 s on a 30,000-character text; 5,000: 35 s). Real gates come
#: nowhere near: the longest run in the conformance corpus is 41 characters.
MAX_LITERAL_RUN = 500

# `re`'s categories for str patterns (Unicode): \w is `str.isalnum()` or `_` (letters and
# numbers), \d is a decimal digit, \s is `str.isspace()` (which adds \x1c-\x1f).
_WORD = r"\p{L}\p{N}_"
_ASCII_WORD = r"a-zA-Z0-9_"
_DIGIT = r"\p{Nd}"
_ASCII_DIGIT = r"0-9"
_SPACE = r"\s\x1c-\x1f"
_ASCII_SPACE = r" \t\n\r\f\v"
_ANY = r"[\s\S]"

_FLAG_LETTERS = {
    sre.SRE_FLAG_IGNORECASE: "i",
    sre.SRE_FLAG_MULTILINE: "m",
    sre.SRE_FLAG_DOTALL: "s",
    sre.SRE_FLAG_ASCII: "a",
}
#: The `re` flags a translated pattern is compiled with (the others are spelled out in it).
GLOBAL_FLAGS = sre.SRE_FLAG_IGNORECASE | sre.SRE_FLAG_MULTILINE | sre.SRE_FLAG_DOTALL | sre.SRE_FLAG_ASCII


class PatternRefused(ValueError):
    """A pattern `re` cannot compile, or one too costly to compile at all."""

    def __init__(self, message: str, position: int | None = None, *, too_costly: bool = False) -> None:
        super().__init__(message)
        self.message = message
        self.position = position
        self.too_costly = too_costly


def parse(pattern: str, flags: int = re.IGNORECASE) -> Any:
    """`re`'s parse tree of `pattern`, after the size cap; raises PatternRefused."""
    if len(pattern) > MAX_PATTERN_LENGTH:
        raise PatternRefused(
            f"pattern is {len(pattern):,} characters long; the limit is {MAX_PATTERN_LENGTH:,}", too_costly=True
        )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # FutureWarnings about possible set syntax
        try:
            # As a plain int: `re`'s parser and our writer test these flags thousands of times, and
            # every test of an IntFlag runs Python-level enum code.
            return sre_parse.parse(pattern, int(flags))
        except re.error as exc:
            raise PatternRefused(exc.msg, exc.pos) from exc
        except (RecursionError, OverflowError, ValueError, MemoryError) as exc:
            raise PatternRefused(f"cannot parse the pattern ({type(exc).__name__})", too_costly=True) from exc


def expanded_size(tree: Any, limit: int = MAX_EXPANDED_SIZE) -> int:
    """Size of the pattern with every counted repeat written out (stops counting past `limit`)."""
    total = 0
    for op, av in tree:
        if op in (sre.MAX_REPEAT, sre.MIN_REPEAT, sre.POSSESSIVE_REPEAT):
            low, high, body = av
            copies = low + 1 if high == sre.MAXREPEAT else max(high, 1)
            total += copies * expanded_size(body, limit)
        elif op == sre.SUBPATTERN:
            total += 1 + expanded_size(av[3], limit)
        elif op == sre.BRANCH:
            total += 1 + sum(expanded_size(branch, limit) for branch in av[1])
        elif op in (sre.ASSERT, sre.ASSERT_NOT):
            total += 1 + expanded_size(av[1], limit)
        elif op == sre.ATOMIC_GROUP:
            total += 1 + expanded_size(av, limit)
        elif op == sre.GROUPREF_EXISTS:
            total += 1 + expanded_size(av[1], limit) + (expanded_size(av[2], limit) if av[2] else 0)
        elif op == sre.IN:
            total += len(av)
        else:
            total += 1
        if total > limit:
            return total
    return total


def longest_literal_run(tree: Any) -> int:
    """The most literal characters in a row anywhere in the pattern (inside groups too)."""
    longest = run = 0
    for op, av in tree:
        if op == sre.LITERAL:
            run += 1
            longest = max(longest, run)
            continue
        run = 0
        if op in (sre.MAX_REPEAT, sre.MIN_REPEAT, sre.POSSESSIVE_REPEAT):
            longest = max(longest, longest_literal_run(av[2]))
        elif op == sre.SUBPATTERN:
            longest = max(longest, longest_literal_run(av[3]))
        elif op == sre.BRANCH:
            longest = max([longest, *(longest_literal_run(branch) for branch in av[1])])
        elif op in (sre.ASSERT, sre.ASSERT_NOT):
            longest = max(longest, longest_literal_run(av[1]))
        elif op == sre.ATOMIC_GROUP:
            longest = max(longest, longest_literal_run(av))
    return longest


def check_cost(tree: Any) -> None:
    """Raise PatternRefused when the expanded pattern is over the limit, or it holds a run of
    literal characters too long to search for (`MAX_LITERAL_RUN`)."""
    size = expanded_size(tree)
    if size > MAX_EXPANDED_SIZE:
        raise PatternRefused(
            f"counted repeats expand the pattern to over {MAX_EXPANDED_SIZE:,} elements; "
            "compiling it would take unbounded time and memory",
            too_costly=True,
        )
    run = longest_literal_run(tree)
    if run > MAX_LITERAL_RUN:
        raise PatternRefused(
            f"a run of {run:,} literal characters, over the limit of {MAX_LITERAL_RUN:,}: the regex engine "
            "prepares the search for a literal in time that grows with the square of its length",
            too_costly=True,
        )


def _fold_table() -> dict[int, int]:
    """Each letter of `re`'s extra case-insensitive equivalences -> its group's smallest."""
    from re import _casefix  # type: ignore[attr-defined]

    groups: dict[int, set[int]] = {}
    for code, extras in _casefix._EXTRA_CASES.items():
        group = {code, *extras}
        for member in list(group):
            group |= groups.get(member, set())
        for member in group:
            groups[member] = group
    table = {code: min(group) for code, group in groups.items() if code != min(group)}
    # İ lowercases to i for `re` (one code point: `_sre.unicode_tolower`); `regex`'s simple
    # case folding leaves it alone.
    table[0x130] = table.get(ord("i"), ord("i"))
    return table


FOLD = _fold_table()
_FOLDABLE = re.compile("[" + "".join(re.escape(chr(code)) for code in sorted(FOLD)) + "]")


def fold(text: str) -> str:
    """`text` with each letter of `re`'s extra case equivalences replaced by its group's
    representative (one character for one: positions are unchanged)."""
    return text.translate(FOLD) if _FOLDABLE.search(text) else text


def _folds_safely(tree: Any, flags: int) -> bool:
    """Folding text is exact when the whole pattern is Unicode case-insensitive (no
    `(?-i:...)` or `(?a)` scope, where `re` does not apply its extra equivalences)."""
    if not flags & sre.SRE_FLAG_IGNORECASE or flags & sre.SRE_FLAG_ASCII:
        return False
    for op, av in tree:
        if op == sre.SUBPATTERN and (av[2] & sre.SRE_FLAG_IGNORECASE or av[1] & sre.SRE_FLAG_ASCII):
            return False
        for child in _subtrees(op, av):
            if not _folds_safely(child, flags):
                return False
    return True


def _subtrees(op: Any, av: Any) -> list[Any]:
    if op == sre.SUBPATTERN:
        return [av[3]]
    if op == sre.BRANCH:
        return list(av[1])
    if op in (sre.MAX_REPEAT, sre.MIN_REPEAT, sre.POSSESSIVE_REPEAT):
        return [av[2]]
    if op in (sre.ASSERT, sre.ASSERT_NOT):
        return [av[1]]
    if op == sre.ATOMIC_GROUP:
        return [av]
    if op == sre.GROUPREF_EXISTS:
        return [av[1]] + ([av[2]] if av[2] else [])
    return []


def checked(pattern: str, flags: int = re.IGNORECASE) -> Any:
    """`re`'s parse tree of `pattern` once it has passed every refusal of `translate`: the
    size and cost caps, and what `re` rejects only when compiling (a lookbehind's width).

    Raises PatternRefused."""
    tree = parse(pattern, flags)
    check_cost(tree)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            re.compile(pattern, flags)  # what `re` rejects only when compiling (lookbehind width)
        except re.error as exc:
            raise PatternRefused(exc.msg, exc.pos) from exc
        except (RecursionError, OverflowError) as exc:
            raise PatternRefused(f"cannot compile the pattern ({type(exc).__name__})", too_costly=True) from exc
    return tree


def translate(pattern: str, flags: int = re.IGNORECASE) -> tuple[str, int, bool]:
    """`pattern` rewritten for `regex` (VERSION0) with `re`'s meaning, the global flags
    (`re` flag values, within GLOBAL_FLAGS) it must be compiled with, and whether texts
    must be passed through `fold` before it searches them.

    Raises PatternRefused for a pattern `re` rejects or one too costly to compile.
    """
    tree = checked(pattern, flags)
    state_flags = tree.state.flags
    folds = _folds_safely(tree, state_flags)
    return _Writer(folds).sequence(tree, state_flags), state_flags & GLOBAL_FLAGS, folds


def _char(code: int) -> str:
    """One literal character that no dialect can read as syntax."""
    if code < 128 and chr(code).isalnum():
        return chr(code)
    if code < 0x100:
        return f"\\x{code:02x}"
    if code < 0x10000:
        return f"\\u{code:04x}"
    return f"\\U{code:08x}"


class _Writer:
    """Writes a parse tree back as a `regex` pattern string."""

    def __init__(self, folds: bool) -> None:
        self.folds = folds

    def char(self, code: int) -> str:
        return _char(FOLD.get(code, code) if self.folds else code)

    def sequence(self, tree: Any, flags: int) -> str:
        return "".join(self.node(op, av, flags) for op, av in tree)

    def node(self, op: Any, av: Any, flags: int) -> str:
        ascii_only = bool(flags & sre.SRE_FLAG_ASCII)
        if op == sre.LITERAL:
            return self.char(av)
        if op == sre.NOT_LITERAL:
            return f"[^{self.char(av)}]"
        if op == sre.ANY:
            return "." if not flags & sre.SRE_FLAG_DOTALL else _ANY
        if op == sre.IN:
            return self.char_set(av, ascii_only)
        if op == sre.BRANCH:
            return "(?:" + "|".join(self.sequence(branch, flags) for branch in av[1]) + ")"
        if op == sre.SUBPATTERN:
            return self.subpattern(av, flags)
        if op in (sre.MAX_REPEAT, sre.MIN_REPEAT, sre.POSSESSIVE_REPEAT):
            low, high, body = av
            count = f"{{{low},}}" if high == sre.MAXREPEAT else f"{{{low},{high}}}"
            suffix = {sre.MAX_REPEAT: "", sre.MIN_REPEAT: "?", sre.POSSESSIVE_REPEAT: "+"}[op]
            return f"(?:{self.sequence(body, flags)}){count}{suffix}"
        if op == sre.AT:
            return self.at(av, ascii_only)
        if op == sre.GROUPREF:
            return f"(?:\\g<{av}>)"
        if op == sre.GROUPREF_EXISTS:
            group, yes, no = av
            return f"(?({group}){self.sequence(yes, flags)}|{self.sequence(no, flags) if no else ''})"
        if op in (sre.ASSERT, sre.ASSERT_NOT):
            direction, body = av
            kind = ("=" if op == sre.ASSERT else "!") if direction == 1 else ("<=" if op == sre.ASSERT else "<!")
            return f"(?{kind}{self.sequence(body, flags)})"
        if op == sre.ATOMIC_GROUP:
            return f"(?>{self.sequence(av, flags)})"
        raise PatternRefused(f"unsupported regex construct {op}")

    def subpattern(self, av: Any, flags: int) -> str:
        group, add_flags, del_flags, body = av
        inner_flags = (flags | add_flags) & ~del_flags
        on = "".join(letter for bit, letter in _FLAG_LETTERS.items() if add_flags & bit)
        off = "".join(letter for bit, letter in _FLAG_LETTERS.items() if del_flags & bit)
        inner = self.sequence(body, inner_flags)
        if on or off:
            inner = f"(?{on}{'-' + off if off else ''}:{inner})"
        return f"({inner})" if group is not None else f"(?:{inner})"

    def at(self, code: Any, ascii_only: bool) -> str:
        if code in (sre.AT_BOUNDARY, sre.AT_NON_BOUNDARY):
            word = f"[{_ASCII_WORD if ascii_only else _WORD}]"
            if code == sre.AT_BOUNDARY:
                return f"(?:(?<={word})(?!{word})|(?<!{word})(?={word}))"
            # `re`'s \B never matches in an empty string.
            return f"(?!(?<![\\s\\S])(?![\\s\\S]))(?:(?<={word})(?={word})|(?<!{word})(?!{word}))"
        return {
            sre.AT_BEGINNING: "^",
            sre.AT_BEGINNING_STRING: r"\A",
            sre.AT_END: "$",
            sre.AT_END_STRING: r"\Z",
        }[code]

    def char_set(self, items: Any, ascii_only: bool) -> str:
        negated = bool(items) and items[0][0] == sre.NEGATE
        plain: list[str] = []
        categories: list[str] = []
        for op, av in items[1:] if negated else items:
            if op == sre.LITERAL:
                plain.append(self.char(av))
            elif op == sre.RANGE:
                plain.append(f"{_char(av[0])}-{_char(av[1])}")
                if self.folds:  # folded text holds the representatives of the range's letters
                    plain.extend(_char(rep) for code, rep in FOLD.items() if av[0] <= code <= av[1])
            elif op == sre.CATEGORY:
                categories.append(_category(av, ascii_only))
            else:
                raise PatternRefused(f"unsupported set item {op}")
        if not categories:
            return f"[{'^' if negated else ''}{''.join(plain)}]" if plain else ("[\\s\\S]" if negated else "(?!)")
        alternatives = ([f"[{''.join(plain)}]"] if plain else []) + categories
        union = "(?:" + "|".join(alternatives) + ")"
        return f"(?:(?!{union}){_ANY})" if negated else union


def _category(code: Any, ascii_only: bool) -> str:
    table = {
        sre.CATEGORY_WORD: (_ASCII_WORD if ascii_only else _WORD, False),
        sre.CATEGORY_NOT_WORD: (_ASCII_WORD if ascii_only else _WORD, True),
        sre.CATEGORY_DIGIT: (_ASCII_DIGIT if ascii_only else _DIGIT, False),
        sre.CATEGORY_NOT_DIGIT: (_ASCII_DIGIT if ascii_only else _DIGIT, True),
        sre.CATEGORY_SPACE: (_ASCII_SPACE if ascii_only else _SPACE, False),
        sre.CATEGORY_NOT_SPACE: (_ASCII_SPACE if ascii_only else _SPACE, True),
    }
    members, negated = table[code]
    return f"[{'^' if negated else ''}{members}]"
