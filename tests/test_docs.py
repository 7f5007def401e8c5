"""The documentation describes what exists: the rule catalogue is generated from the
docstrings and in sync, and every rule code the prose mentions is a real rule."""

from __future__ import annotations

import re

from rubric_tools.catalogue import all_codes, find_code
from rubric_tools.docs import AUTHORING, BEGIN, END, main, render_catalogue
from rubric_tools.lint import all_rules, find_rule
from tests.conftest import REPO_ROOT


def test_rule_catalogue_is_in_sync() -> None:
    assert main(["--check"]) == 0, "run `python -m rubric_tools.docs`"


def test_catalogue_has_every_rule_with_its_examples() -> None:
    catalogue = render_catalogue()
    for rule in all_rules():
        assert f"#### {rule.code} `{rule.name}`" in catalogue
        assert "Bad" in rule.doc and "Good" in rule.doc, f"{rule.code} docstring lacks Bad/Good examples"


def test_rule_codes_mentioned_in_prose_exist() -> None:
    text = AUTHORING.read_text(encoding="utf-8")
    prose = text[: text.index(BEGIN)] + text[text.index(END) :]
    prose += (REPO_ROOT / "README.md").read_text(encoding="utf-8")
    mentioned = set(re.findall(r"\b([A-Z]\d{3})\b", prose))
    assert mentioned, "the guide should point at rules"
    assert [code for code in sorted(mentioned) if find_rule(code) is None and find_code(code) is None] == []


def test_catalogue_lists_every_non_lint_code() -> None:
    catalogue = render_catalogue()
    for code in all_codes():
        assert f"#### {code.code} `{code.name}`" in catalogue


def test_rule_docs_hold_no_control_characters() -> None:
    """A docstring escape (`\\0`, `\\x1c`) that is not written out lands in AUTHORING.md as a raw
    control character, which breaks the Markdown (and makes it a binary file to grep)."""
    for rule in all_rules():
        assert not re.search(r"[\x00-\x08\x0b-\x1f\x7f\x85\u2028\u2029]", rule.doc), rule.code
