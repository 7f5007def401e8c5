"""The catalogue of non-lint codes: every code a command prints is explainable."""

from __future__ import annotations

import pytest

from rubric_tools.catalogue import all_codes, declare, declare_rule_code, find_code
from rubric_tools.cli import main
from rubric_tools.diagnostics import Severity
from rubric_tools.lint.registry import all_rules
from rubric_tools.loading.codes import MISSING_FILE


def test_no_code_is_both_a_rule_and_a_catalogue_entry() -> None:
    rules = {rule.code for rule in all_rules()} | {rule.name for rule in all_rules()}
    clashes = [c.code for c in all_codes() if c.code in rules or c.name in rules]
    assert clashes == []


@pytest.mark.parametrize("query", ["T004", "t004", "gate-timeout", "E001"])
def test_explain_knows_non_lint_codes(query: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["explain", query, "--no-color"]) == 0
    out = capsys.readouterr().out
    assert "not a lint rule" in out
    assert find_code(query) is not None


def test_a_code_is_declared_once_with_documentation() -> None:
    with pytest.raises(ValueError, match="declared twice"):
        declare("T001", "another-name", Severity.ERROR, "replay", "doc")
    # A lint rule's code declared below lint is taken, in either kind of declaration.
    with pytest.raises(ValueError, match="declared twice"):
        declare(MISSING_FILE.code, "another-name", Severity.ERROR, "load", "doc")
    with pytest.raises(ValueError, match="declared twice"):
        declare_rule_code(MISSING_FILE.code, "another-name", Severity.ERROR)
    with pytest.raises(ValueError, match="declared twice"):
        declare_rule_code("Z998", MISSING_FILE.name, Severity.ERROR)
    with pytest.raises(ValueError, match="documentation"):
        declare("Z999", "undocumented-code", Severity.ERROR, "test", "  ")
    with pytest.raises(ValueError, match="one capital letter and three digits"):
        declare("bad", "bad-code", Severity.ERROR, "test", "doc")
