"""Issue 24's three principles on the conformance corpus: what they find there is real.

A008 (anchor outside the documents under review) and D011 (uncitable section token)
find nothing: every corpus issue is anchored on the agreement under review and every
heading is a plain number. U007 (a redline concept the anchored clause already holds)
finds concepts the corpus rewards for pasting the clause back; each finding is checked
here against the clause's text, read independently of the rule.
"""

from __future__ import annotations

from pathlib import Path

from rubric_tools.config.lint import LintSection
from rubric_tools.lint import lint_paths
from rubric_tools.scoring.text import normalize
from tests.test_lint_conformance_semantics import _corpus_canary


def _section(matter: Path, document: str, token: str) -> str:
    """The section's text, read from the Markdown file by hand."""
    import yaml

    manifest = yaml.safe_load((matter / "matter.yaml").read_text(encoding="utf-8"))
    path = next(d["path"] for d in manifest["documents"] if d["id"] == document)
    lines = (matter / path).read_text(encoding="utf-8").split("\n")
    start = next(i for i, line in enumerate(lines) if line.startswith("## ") and line.split()[1].rstrip(".") == token)
    end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith("## ")), len(lines))
    return normalize("\n".join(lines[start:end]))


def test_the_principles_on_the_corpus(conformance: Path) -> None:
    import yaml

    matters = conformance / "matters"
    config = LintSection(select=("A008", "D010", "D011", "G017", "U007"), canary=_corpus_canary(matters))
    report = lint_paths([matters], config)
    assert [d for d in report.diagnostics if d.code != "U007"] == []
    found = [d for d in report.diagnostics if d.code == "U007"]
    assert found  # the corpus does reward pasting some clauses back
    for diagnostic in found:
        matter = diagnostic.file.parent
        rubric = yaml.safe_load(diagnostic.file.read_text(encoding="utf-8"))
        issue_id = diagnostic.message.split("of issue ")[1].split("'")[1]
        concept = diagnostic.message.split("redline concept ")[1].split("'")[1]
        issue = next(i for i in rubric["issues"] if i["id"] == issue_id)
        assert concept in issue["redline_concepts"]
        document, token = (part.strip() for part in issue["anchor"].split("§", 1))
        assert normalize(concept) in _section(matter, document, token)
