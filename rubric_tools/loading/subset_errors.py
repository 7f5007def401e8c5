"""The errors jsonschema reports for an invalid value, for the keyword subset of `schema_subset`.

`rubric replay` explains every invalid action (T101-T104). Importing jsonschema and walking
its validators cost more than replaying the corpus' invalid trajectories, so the explanation
is produced here, for the same keywords `schema_subset.supports` accepts, the way jsonschema's
Draft 2020-12 validator produces it: each schema's keywords in their written order; `$ref`,
`allOf` and `if`/`then`/`else` descend without changing the instance path; `properties` in the
schema's order, `items` by index; `required` one error per missing name; a `false`
`additionalProperties` one error for all the extra keys. `tests/test_trajectory_formats.py`
compares every error (keyword, path, keyword value, failing schema, instance) with
jsonschema's on the corpus and on generated actions.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any, NamedTuple

from rubric_tools.loading.schema_subset import equal_json, type_matches


class SubsetError(NamedTuple):
    """What jsonschema's ValidationError says of one failure."""

    validator: str  # the failing keyword (`"None"` for a `false` schema, as jsonschema's `str(None)`)
    path: tuple[str | int, ...]  # where in the instance (jsonschema's `absolute_path`)
    validator_value: Any  # the keyword's value
    schema: Any  # the (sub)schema holding the keyword
    instance: Any  # the value that failed


class SubsetErrors:
    """Walks a schema of the subset over a value, yielding jsonschema's errors in its order."""

    def __init__(self, root: Mapping[str, Any]) -> None:
        self.root = root

    def _resolve(self, reference: str) -> Any:
        node: Any = self.root
        for part in reference[2:].split("/"):
            node = node[part]
        return node

    def is_valid(self, value: Any, schema: Any) -> bool:
        found: list[SubsetError] = []
        self._collect(value, schema, (), found)
        return not found

    def iter_errors(self, value: Any, schema: Any, path: tuple[str | int, ...] = ()) -> Iterator[SubsetError]:
        found: list[SubsetError] = []
        self._collect(value, schema, path, found)
        return iter(found)

    # Collected into one list by plain calls: a generator per schema node and keyword cost
    # more than the checks themselves.
    def _collect(self, value: Any, schema: Any, path: tuple[str | int, ...], found: list[SubsetError]) -> None:
        if schema is True:
            return
        if schema is False:
            found.append(SubsetError("None", path, None, schema, value))
            return
        for keyword, expected in schema.items():
            self._keyword(keyword, expected, value, schema, path, found)

    def _keyword(
        self,
        keyword: str,
        expected: Any,
        value: Any,
        schema: Mapping[str, Any],
        path: tuple[str | int, ...],
        found: list[SubsetError],
    ) -> None:
        if keyword == "$ref":
            self._collect(value, self._resolve(expected), path, found)
        elif keyword == "type":
            names = expected if isinstance(expected, list) else [expected]
            if not any(type_matches(value, str(name)) for name in names):
                found.append(SubsetError(keyword, path, expected, schema, value))
        elif keyword == "enum":
            if not any(equal_json(value, option) for option in expected):
                found.append(SubsetError(keyword, path, expected, schema, value))
        elif keyword == "const":
            if not equal_json(value, expected):
                found.append(SubsetError(keyword, path, expected, schema, value))
        elif keyword == "allOf":
            for item in expected:
                self._collect(value, item, path, found)
        elif keyword == "if":
            branch = "then" if self.is_valid(value, expected) else "else"
            if branch in schema:
                self._collect(value, schema[branch], path, found)
        elif keyword == "items":
            if isinstance(value, list):
                for index, item in enumerate(value):
                    self._collect(item, expected, (*path, index), found)
        elif isinstance(value, dict):  # the object keywords say nothing about other values
            self._object_keyword(keyword, expected, value, schema, path, found)

    def _object_keyword(
        self,
        keyword: str,
        expected: Any,
        value: dict[Any, Any],
        schema: Mapping[str, Any],
        path: tuple[str | int, ...],
        found: list[SubsetError],
    ) -> None:
        if keyword == "required":
            for name in expected:
                if name not in value:
                    found.append(SubsetError(keyword, path, expected, schema, value))
        elif keyword == "properties":
            for name, sub in expected.items():
                if name in value:
                    self._collect(value[name], sub, (*path, name), found)
        elif keyword == "additionalProperties":
            declared = schema.get("properties", {})
            extras = [key for key in value if key not in declared]
            if expected is False:
                if extras:
                    found.append(SubsetError(keyword, path, expected, schema, value))
            else:  # jsonschema walks a set of the extra keys; these are in the value's order
                for key in extras:
                    self._collect(value[key], expected, (*path, key), found)
