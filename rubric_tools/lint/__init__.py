"""`rubric lint`: schema validation then semantic rules, one result object out."""

from rubric_tools.lint.config import LintConfig
from rubric_tools.lint.context import Finding, LintContext
from rubric_tools.lint.engine import LintReport, MatterReport, lint_paths, lint_source
from rubric_tools.lint.registry import RULES, Rule, all_rules, find_rule, rule

__all__ = [
    "RULES",
    "Finding",
    "LintConfig",
    "LintContext",
    "LintReport",
    "MatterReport",
    "Rule",
    "all_rules",
    "find_rule",
    "lint_paths",
    "lint_source",
    "rule",
]
