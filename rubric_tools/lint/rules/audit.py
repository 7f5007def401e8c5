"""Audit rules (U001, U005): the cheap verdicts of `rubric audit`, run on every lint.

They execute the rubric rather than read it: U001 builds witnesses from each gate's
own regex and runs the gate on them through the scorer's matcher; U005 checks each
concept against what an agent's text can contain. The other verdicts need the
matter's texts, frames and rewrites, and live in `rubric audit` (`rubric_tools.audit`).
"""

from __future__ import annotations

from collections.abc import Iterator

from rubric_tools.gate_analysis.concept_nodes import CONCEPT_NEVER_EARNABLE
from rubric_tools.gate_analysis.gate_firing import GATE_NEVER_FIRES
from rubric_tools.lint.context import Finding, LintContext
from rubric_tools.lint.registry import rule


@rule(GATE_NEVER_FIRES)
def gate_never_fires(ctx: LintContext) -> Iterator[Finding]:
    """A gate can never fire: no text built from its own pattern trips it.

    What it catches: the audit walks the gate regex's parse tree, builds short,
    typical and long matching texts, puts them in a neutral sentence and runs the
    gate on them, guards included, exactly as the scorer does. Nothing fires when
    an unescaped `$` (end of text) comes before a digit, a `^...$` pair demands
    that the whole scored text be the phrase, YAML turned `"\\b"` into a backspace,
    an `exclude_context` matches every match, or a `negation_guard` drops a
    pattern that itself contains a negator.

    Why it matters: a critical-failure gate that cannot fire lets the sin it was
    written for score full marks.

    Bad:

    ```yaml
    critical_failure_patterns:
      - "fees of $5 million"
      - pattern: "no cap on liability"
        negation_guard: true
    ```

    Good:

    ```yaml
    critical_failure_patterns:
      - 'fees of \\$5 million'
      - pattern: "uncapped liability"
        negation_guard: true
    ```
    """
    from rubric_tools.gate_analysis.gate_firing import gate_lists, never_fires_message, never_fires_reason

    for gate_list in gate_lists(ctx.model):
        for entry in gate_list.entries:
            reason = never_fires_reason(entry.gate)
            if reason is not None:
                message, tried = reason
                hint = f"tried: {', '.join(map(repr, tried[:2]))}" if tried else None
                yield ctx.report(entry.element, never_fires_message(entry, message), hint=hint)


@rule(CONCEPT_NEVER_EARNABLE)
def concept_never_earnable(ctx: LintContext) -> Iterator[Finding]:
    """A concept can never be earned: it is written as a regex, or holds a control character.

    What it catches: concepts are matched as literal substrings of the normalized
    text, so `list\\s+price`, `indemnif.*` or `void|voidable` are earned only by a
    text containing those very characters; a control character (YAML makes one of
    `"\\b"`) is in no agent's text.

    Why it matters: the points of that concept are unreachable for real work.

    Bad:

    ```yaml
    required_concepts: ["list\\\\s+price", "indemnif.*"]
    ```

    Good:

    ```yaml
    required_concepts: ["list price", "indemnif"]
    ```
    """
    from rubric_tools.gate_analysis.concept_nodes import concept_nodes, never_earnable, never_earnable_message

    for node in concept_nodes(ctx.source):
        reason = never_earnable(node)
        if reason is not None:
            message = never_earnable_message(node, reason)
            yield ctx.report(node.location, message, hint="write the words an answer would contain")
