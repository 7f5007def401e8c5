"""Rules read the matter through its typed, located model (`ctx.model`), not raw YAML mappings.

The raw views — `LintContext.data()`, `rubric_data`, `matter_data`, `hidden_facts_data`,
`counterparty_data`, `raw_issues()`, `gate_entries()`, `GateEntry`, a YAML file's `.data`,
`ctx.source.files` — give values without types and positions without elements, and every
rule that used them re-derived both by hand. Only the rules about YAML *syntax* may look at
a file's parse, and they do it through `ctx.yaml_file()` / `ctx.yaml_files()`.
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "rubric_tools"
RULES = PACKAGE / "lint" / "rules"

#: Attribute names that reach the raw mappings.
RAW_ATTRIBUTES = frozenset(
    {
        "data",
        "rubric_data",
        "matter_data",
        "hidden_facts_data",
        "counterparty_data",
        "raw_issues",
        "gate_entries",
        "files",
    }
)
RAW_NAMES = frozenset({"GateEntry"})

#: Rules about how the YAML is written, not what it says: they inspect the parse.
SYNTAX_RULES = frozenset({"yaml11.py", "encoding.py", "suppressions.py", "schema.py"})
#: Rule modules not yet moved to the model. Empty: every rule module reads `ctx.model`; the
#: test keeps it so.
NOT_YET_MOVED: frozenset[str] = frozenset()
#: The helper modules that rules read the matter through (in lint, and the gate analysis
#: shared with the audit).
HELPERS = (
    *(PACKAGE / "lint" / name for name in ("gate_fields.py", "match_items.py", "citations.py", "citation_fixes.py")),
    *(PACKAGE / "gate_analysis" / name for name in ("gate_firing.py", "concept_nodes.py")),
)
#: Where a raw read stays on purpose, and why: (module, function) -> reason. None today.
ALLOWED: dict[tuple[str, str], str] = {}


def _raw_uses(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: list[str] = []
    for function in [tree, *(n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef))]:
        name = function.name if isinstance(function, ast.FunctionDef) else "<module>"
        if (path.name, name) in ALLOWED:
            continue
        body = (
            function.body
            if isinstance(function, ast.FunctionDef)
            else [n for n in tree.body if not isinstance(n, ast.FunctionDef | ast.ClassDef)]
        )
        for statement in body:
            for node in ast.walk(statement):
                if isinstance(node, ast.Attribute) and node.attr in RAW_ATTRIBUTES:
                    found.append(f"{path.name}:{node.lineno} .{node.attr}")
                elif isinstance(node, ast.Name) and node.id in RAW_NAMES:
                    found.append(f"{path.name}:{node.lineno} {node.id}")
    return sorted(set(found))


def _checked_modules() -> list[Path]:
    rules = [p for p in sorted(RULES.glob("*.py")) if p.name not in SYNTAX_RULES | NOT_YET_MOVED]
    return [*rules, *HELPERS]


def test_rules_and_their_helpers_read_the_model_not_raw_mappings() -> None:
    modules = _checked_modules()
    assert len(modules) >= 14
    offenders = [use for path in modules for use in _raw_uses(path)]
    assert offenders == [], "read ctx.model (rubric_tools/loading/elements.py) instead: " + ", ".join(offenders)


def test_the_check_sees_a_raw_read(tmp_path: Path) -> None:
    module = tmp_path / "rule.py"
    module.write_text("def rule(ctx):\n    return ctx.rubric_data.get('issues'), ctx.source.files\n", encoding="utf-8")
    assert _raw_uses(module) == ["rule.py:2 .files", "rule.py:2 .rubric_data"]


def test_the_lists_name_real_modules() -> None:
    names = {p.name for p in RULES.glob("*.py")}
    assert SYNTAX_RULES <= names and NOT_YET_MOVED <= names
    assert all(path.is_file() for path in HELPERS)


#: Beyond lint: the packages that read a loaded matter (the solver and attacks, the audit,
#: coverage, the check runner) read its values from the model too. They may still use a YAML
#: file's parse (`source.files`) for positions and for edits.
CONSUMER_PACKAGES = ("prove", "audit", "coverage", "checking")
#: Modules that read other files than the matter's (probe files, expectations): the model
#: does not describe those.
OTHER_FILES = frozenset(
    {
        "audit/corpus.py",
        "audit/probe_writer.py",
        "coverage/suite.py",
        "checking/probes.py",
        "checking/expectations.py",
    }
)
#: The loader's leniency helpers re-derive types from raw values.
RAW_HELPERS = frozenset({"as_mapping", "as_list"})
#: Where a consumer reads raw values on purpose, and why.
CONSUMER_ALLOWED: dict[tuple[str, str], str] = {
    # The recall benchmark seeds a defect by editing a copy of the parsed rubric and rebuilding.
    ("recall.py", "gate"): "edits the YAML data",
    ("recall.py", "concept"): "edits the YAML data",
}


def _consumer_modules() -> list[Path]:
    found = [p for package in CONSUMER_PACKAGES for p in sorted((PACKAGE / package).glob("*.py"))]
    return [p for p in found if p.relative_to(PACKAGE).as_posix() not in OTHER_FILES]


def _raw_value_reads(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: list[str] = []
    for function in ast.walk(tree):
        if not isinstance(function, ast.FunctionDef) or (path.name, function.name) in CONSUMER_ALLOWED:
            continue
        for statement in function.body:
            for node in ast.walk(statement):
                if isinstance(node, ast.Attribute) and node.attr in (RAW_ATTRIBUTES - {"files"}) | RAW_HELPERS:
                    found.append(f"{path.parent.name}/{path.name}:{node.lineno} {node.attr}")
                elif isinstance(node, ast.Name) and node.id in RAW_HELPERS:
                    found.append(f"{path.parent.name}/{path.name}:{node.lineno} {node.id}")
    return sorted(set(found))


def test_the_solver_audit_coverage_and_check_read_the_model() -> None:
    modules = _consumer_modules()
    assert len(modules) >= 35
    offenders = [use for path in modules for use in _raw_value_reads(path)]
    assert offenders == [], "read source.model (rubric_tools/loading/elements.py) instead: " + ", ".join(offenders)


def test_the_consumer_check_sees_a_raw_read(tmp_path: Path) -> None:
    module = tmp_path / "recall.py"
    module.write_text(
        "def gate(s):\n    return s.data('rubric.yaml')\n\ndef other(s):\n    return build.as_list(s.data('x'))\n",
        encoding="utf-8",
    )
    assert _raw_value_reads(module) == [f"{tmp_path.name}/recall.py:5 as_list", f"{tmp_path.name}/recall.py:5 data"]
    assert all((PACKAGE / name).is_file() for name in OTHER_FILES)
