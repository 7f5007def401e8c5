"""Critical-failure gates: plain regexes and structured, guarded ones (engine.md §4).

Every gate search means what the engine's `re.search` means and runs on the `regex`
package with a time limit (`scoring.dialect` translates the pattern), so a
catastrophic pattern in a rubric cannot hang a CI job. A search that hits the limit
is reported as a timeout, never silently treated as a miss; a pattern too costly to
compile is refused and reported like an invalid one.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cached_property, lru_cache
from typing import Literal, NamedTuple, TypeVar

import regex

from rubric_tools.defaults import DEFAULT_SEARCH_TIMEOUT as DEFAULT_SEARCH_TIMEOUT
from rubric_tools.scoring import dialect
from rubric_tools.scoring.text import show_pattern

NegationScope = Literal["span", "before"]

#: The closed list of negators the engine recognises.
NEGATOR_PATTERN = r"\b(?:no|not|never|nothing|none|neither|nor|cannot|without)\b|n['’]t"
#: `.` (never before a digit), `?` or `!` followed by whitespace or end of text; or a newline.
SENTENCE_BOUNDARY_PATTERN = r"(?:\.(?!\d)|[?!])(?=\s|$)|[\r\n]"

# The engine's own two regexes run on `re`, as there: both are linear, so need no time limit.
#: The negator list compiled, case-insensitive: what every analysis that asks "is there one
#: of the engine's negators here?" searches with.
NEGATOR = re.compile(NEGATOR_PATTERN, re.IGNORECASE)
_BOUNDARY = re.compile(SENTENCE_BOUNDARY_PATTERN)


class GateTimeout(Exception):
    """A gate search ran past its time limit."""

    def __init__(self, pattern: str) -> None:
        super().__init__(f"gate search timed out: {show_pattern(pattern)}")
        self.pattern = pattern


class GateError(Exception):
    """A gate's regex does not compile."""

    def __init__(self, pattern: str, message: str) -> None:
        super().__init__(f"invalid gate regex {show_pattern(pattern)}: {message}")
        self.pattern = pattern
        self.message = message


_REGEX_FLAGS = {
    re.IGNORECASE: regex.IGNORECASE,
    re.MULTILINE: regex.MULTILINE,
    re.DOTALL: regex.DOTALL,
    re.ASCII: regex.ASCII,
}


@dataclass(frozen=True)
class GateRegex:
    """A compiled gate regex: `regex` with `re`'s meaning; texts are folded first when
    the translation needs it (see `dialect.fold`), which keeps every position."""

    compiled: regex.Pattern[str]
    folds: bool = False

    def search(self, text: str, timeout: float | None = None) -> regex.Match[str] | None:
        return self.compiled.search(dialect.fold(text) if self.folds else text, timeout=timeout)

    def finditer(self, text: str, timeout: float | None = None) -> Iterator[regex.Match[str]]:
        return self.compiled.finditer(dialect.fold(text) if self.folds else text, timeout=timeout)


@lru_cache(maxsize=4096)
def compile_pattern(pattern: str) -> GateRegex:
    """Compile a rubric regex to search as the engine's `re.search(pattern, text,
    re.IGNORECASE)` does, on `regex` for its time limit (see `scoring.dialect`).

    Raises GateError for a pattern `re` rejects and for one too costly to compile.
    Cached: the linter, the solver and the scorer all compile the same few hundred patterns."""
    translated, re_flags, folds = _unless_refused(pattern, dialect.translate)
    flags = regex.VERSION0
    for re_flag, regex_flag in _REGEX_FLAGS.items():
        if re_flags & re_flag:
            flags |= regex_flag
    try:
        return GateRegex(regex.compile(translated, flags), folds)
    except (regex.error, TypeError, ValueError, OverflowError, RecursionError) as exc:
        raise GateError(pattern, str(exc)) from exc


@lru_cache(maxsize=4096)
def refusal(pattern: str) -> str | None:
    """Why `compile_pattern` refuses `pattern` before it compiles it on `regex` (what `re`
    rejects, what is too costly), or None. The dialect writes only syntax `regex` reads
    (tests/scoring/test_dialect.py compiles its translations): the check of a pattern that
    is not searched, without the cost of compiling it."""
    try:
        _unless_refused(pattern, dialect.checked)
    except GateError as exc:
        return exc.message
    return None


