"""`rubric lint`: schema validation then semantic rules, one result object out.

The names below load on first use (PEP 562), so that importing a light submodule (the
configuration vocabulary, the result cache) does not import the loader and the scoring model."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rubric_tools._lazy import lazy_getattr

if TYPE_CHECKING:
    from rubric_tools.lint.context import Finding, LintContext
    from rubric_tools.lint.engine import LintReport, MatterReport, lint_paths, lint_source
    from rubric_tools.lint.registry import RULES, Rule, all_rules, find_rule, rule

_LAZY_NAMES = {
    "Finding": "rubric_tools.lint.context",
    "LintContext": "rubric_tools.lint.context",
    "LintReport": "rubric_tools.lint.engine",
    "MatterReport": "rubric_tools.lint.engine",
    "lint_paths": "rubric_tools.lint.engine",
    "lint_source": "rubric_tools.lint.engine",
    "RULES": "rubric_tools.lint.registry",
    "Rule": "rubric_tools.lint.registry",
    "all_rules": "rubric_tools.lint.registry",
    "find_rule": "rubric_tools.lint.registry",
    "rule": "rubric_tools.lint.registry",
}


__getattr__ = lazy_getattr(__name__, _LAZY_NAMES)


__all__ = [
    "RULES",
    "Finding",
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
