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
        return next(self.iter_errors(value, schema), None) is None

    def iter_errors(self, value: Any, schema: Any, path: tuple[str | int, ...] = ()) -> Iterator[SubsetError]:
        if schema is True:
            return
        if schema is False:
            yield SubsetError("None", path, None, schema, value)
            return
        for keyword, expected in schema.items():
            yield from self._keyword(keyword, expected, value, schema, path)

    def _keyword(
        self, keyword: str, expected: Any, value: Any, schema: Mapping[str, Any], path: tuple[str | int, ...]
    ) -> Iterator[SubsetError]:
        def error() -> SubsetError:
            return SubsetError(keyword, path, expected, schema, value)

        if keyword == "$ref":
            yield from self.iter_errors(value, self._resolve(expected), path)
        elif keyword == "type":
            names = expected if isinstance(expected, list) else [expected]
            if not any(type_matches(value, str(name)) for name in names):
                yield error()
        elif keyword == "enum":
            if not any(equal_json(value, option) for option in expected):
                yield error()
        elif keyword == "const":
            if not equal_json(value, expected):
                yield error()
        elif keyword == "allOf":
            for item in expected:
                yield from self.iter_errors(value, item, path)
        elif keyword == "if":
            branch = "then" if self.is_valid(value, expected) else "else"
            if branch in schema:
                yield from self.iter_errors(value, schema[branch], path)
        elif keyword == "items":
            if isinstance(value, list):
                for index, item in enumerate(value):
                    yield from self.iter_errors(item, expected, (*path, index))
        elif isinstance(value, dict):  # the object keywords say nothing about other values
            yield from self._object_keyword(keyword, expected, value, schema, path, error)

    def _object_keyword(
        self,
        keyword: str,
        expected: Any,
        value: dict[Any, Any],
        schema: Mapping[str, Any],
        path: tuple[str | int, ...],
        error: Any,
    ) -> Iterator[SubsetError]:
        if keyword == "required":
            for name in expected:
                if name not in value:
                    yield error()
        elif keyword == "properties":
            for name, sub in expected.items():
                if name in value:
                    yield from self.iter_errors(value[name], sub, (*path, name))
        elif keyword == "additionalProperties":
            declared = schema.get("properties", {})
            extras = [key for key in value if key not in declared]
            if expected is False:
                if extras:
                    yield error()
            else:  # jsonschema walks a set of the extra keys; these are in the value's order
                for key in extras:
                    yield from self.iter_errors(value[key], expected, (*path, key))
