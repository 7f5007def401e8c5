"""The document, anchor and gate rule families do not cry wolf on the conformance corpus.

The corpus holds twelve real, published matters whose documents, anchors and gates
are believed sound (its reference trajectories score perfectly, and its gate probes
behave as declared), so these families must report no error on it. They report no
warning either today; a warning added here must be one we would defend to the
matter's author, and then belongs in REVIEWED_WARNINGS with the reason.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from rubric_tools.config.lint import LintSection
from rubric_tools.diagnostics import Diagnostic, Severity
from rubric_tools.lint import all_rules, lint_paths

FAMILIES = ("documents", "anchors", "gates", "regexes")

#: (matter, code, file name, line) of each warning reviewed and kept, with why.
REVIEWED_WARNINGS: dict[tuple[str, str, str, int], str] = {}


def _family_codes() -> tuple[str, ...]:
    return tuple(r.code for r in all_rules() if r.family in FAMILIES)


def _lint(conformance: Path) -> list[Diagnostic]:
    report = lint_paths([conformance / "matters"], LintSection(select=_family_codes()))
    assert not report.usage_errors
    assert len(report.matters) == 12
    return report.diagnostics


def _show(diagnostics: list[Diagnostic]) -> str:
    return "\n".join(f"{d.matter} {d.code} {d.file.name}:{d.line}:{d.column} {d.message}" for d in diagnostics)


def test_families_are_registered() -> None:
    families = {r.family for r in all_rules()}
    assert set(FAMILIES) <= families
    assert {r.code[0] for r in all_rules() if r.family in FAMILIES} == {"D", "A", "G"}


def test_no_errors_on_the_corpus(conformance: Path) -> None:
    errors = [d for d in _lint(conformance) if d.severity is Severity.ERROR]
    assert not errors, _show(errors)


def test_only_reviewed_warnings_on_the_corpus(conformance: Path) -> None:
    warnings = [d for d in _lint(conformance) if d.severity is not Severity.ERROR]
    unreviewed = [d for d in warnings if (d.matter, d.code, d.file.name, d.line) not in REVIEWED_WARNINGS]
    assert not unreviewed, _show(unreviewed)


@pytest.mark.parametrize("family", FAMILIES)
def test_every_rule_documents_itself(family: str) -> None:
    for rule in (r for r in all_rules() if r.family == family):
        doc = rule.doc
        assert rule.summary.endswith("."), rule.code
        for section in ("What it catches", "Why it matters", "Bad:", "Good:"):
            assert section in doc, f"{rule.code} docstring lacks {section!r}"
        # Examples are YAML, or Markdown for the rules about documents.
        assert doc.count("```yaml") + doc.count("```markdown") >= 2, f"{rule.code} needs two fenced examples"
