"""Gate rules (G001, G002, G004-G006, G009, G013, G014): is each entry of the three
critical-failure lists a well-formed gate, and is it ever evaluated?

The schema rules check the same shapes generically; when they run, the shape rules
here leave them the finding (`ctx.schema.reported_at`, see `lint.schema_stage`), so
that a defect is reported once. What a gate's regexes match (G003, G007, G008, G010-G012) is the
`regexes` family.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterator

from rubric_tools.diagnostics import Severity
from rubric_tools.lint.context import Finding, LintContext
from rubric_tools.lint.gate_fields import GATE_KEYS, NEGATION_SCOPES, REGEX_KEYS, describe
from rubric_tools.lint.registry import rule
from rubric_tools.loading.elements import GateElement


def _shown(value: object) -> str:
    """A value as the author wrote it, or `empty` for a key with no value."""
    return "empty" if value is None else repr(value)


def _regex(gate: GateElement, key: str) -> str | None:
    """The typed value of one of the gate's regex keys (None when absent or not text)."""
    return {"pattern": gate.pattern, "require_context": gate.require_context, "exclude_context": gate.exclude_context}[
        key
    ]


@rule("G001", "gate-entry-type", Severity.ERROR)
def gate_entry_type(ctx: LintContext) -> Iterator[Finding]:
    """A gate entry is neither a regex string nor a mapping.

    What it catches: an entry of `critical_failure_patterns`,
    `redline_critical_failure_patterns` or `settlement_critical_failure_patterns`
    that is a number, a boolean, a list or null.

    Why it matters: the engine cannot search with it (the reference engine raises),
    and the scorer skips it: the critical failure it was written to catch never fires.

    When the schema rules run, S001 (schema-type) reports this instead, and
    this rule stays silent so the defect is reported once.

    Bad:

    ```yaml
    critical_failure_patterns:
      - ["unenforceable", "void"]
    ```

    Good:

    ```yaml
    critical_failure_patterns:
      - "unenforceable|void"
    ```
    """
    for gate in ctx.model.gates():
        if gate.form == "invalid" and not ctx.schema.reported_at(gate.location, "type"):
            yield ctx.report(
                gate,
                f"{describe(gate)} is {gate.kind}, not a regex string or a mapping with `pattern`",
                hint="write the regex as a quoted string, or as `- pattern: '...'`",
            )


@rule("G002", "unknown-gate-key", Severity.ERROR)
def unknown_gate_key(ctx: LintContext) -> Iterator[Finding]:
    """A structured gate has a key the engine does not know.

    What it catches: a key other than `pattern`, `negation_guard`, `negation_scope`,
    `require_context` and `exclude_context` in a gate mapping.

    Why it matters: a misspelt guard (`negation_gaurd`, `exclude`) would otherwise
    be silently ignored, leaving the gate unguarded; the engine treats it as an error.

    When the schema rules run, S005 (unknown-key) reports this instead, and
    this rule stays silent so the defect is reported once.

    Bad:

    ```yaml
    critical_failure_patterns:
      - pattern: "law prohibits all model training"
        negation_gaurd: true
    ```

    Good:

    ```yaml
    critical_failure_patterns:
      - pattern: "law prohibits all model training"
        negation_guard: true
    ```
    """
    for gate in ctx.model.gates():
        for field in gate.fields:
            if field.key in GATE_KEYS or ctx.schema.reported_at(field.location, "unknown-key"):
                continue
            close = difflib.get_close_matches(str(field.key), GATE_KEYS, n=1, cutoff=0.5)
            hint = f"did you mean {close[0]!r}?" if close else f"gate keys are: {', '.join(GATE_KEYS)}"
            yield ctx.report(field.location, f"unknown gate key {field.key!r} in {describe(gate)}", key=True, hint=hint)


