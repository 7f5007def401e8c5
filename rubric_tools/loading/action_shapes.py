"""A valid action recognized in one step: each action type's fields, read from the action schema.

`rubric replay` validates every action, and nine in ten are valid. The general checker
(`schema_subset`) answers for any schema of its keyword subset by calling one predicate per
keyword: for an action, the root's `required` and `enum`, the `allOf` dispatch on `type`, the
branch's `$ref` and its object keywords. The action schema is simpler than its keywords: a
`type` that names one branch, and each branch a closed object (`additionalProperties: false`)
whose fields are text, text or null, one of some texts, or a list of such values or of closed
objects of text fields (quotes). `ActionShapes` reads that table from the schema once, and
checks an action with one look-up of its type, two set comparisons (required ⊆ keys ⊆ allowed)
and an isinstance per field.

It answers only "valid?", and only when the schema has exactly that form (`action_shapes`
returns None otherwise and the general checker answers); an invalid action is explained by
`subset_errors`. `tests/test_trajectory_formats.py` holds it to jsonschema on the corpus' actions,
odd actions and generated ones.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, NamedTuple

from rubric_tools.loading.schema_subset import ANNOTATIONS

#: JSON types that are exactly an isinstance check of a parsed value (true is not 1, so
#: boolean, integer and number are not among them: a schema using them gets no table).
_PLAIN_TYPES: dict[str, type] = {"string": str, "array": list, "object": dict, "null": type(None)}

ValueCheck = Callable[[Any], bool]


class Shape(NamedTuple):
    """One action type's closed object: what must be there, what may be, and each field's value."""

    required: frozenset[str]
    allowed: frozenset[str]
    plain: dict[str, tuple[type, ...]]  # fields whose value is valid by its Python type alone
    checked: dict[str, ValueCheck]  # the other fields: enums, lists


class _NotAShape(Exception):
    """The schema is not of the form this table describes."""


class ActionShapes:
    """The action schema as a table of `Shape`s by action type."""

    def __init__(self, schema: Mapping[str, Any]) -> None:
        self._definitions: Mapping[str, Any] = schema.get("$defs", {})
        self.shapes = self._read_root(schema)

    def is_valid(self, action: Any) -> bool:
        """Whether `action` is valid against the schema (the same answer as jsonschema's)."""
        if not isinstance(action, dict):
            return False  # the root is `type: object`, which only a dict is
        kind = action.get("type")
        shape = self.shapes.get(kind) if isinstance(kind, str) else None
        if shape is None:
            return False  # no `type`, or one outside the root's enum
        keys = action.keys()
        if not (keys >= shape.required and keys <= shape.allowed):
            return False
        plain, checked = shape.plain, shape.checked
        for name, value in action.items():
            python_types = plain.get(name)
            if python_types is not None:
                if not isinstance(value, python_types):
                    return False
            elif not checked[name](value):
                return False
        return True

    # ----------------------------------------------------------------- reading the schema

    def _read_root(self, schema: Mapping[str, Any]) -> dict[str, Shape]:
        """The root: `type: object`, `required: [type]`, `properties: {type: {enum: [...]}}`, and an
        `allOf` of `{if: {properties: {type: {const: T}}, required: [type]}, then: S}`, one per
        enum value, each S a closed object."""
        if set(schema) - ANNOTATIONS != {"type", "required", "properties", "allOf"}:
            raise _NotAShape("the root has other keywords")
        if schema["type"] != "object" or schema["required"] != ["type"] or set(schema["properties"]) != {"type"}:
            raise _NotAShape("the root is not an object discriminated by `type`")
        names = self._texts(self._resolved(schema["properties"]["type"]), "enum")
        shapes: dict[str, Shape] = {}
        for branch in schema["allOf"]:
            if not isinstance(branch, Mapping) or set(branch) != {"if", "then"}:
                raise _NotAShape("a branch is not if/then")
            condition = branch["if"]
            expected = {"properties": {"type": {"const": condition.get("properties", {}).get("type", {}).get("const")}}}
            if condition != {**expected, "required": ["type"]} or not isinstance(
                expected["properties"]["type"]["const"], str
            ):
                raise _NotAShape("a branch's condition is not `type` equal to a text")
            name = expected["properties"]["type"]["const"]
            if name in shapes:
                raise _NotAShape("two branches for one type")
            shapes[name] = self._closed_object(branch["then"])
        if set(shapes) != set(names):
            raise _NotAShape("the enum of types and the branches differ")
        return shapes

    def _resolved(self, schema: Any) -> Mapping[str, Any]:
        """`schema` with its annotations dropped, through any chain of local `$ref`s alone."""
        seen: set[str] = set()
        while isinstance(schema, Mapping) and set(schema) - ANNOTATIONS == {"$ref"}:
            reference = schema["$ref"]
            if not isinstance(reference, str) or not reference.startswith("#/$defs/") or reference in seen:
                raise _NotAShape("a reference this table does not follow")
            seen.add(reference)
            schema = self._definitions[reference.removeprefix("#/$defs/")]
        if not isinstance(schema, Mapping):
            raise _NotAShape("a boolean schema")
        return {key: value for key, value in schema.items() if key not in ANNOTATIONS}

    def _closed_object(self, schema: Any) -> Shape:
        resolved = self._resolved(schema)
        if resolved.get("type") != "object" or resolved.get("additionalProperties") is not False:
            raise _NotAShape("a branch is not a closed object")
        if set(resolved) - {"type", "additionalProperties", "required", "properties"}:
            raise _NotAShape("a branch has other keywords")
        properties = resolved.get("properties", {})
        required = resolved.get("required", [])
        if not all(isinstance(name, str) for name in [*properties, *required]):
            raise _NotAShape("a field name that is not text")
        plain: dict[str, tuple[type, ...]] = {}
        checked: dict[str, ValueCheck] = {}
        for name, sub in properties.items():
            python_types = self._plain_types(sub)
            if python_types is not None:
                plain[name] = python_types
            else:
                checked[name] = self._value_check(sub)
        # A required field the object does not define is allowed by nothing: no action is valid.
        return Shape(frozenset(required), frozenset(properties), plain, checked)

    def _plain_types(self, schema: Any) -> tuple[type, ...] | None:
        resolved = self._resolved(schema)
        if set(resolved) != {"type"}:
            return None
        kinds = resolved["type"]
        names = kinds if isinstance(kinds, list) else [kinds]
        if not names or not all(isinstance(name, str) and name in _PLAIN_TYPES for name in names):
            raise _NotAShape("a JSON type that is not an isinstance check")
        return tuple(_PLAIN_TYPES[name] for name in names)

    def _texts(self, schema: Mapping[str, Any], keyword: str) -> frozenset[str]:
        if set(schema) != {keyword} or not isinstance(schema[keyword], list):
            raise _NotAShape(f"not an {keyword} alone")
        options = schema[keyword]
        if not options or not all(type(option) is str for option in options):
            raise _NotAShape(f"an {keyword} of other values than text")
        return frozenset(options)

    def _value_check(self, schema: Any) -> ValueCheck:
        """A field that is one of some texts, or a list whose items are plain or closed objects."""
        resolved = self._resolved(schema)
        if "enum" in resolved:
            texts = self._texts(resolved, "enum")
            # JSON equality with text is string equality: a set look-up, for a string only.
            return lambda value: isinstance(value, str) and value in texts
        if set(resolved) != {"type", "items"} or resolved["type"] != "array":
            raise _NotAShape("a field this table does not describe")
        item_types = self._plain_types(resolved["items"])
        if item_types is not None:
            return lambda value: isinstance(value, list) and all(isinstance(item, item_types) for item in value)
        item = self._closed_object(resolved["items"])
        if item.checked:
            raise _NotAShape("a list of objects with more than plain fields")
        return lambda value: isinstance(value, list) and all(_plain_object(element, item) for element in value)


def _plain_object(value: Any, shape: Shape) -> bool:
    """Whether `value` is the closed object `shape` whose fields are all plain."""
    if not isinstance(value, dict):
        return False
    keys = value.keys()
    if not (keys >= shape.required and keys <= shape.allowed):
        return False
    plain = shape.plain
    return all(isinstance(field, plain[name]) for name, field in value.items())


def action_shapes(schema: Mapping[str, Any]) -> ActionShapes | None:
    """The table of `schema`, or None when it is not a `type`-discriminated union of closed objects."""
    try:
        return ActionShapes(schema)
    except (_NotAShape, KeyError, TypeError, AttributeError):
        return None
