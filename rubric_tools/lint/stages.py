"""The stages of linting one loaded matter, each a function of what it needs, run in this
order by `engine.lint_source`:

1. `validate_schema`: every YAML file against its JSON Schema, once; the record the rules
   read as `ctx.schema` (a crash is an internal error, and the rules then see no schema error);
2. `run_rules`: each selected rule on the `LintContext`, its findings made diagnostics with
   the configured severity (a crashing rule is an internal error; the others still run);
3. `apply_suppressions`: inline `# rubric: ignore[...]` comments drop what they silence,
   and the unused ones are reported (X103, when it runs);
4. `hide_dependent_findings` (`unreadable_files`): a file that could not be read (a YAML
   syntax error) hides the findings that depend on its content;
5. `prove_fixes`: every fix declared safe is replayed against the matter's trajectories
   and probes and downgraded when a score moves (when `prove-fixes` is on); a matter
   loaded with an overlay (unsaved editor buffers, `rubric lsp`) is proven with it;
6. `in_order`: duplicates dropped, sorted by file and position.

The loader, the rules and the scorer are imported inside the stages: a run whose matters
all come from the result cache never needs them.
"""

from __future__ import annotations

import traceback
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from rubric_tools.config.lint import LintSection
from rubric_tools.diagnostics import Diagnostic, Severity
from rubric_tools.lint.registry import RULES, Rule
from rubric_tools.loading.layout import MATTER_FILE

if TYPE_CHECKING:
    from rubric_tools.lint.context import LintContext
    from rubric_tools.lint.schema_stage import SchemaReport
    from rubric_tools.loading.files import Overlay
    from rubric_tools.loading.matter import MatterSource


def severity_of(rule: Rule, config: LintSection) -> Severity:
    """The rule's severity: configured by code, else by name, else its default."""
    return config.severity.get(rule.code) or config.severity.get(rule.name) or rule.severity


def _crashed(source: MatterSource, message: str) -> Diagnostic:
    from rubric_tools.internal_codes import RULE_CRASHED

    return Diagnostic.of(
        RULE_CRASHED,
        message=message,
        file=source.root / MATTER_FILE,
        fix_hint="please report this: " + traceback.format_exc(limit=1).strip().splitlines()[-1],
        matter=source.matter_id,
    )


def validate_schema(source: MatterSource, configured: Sequence[Rule]) -> tuple[SchemaReport, list[Diagnostic]]:
    """Validate the matter once, before any rule, recording what the configured schema rules
    report (whichever rules this run executes: a semantic rule defers to a schema rule the
    configuration selects); and the internal error, when validation crashed."""
    from rubric_tools.lint.schema_stage import SchemaReport, run_schema_stage

    try:
        return run_schema_stage(source, configured), []
    except Exception as exc:  # a validation bug must not hide the other rules' findings
        return SchemaReport(), [_crashed(source, f"the schema stage crashed: {exc!r}")]


def run_rules(context: LintContext, rules: Sequence[Rule], config: LintSection) -> list[Diagnostic]:
    """Each rule's findings as diagnostics, in rule order."""
    source = context.source
    found: list[Diagnostic] = []
    for rule in rules:
        try:
            findings = list(rule.check(context))
        except Exception as exc:  # a rule bug must not hide other findings
            found.append(_crashed(source, f"rule {rule.code} ({rule.name}) crashed: {exc!r}"))
            continue
        severity = severity_of(rule, config)
        for finding in findings:
            found.append(
                Diagnostic(
                    code=rule.code,
                    name=rule.name,
                    severity=severity,
                    message=finding.message,
                    file=finding.file,
                    span=finding.span,
                    fix_hint=finding.fix_hint,
                    matter=source.matter_id,
                    fix=finding.fix,
                )
            )
    return found


def apply_suppressions(
    source: MatterSource, config: LintSection, rules: Sequence[Rule], found: list[Diagnostic]
) -> list[Diagnostic]:
    """Drop what inline suppressions silence; report the unused ones when X103 runs."""
    from rubric_tools import suppressions

    comments = suppressions.matter_suppressions(source)
    if not comments:
        return found
    kept = suppressions.apply_suppressions(found, comments)
    unused_rule = RULES.get(suppressions.UNUSED_CODE)
    if unused_rule is None or unused_rule not in rules:
        return kept
    ran = {rule.code for rule in rules}
    names = {rule.name: rule.code for rule in RULES.values()}
    for comment in comments:
        unused = suppressions.unused_codes(comment, ran, names)
        if unused:
            kept.append(
                Diagnostic(
                    code=unused_rule.code,
                    name=unused_rule.name,
                    severity=severity_of(unused_rule, config),
                    message=f"unused suppression of {', '.join(unused)}: nothing here is reported",
                    file=comment.file,
                    span=comment.span,
                    fix_hint="remove it (`rubric lint --fix` does)",
                    matter=source.matter_id,
                    fix=suppressions.removal_fix(comment, unused),
                )
            )
    return kept


def prove_fixes(
    source: MatterSource, found: list[Diagnostic], witness_root: Path | None, overlay: Overlay | None = None
) -> list[Diagnostic]:
    """Replay every fix declared safe against the trajectories and probes of the matter at
    `witness_root` (default: this matter); a fix that moves a score, or cannot be proven,
    is downgraded to unsafe. The findings themselves always stand."""
    from rubric_tools.lint.fix_proof import prove_safe_fixes

    try:
        return prove_safe_fixes(source.root, source.matter, found, witness_root=witness_root, overlay=overlay)
    except Exception as exc:  # unproven is unsafe
        return [
            replace(d, fix=d.fix.downgrade(f"could not be proven safe: {exc!r}")) if d.fix and d.fix.safe else d
            for d in found
        ]


def in_order(found: list[Diagnostic]) -> list[Diagnostic]:
    """Each diagnostic once, sorted by file, position and code."""
    return sorted(dict.fromkeys(found), key=Diagnostic.sort_key)
