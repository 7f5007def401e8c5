"""A fast yes/no JSON Schema check for the keyword subset the action schema uses.

`rubric replay` validates every action. jsonschema is exact and explains every error,
but importing it and walking eleven `if` branches per action costs more than scoring
the action. This checker answers only "valid?" for the subset `type`, `enum`, `const`,
`required`, `properties`, `additionalProperties`, `items`, local `$ref`, `allOf` and
`if`/`then`/`else` (annotations such as `title` are ignored); jsonschema is imported
only to explain an invalid action. A schema using any other keyword is refused
(`supports` is False) and callers use jsonschema for everything.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

ANNOTATIONS = frozenset({"$schema", "$id", "$defs", "title", "description", "default", "examples", "$comment"})
KEYWORDS = frozenset(
    {
        "type",
        "enum",
        "const",
        "required",
        "properties",
        "additionalProperties",
        "items",
        "$ref",
        "allOf",
        "if",
        "then",
        "else",
    }
)


def supports(node: Any) -> bool:
    """Whether every keyword in the schema is one this checker implements."""
    if isinstance(node, Mapping):
        for key, value in node.items():
            if key not in KEYWORDS and key not in ANNOTATIONS:
                return False
            if key == "$ref" and not (isinstance(value, str) and value.startswith("#/")):
                return False
            if key == "properties" and isinstance(value, Mapping):
                if not all(supports(sub) for sub in value.values()):
                    return False
            elif key == "$defs" and isinstance(value, Mapping):
                if not all(supports(sub) for sub in value.values()):
                    return False
            elif key not in ("enum", "const", "required", "type") and not supports(value):
                return False
        return True
    if isinstance(node, list):
        return all(supports(item) for item in node)
    return isinstance(node, bool | str | int | float) or node is None


def _type_matches(value: Any, name: str) -> bool:
    if name == "object":
        return isinstance(value, dict)
    if name == "array":
        return isinstance(value, list)
    if name == "string":
        return isinstance(value, str)
    if name == "boolean":
        return isinstance(value, bool)
    if name == "null":
        return value is None
    if name == "integer":
        return (
            isinstance(value, int) and not isinstance(value, bool) or (isinstance(value, float) and value.is_integer())
        )
    if name == "number":
        return isinstance(value, int | float) and not isinstance(value, bool)
    return False


def _equal(a: Any, b: Any) -> bool:
    """JSON equality: true is not 1."""
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    return bool(a == b)


class SubsetChecker:
    def __init__(self, root: Mapping[str, Any]) -> None:
        self.root = root

    def _resolve(self, reference: str) -> Any:
        node: Any = self.root
        for part in reference[2:].split("/"):
            node = node[part]
        return node

    def is_valid(self, value: Any, schema: Any = None) -> bool:
        schema = self.root if schema is None else schema
        if schema is True:
            return True
        if schema is False:
            return False
        if "$ref" in schema and not self.is_valid(value, self._resolve(schema["$ref"])):
            return False
        kinds = schema.get("type")
        if kinds is not None:
            names = kinds if isinstance(kinds, list) else [kinds]
            if not any(_type_matches(value, name) for name in names):
                return False
        if "enum" in schema and not any(_equal(value, option) for option in schema["enum"]):
            return False
        if "const" in schema and not _equal(value, schema["const"]):
            return False
        if isinstance(value, dict):
            if any(name not in value for name in schema.get("required", ())):
                return False
            properties = schema.get("properties", {})
            for key, item in value.items():
                if key in properties:
                    if not self.is_valid(item, properties[key]):
                        return False
                elif "additionalProperties" in schema and not self.is_valid(item, schema["additionalProperties"]):
                    return False
        if isinstance(value, list) and "items" in schema:
            if not all(self.is_valid(item, schema["items"]) for item in value):
                return False
        if not all(self.is_valid(value, sub) for sub in schema.get("allOf", ())):
            return False
        if "if" in schema:
            branch = schema.get("then", True) if self.is_valid(value, schema["if"]) else schema.get("else", True)
            if not self.is_valid(value, branch):
                return False
        return True
