"""Fixtures shared by the lint output, configuration and CLI tests.

The output tests must not depend on which real rules exist while the rule families
are being written, so they seed known defects into a copy of `rule_cases/_base` and
register three throwaway rules (family Z9, never used by real rules) that find exactly
those defects at known positions. `seeded_rules()` removes them again afterwards.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from rubric_tools.diagnostics import Severity
from rubric_tools.lint.context import Finding, LintContext
from rubric_tools.lint.registry import RULES, all_rules, rule

BASE_MATTER = Path(__file__).parent / "rule_cases" / "_base"
SEVERITIES = ("low", "medium", "high", "critical")

# Where the seeded defects are, as the tests expect to see them (1-based columns).
SEVERITY_LINE, SEVERITY_COLUMN, SEVERITY_END_COLUMN = 17, 15, 21  # `urgent` in rubric.yaml
TODO_TEXT = "Renewal notice: TODO confirm the period, 100% [sure]."
TODO_LINE, TODO_COLUMN = 10, 17  # `TODO` in documents/hosting.md (appended as line 10)
QUESTION_LINE, QUESTION_COLUMN = 3, 5  # the first question's mapping, lines 3-7 of rubric.yaml
SHORT_ALIAS, LONG_ALIAS = '["where", "backups"]', '["where", "backups", "kept"]'


def _issue_severity(ctx: LintContext) -> Iterator[Finding]:
    """Test-only: an issue severity outside low, medium, high and critical.

    Registered by the lint output tests; it stands for any rule with a fix hint.
    """
    for issue in ctx.model.issues:
        written = issue.field("severity")
        severity = written.value if written is not None else None
        if severity not in SEVERITIES:
            yield ctx.report(
                issue.at("severity"),
                f"severity {severity!r} is not a severity",
                hint="use one of low, medium, high, critical",
            )


def _document_todo(ctx: LintContext) -> Iterator[Finding]:
    """Test-only: a `TODO` left in a document (a finding inside Markdown)."""
    for document in ctx.documents:
        for number, line in enumerate(document.lines, start=1):
            column = line.find("TODO")
            if column >= 0:
                yield ctx.at_document(document, number, "TODO left in the document", column=column + 1, width=4)


def _long_alias(ctx: LintContext) -> Iterator[Finding]:
    """Test-only: a question with an alias of three concepts or more.

    It reports the whole question, so its span covers several lines.
    """
    for question in ctx.model.questions:
        if any(len(alias.concepts) >= 3 for alias in question.aliases):
            yield ctx.report(question, "question has a long alias")


SEEDED_RULES = (
    ("Z901", "test-issue-severity", Severity.ERROR, _issue_severity),
    ("Z902", "test-document-todo", Severity.WARNING, _document_todo),
    ("Z903", "test-long-alias", Severity.INFO, _long_alias),
)


@contextmanager
def seeded_rules() -> Iterator[None]:
    """Register the Z9xx test rules for the duration of a test."""
    all_rules()  # load the real rules first, so they never register while ours are in
    codes = [code for code, *_ in SEEDED_RULES]
    try:
        for code, name, severity, check in SEEDED_RULES:
            rule(code, name, severity)(check)
        yield
    finally:
        for code in codes:
            RULES.pop(code, None)


def make_matter(parent: Path, name: str, *, seeded: bool) -> Path:
    """A copy of the base matter under `parent/name`, with the seeded defects if asked."""
    root = parent / name
    shutil.copytree(BASE_MATTER, root)
    matter_file = root / "matter.yaml"
    matter_file.write_text(
        matter_file.read_text(encoding="utf-8").replace("matter_id: base_fixture", f"matter_id: {name}"),
        encoding="utf-8",
    )
    if seeded:
        rubric = root / "rubric.yaml"
        text = rubric.read_text(encoding="utf-8")
        assert "    severity: medium\n" in text
        assert SHORT_ALIAS in text
        text = text.replace("    severity: medium\n", "    severity: urgent\n").replace(SHORT_ALIAS, LONG_ALIAS)
        rubric.write_text(text, encoding="utf-8")
        hosting = root / "documents" / "hosting.md"
        lines = hosting.read_text(encoding="utf-8").rstrip("\n").split("\n")
        assert len(lines) == TODO_LINE - 1
        hosting.write_text("\n".join([*lines, TODO_TEXT]) + "\n", encoding="utf-8")
    return root


def make_project(parent: Path) -> Path:
    """`parent/project/matters/{acme (seeded), clean}`; returns the project folder."""
    project = parent / "project"
    make_matter(project / "matters", "acme", seeded=True)
    make_matter(project / "matters", "clean", seeded=False)
    return project
