"""Regex dialect and cost rules (G015, G016, G017): gates whose meaning or cost depends on the engine.

The reference engine runs gates with Python's `re`; authors often test them with the
`regex` package or a web tester, which read some syntax differently. And a pattern
can be cheap for `re` and ruinous for other engines to compile. The scorer runs every
gate with `re`'s meaning (`scoring.dialect`) and refuses patterns too costly to
compile; these rules tell the author before that matters.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from rubric_tools.diagnostics import Severity
from rubric_tools.gate_analysis.regex_problem import regex_problem
from rubric_tools.lint.context import Finding, LintContext
from rubric_tools.lint.gate_fields import describe, regex_fields
from rubric_tools.lint.registry import rule

#: `regex`'s fuzzy-matching constraint, e.g. `{e<=2}`, `{i<=1,d<=1}`, `{1<=e<=3}`, `{e}`:
#: `re` reads the braces and their contents as literal text.
_FUZZY = re.compile(
    r"(?<!\\)(?:\\\\)*\{\s*(?:\d+\s*<=?\s*)?[eisd](?:\s*<=?\s*\d+)?(?:\s*[,+]\s*(?:\d+\s*<=?\s*)?[eisd](?:\s*<=?\s*\d+)?)*"
    r"(?:\s*[,:][^{}]*)?\}"
)
#: A POSIX class such as `[:digit:]` inside a set: `re` reads `[[:digit:]]` as the set
#: `[:digt` followed by a literal `]`.
_POSIX_CLASS = re.compile(
    r"(?<!\\)\[:\^?(?:alnum|alpha|ascii|blank|cntrl|digit|graph|lower|print|punct|space|upper|word|xdigit):\]"
)


_WORD_SYNTAX = re.compile(r"(?<!\\)(?:\\\\)*\\[bBwW]")


def _word_character_disagreement(pattern: str) -> str | None:
    """A character of the pattern that `re` and `regex` class differently as a word
    character (combining marks, some symbols), when the pattern uses \\b or \\w."""
    if pattern.isascii() or not _WORD_SYNTAX.search(pattern):
        return None
    import regex

    for char in dict.fromkeys(c for c in pattern if not c.isascii()):
        if bool(re.match(r"\w", char)) != bool(regex.match(r"\w", char)):
            return char
    return None


def dialect_difference(pattern: str) -> str | None:
    """What `regex` (and most regex testers) would read differently from `re` in `pattern`."""
    fuzzy = _FUZZY.search(pattern)
    if fuzzy:
        constraint = fuzzy.group().lstrip("\\")
        return (
            f"`{constraint}` is fuzzy matching in the `regex` package, but Python's `re` (the reference engine) "
            "reads it as literal text"
        )
    posix = _POSIX_CLASS.search(pattern)
    if posix:
        return (
            f"`{posix.group()}` is a POSIX class in other engines, but Python's `re` (the reference engine) "
            "reads it as a set of characters followed by a literal `]`"
        )
    char = _word_character_disagreement(pattern)
    if char is not None:
        return (
            f"U+{ord(char):04X} is a word character for `\\b` and `\\w` in other engines but not in Python's "
            "`re` (the reference engine), so the word boundaries around it fall elsewhere"
        )
    return None


@rule("G015", "regex-dialect", Severity.ERROR)
def regex_dialect(ctx: LintContext) -> Iterator[Finding]:
    """A gate regex uses syntax that Python's `re` reads differently from other engines.

    What it catches: fuzzy-matching constraints of the `regex` package
    (`(?:unenforceable){e<=2}`), POSIX classes (`[[:digit:]]`), and `\\b`/`\\w` in a
    pattern holding a character that Python's `re` does not count as a word character
    while Unicode-aware engines do (a combining accent such as U+0301). Python's `re`,
    which the reference engine runs, accepts all of them but reads them as something
    else: the braces as literal text, the POSIX class as a set of punctuation and
    letters followed by `]`, the word boundary at another place.

    Why it matters: the gate was written for a meaning it does not have in scoring:
    `(?:unenforceable){e<=2}` only fires on the literal text `unenforceable{e<=2}`,
    and `cap of [[:digit:]]+ months` never fires on `cap of 12 months`.

    Bad:

    ```yaml
    critical_failure_patterns:
      - "(?:unenforceable){e<=2}"
      - "cap of [[:digit:]]+ months"
    ```

    Good:

    ```yaml
    critical_failure_patterns:
      - "un-?enforce?able"
      - "cap of [0-9]+ months"
    ```
    """
    for gate in ctx.model.gates():
        for field in regex_fields(gate):
            difference = dialect_difference(field.text)
            if difference is not None and regex_problem(field.text) is None:
                yield ctx.report(
                    field.location,
                    f"`{field.key}` of {describe(gate)}: {difference}",
                    hint="write it in Python `re` syntax: list the spellings, or use `[0-9]`, `\\d`, `[a-z]`",
                )


@rule("G016", "regex-too-costly", Severity.ERROR)
def regex_too_costly(ctx: LintContext) -> Iterator[Finding]:
    """A gate regex is too long, or its counted repeats expand it too far, to compile safely.

    What it catches: a pattern over 10,000 characters, or one whose counted repeats,
    written out, exceed 100,000 elements: `(?:a{65535}){65535}`,
    `(?:x{1000}|y{1000}){1000}`, a pasted 3 MB literal; or one holding a run of more than
    500 literal characters (a pasted paragraph: real gates stay far shorter).

    Why it matters: engines that expand counted repeats when compiling (the `regex`
    package, which the scorer uses for its time limit, among them) take minutes and
    gigabytes on such a pattern; `regex` prepares the search for a long literal in time
    that grows with the square of its length, before its time limit applies (5,000
    characters: 35 s per search). The scorer refuses it, so the gate never fires
    there, while the reference engine may run it.

    Bad:

    ```yaml
    critical_failure_patterns:
      - "(?:\\\\w{1000}\\\\s){1000}"
    ```

    Good:

    ```yaml
    critical_failure_patterns:
      - "(?:\\\\w+\\\\s){3}uncapped"
    ```
    """
    for gate in ctx.model.gates():
        for field in regex_fields(gate):
            problem = regex_problem(field.text)
            if problem is not None and problem.too_costly:
                yield ctx.report(
                    field.location,
                    f"`{field.key}` of {describe(gate)} is refused: {problem.message}",
                    hint="bound the repeats with small counts, or use `+`/`*`",
                )


@rule("G017", "gate-search-too-costly", Severity.ERROR)
def gate_search_too_costly(ctx: LintContext) -> Iterator[Finding]:
    """A structured gate would run its guards over a long text too many times.

    What it catches: a gate with `negation_guard`, `require_context` or
    `exclude_context` whose pattern matches ordinary prose so densely — `\\S`, `\\w+`,
    `[a-z]`, a single letter — that on a 30,000-character submission without a full
    stop (a list or a run-on paragraph is one sentence once normalized) it would be
    tried tens of thousands of times, each time over the whole sentence. The density
    is measured on the matter's own documents and a neutral paragraph; the estimate
    is matches × 30,000 × (1 + one pass per guard or context regex), and a gate over
    50,000,000 character visits is reported at its `pattern`.

    Why it matters: the engine tries every match of a structured gate's pattern until
    one survives its guards, and searches the match's sentence with each context
    regex every time. The cost is quadratic in the length of the text: the reference
    engine takes minutes on such a gate and a long submission, and the scorer stops at
    its time limit (T004) with the verdict unknown. Write the pattern as the words of
    the sin; let the contexts narrow it down.

    Bad:

    ```yaml
    critical_failure_patterns:
      - pattern: '\\S'
        require_context: '\\bvoid\\b'
    ```

    Good:

    ```yaml
    critical_failure_patterns:
      - pattern: '\\bvoid\\b'
        negation_guard: true
    ```
    """
    from rubric_tools.gate_analysis.search_cost import describe_cost, matter_prose, search_cost

    gates = [gate for gate in ctx.model.gates() if gate.gate is not None and gate.gate.is_structured]
    if not gates:
        return
    sample = matter_prose(ctx.model)
    for gate in gates:
        assert gate.gate is not None
        if regex_problem(gate.gate.pattern) is not None:
            continue  # G003/G016
        cost = search_cost(gate.gate, sample)
        if cost is not None and cost.too_costly:
            yield ctx.report(
                gate.pattern_location,
                f"`pattern` of {describe(gate)} is too costly to search with: {describe_cost(cost)}",
                hint="make the pattern the words of the sin, and let the contexts narrow it down",
            )
