"""Every YAML example of AUTHORING.md's prose is valid against its JSON Schema, and
every default the schemas declare is documented in AUTHORING's defaults table."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
from jsonschema import Draft202012Validator
from ruamel.yaml import YAML

from rubric_tools.schemas import load_schema
from tests.conftest import REPO_ROOT

AUTHORING = (REPO_ROOT / "AUTHORING.md").read_text(encoding="utf-8")
# The generated rule catalogue shows deliberately wrong ("Bad") examples; the prose does not.
PROSE = AUTHORING.split("\n## Rule catalogue", 1)[0]
BLOCKS = re.findall(r"```yaml\n(.*?)```", PROSE, flags=re.S)
RUBRIC_KEYS = {"critical_failure_score_cap", "max_score", "questions", "escalations", "issues", "final_submission"}
ISSUE_FILLER = {"id": "example", "anchor": "msa §1", "severity": "high"}


def _validator(name: str, definition: str | None = None) -> Draft202012Validator:
    schema = load_schema(name)
    if definition is not None:
        schema = {**schema, "$ref": f"#/$defs/{definition}"}
        schema.pop("properties", None), schema.pop("required", None), schema.pop("additionalProperties", None)
        schema.pop("type", None), schema.pop("allOf", None)
    return Draft202012Validator(schema)


def _targets(data: Any) -> Iterator[tuple[str, str | None, Any]]:
    """(schema, $def or None, instance) for one example."""
    if isinstance(data, list):  # a YAML trajectory
        for action in data:
            yield "action", None, action
        return
    keys = set(data)
    if "trajectories" in keys:
        yield "expectations", None, data
    elif "probes" in keys:
        yield "probes", None, data
    elif "positions" in keys:
        yield "counterparty", None, data
    elif keys & {"client_answers", "escalation_answers"}:
        yield "hidden_facts", None, data
    elif "matter_id" in keys:
        yield "matter", None, data
    elif keys <= RUBRIC_KEYS:
        yield "rubric", None, data
    else:  # a fragment of one issue, shown at its indentation
        yield "rubric", "issue", {**ISSUE_FILLER, **data}


def _examples() -> list[tuple[int, Any]]:
    found = []
    for number, block in enumerate(BLOCKS):
        data = YAML(typ="safe").load(block)
        # Skip a schema-line-only block, and pre-commit/CI configuration (tests/test_pre_commit_clone.py runs it).
        if data is not None and not (isinstance(data, dict) and set(data) & {"repos", "jobs"}):
            found.append((number, data))
    return found


@pytest.mark.parametrize("number, data", _examples(), ids=lambda v: str(v) if isinstance(v, int) else "")
def test_prose_yaml_example_is_valid(number: int, data: Any) -> None:
    targets = list(_targets(data))
    assert targets
    for name, definition, instance in targets:
        errors = [e.message for e in _validator(name, definition).iter_errors(instance)]
        assert not errors, f"AUTHORING.md yaml block {number} ({name}): {errors}\n{BLOCKS[number]}"


def test_examples_cover_every_file_kind() -> None:
    kinds = {name for _, data in _examples() for name, _, _ in _targets(data)}
    assert kinds >= {"matter", "rubric", "hidden_facts", "counterparty", "expectations", "probes", "action"}


def _defaults(node: Any, path: tuple[str, ...] = ()) -> Iterator[tuple[str, Any]]:
    if isinstance(node, dict):
        if "default" in node and path and path[-1] not in ("properties",):
            yield path[-1], node["default"]
        for key, value in node.items():
            yield from _defaults(value, (*path, key))
    elif isinstance(node, list):
        for value in node:
            yield from _defaults(value, path)


def _shown(value: Any) -> str:
    if isinstance(value, bool):
        return str(value).lower()
    if value is None:
        return "null"
    return json.dumps(value) if isinstance(value, list | dict) else str(value)


@pytest.mark.parametrize("schema", ["matter", "rubric", "counterparty", "hidden_facts", "action"])
def test_every_schema_default_is_in_the_defaults_table(schema: str) -> None:
    table = PROSE.split("### Defaults", 1)[1].split("\n### ", 1)[0]
    rows = [line for line in table.splitlines() if line.startswith("| ") and "`" in line]
    for key, value in _defaults(load_schema(schema)):
        if key in ("final_submission", "constraints"):
            continue  # an object whose members have their own rows
        shown = _shown(value)
        assert any(f"`{key}`" in row.split("|")[2] and shown in row.split("|")[3] for row in rows) or any(
            key in row.split("|")[2] and shown.strip("`") in row.split("|")[3] for row in rows
        ), f"{schema}: default {key} = {shown} is not in AUTHORING's defaults table"
