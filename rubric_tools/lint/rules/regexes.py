"""Gate regex rules (G003, G007, G008, G010-G012): what the regexes of a gate match.

Regexes are compiled with `re` (the reference engine's library) and with the
scorer's `compile_pattern`; shape questions are answered on `re`'s parse tree (see
`gate_analysis.regex_shape`). Gates are run by the scorer's own `run_gates` on text normalized
by the scorer's `normalize`, so a gate that fires here fires in scoring. Whether an
entry is a well-formed gate at all is the `gates` family.
"""

from __future__ import annotations

from collections.abc import Iterator

from rubric_tools.diagnostics import Severity
from rubric_tools.gate_analysis.regex_problem import regex_problem
from rubric_tools.gate_analysis.regex_risk import backtracking_risk
from rubric_tools.gate_analysis.regex_shape import unnormalized_requirement
from rubric_tools.lint.context import Finding, LintContext
from rubric_tools.lint.gate_fields import (
    describe,
    regex_fields,
    scalar_character_span,
    valid_regex_fields,
)
from rubric_tools.lint.registry import rule
from rubric_tools.loading.elements import GateElement
from rubric_tools.scoring.gates import DEFAULT_SEARCH_TIMEOUT, Gate, GateError, compile_pattern, run_gates
from rubric_tools.scoring.text import normalize, split_citation

#: Short and ordinary normalized texts. A regex that finds a match in each of them and
#: can match emptily matches any text at all (`^$`, which needs an empty text, does not).
_EVERYDAY_TEXTS = ("x", "0", "the provider shall not use customer data. see msa §4.2!")


def _matches_any_text(pattern: str) -> bool:
    """Whether `pattern` can match emptily, wherever it is searched (G007's test)."""
    try:
        compiled = compile_pattern(pattern)
        return all(compiled.search(text, timeout=DEFAULT_SEARCH_TIMEOUT) for text in _EVERYDAY_TEXTS) and any(
            match.start() == match.end()
            for match in compiled.finditer(_EVERYDAY_TEXTS[-1], timeout=DEFAULT_SEARCH_TIMEOUT)
        )
    except (GateError, TimeoutError):
        return False


#: Which concepts describe the correct answer on each gate list's surface.
_SURFACE_CONCEPTS = {
    "issue": "required_concepts",
    "redline": "redline_concepts",
    "settlement": "settlement_concepts",
}


def _runnable_gate(element: GateElement) -> Gate | None:
    """The scorer's gate for an entry, unless it is broken (G003) or matches any text
    (G007): either finding already says everything about where it fires."""
    gate = element.gate
    if gate is None:
        return None
    regexes = [text for text in (gate.pattern, gate.require_context, gate.exclude_context) if text]
    if any(regex_problem(text) for text in regexes) or _matches_any_text(gate.pattern):
        return None
    return gate


@rule("G003", "invalid-regex", Severity.ERROR)
def invalid_regex(ctx: LintContext) -> Iterator[Finding]:
    """A gate's `pattern`, `require_context` or `exclude_context` is not a valid regex.

    What it catches: a regex that Python's `re` (the reference engine) or the
    scorer cannot compile; the finding points at the character where compiling
    failed whenever the value is written on one line without escapes.

    Why it matters: the reference engine raises on it, so the matter cannot be
    scored; the scorer skips the gate, so the critical failure never fires.

    Bad:

    ```yaml
    critical_failure_patterns:
      - "(unenforceable|void as a matter of law"
    ```

    Good:

    ```yaml
    critical_failure_patterns:
      - "(unenforceable|void) as a matter of law"
    ```
    """
    for gate in ctx.model.gates():
        for field in regex_fields(gate):
            problem = regex_problem(field.text)
            if problem is None or problem.too_costly:  # G016 reports those
                continue
            message = f"invalid regex in `{field.key}` of {describe(gate)}: {problem.message}"
            hint = "fix the regex; test it with Python's re module"
            span = None
            if problem.position is not None:
                span = scalar_character_span(field.location, field.text, problem.position)
            if span is None or problem.position is None:
                yield ctx.report(field.location, message, hint=hint)
            else:
                message += f" (at character {problem.position + 1} of the regex)"
                yield Finding(message, field.location.file, span, hint)