_T = TypeVar("_T")


def _unless_refused(pattern: str, step: Callable[[str], _T]) -> _T:
    """`step(pattern)`, a refusal of the dialect's raised as a GateError."""
    if not isinstance(pattern, str):
        raise GateError(str(pattern), "a pattern must be a string")
    try:
        return step(pattern)
    except dialect.PatternRefused as exc:
        raise GateError(pattern, exc.message) from exc


@dataclass(frozen=True)
class Gate:
    """One entry of a `*critical_failure_patterns` list."""

    pattern: str
    negation_guard: bool = False
    negation_scope: NegationScope = "span"
    require_context: str | None = None
    exclude_context: str | None = None

    @property
    def is_structured(self) -> bool:
        """Plain search unless a guard or a context regex is in play."""
        return self.negation_guard or bool(self.require_context) or bool(self.exclude_context)

    @cached_property
    def _compiled(self) -> tuple[GateRegex, GateRegex | None, GateRegex | None]:
        require = compile_pattern(self.require_context) if self.require_context else None
        exclude = compile_pattern(self.exclude_context) if self.exclude_context else None
        return compile_pattern(self.pattern), require, exclude

    def fires(self, text: str, timeout: float = DEFAULT_SEARCH_TIMEOUT) -> bool:
        """Whether any occurrence of the pattern in `text` survives the guards.

        Raises GateError for an invalid regex and GateTimeout when a search runs
        past `timeout` seconds.
        """
        main, require, exclude = self._compiled
        try:
            if not self.is_structured:
                return main.search(text, timeout=timeout) is not None
            # The loop of `any_survives`, kept in line: this is the per-gate API that
            # benchmarks/replay_floor.py times as a structured gate's text work.
            for match in main.finditer(text, timeout=timeout):
                if self._survives(text, match.start(), match.end(), require, exclude, timeout):
                    return True
            return False
        except TimeoutError as exc:
            raise GateTimeout(self.pattern) from exc

    def any_survives(
        self,
        text: str,
        matches: Iterator[regex.Match[str]],
        require: GateRegex | None,
        exclude: GateRegex | None,
        timeout: float,
    ) -> bool:
        """Whether any of `matches` (of the pattern in `text`, folded or not) survives the guards."""
        for match in matches:
            if self._survives(text, match.start(), match.end(), require, exclude, timeout):
                return True
        return False

    def _survives(
        self,
        text: str,
        start: int,
        end: int,
        require: GateRegex | None,
        exclude: GateRegex | None,
        timeout: float,
    ) -> bool:
        sentence_start, sentence_end = sentence_bounds(text, start, end)
        if self.negation_guard:
            window_end = start if self.negation_scope == "before" else end
            if NEGATOR.search(text[sentence_start:window_end]):
                return False
        sentence = text[sentence_start:sentence_end]
        if require is not None and require.search(sentence, timeout=timeout) is None:
            return False
        if exclude is not None and exclude.search(sentence, timeout=timeout) is not None:
            return False
        return True


def sentence_bounds(text: str, start: int, end: int) -> tuple[int, int]:
    """The sentence around text[start:end]: from the end of the last boundary ending
    at or before `start` to the start of the first boundary starting at or after `end`."""
    sentence_start = 0
    sentence_end = len(text)
    for boundary in _BOUNDARY.finditer(text):
        if boundary.end() <= start:
            sentence_start = boundary.end()
        elif boundary.start() >= end:
            sentence_end = boundary.start()
            break
    return sentence_start, sentence_end


@dataclass(frozen=True)
class GateCheck:
    """What running a gate list on one text found."""

    fired: tuple[str, ...] = ()  # patterns that fired, in list order
    timed_out: tuple[str, ...] = ()
    errors: tuple[str, ...] = ()

    @property
    def last_fired(self) -> str | None:
        """Attribution is the last gate that fired, as the engine reports it."""
        return self.fired[-1] if self.fired else None


#: A gate list that found nothing (immutable, so shared).
NOTHING_FOUND = GateCheck()


