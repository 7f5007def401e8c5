"""Rule documentation for people: the `rubric rules` table and suggestions for an unknown
rule (`rubric explain`'s pages are `rubric_tools.reporting.explain`)."""

from __future__ import annotations

import difflib
from collections.abc import Sequence
from typing import Any, Protocol

from rich.table import Table
from rich.text import Text

from rubric_tools.diagnostics import CodeStatus, DeclaredCode
from rubric_tools.reporting import safe_output
from rubric_tools.reporting.console import SEVERITY_STYLE, console_text, string_console


class ListedRule(DeclaredCode, Protocol):
    """What the list of rules shows: a `code_registry.CodeEntry` and a registered `Rule` both have it."""

    @property
    def family(self) -> str: ...
    @property
    def fixable(self) -> bool: ...
    @property
    def summary(self) -> str: ...
    @property
    def status(self) -> CodeStatus: ...


def rule_record(rule: ListedRule) -> dict[str, Any]:
    record: dict[str, Any] = {
        "code": rule.code,
        "name": rule.name,
        "family": rule.family,
        "severity": rule.severity.value,
        "fixable": rule.fixable,
        "summary": rule.summary,
    }
    if rule.status is not CodeStatus.STABLE:  # a preview or deprecated rule says so
        record["status"] = rule.status.value
    return record


def render_rules_json(rules: Sequence[ListedRule]) -> str:
    return safe_output.dumps([rule_record(rule) for rule in rules]) + "\n"


def render_rules_table(rules: Sequence[ListedRule], *, color: bool = False, width: int = 120) -> str:
    """One row per rule: code, name, family, default severity, fixable."""
    table = Table(title=f"{len(rules)} lint rules", title_justify="left", expand=False)
    for column in ("Code", "Name", "Family", "Severity", "Fixable"):
        table.add_column(column, no_wrap=True)
    for rule in rules:
        table.add_row(
            Text(rule.code, style="bold"),
            Text(rule.name if rule.status is CodeStatus.STABLE else f"{rule.name} ({rule.status.value})"),
            Text(rule.family),
            Text(rule.severity.value, style=SEVERITY_STYLE[rule.severity]),
            Text("yes" if rule.fixable else "no"),
        )
    console = string_console(color, width)
    console.print(table)
    return console_text(console)


def did_you_mean(query: str, rules: Sequence[ListedRule]) -> list[str]:
    """Close codes or names, each shown as `CODE (name)`, best first."""
    by_word = {word: rule for rule in rules for word in (rule.code, rule.name)}
    normalized = query.strip()
    candidates = difflib.get_close_matches(normalized.upper(), [r.code for r in rules], n=3, cutoff=0.5)
    candidates += difflib.get_close_matches(normalized.lower(), [r.name for r in rules], n=3, cutoff=0.6)
    seen: dict[str, None] = {}
    for word in candidates:
        rule = by_word[word]
        seen.setdefault(f"{rule.code} ({rule.name})", None)
    return list(seen)[:3]