@rule("G007", "gate-matches-empty", Severity.ERROR)
def gate_matches_empty(ctx: LintContext) -> Iterator[Finding]:
    """A gate regex matches the empty string, so it matches every text.

    What it catches: a `pattern` (or context regex) that can match nothing at all,
    typically through a stray `|` (`"void|"`), an all-optional pattern
    (`"(unenforceable)?"`) or an empty string.

    Why it matters: a `pattern` that matches everywhere fires on every
    submission, capping every episode; an `exclude_context` that matches
    everywhere drops every match, so the gate never fires; a `require_context`
    that matches everywhere filters nothing.

    Bad:

    ```yaml
    critical_failure_patterns:
      - "unenforceable|void|"
    ```

    Good:

    ```yaml
    critical_failure_patterns:
      - "unenforceable|void"
    ```
    """
    consequences = {
        "pattern": "the gate fires on every text",
        "require_context": "it is satisfied by every sentence and filters nothing",
        "exclude_context": "it drops every match: the gate can never fire",
    }
    for field in valid_regex_fields(ctx):
        if _matches_any_text(field.text):
            yield ctx.report(
                field.location,
                f"`{field.key}` of {describe(field.gate)} matches the empty string: {consequences[field.key]}",
                hint="remove the empty alternative or the optional-everything quantifier",
            )


@rule("G008", "gate-needs-unnormalized-text", Severity.ERROR)
def gate_needs_unnormalized_text(ctx: LintContext) -> Iterator[Finding]:
    """A gate regex needs a newline, a tab or two spaces in a row, which scored text never has.

    What it catches: a regex every match of which needs a newline, tab or carriage
    return (literally or as `\\n`, `\\t`, `\\r`), or two whitespace characters in a
    row (`"  "`, `\\s\\s`, `\\s{2,}`, `\\s+\\s+`).

    Why it matters: gates run on normalized text, where every run of whitespace
    is one space. Such a `pattern` or `require_context` never matches, so the gate
    never fires; such an `exclude_context` never excludes anything.

    Bad:

    ```yaml
    critical_failure_patterns:
      - 'uncapped\\s\\sliability'
    ```

    Good:

    ```yaml
    critical_failure_patterns:
      - 'uncapped\\s+liability'
    ```
    """
    consequences = {
        "pattern": "the gate can never fire",
        "require_context": "it never matches, so the gate can never fire",
        "exclude_context": "it never matches, so it excludes nothing",
    }
    for field in valid_regex_fields(ctx):
        needed = unnormalized_requirement(field.text)
        if needed is not None:
            yield ctx.report(
                field.location,
                f"`{field.key}` of {describe(field.gate)} needs {needed}, which normalized "
                f"text never contains: {consequences[field.key]}",
                hint="match whitespace with a single ' ' or '\\s+'",
            )


@rule("G010", "gate-fires-on-correct-answer", Severity.ERROR)
def gate_fires_on_correct_answer(ctx: LintContext) -> Iterator[Finding]:
    """A gate fires on its own issue's concepts: the right answer trips it.

    What it catches: a `critical_failure_patterns` gate that fires on the issue's
    `required_concepts`, a redline gate that fires on its `redline_concepts`, or a
    settlement gate that fires on its `settlement_concepts` (each list joined and
    normalized, then run through the scorer's gate matcher).

    Why it matters: an agent that writes exactly what the rubric rewards trips
    the critical failure and has its score capped.

    Bad:

    ```yaml
    required_concepts: ["uncapped liability", "supercap"]
    critical_failure_patterns:
      - "uncapped liability"
    ```

    Good:

    ```yaml
    required_concepts: ["uncapped liability", "supercap"]
    critical_failure_patterns:
      - pattern: "uncapped liability is (?:acceptable|fine)"
        negation_guard: true
    ```
    """
    for issue in ctx.model.issues:
        for element in issue.gates:
            concepts_key = _SURFACE_CONCEPTS[element.surface]
            concepts = issue.concepts(element.surface)
            text = normalize(" ".join(concepts.texts if concepts is not None else ()))
            gate = _runnable_gate(element)
            if not text or gate is None or not run_gates((gate,), text).fired:
                continue
            yield ctx.report(
                element.pattern_location,
                f"{describe(element)} fires on the issue's own {concepts_key} ({text[:80]!r}): "
                "the answer the rubric rewards trips the critical failure",
                hint="narrow the pattern to the wrong claim, or guard it (negation_guard, "
                "require_context, exclude_context)",
            )


