"""`rubric explain` and `rubric rules` find every code through the code registry
(`rubric_tools.code_registry`), without importing the rules: the registry must give
exactly what the declarations give, the output must not move, and a stale code table
must fail `python -m rubric_tools.docs --check`."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from rubric_tools import code_registry, docs
from rubric_tools.catalogue import all_codes
from rubric_tools.code_registry import CODE, RULE, entries, lookup
from rubric_tools.commands.explain import run_explain, run_rules
from rubric_tools.lint.registry import all_rules
from rubric_tools.reporting.explain import render_code_explain, render_explain
from rubric_tools.reporting.formats import RulesFormat
from rubric_tools.reporting.lint_rules import render_rules_json, render_rules_table
from tests.lint_support import seeded_rules


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def _facts(code: object) -> tuple[object, ...]:
    fields = ("code", "name", "severity", "family", "doc", "summary", "status")
    return tuple(getattr(code, field) for field in fields)


def test_the_registry_gives_every_rule_exactly_as_registered() -> None:
    rules = all_rules()
    assert [entry.code for entry in entries(RULE)] == [rule.code for rule in rules]
    assert [(*_facts(e), e.fixable) for e in entries(RULE)] == [(*_facts(r), r.fixable) for r in rules]
    for rule in rules:
        for query in (rule.code, rule.name):
            found = lookup(query)
            assert found is not None and found.is_rule, query
            assert (*_facts(found), found.fixable) == (*_facts(rule), rule.fixable), query
    invalid_regex = next(rule for rule in rules if rule.code == "G003")
    for query in ("g003", " G003 ", "INVALID-REGEX", " invalid-regex "):  # any case, blanks ignored
        assert _facts(lookup(query)) == _facts(invalid_regex), query


def test_the_registry_gives_every_other_code_exactly_as_declared() -> None:
    codes = all_codes()
    assert [entry.code for entry in entries(CODE)] == [code.code for code in codes]
    for code in codes:
        for query in (code.code, code.name):
            found = lookup(query)
            assert found is not None and not found.is_rule, query
            assert _facts(found) == _facts(code), query


def test_rules_registered_from_outside_the_rule_modules_are_found_not_tabled() -> None:
    table = docs.render_code_table()
    with seeded_rules():
        assert docs.render_code_table() == table
        assert [entry.code for entry in code_registry.added_rules()] == ["Z901", "Z902", "Z903"]
        found = lookup("Z901")
        assert found is not None and found.is_rule
        out, err = io.StringIO(), io.StringIO()
        assert run_rules(RulesFormat.JSON, out, err) == 0
        assert out.getvalue() == render_rules_json(all_rules())
    assert code_registry.added_rules() == [] and lookup("Z901") is None


def test_unknown_queries_find_nothing() -> None:
    for query in ("", "G999", "gate", "Z901", "invalid_regex"):
        assert lookup(query) is None, query


def test_a_page_from_the_registry_is_the_declared_page() -> None:
    for rule in all_rules():
        found = lookup(rule.code)
        assert found is not None
        assert render_explain(found, color=True) == render_explain(rule, color=True)
    for code in all_codes():
        found = lookup(code.code)
        assert found is not None
        assert render_code_explain(found, color=True) == render_code_explain(code, color=True)


@pytest.mark.parametrize("color", [False, True])
def test_the_list_from_the_registry_is_the_registered_rules_list(color: bool) -> None:
    listed = entries(RULE)
    assert render_rules_table(listed, color=color) == render_rules_table(all_rules(), color=color)
    assert render_rules_json(listed) == render_rules_json(all_rules())


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


def test_without_the_rules_source_the_registered_rules_answer(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    expected = _outputs()
    assert [code for code, _, _ in expected] == [0] * 5
    monkeypatch.setattr(code_registry, "_RULES_DIR", tmp_path)  # an install with no .py files
    monkeypatch.setattr(code_registry, "_DOCSTRING_CACHE", {})
    assert code_registry._docstrings(tmp_path / "gates.py") == {}
    assert _outputs() == expected


def test_an_unknown_query_suggests_close_rules() -> None:
    out, err = io.StringIO(), io.StringIO()
    assert run_explain("invalid-regx", out, err) == 2
    assert out.getvalue() == ""
    assert err.getvalue() == (
        "error: unknown rule 'invalid-regx'. Did you mean G003 (invalid-regex)? Run `rubric rules` for the list.\n"
    )


@pytest.mark.parametrize("edit", ["drop a row", "change a severity", "rename a function", "change a status"])
def test_a_stale_table_fails_the_docs_check(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, edit: str) -> None:
    source = docs.CODE_TABLE.read_text(encoding="utf-8")
    row = next(line for line in source.splitlines() if line.startswith("G003 "))
    stale = {
        "drop a row": source.replace(row + "\n", ""),
        "change a severity": source.replace(row, row.replace(" error ", " warning ")),
        "rename a function": source.replace(row, row.replace("invalid_regex", "invalid_regexes")),
        "change a status": source.replace(row, row.replace(" stable ", " preview ")),
    }[edit]
    assert stale != source
    copy = tmp_path / "code_registry.py"
    copy.write_text(stale, encoding="utf-8")
    monkeypatch.setattr(docs, "CODE_TABLE", copy)
    authoring = tmp_path / "AUTHORING.md"  # in sync: only the table is stale
    authoring.write_text(docs.AUTHORING.read_text(encoding="utf-8"), encoding="utf-8")
    assert docs.main(["--check", "--file", str(authoring)]) == 1
    assert docs.main(["--file", str(authoring)]) == 0  # regenerates it
    assert copy.read_text(encoding="utf-8") == source
