"""The JSON Schemas: valid, strict, in step with the engine's defaults, and true to real data.

The conformance corpus is the reference for "real data": every matter must validate
except for the two `constraints.negotiation_rounds` keys it carries on purpose, every
action of the reference trajectories must validate, and every gate-probe file too.
"""

from __future__ import annotations

import dataclasses
import json
import subprocess
import sys
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator
from jsonschema.exceptions import best_match

from rubric_tools.loading import load_matter_source
from rubric_tools.loading.schema_check import did_you_mean, validate_matter, validate_yaml
from rubric_tools.loading.yaml_source import load_yaml
from rubric_tools.schemas import SchemaNotFoundError, available_schemas, load_schema, schema_path
from rubric_tools.scoring.model import (
    Constraints,
    Counter,
    FinalSubmission,
    Issue,
    MatchItem,
    Position,
    Rubric,
)

REPO_SCHEMAS = Path(__file__).resolve().parent.parent / "schemas"
BASE_MATTER = Path(__file__).parent / "rule_cases" / "_base"
MATTER_FILE_SCHEMAS = ("matter", "rubric", "hidden_facts", "counterparty")
OWN_SCHEMAS = (*MATTER_FILE_SCHEMAS, "probes", "action")
ACTION_TYPES = (
    "read_document",
    "search_matter",
    "ask_client",
    "escalate",
    "submit_issue",
    "propose_redline",
    "revise_issue",
    "revise_redline",
    "send_markup",
    "accept_counterparty",
    "submit_final",
)
DRAFT_2020_12 = "https://json-schema.org/draft/2020-12/schema"


# ------------------------------------------------------------------ the schemas themselves


@pytest.mark.parametrize("path", sorted(REPO_SCHEMAS.glob("*.schema.json")), ids=lambda p: p.name)
def test_every_schema_is_a_valid_2020_12_schema(path: Path) -> None:
    schema = json.loads(path.read_text(encoding="utf-8"))
    assert schema.get("$schema") == DRAFT_2020_12
    Draft202012Validator.check_schema(schema)


Trail = tuple[str, ...]


def _subschemas(node: Any, trail: Trail = ()) -> Iterator[tuple[Trail, dict[str, Any]]]:
    if isinstance(node, dict):
        yield trail, node
        for key, value in node.items():
            yield from _subschemas(value, (*trail, str(key)))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from _subschemas(value, (*trail, str(index)))


@pytest.mark.parametrize("name", OWN_SCHEMAS)
def test_every_key_set_is_closed(name: str) -> None:
    """A schema with `properties` must reject other keys, or typos would pass silently."""
    open_objects = [
        "/".join(trail)
        for trail, node in _subschemas(load_schema(name))
        if "properties" in node
        and "if" not in trail  # action discriminators only test `type`
        and not any("then" in branch for branch in node.get("allOf", []))  # closed per branch
        and "properties" not in trail[-1:]  # a property *named* "properties" is not a schema
        and node.get("additionalProperties") is not False
        and node.get("unevaluatedProperties") is not False
    ]
    assert open_objects == []


@pytest.mark.parametrize("name", OWN_SCHEMAS)
def test_every_property_is_documented_for_editors(name: str) -> None:
    undocumented = [
        f"{'/'.join(trail)}/{key}"
        for trail, node in _subschemas(load_schema(name))
        if "if" not in trail
        for key, sub in (node.get("properties") or {}).items()
        if isinstance(sub, dict) and not ({"title", "description", "$ref"} & sub.keys())
    ]
    assert undocumented == []


def _property(schema: dict[str, Any], *pointer: str) -> dict[str, Any]:
    node: Any = schema
    for part in pointer:
        node = node[part]
    assert isinstance(node, dict)
    return node


def _field_defaults(model: type) -> dict[str, Any]:
    fields = dataclasses.fields(model)
    return {f.name: f.default for f in fields if f.default is not dataclasses.MISSING}


