"""Audit rules (U001, U005, U007): the cheap verdicts of `rubric audit`, run on every lint.

They execute the rubric rather than read it: U001 builds witnesses from each gate's
own regex and runs the gate on them through the scorer's matcher; U005 checks each
concept against what an agent's text can contain; U007 compares redline concepts with
the clause under review. The other verdicts need the
matter's texts, frames and rewrites, and live in `rubric audit` (`rubric_tools.audit`).
"""

from __future__ import annotations

from collections.abc import Iterator

from rubric_tools.gate_analysis.concept_nodes import CONCEPT_NEVER_EARNABLE
from rubric_tools.gate_analysis.gate_firing import GATE_NEVER_FIRES
from rubric_tools.gate_analysis.redline_clause import CONCEPT_EARNED_WITHOUT_WORK
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
    from rubric_tools.lint.engine import selected_rules
    from rubric_tools.lint.gate_fields import regex_fields
    from rubric_tools.lint.rules.quoting import escapes_became_control_characters, gate_escape_became_control_character

    # A gate YAML's double quotes broke is X110's (with its fix): reported once, there.
    x110_runs = gate_escape_became_control_character in selected_rules(ctx.config)
    for gate_list in gate_lists(ctx.model):
        for entry in gate_list.entries:
            if x110_runs and any(escapes_became_control_characters(f) for f in regex_fields(entry.element)):
                continue
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

    for node in concept_nodes(ctx.model):
        reason = never_earnable(node)
        if reason is not None:
            message = never_earnable_message(node, reason)
            yield ctx.report(node.location, message, hint="write the words an answer would contain")


@rule(CONCEPT_EARNED_WITHOUT_WORK)
def concept_earned_without_work(ctx: LintContext) -> Iterator[Finding]:
    """A redline concept is already in the clause under review.

    What it catches: an entry of an issue's `redline_concepts` that the normalized text
    of the issue's anchored section already contains (its heading line included, as
    the engine's section text does), when the issue awards redline points. Each such
    concept is reported at its own entry; the message says how many of the issue's
    redline concepts are already there.

    Why it matters: a redline earns `redline_points` × the share of `redline_concepts`
    found in the replacement text. A concept the clause already contains is earned by
    proposing the clause back unchanged: the redline is paid for doing nothing, and a
    keyword stuffer that pastes the clause scores like an agent that fixed it. Reward
    only wording the fix contains. `rubric audit` reports the same verdict.

    Bad:

    ```yaml
    # msa §4.2: "Provider may use Customer Data to train and improve its models."
    issues:
      - id: data_training
        anchor: "msa §4.2"
        redline_concepts: ["train", "opt-in"]
    ```

    Good:

    ```yaml
    issues:
      - id: data_training
        anchor: "msa §4.2"
        redline_concepts: ["shall not use customer data to train", "opt-in"]
    ```
    """
    from rubric_tools.gate_analysis.redline_clause import concepts_in_clause, without_work_message

    for found in concepts_in_clause(ctx.model):
        for concept in found.present:
            yield ctx.report(
                concept,
                without_work_message(found, concept),
                hint="require wording only the fix contains (the words the replacement adds)",
            )
