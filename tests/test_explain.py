"""`rubric explain` and `rubric rules` find the lint rules through the generated rule
index, without importing the rules: the index must give exactly what the registry
gives, the output must not move, and a stale index must fail
`python -m rubric_tools.docs --check`."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from rubric_tools import docs
from rubric_tools.catalogue import all_codes
from rubric_tools.commands.explain import run_explain, run_rules
from rubric_tools.lint import rule_index
from rubric_tools.lint.registry import all_rules
from rubric_tools.lint.rule_index import find_indexed_rule, indexed_codes, indexed_rules
from rubric_tools.reporting.explain import render_explain
from rubric_tools.reporting.formats import RulesFormat
from rubric_tools.reporting.lint_rules import render_rules_json, render_rules_table
from tests.lint_support import seeded_rules


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def _facts(rule: object) -> tuple[object, ...]:
    fields = ("code", "name", "severity", "family", "fixable", "doc", "summary")
    return tuple(getattr(rule, field) for field in fields)


def test_the_index_gives_every_rule_exactly_as_registered() -> None:
    rules = all_rules()
    assert indexed_codes() == [rule.code for rule in rules]
    assert [_facts(rule) for rule in indexed_rules() or []] == [_facts(rule) for rule in rules]
    for rule in rules:
        for query in (rule.code, rule.name):
            indexed = find_indexed_rule(query)
            assert indexed is not None, query
            assert _facts(indexed) == _facts(rule), query
    invalid_regex = next(rule for rule in rules if rule.code == "G003")
    for query in ("g003", " G003 ", "INVALID-REGEX", " invalid-regex "):  # looked up as `find_rule` does
        assert _facts(find_indexed_rule(query)) == _facts(invalid_regex), query


def test_rules_registered_from_outside_the_rule_modules_are_listed_not_indexed() -> None:
    index = docs.render_rule_index()
    with seeded_rules():
        assert docs.render_rule_index() == index
        assert [rule.code for rule in rule_index.added_rules()] == ["Z901", "Z902", "Z903"]
        out, err = io.StringIO(), io.StringIO()
        assert run_rules(RulesFormat.JSON, out, err) == 0
        assert out.getvalue() == render_rules_json(all_rules())
    assert rule_index.added_rules() == []


def test_the_index_knows_no_other_code() -> None:
    for query in ("", "G999", "gate", *(code.code for code in all_codes()), *(code.name for code in all_codes())):
        assert find_indexed_rule(query) is None, query


def test_a_page_from_the_index_is_the_registered_rules_page() -> None:
    for rule in all_rules():
        indexed = find_indexed_rule(rule.code)
        assert indexed is not None
        assert render_explain(indexed, color=True) == render_explain(rule, color=True)


@pytest.mark.parametrize("color", [False, True])
def test_the_list_from_the_index_is_the_registered_rules_list(color: bool) -> None:
    indexed = indexed_rules()
    assert indexed is not None
    assert render_rules_table(indexed, color=color) == render_rules_table(all_rules(), color=color)
    assert render_rules_json(indexed) == render_rules_json(all_rules())


def _outputs() -> list[tuple[int, str, str]]:
    """`rubric explain` of a rule by code and by name and of a replay code, then `rubric rules`
    in both formats: exit code, stdout, stderr."""
    outputs = []
    for run in (
        *(lambda out, err, query=query: run_explain(query, out, err) for query in ("G001", "invalid-regex", "T101")),
        lambda out, err: run_rules(RulesFormat.TABLE, out, err),
        lambda out, err: run_rules(RulesFormat.JSON, out, err),
    ):
        out, err = _Terminal(), io.StringIO()
        code = run(out, err)
        outputs.append((code, out.getvalue(), err.getvalue()))
    return outputs


def test_without_the_rules_source_the_registry_answers(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    expected = _outputs()
    assert [code for code, _, _ in expected] == [0] * 5
    monkeypatch.setattr(rule_index, "_RULES_DIR", tmp_path)  # an install with no .py files
    assert find_indexed_rule("G001") is None and indexed_rules() is None
    assert _outputs() == expected


def test_an_unknown_query_suggests_close_rules() -> None:
    out, err = io.StringIO(), io.StringIO()
    assert run_explain("invalid-regx", out, err) == 2
    assert out.getvalue() == ""
    assert err.getvalue() == (
        "error: unknown rule 'invalid-regx'. Did you mean G003 (invalid-regex)? Run `rubric rules` for the list.\n"
    )


@pytest.mark.parametrize("edit", ["drop a row", "change a severity", "rename a function"])
def test_a_stale_index_fails_the_docs_check(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, edit: str) -> None:
    source = docs.RULE_INDEX.read_text(encoding="utf-8")
    row = next(line for line in source.splitlines() if line.startswith("G003 "))
    stale = {
        "drop a row": source.replace(row + "\n", ""),
        "change a severity": source.replace(row, row.replace(" error ", " warning ")),
        "rename a function": source.replace(row, row.replace("invalid_regex", "invalid_regexes")),
    }[edit]
    assert stale != source
    copy = tmp_path / "rule_index.py"
    copy.write_text(stale, encoding="utf-8")
    monkeypatch.setattr(docs, "RULE_INDEX", copy)
    authoring = tmp_path / "AUTHORING.md"  # in sync: only the index is stale
    authoring.write_text(docs.AUTHORING.read_text(encoding="utf-8"), encoding="utf-8")
    assert docs.main(["--check", "--file", str(authoring)]) == 1
    assert docs.main(["--file", str(authoring)]) == 0  # regenerates it
    assert copy.read_text(encoding="utf-8") == source