@pytest.mark.parametrize(
    ("schema_name", "pointer", "model"),
    [
        ("matter", ("properties", "constraints", "properties"), Constraints),
        ("rubric", ("$defs", "issue", "properties"), Issue),
        ("rubric", ("$defs", "question", "properties"), MatchItem),
        ("rubric", ("$defs", "escalation", "properties"), MatchItem),
        ("rubric", ("$defs", "final_submission", "properties"), FinalSubmission),
        ("rubric", ("properties",), Rubric),
        ("counterparty", ("$defs", "position", "properties"), Position),
        ("counterparty", ("$defs", "counter", "properties"), Counter),
    ],
)
def test_documented_defaults_are_the_scorers_defaults(schema_name: str, pointer: tuple[str, ...], model: type) -> None:
    """Each `default` in a schema equals the scorer's default (engine.md §1)."""
    properties = _property(load_schema(schema_name), *pointer)
    model_defaults = _field_defaults(model)
    compared = 0
    for key, sub in properties.items():
        scalar_default = "default" in sub and not isinstance(sub["default"], list | dict)
        if scalar_default and key in model_defaults:
            assert sub["default"] == model_defaults[key], f"{schema_name} {key}"
            compared += 1
    numeric = [k for k, v in model_defaults.items() if isinstance(v, int | float) and k in properties]
    missing = [k for k in numeric if "default" not in properties[k]]
    assert missing == [], f"{schema_name}: numeric settings without a documented default: {missing}"
    assert compared > 0


# ------------------------------------------------------------------ loading the schemas


def test_load_schema_accepts_short_and_file_names_and_caches() -> None:
    rubric = load_schema("rubric")
    assert rubric is load_schema("rubric.schema.json")
    assert rubric["title"] == "rubric.yaml"
    assert set(OWN_SCHEMAS) <= set(available_schemas())


def test_schema_path_points_at_the_file_load_schema_reads() -> None:
    path = schema_path("matter")
    assert path.name == "matter.schema.json"
    assert json.loads(path.read_text(encoding="utf-8")) == load_schema("matter")


def test_an_unknown_schema_name_is_a_clear_error() -> None:
    with pytest.raises(SchemaNotFoundError, match="available: .*rubric"):
        load_schema("no-such-schema")


_ZIPPED_PROBE = """
import json, sys
sys.path.insert(0, sys.argv[1])
from rubric_tools import schemas
print(json.dumps([schemas.__file__, schemas.load_schema("action"), schemas.available_schemas()]))
"""


def test_a_zipped_install_reads_its_packaged_schemas(tmp_path: Path) -> None:
    """A package that is not a folder on disk (zipimport) has its schemas found through
    importlib.resources, as a wheel lays them out (`rubric_tools/_schemas`); no checkout beside it."""
    package = Path(__file__).resolve().parent.parent / "rubric_tools"
    archive = tmp_path / "installed.zip"
    with zipfile.ZipFile(archive, "w") as zipped:
        for module in sorted(package.rglob("*.py")):
            zipped.write(module, f"rubric_tools/{module.relative_to(package).as_posix()}")
        for schema in sorted(REPO_SCHEMAS.glob("*.schema.json")):
            zipped.write(schema, f"rubric_tools/_schemas/{schema.name}")
    completed = subprocess.run(
        [sys.executable, "-I", "-c", _ZIPPED_PROBE, str(archive)],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        check=False,
    )
    assert completed.returncode == 0, completed.stderr
    where, action, names = json.loads(completed.stdout)
    assert where == str(archive / "rubric_tools" / "schemas.py")
    assert action == load_schema("action")
    assert set(OWN_SCHEMAS) <= set(names)


# ------------------------------------------------------------------ real data


def test_the_base_fixture_validates() -> None:
    assert validate_matter(load_matter_source(BASE_MATTER)) == []


def test_conformance_matters_validate_except_the_negotiation_rounds_keys(conformance: Path) -> None:
    matters = sorted(p.parent for p in (conformance / "matters").glob("*/matter.yaml"))
    assert len(matters) == 12
    errors = {m.name: validate_matter(load_matter_source(m)) for m in matters}
    flagged = {name: found for name, found in errors.items() if found}
    assert len(flagged) == 2, {name: [e.message for e in found] for name, found in flagged.items()}
    for found in flagged.values():
        assert len(found) == 1
        (error,) = found
        assert (error.file_name, error.path, error.kind) == (
            "matter.yaml",
            ("constraints", "negotiation_rounds"),
            "unknown-key",
        )
        assert error.suggestion == "maximum_negotiation_rounds"


def _actions(files: list[Path]) -> Iterator[tuple[str, Any]]:
    for path in files:
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            if line.strip():
                yield f"{path.parent.name}/{path.name}:{number}", json.loads(line)


def test_every_action_of_the_reference_trajectories_validates(conformance: Path) -> None:
    validator = Draft202012Validator(load_schema("action"))
    actions = list(_actions(sorted(conformance.glob("trajectories/*/good.jsonl"))))
    assert len(actions) > 100
    failures = {
        where: str(best_match(validator.iter_errors(action)))
        for where, action in actions
        if not validator.is_valid(action)
    }
    assert failures == {}
    assert {action["type"] for _, action in actions} <= set(ACTION_TYPES)


