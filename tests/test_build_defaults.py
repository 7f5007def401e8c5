"""The loader takes every default from the scorer's dataclasses (`scoring/model.py` is the one
source; `tests/test_schemas.py` ties the JSON Schemas to the same defaults)."""

from __future__ import annotations

import ast
import dataclasses
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from rubric_tools.loading import build
from rubric_tools.scoring.gates import Gate
from rubric_tools.scoring.model import Constraints, Counter, FinalSubmission, Issue, MatchItem, Position, Rubric

BUILD_PY = Path(build.__file__)

#: (builder from a raw mapping, the dataclass it builds, the required fields' values for an empty mapping)
BUILDERS: list[tuple[Callable[[Any], Any], type, dict[str, Any]]] = [
    (build.match_item, MatchItem, {"id": ""}),
    (build.issue, Issue, {"id": "", "anchor": ""}),
    (build.final_submission, FinalSubmission, {}),
    (
        lambda raw: build.rubric_of(raw, questions=(), escalations=(), issues=(), final=FinalSubmission()),
        Rubric,
        {"questions": (), "escalations": (), "issues": (), "final_submission": FinalSubmission()},
    ),
    (build.constraints, Constraints, {}),
    (build.position, Position, {}),
    (lambda raw: build.position({"counters": [raw]}).counters[0], Counter, {}),
    (lambda raw: build.gate({"pattern": "x", **raw}), Gate, {"pattern": "x"}),
]


@pytest.mark.parametrize(("builder", "model", "required"), BUILDERS, ids=lambda v: getattr(v, "__name__", ""))
def test_an_empty_mapping_builds_the_dataclass_defaults(
    builder: Callable[[Any], Any], model: type, required: dict[str, Any]
) -> None:
    assert builder({}) == model(**required)


@pytest.mark.parametrize(("builder", "model", "required"), BUILDERS, ids=lambda v: getattr(v, "__name__", ""))
def test_a_wrong_typed_value_falls_back_to_the_dataclass_default(
    builder: Callable[[Any], Any], model: type, required: dict[str, Any]
) -> None:
    defaulted = [f for f in dataclasses.fields(model) if f.name not in required]
    assert defaulted
    for field in defaulted:
        built = builder({field.name: {"a mapping": "where a scalar or a list belongs"}})
        assert getattr(built, field.name) == getattr(model(**required), field.name), field.name


def test_build_writes_no_default_a_second_time() -> None:
    """No numeric literal in build.py: a default written there would drift from the scorer's."""
    tree = ast.parse(BUILD_PY.read_text(encoding="utf-8"))
    numbers = [
        node.lineno
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, int | float) and not isinstance(node.value, bool)
    ]
    assert numbers == [], f"numeric literals in {BUILD_PY.name} at lines {numbers}"