@rule("G004", "negation-guard-not-bool", Severity.ERROR)
def negation_guard_not_bool(ctx: LintContext) -> Iterator[Finding]:
    """A gate's `negation_guard` is not `true` or `false`.

    What it catches: `negation_guard: "true"`, `negation_guard: "yes"`,
    `negation_guard: 1` or an empty value. (A plain `yes` is `true` to the engine,
    which reads YAML 1.1; Y004 asks for `true` instead.)

    Why it matters: only the boolean `true` turns the guard on; any other value
    leaves the gate unguarded, so it fires on the very disclaimers the guard was
    meant to let through.

    When the schema rules run, S001 (schema-type) reports this instead, and
    this rule stays silent so the defect is reported once.

    Bad:

    ```yaml
    critical_failure_patterns:
      - pattern: "law prohibits all model training"
        negation_guard: "yes"
    ```

    Good:

    ```yaml
    critical_failure_patterns:
      - pattern: "law prohibits all model training"
        negation_guard: true
    ```
    """
    for gate in ctx.model.gates():
        field = gate.field("negation_guard")
        if field is not None and gate.negation_guard is None:
            if not ctx.schema.reported_at(field.location, "type"):
                yield ctx.report(
                    field.location,
                    f"negation_guard of {describe(gate)} is {_shown(field.value)}, not true or false: the guard is off",
                    key=field.value is None,  # an empty value has no text of its own to point at
                    hint="write `negation_guard: true` (unquoted)",
                )


@rule("G005", "bad-negation-scope", Severity.ERROR)
def bad_negation_scope(ctx: LintContext) -> Iterator[Finding]:
    """A gate's `negation_scope` is neither `span` nor `before`.

    What it catches: any other value of `negation_scope`, e.g. `sentence`, `Before`
    or an empty value.

    Why it matters: the scorer falls back to `span`, so a gate written to ignore a
    negator inside its own match (`before`) silently goes quiet on exactly the
    text it was written to catch.

    When the schema rules run, S003 (schema-enum) reports this instead, and
    this rule stays silent so the defect is reported once.

    Bad:

    ```yaml
    settlement_critical_failure_patterns:
      - pattern: 'in no event[^.]{0,60}after \\w+ confirms'
        negation_guard: true
        negation_scope: prior
    ```

    Good:

    ```yaml
    settlement_critical_failure_patterns:
      - pattern: 'in no event[^.]{0,60}after \\w+ confirms'
        negation_guard: true
        negation_scope: before
    ```
    """
    for gate in ctx.model.gates():
        field = gate.field("negation_scope")
        if field is None or gate.negation_scope is not None or ctx.schema.reported_at(field.location, "enum"):
            continue
        close = difflib.get_close_matches(str(field.value).lower(), NEGATION_SCOPES, n=1, cutoff=0.4)
        yield ctx.report(
            field.location,
            f"negation_scope of {describe(gate)} is {_shown(field.value)}: it must be 'span' or 'before'",
            key=field.value is None,
            hint=f"did you mean {close[0]!r}?" if close else "use 'span' (default) or 'before'",
        )


@rule("G006", "scope-without-guard", Severity.WARNING)
def scope_without_guard(ctx: LintContext) -> Iterator[Finding]:
    """A gate sets `negation_scope` without `negation_guard: true`.

    What it catches: a gate mapping with a valid `negation_scope` whose
    `negation_guard` is absent or false.

    Why it matters: the scope only shapes the guard's window; without the guard it
    has no effect, which usually means the guard was forgotten.

    Bad:

    ```yaml
    settlement_critical_failure_patterns:
      - pattern: 'in no event[^.]{0,60}after \\w+ confirms'
        negation_scope: before
    ```

    Good:

    ```yaml
    settlement_critical_failure_patterns:
      - pattern: 'in no event[^.]{0,60}after \\w+ confirms'
        negation_guard: true
        negation_scope: before
    ```
    """
    for gate in ctx.model.gates():
        if gate.negation_scope is None:
            continue
        if gate.negation_guard is True or (gate.has("negation_guard") and gate.negation_guard is None):
            continue  # guarded, or G004's business
        yield ctx.report(
            gate.at("negation_scope"),
            f"negation_scope of {describe(gate)} has no effect: negation_guard is not true",
            key=True,
            hint="add `negation_guard: true`, or remove negation_scope",
        )


