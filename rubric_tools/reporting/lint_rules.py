"""Rule documentation for people: the `rubric rules` table and `rubric explain` pages."""

from __future__ import annotations

import difflib
from collections.abc import Sequence
from typing import Any

from rich.markdown import Markdown
from rich.table import Table
from rich.text import Text

from rubric_tools.catalogue import CodeDoc
from rubric_tools.diagnostics import Severity
from rubric_tools.lint.registry import Rule
from rubric_tools.reporting import safe_output
from rubric_tools.reporting.lint_common import SEVERITY_STYLE, console_text, string_console


def rule_record(rule: Rule) -> dict[str, Any]:
    return {
        "code": rule.code,
        "name": rule.name,
        "family": rule.family,
        "severity": rule.severity.value,
        "fixable": rule.fixable,
        "summary": rule.summary,
    }


def render_rules_json(rules: Sequence[Rule]) -> str:
    return safe_output.dumps([rule_record(rule) for rule in rules]) + "\n"


def render_rules_table(rules: Sequence[Rule], *, color: bool = False, width: int = 120) -> str:
    """One row per rule: code, name, family, default severity, fixable."""
    table = Table(title=f"{len(rules)} lint rules", title_justify="left", expand=False)
    for column in ("Code", "Name", "Family", "Severity", "Fixable"):
        table.add_column(column, no_wrap=True)
    for rule in rules:
        table.add_row(
            Text(rule.code, style="bold"),
            Text(rule.name),
            Text(rule.family),
            Text(rule.severity.value, style=SEVERITY_STYLE[rule.severity]),
            Text("yes" if rule.fixable else "no"),
        )
    console = string_console(color, width)
    console.print(table)
    return console_text(console)


def render_explain(rule: Rule, *, color: bool = False, width: int = 100) -> str:
    """A rule's page: code and name, severity, family, fixability, then its docstring
    rendered as Markdown."""
    facts = (
        ("Default severity", rule.severity.value),
        ("Family", rule.family),
        ("Fixable", "yes" if rule.fixable else "no"),
    )
    return _render_page(rule.code, rule.name, rule.severity, facts, rule.doc or rule.summary, color, width)


def render_code_explain(code: CodeDoc, *, color: bool = False, width: int = 100) -> str:
    """A non-lint code's page (replay, check, audit...): the same layout as a rule's."""
    facts = (("Severity", code.severity.value), ("Family", code.family), ("Kind", "not a lint rule"))
    return _render_page(code.code, code.name, code.severity, facts, code.doc, color, width)


def _render_page(
    code: str,
    name: str,
    severity: Severity,
    facts: Sequence[tuple[str, str]],
    doc: str,
    color: bool,
    width: int,
) -> str:
    console = string_console(color, width)
    title = Text()
    title.append(code, style=SEVERITY_STYLE[severity])
    title.append(f" ({name})", style="bold")
    console.print(title)
    console.print()
    for label, value in facts:
        console.print(Text(f"{label}: ", style="dim") + Text(value))
    console.print()
    console.print(Markdown(docstring_markdown(doc)))
    text = console_text(console)
    # Rich pads code blocks to the full width; without colour that is only trailing noise.
    return text if color else "\n".join(line.rstrip() for line in text.split("\n"))


def docstring_markdown(doc: str) -> str:
    """Docstring conventions as Markdown: an indented block right under a line such as
    `Bad:` is an example, but CommonMark would fold it into that paragraph unless a blank
    line separates them, so one is inserted (fenced blocks are left alone)."""
    lines = doc.split("\n")
    out: list[str] = []
    in_fence = False
    for line in lines:
        if line.lstrip().startswith(("```", "~~~")):
            in_fence = not in_fence
        starts_indented_block = line.startswith("    ") and line.strip()
        previous = out[-1] if out else ""
        if (
            not in_fence
            and starts_indented_block
            and previous.strip()
            and not previous.startswith("    ")
            and not previous.lstrip().startswith(("```", "~~~"))
        ):
            out.append("")
        out.append(line)
    return "\n".join(out)


def did_you_mean(query: str, rules: Sequence[Rule]) -> list[str]:
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