def test_actions_of_unknown_type_are_rejected(conformance: Path) -> None:
    """Any type that is not exactly one of the eleven (wrong case, null, missing) fails."""
    validator = Draft202012Validator(load_schema("action"))
    unknown = [
        action
        for _, action in _actions(sorted(conformance.glob("trajectories/*/*.jsonl")))
        if isinstance(action, dict) and action.get("type") not in ACTION_TYPES
    ]
    assert unknown, "the corpus should hold fuzz actions of unknown type"
    assert not any(validator.is_valid(action) for action in unknown)


def test_every_gate_probe_file_validates_in_either_shape(conformance: Path) -> None:
    files = sorted((conformance / "probes").glob("*.yaml"))
    assert files
    shapes = set()
    for path in files:
        source = load_yaml(path)
        shapes.add(type(source.data).__name__)
        assert validate_yaml(source, "probes") == [], path.name
    assert shapes == {"dict", "list"}


# ------------------------------------------------------------------ what authors see


def _matter_with(tmp_path: Path, file_name: str, text: str) -> Path:
    root = tmp_path / "matter"
    root.mkdir()
    for source in BASE_MATTER.rglob("*"):
        target = root / source.relative_to(BASE_MATTER)
        if source.is_dir():
            target.mkdir(exist_ok=True)
        else:
            target.write_bytes(source.read_bytes())
    (root / file_name).write_text(text, encoding="utf-8")
    return root


def test_unknown_key_message_suggests_the_intended_key(tmp_path: Path) -> None:
    text = (
        (BASE_MATTER / "matter.yaml")
        .read_text(encoding="utf-8")
        .replace("maximum_negotiation_rounds", "negotiation_rounds")
    )
    (error,) = validate_matter(load_matter_source(_matter_with(tmp_path, "matter.yaml", text)))
    assert error.kind == "unknown-key"
    assert "did you mean `maximum_negotiation_rounds`" in error.message
    assert error.hint is not None and "maximum_negotiation_rounds" in error.hint


def test_a_broken_gate_mapping_reports_its_own_problems_only(tmp_path: Path) -> None:
    """Not the `oneOf` noise of the string branch it does not belong to."""
    rubric = (
        "issues:\n"
        "  - id: uptime_credit\n"
        '    anchor: "hosting §3.1"\n'
        "    severity: medium\n"
        "    critical_failure_patterns:\n"
        '      - pattern: "unenforceable"\n'
        "        negation_scope: after\n"
        '        exclude_contxt: "savings clause"\n'
    )
    errors = validate_matter(load_matter_source(_matter_with(tmp_path, "rubric.yaml", rubric)))
    assert sorted(e.kind for e in errors) == ["enum", "unknown-key"]
    enum = next(e for e in errors if e.kind == "enum")
    assert enum.hint == "use one of: span, before"
    unknown = next(e for e in errors if e.kind == "unknown-key")
    assert unknown.suggestion == "exclude_context"
    assert not any("is not of type" in e.message for e in errors)


def test_a_missing_required_key_names_the_key(tmp_path: Path) -> None:
    rubric = 'issues:\n  - id: uptime_credit\n    anchor: "hosting §3.1"\n'
    (error,) = validate_matter(load_matter_source(_matter_with(tmp_path, "rubric.yaml", rubric)))
    assert (error.kind, error.path) == ("required", ("issues", 0))
    assert "`severity`" in error.message


def test_a_file_that_does_not_parse_is_not_schema_checked(tmp_path: Path) -> None:
    root = _matter_with(tmp_path, "rubric.yaml", "issues: [\n")
    assert validate_matter(load_matter_source(root)) == []


@pytest.mark.parametrize(
    ("word", "candidates", "expected"),
    [
        ("negotiation_rounds", ["maximum_steps", "maximum_negotiation_rounds"], "maximum_negotiation_rounds"),
        ("steps", ["maximum_steps", "maximum_escalations"], "maximum_steps"),
        ("redline_point", ["redline_points", "redline_concepts"], "redline_points"),
        ("High", ["low", "medium", "high", "critical"], "high"),
        ("colour", ["pattern", "negation_guard"], None),
        ("", ["pattern"], None),
    ],
)
def test_did_you_mean(word: str, candidates: list[str], expected: str | None) -> None:
    assert did_you_mean(word, candidates) == expected