@rule("G009", "settlement-gate-without-position", Severity.WARNING)
def settlement_gate_without_position(ctx: LintContext) -> Iterator[Finding]:
    """An issue has settlement gates but the counterparty holds no position on it.

    What it catches: `settlement_critical_failure_patterns` on an issue that has
    no entry under `positions` in counterparty.yaml (or a matter without one).

    Why it matters: only an issue with a position can be negotiated and settled;
    its settlement gates are never evaluated, so the trap they guard against is
    not tested.

    Bad:

    ```yaml
    # counterparty.yaml has no position for incident_notice
    - id: incident_notice
      anchor: "dpa §5.1"
      settlement_critical_failure_patterns: ["within 30 days"]
    ```

    Good:

    ```yaml
    # counterparty.yaml: positions: {incident_notice: {...}}
    - id: incident_notice
      anchor: "dpa §5.1"
      settlement_critical_failure_patterns: ["within 30 days"]
    ```
    """
    for issue in ctx.model.issues:
        if not issue.gate_list("settlement") or ctx.model.position(issue.scored.id) is not None:
            continue
        yield ctx.report(
            issue.at("settlement_critical_failure_patterns"),
            f"issue {issue.id if issue.id is not None else '?'!r} has settlement gates but no counterparty "
            "position: they are never evaluated",
            key=True,
            hint="add a position for the issue in counterparty.yaml, or remove the gates",
        )


@rule("G013", "gate-regex-not-string", Severity.ERROR)
def gate_regex_not_string(ctx: LintContext) -> Iterator[Finding]:
    """A structured gate has no string `pattern`, or a context regex that is not a string.

    What it catches: a gate mapping without `pattern`, or whose `pattern`,
    `require_context` or `exclude_context` is a number, list or mapping.

    Why it matters: the reference engine raises on it and the scorer ignores the
    gate (or the context), so the critical failure is never tested as written.

    When the schema rules run, S001 (schema-type) or S002 (schema-required)
    reports this instead, and this rule stays silent so the defect is reported once.

    Bad:

    ```yaml
    critical_failure_patterns:
      - negation_guard: true
        require_context: ["as drafted"]
    ```

    Good:

    ```yaml
    critical_failure_patterns:
      - pattern: "the agreement permits termination"
        require_context: '\\bas drafted\\b'
    ```
    """
    for gate in ctx.model.gates():
        if gate.form != "mapping":
            continue
        if not gate.has("pattern") and not ctx.schema.reports_missing_at(gate.location, "pattern"):
            yield ctx.report(
                gate,
                f"{describe(gate)} has no `pattern`",
                hint="add `pattern: '<regex>'`: the regex the gate searches for",
            )
        for key in REGEX_KEYS:
            field = gate.field(key)
            if field is None or _regex(gate, key) is not None or (key != "pattern" and field.value is None):
                continue  # absent, a string, or an empty context (which turns the check off)
            if not ctx.schema.reported_at(field.location, "type"):
                yield ctx.report(
                    field.location,
                    f"`{key}` of {describe(gate)} is {_shown(field.value)}, not a regex string",
                    key=field.value is None,
                    hint="write the regex as a quoted string",
                )


@rule("G014", "empty-gate-regex", Severity.ERROR)
def empty_gate_regex(ctx: LintContext) -> Iterator[Finding]:
    """A structured gate's `pattern`, `require_context` or `exclude_context` is an empty string.

    What it catches: `pattern: ""`, `require_context: ""` or `exclude_context: ""` in a
    gate mapping. (A plain string gate `""` is G007's business: it matches any text.)

    Why it matters: the reference engine refuses such a gate when it loads the
    rubric ("'require_context' must be a non-empty regex string"), so the matter
    cannot be scored at all. Leaving a context key out, or empty (`require_context:`
    with no value), is what turns the context check off.

    Bad:

    ```yaml
    critical_failure_patterns:
      - pattern: "uptime commitments are unenforceable"
        require_context: ""
    ```

    Good:

    ```yaml
    critical_failure_patterns:
      - pattern: "uptime commitments are unenforceable"
    ```
    """
    for gate in ctx.model.gates():
        if gate.form != "mapping":
            continue
        for key in REGEX_KEYS:
            if _regex(gate, key) == "":
                yield ctx.report(
                    gate.at(key),
                    f"`{key}` of {describe(gate)} is an empty string: the reference engine refuses the gate",
                    hint="write a regex" if key == "pattern" else f"remove `{key}` to check no context",
                )
