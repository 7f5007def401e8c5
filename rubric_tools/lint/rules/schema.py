"""Schema rules: each reports one kind of JSON Schema violation of the matter files.

The validation itself is a stage of the engine that runs once per matter, before the
rules (`LintContext.schema`, see `rubric_tools.lint.schema_stage`); each rule declares
the kind it renders (`@renders_schema_kind`) and only renders that kind's errors, so
that a team can, say, downgrade unknown keys without silencing type errors.
"""

from __future__ import annotations

from collections.abc import Iterator

from rubric_tools.diagnostics import Severity
from rubric_tools.fixing.fixes import Applicability, Fix
from rubric_tools.fixing.yaml_edits import rename_key, value_at
from rubric_tools.lint.context import Finding, LintContext
from rubric_tools.lint.registry import rule
from rubric_tools.lint.schema_stage import renders_schema_kind
from rubric_tools.loading.schema_check import SchemaError, SchemaErrorKind


def _errors_of_kind(ctx: LintContext, kind: SchemaErrorKind) -> Iterator[Finding]:
    for error in ctx.schema.of_kind(kind):
        fix = _rename_fix(ctx, error) if kind == "unknown-key" else None
        yield Finding(error.message, ctx.file_path(error.file_name), error.span, error.hint, fix)


def _rename_fix(ctx: LintContext, error: SchemaError) -> Fix | None:
    """Rename an unknown key to its single confident suggestion (unsafe: the setting
    starts to take effect), unless the suggested key is already there."""
    source = ctx.source.files.get(error.file_name)
    if source is None or error.suggestion is None or not error.path or not isinstance(error.path[-1], str):
        return None
    parent = value_at(source.data, error.path[:-1])
    if not isinstance(parent, dict) or error.suggestion in parent:
        return None
    edit = rename_key(source, error.path, error.suggestion)
    if edit is None:
        return None
    return Fix(f"rename `{error.path[-1]}` to `{error.suggestion}`", (edit,), Applicability.UNSAFE)


@rule("S001", "schema-type", Severity.ERROR)
@renders_schema_kind("type")
def schema_type(ctx: LintContext) -> Iterator[Finding]:
    """A value has the wrong type: text where a number belongs, a single item where a list belongs.

    Catches any YAML value whose type the schema of its file does not allow, such as
    quoted numbers, a concept written as a bare string instead of a list, or a gate
    entry that is neither a regex string nor a mapping.

    Why it matters: the engine reads a value of the wrong type as if it were absent
    and silently uses the default, or crashes the run, so the rubric does not score
    what its author wrote.

    Bad:
        issues:
          - id: uptime_credit
            anchor: "hosting §3.1"
            severity: medium
            base_points: "1.5"
            required_concepts: service credit

    Good:
        issues:
          - id: uptime_credit
            anchor: "hosting §3.1"
            severity: medium
            base_points: 1.5
            required_concepts: ["service credit"]
    """
    return _errors_of_kind(ctx, "type")


@rule("S002", "schema-required", Severity.ERROR)
@renders_schema_kind("required")
def schema_required(ctx: LintContext) -> Iterator[Finding]:
    """A required key is missing, such as an issue's `anchor` or a document's `path`.

    Catches mappings that lack a key their schema requires: `matter_id`, `title`,
    `role`, `assignment` and `documents` in matter.yaml; `id`, `anchor` and
    `severity` of an issue; `id` of a question or escalation; `id`, `title` and
    `path` of a document; `pattern` of a gate mapping; `message` and `text` of a
    counter.

    Why it matters: without these the item cannot work. An issue with no anchor can
    never be matched, so its points are unreachable; a gate mapping with no pattern
    never fires.

    Bad:
        issues:
          - id: uptime_credit
            severity: medium

    Good:
        issues:
          - id: uptime_credit
            anchor: "hosting §3.1"
            severity: medium
    """
    return _errors_of_kind(ctx, "required")


@rule("S003", "schema-enum", Severity.ERROR)
@renders_schema_kind("enum")
def schema_enum(ctx: LintContext) -> Iterator[Finding]:
    """A value is not one of the allowed choices, e.g. a severity of `High` or `severe`.

    Catches issue severities outside `low`, `medium`, `high`, `critical` and gate
    `negation_scope` values other than `span` and `before`. The hint lists the
    allowed values and suggests the closest one.

    Why it matters: severity credit needs exact equality with what the agent
    submits, and agents submit the lowercase values, so `High` makes the severity
    points unreachable. An unknown `negation_scope` silently behaves as `span`.

    Bad:
        issues:
          - id: uptime_credit
            anchor: "hosting §3.1"
            severity: High

    Good:
        issues:
          - id: uptime_credit
            anchor: "hosting §3.1"
            severity: high
    """
    return _errors_of_kind(ctx, "enum")


@rule("S004", "negative-points", Severity.ERROR)
@renders_schema_kind("minimum")
def negative_points(ctx: LintContext) -> Iterator[Finding]:
    """Points, penalties or other amounts that must be non-negative are negative.

    Catches a negative value for any points field (questions, escalations, issue
    components, final submission), for a penalty, for `max_score`, the score cap,
    `minimum_characters` or `resist_rounds`.

    Why it matters: penalties are written as positive amounts and the engine
    subtracts them, so a negative penalty becomes a bonus for the very mistake it
    was meant to punish; a negative component lowers the maximum score and rewards
    missing the issue.

    Bad:
        final_submission:
          points: 0.5
          missing_required_issue_penalty: -0.25

    Good:
        final_submission:
          points: 0.5
          missing_required_issue_penalty: 0.25
    """
    return _errors_of_kind(ctx, "minimum")


@rule("S005", "unknown-key", Severity.ERROR, fixable=True)
@renders_schema_kind("unknown-key")
def unknown_key(ctx: LintContext) -> Iterator[Finding]:
    """A key the engine does not know, usually a misspelling; the message suggests the intended key.

    Catches every key outside the closed key set of its mapping, anywhere in
    matter.yaml, rubric.yaml, hidden_facts.yaml and counterparty.yaml (free
    mappings such as `public_facts`, `client_answers` and `positions` excepted).
    A did-you-mean suggestion covers typos and shortened names.

    Why it matters: the engine ignores keys it does not read, so a misspelt key does
    nothing and its setting silently keeps the default. `negotiation_rounds` under
    `constraints` leaves the round budget at 8, whatever the author wrote.

    Bad:
        constraints:
          maximum_steps: 20
          negotiation_rounds: 4

    Good:
        constraints:
          maximum_steps: 20
          maximum_negotiation_rounds: 4
    """
    return _errors_of_kind(ctx, "unknown-key")


@rule("S006", "schema-invalid", Severity.ERROR)
@renders_schema_kind("other")
def schema_invalid(ctx: LintContext) -> Iterator[Finding]:
    """Any other schema violation: an empty id, a budget of 0, a score cap above 1.

    Catches what the more specific schema rules do not: values out of range (a
    constraint below 1, `critical_failure_score_cap` above 1), empty ids and
    document paths, and any other constraint of the schemas.

    Why it matters: these values are accepted by the engine but make the matter
    unplayable or meaningless, e.g. `maximum_steps: 0` truncates every episode on
    its first action.

    Bad:
        constraints:
          maximum_steps: 0
          maximum_client_questions: 3

    Good:
        constraints:
          maximum_steps: 20
          maximum_client_questions: 3
    """
    return _errors_of_kind(ctx, "other")