@rule("G011", "gate-fires-on-anchor-text", Severity.WARNING)
def gate_fires_on_anchor_text(ctx: LintContext) -> Iterator[Finding]:
    """An issue gate fires on the text of the issue's own anchor section.

    What it catches: a `critical_failure_patterns` gate that fires on the
    normalized text of the section the issue is anchored on.

    Why it matters: analyses quote the clause they criticise. An agent that
    quotes the operative provision accurately, to explain what is wrong with it,
    trips the gate and has its score capped, although it made no wrong claim.

    Bad:

    ```yaml
    # msa §4.2 reads "Provider may use Customer Data to train its models."
    anchor: "msa §4.2"
    critical_failure_patterns:
      - "may use customer data to train"
    ```

    Good:

    ```yaml
    anchor: "msa §4.2"
    critical_failure_patterns:
      - pattern: "may use customer data to train"
        require_context: '\\b(acceptable|permitted|fine|no concern)\\b'
    ```
    """
    for issue in ctx.model.issues:
        anchor = issue.anchor.text if issue.anchor is not None and issue.anchor.is_text else None
        parts = split_citation(anchor) if anchor is not None else None
        section = ctx.model.resolve(*parts) if parts else None
        if not section:
            continue
        for element in issue.gate_list("issue"):
            gate = _runnable_gate(element)
            if gate is None or not run_gates((gate,), section).fired:
                continue
            yield ctx.report(
                element.pattern_location,
                f"{describe(element)} fires on the text of its own anchor {anchor!r}: an analysis "
                "that quotes the clause trips the critical failure",
                hint="add negation_guard: true, or require_context naming the endorsement "
                "(e.g. 'acceptable|no concern'), so quoting the clause does not fire",
            )


@rule("G012", "catastrophic-backtracking", Severity.ERROR)
def catastrophic_backtracking(ctx: LintContext) -> Iterator[Finding]:
    """A gate regex has nested or ambiguous repetition that can take exponential time.

    What it catches: a repeat around a part that can split the same text in
    several ways: `(a+)+`, `(\\w+\\s?)*`, `(.*,)*`, `(a|a)*`, `(a|aa)+$`, and
    counted ones such as `(?:a?){30}a{30}`. Besides the shape, the rule counts the
    steps of `re`'s search on runs of repeated characters the regex cannot match,
    and flags it above ten million. Repeats whose parts are separated by characters
    they cannot share, like `(?:\\s+\\w+)*`, are fine.

    Why it matters: on a long submission that almost matches, Python's `re` (the
    reference engine) backtracks through every split and a single search can run
    for minutes (27 s on 37 characters for `(a|aa)+$`), hanging scoring. The
    scorer's own searches stop at a time limit, so its score would differ too.

    Bad:

    ```yaml
    critical_failure_patterns:
      - '(\\w+\\s?)*unenforceable'
    ```

    Good:

    ```yaml
    critical_failure_patterns:
      - '(?:\\w+\\s)*unenforceable'
    ```
    """
    for field in valid_regex_fields(ctx):
        risk = backtracking_risk(field.text)
        if risk is not None:
            yield ctx.report(
                field.location,
                f"`{field.key}` of {describe(field.gate)}: {risk}",
                hint="make the repeated parts unable to share characters, e.g. "
                "'(?:\\w+\\s)*' instead of '(\\w+\\s?)*', or bound the repeat",
            )
