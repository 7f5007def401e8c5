"""Every diagnostic code is written once, where it is declared; everything else refers to it.

A declaration is a `declare(...)` (a catalogue code), a `declare_rule_code(...)` (a lint
rule's code detected where the rule cannot be imported) or an `@rule(...)` call. Any
other string constant that looks like a code, or mentions one, is a copy that can drift
from its declaration (a retyped name or severity, a stale "see A002").
"""

from __future__ import annotations

import ast
import re
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

from rubric_tools.catalogue import all_codes, rule_codes
from rubric_tools.lint.registry import RULES, all_rules

PACKAGE = Path(__file__).resolve().parents[1] / "rubric_tools"
_MENTION = re.compile(r"\b[A-Z][0-9]{3}\b")
_DECLARATIONS = frozenset({"declare", "declare_rule_code", "rule"})
#: Help texts of the typer modules: `rubric --help` imports every one of them, so importing
#: the declarations there would cost it the catalogue's import (measured by
#: benchmarks/startup.py), and a lint rule cannot be imported without all the rules.
#: (module, code mentioned).
_HELP_TEXT_MENTIONS = frozenset(
    {
        ("cli/app.py", "I001"),  # --debug
        ("cli/check_cmd.py", "M003"),  # check --strict
        ("cli/lint_cmd.py", "G003"),  # explain CODE: an example of a rule code
    }
)
#: Generated copies of the declarations, checked against them by
#: `python -m rubric_tools.docs --check` (tests/test_docs.py): the rule index that
#: `rubric explain` and `rubric rules` read instead of importing every rule.
_GENERATED = frozenset({"code_registry.py"})


def _called_name(call: ast.Call) -> str | None:
    if isinstance(call.func, ast.Name):
        return call.func.id
    return call.func.attr if isinstance(call.func, ast.Attribute) else None


def _docstrings(tree: ast.AST) -> set[int]:
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                found.add(id(first.value))
    return found


def _declarations(tree: ast.AST) -> Iterator[ast.Call]:
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and _called_name(node) in _DECLARATIONS:
            yield node


def _modules() -> Iterator[tuple[str, ast.Module]]:
    for path in sorted(PACKAGE.rglob("*.py")):
        yield path.relative_to(PACKAGE).as_posix(), ast.parse(path.read_text(encoding="utf-8"))


def _declared_in_source() -> list[tuple[str, str]]:
    """(code, module) of the first argument of every declaration written in the package."""
    return [
        (call.args[0].value, module)
        for module, tree in _modules()
        for call in _declarations(tree)
        if call.args and isinstance(call.args[0], ast.Constant) and isinstance(call.args[0].value, str)
    ]


def _mentions_outside_declarations() -> list[tuple[str, int, str]]:
    found = []
    for module, tree in _modules():
        if module in _GENERATED:
            continue
        exempt = _docstrings(tree)
        for call in _declarations(tree):
            exempt.update(id(node) for node in ast.walk(call) if isinstance(node, ast.Constant))
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in exempt:
                found += [(module, node.lineno, code) for code in _MENTION.findall(node.value)]
    return found


def test_no_code_is_written_outside_its_declaration() -> None:
    found = _mentions_outside_declarations()
    offenders = [
        f"rubric_tools/{module}:{line}: {code}"
        for module, line, code in found
        if (module, code) not in _HELP_TEXT_MENTIONS
    ]
    assert offenders == [], "refer to the declared code (CODE.code) instead of writing it:\n" + "\n".join(offenders)
    # The exceptions are still needed: an entry the code no longer has must go.
    assert _HELP_TEXT_MENTIONS <= {(module, code) for module, _line, code in found}


def test_the_scan_sees_the_declarations() -> None:
    declared = _declared_in_source()
    assert len(declared) > 100, "the declaration scan found too little: its patterns are stale"
    assert {code for code, _ in declared} >= {"L005", "T004", "U001", "P100", "X103"}


def test_each_code_is_declared_exactly_once() -> None:
    counts = Counter(code for code, _module in _declared_in_source())
    assert sorted(code for code, count in counts.items() if count > 1) == []


def test_every_code_declared_in_the_source_is_known_to_explain() -> None:
    """A declaring module missing from `catalogue._CODE_MODULES` (or a rule module that is
    never imported) would leave its codes unknown to `rubric explain` and AUTHORING.md."""
    known = {rule.code for rule in all_rules()} | {code.code for code in all_codes()}
    unknown = sorted(f"{code} ({module})" for code, module in _declared_in_source() if code not in known)
    assert unknown == []


def test_every_rule_code_is_the_declaration_of_its_rule() -> None:
    """A code declared below lint is documented by the lint rule registered from it: same
    code, name and severity, and not a catalogue entry as well."""
    all_rules()  # the rule modules import the modules that declare their codes
    declared = rule_codes()
    assert {code.code for code in declared} >= {"L001", "L005", "D001", "Y005", "U001", "U005", "X103"}
    for code in declared:
        registered = RULES.get(code.code)
        assert registered is not None, f"{code.code} is declared for a rule, but no rule registers it"
        assert (registered.name, registered.severity) == (code.name, code.severity)
    assert not {code.code for code in declared} & {code.code for code in all_codes()}
