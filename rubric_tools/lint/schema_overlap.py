"""Which problems a running schema rule already reports, so that a semantic rule
checking the same node can stay quiet and each defect is reported once.

Only rules that re-check a shape the schema also checks use this (the gate-entry
shape rules, and A001 for an absent anchor). With the schema rules ignored or not
selected, those rules report the problem themselves.
"""

from __future__ import annotations

from rubric_tools.lint.context import LintContext
from rubric_tools.lint.engine import selected_rules
from rubric_tools.loading.matter import RUBRIC_FILE
from rubric_tools.loading.yaml_source import InstancePath

#: The schema rule that reports each kind of schema error.
SCHEMA_RULE_FOR_KIND = {"type": "S001", "required": "S002", "enum": "S003", "unknown-key": "S005"}


def _running_kinds(ctx: LintContext) -> set[str]:
    running = {r.code for r in selected_rules(ctx.config)}
    return {kind for kind, code in SCHEMA_RULE_FOR_KIND.items() if code in running}


def schema_reported(ctx: LintContext, file_name: str = RUBRIC_FILE) -> set[tuple[InstancePath, str]]:
    """(path, kind) of every problem of `file_name` that a selected schema rule reports."""
    kinds = _running_kinds(ctx)
    return {(tuple(e.path), e.kind) for e in ctx.schema_errors if e.file_name == file_name and e.kind in kinds}


def schema_reports_missing_key(ctx: LintContext, path: InstancePath, key: str) -> bool:
    """Whether a selected schema rule reports that the mapping at `path` lacks `key`."""
    if "required" not in _running_kinds(ctx):
        return False
    # A required-key error sits on the mapping; its message names the missing key.
    return any(
        e.file_name == RUBRIC_FILE
        and e.kind == "required"
        and tuple(e.path) == tuple(path)
        and e.message.rstrip().endswith(f"`{key}`")
        for e in ctx.schema_errors
    )