def run_gates(gates: tuple[Gate, ...], text: str, timeout: float = DEFAULT_SEARCH_TIMEOUT) -> GateCheck:
    """Run every gate of a list on `text` (already normalized). A list run on many texts is
    better made a `GateRunner` once (see `Issue.issue_gate_runner`)."""
    if not gates:
        return NOTHING_FOUND
    return GateRunner(gates).run(text, timeout)


class _Plan(NamedTuple):
    """One gate of a `GateRunner`, everything its search needs looked up once."""

    pattern: str
    #: The main regex's own bound `search`; None when the gate does not compile.
    search: Callable[..., regex.Match[str] | None] | None
    #: The main regex's bound `finditer` for a structured gate (None for a plain one).
    finditer: Callable[..., Iterator[regex.Match[str]]] | None
    folds: bool  # whether the main regex searches `dialect.fold`ed text
    gate: Gate
    require: GateRegex | None
    exclude: GateRegex | None
    error: str  # why the gate does not compile ("" when it does), reported on every run


# `run_gates` builds a runner per call: a NamedTuple without its Python-level __new__.
_new_plan = tuple.__new__


class GateRunner:
    """A gate list ready to run on many texts: each gate compiled and its bound search
    methods looked up once, so that running the list costs little beyond the searches
    themselves (the scorer keeps one for each issue's issue and redline gate lists)."""

    __slots__ = ("_plans",)

    def __init__(self, gates: tuple[Gate, ...]) -> None:
        plans: list[_Plan] = []
        for gate in gates:
            try:
                main, require, exclude = gate._compiled
            except GateError as exc:  # reported on every run, as an uncompilable gate is
                plans.append(
                    _new_plan(
                        _Plan, (gate.pattern, None, None, False, gate, None, None, f"{exc.pattern}: {exc.message}")
                    )
                )
                continue
            compiled = main.compiled
            finditer = compiled.finditer if gate.is_structured else None
            plans.append(
                _new_plan(_Plan, (gate.pattern, compiled.search, finditer, main.folds, gate, require, exclude, ""))
            )
        self._plans = tuple(plans)

    def run(self, text: str, timeout: float = DEFAULT_SEARCH_TIMEOUT) -> GateCheck:
        """Run every gate on `text` (already normalized): what `Gate.fires` finds for each."""
        plans = self._plans
        if not plans:  # many lists are empty (most redlines'): no loop to set up
            return NOTHING_FOUND
        # Lists only when something is found: most lists find nothing, and three empty lists
        # per scored text cost more than the loop around the searches.
        fired: list[str] | None = None
        timed_out: list[str] | None = None
        errors: list[str] | None = None
        folded: str | None = None  # `text` folded once for every gate that needs it, not per gate
        for pattern, search, finditer, folds, gate, require, exclude, error in plans:
            if search is None:
                if errors is None:
                    errors = []
                errors.append(error)
                continue
            subject = text
            if folds:
                if folded is None:
                    # `fold` maps non-ASCII letters only (tests/scoring/test_dialect.py holds
                    # it): an ASCII text, as nearly every one is, is its own folding, and
                    # `isascii` is a flag look-up where `fold` searches the whole text.
                    folded = text if text.isascii() else dialect.fold(text)
                subject = folded
            try:
                # `regex`'s own methods with positional arguments (string, pos, endpos,
                # [overlapped,] concurrent, partial, timeout): keyword arguments cost a third
                # of a no-match search. tests/scoring/test_text_and_gates.py holds the order.
                hit = search(subject, None, None, None, False, timeout) is not None
                if hit and finditer is not None:
                    # A structured gate looks at every occurrence; most texts have none, and
                    # a search costs less than setting up the iteration that finds that out.
                    matches = finditer(subject, None, None, False, None, False, timeout)
                    hit = gate.any_survives(text, matches, require, exclude, timeout)
            except TimeoutError:
                if timed_out is None:
                    timed_out = []
                timed_out.append(pattern)
                continue
            if hit:
                if fired is None:
                    fired = []
                fired.append(pattern)
        if fired is None and timed_out is None and errors is None:
            return NOTHING_FOUND  # the common case, without building a new check per text
        return GateCheck(tuple(fired or ()), tuple(timed_out or ()), tuple(errors or ()))
