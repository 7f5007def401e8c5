"""A fast yes/no JSON Schema check for the keyword subset the action schema uses.

`rubric replay` validates every action. jsonschema is exact and explains every error,
but importing it and walking eleven `if` branches per action costs more than scoring
the action. This checker answers only "valid?" for the subset `type`, `enum`, `const`,
`required`, `properties`, `additionalProperties`, `items`, local `$ref`, `allOf` and
`if`/`then`/`else` (annotations such as `title` are ignored), compiled once into
predicates (an `allOf` of `if`/`then` branches keyed by one property's constant, as the
action schema's per-type branches are, becomes a dict look-up); jsonschema is imported
only to explain an invalid action. A schema using any other keyword is refused
(`supports` is False) and callers use jsonschema for everything.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
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


def type_matches(value: Any, name: str) -> bool:
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


def equal_json(a: Any, b: Any) -> bool:
    """JSON equality: true is not 1."""
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    return bool(a == b)


Check = Callable[[Any], bool]


def _always(value: Any) -> bool:
    return True


def _never(value: Any) -> bool:
    return False


def _type_check(names: list[Any]) -> Check:
    if names == ["object"]:
        return lambda value: isinstance(value, dict)
    if names == ["string"]:
        return lambda value: isinstance(value, str)
    if names == ["array"]:
        return lambda value: isinstance(value, list)
    return lambda value: any(type_matches(value, str(name)) for name in names)


#: JSON types that are exactly an isinstance check of the parsed value.
_PLAIN_TYPES: dict[str, type] = {"string": str, "array": list, "object": dict, "null": type(None)}


def _options_check(options: list[Any]) -> Check:
    if options and all(type(option) is str for option in options):
        # JSON equality with text is string equality: a set look-up, for a string only.
        texts = frozenset(options)
        return lambda value: isinstance(value, str) and value in texts
    return lambda value: any(equal_json(value, option) for option in options)


def _discriminator(items: list[Any]) -> tuple[str, dict[str, list[Any]]] | None:
    """For `allOf: [{if: {properties: {K: {const: C}}, required: [K]}, then: S}, ...]` (one key K,
    text constants, no `else`): K and the `then` schemas by constant. Otherwise None."""
    key: str | None = None
    table: dict[str, list[Any]] = {}
    for item in items:
        if not isinstance(item, Mapping) or set(item) != {"if", "then"}:
            return None
        condition = item["if"]
        if not isinstance(condition, Mapping) or set(condition) != {"properties", "required"}:
            return None
        properties, required = condition["properties"], condition["required"]
        if not isinstance(properties, Mapping) or len(properties) != 1:
            return None
        ((name, sub),) = properties.items()
        if required != [name] or not isinstance(sub, Mapping) or set(sub) != {"const"}:
            return None
        if type(sub["const"]) is not str or key not in (None, name):
            return None
        key = name
        table.setdefault(sub["const"], []).append(item["then"])
    return (key, table) if key is not None else None


def _every(checks: list[Check]) -> Check:
    """All of `checks` (a plain loop: all() over a generator cost more than the checks)."""
    if not checks:
        return _always
    if len(checks) == 1:
        return checks[0]
    if len(checks) == 2:
        first, second = checks
        return lambda value: first(value) and second(value)

    def check(value: Any) -> bool:
        for each in checks:
            if not each(value):
                return False
        return True

    return check


def _items_check(item_check: Check) -> Check:
    def check(value: Any) -> bool:
        if isinstance(value, list):
            for item in value:
                if not item_check(item):
                    return False
        return True

    return check


def _declared_properties_check(
    required: tuple[Any, ...], typed: dict[Any, tuple[type, ...]], properties: dict[Any, Check], objects_only: bool
) -> Check:
    """An object check without `additionalProperties`: only the declared properties are
    looked at, however many other keys the value has."""

    def check(value: Any) -> bool:
        if not isinstance(value, dict):
            return not objects_only
        for name in required:
            if name not in value:
                return False
        for name, python_types in typed.items():
            if name in value and not isinstance(value[name], python_types):
                return False
        for name, known in properties.items():
            if name in value and not known(value[name]):
                return False
        return True

    return check


class SubsetChecker:
    """The schema compiled once into nested predicates: checking an action is then a few
    dict look-ups and isinstance checks per field, with no walk of the schema."""

    def __init__(self, root: Mapping[str, Any]) -> None:
        self.root = root
        self._references: dict[str, Check] = {}
        self._check = self._compile(root)

    def is_valid(self, value: Any) -> bool:
        return self._check(value)

    def _resolve(self, reference: str) -> Any:
        node: Any = self.root
        for part in reference[2:].split("/"):
            node = node[part]
        return node

    def _reference(self, reference: str) -> Check:
        check = self._references.get(reference)
        if check is None:
            compiled: list[Check] = []  # filled below; a recursive reference calls through it
            self._references[reference] = lambda value: compiled[0](value)
            compiled.append(self._compile(self._resolve(reference)))
            check = self._references[reference] = compiled[0]
        return check

    def _compile(self, schema: Any) -> Check:
        if schema is True:
            return _always
        if schema is False:
            return _never
        checks: list[Check] = []
        if "$ref" in schema:
            checks.append(self._reference(schema["$ref"]))
        kinds = schema.get("type")
        objects_only = kinds == "object" or kinds == ["object"]
        if kinds is not None and not objects_only:
            checks.append(_type_check(kinds if isinstance(kinds, list) else [kinds]))
        if "enum" in schema:
            checks.append(_options_check(list(schema["enum"])))
        if "const" in schema:
            checks.append(_options_check([schema["const"]]))
        if objects_only or "required" in schema or "properties" in schema or "additionalProperties" in schema:
            checks.append(self._object_check(schema, objects_only))
        if "items" in schema:
            checks.append(_items_check(self._compile(schema["items"])))
        if "allOf" in schema:
            checks.append(self._all_of(list(schema["allOf"])))
        if "if" in schema:
            condition = self._compile(schema["if"])
            then, otherwise = self._compile(schema.get("then", True)), self._compile(schema.get("else", True))
            checks.append(lambda value: then(value) if condition(value) else otherwise(value))
        return _every(checks)

    def _object_check(self, schema: Mapping[str, Any], objects_only: bool) -> Check:
        """`required`, `properties` and `additionalProperties` (and `type: object` when
        `objects_only`) in one function: the check every action goes through."""
        required = tuple(schema.get("required", ()))
        # A property whose schema is only a JSON type (most are: text) is an isinstance check
        # here, without a call; the others are compiled predicates.
        typed: dict[Any, tuple[type, ...]] = {}
        properties: dict[Any, Check] = {}
        for name, sub in schema.get("properties", {}).items():
            python_types = self._python_types(sub)
            if python_types is not None:
                typed[name] = python_types
            else:
                properties[name] = self._compile(sub)
        additional = self._compile(schema["additionalProperties"]) if "additionalProperties" in schema else None
        if additional is None:
            return _declared_properties_check(required, typed, properties, objects_only)

        def check(value: Any) -> bool:
            if not isinstance(value, dict):
                return not objects_only  # object keywords say nothing about other values
            for name in required:
                if name not in value:
                    return False
            for key, item in value.items():
                python_types = typed.get(key)
                if python_types is not None:
                    if not isinstance(item, python_types):
                        return False
                    continue
                known = properties.get(key)
                if known is not None:
                    if not known(item):
                        return False
                elif additional is not None and not additional(item):
                    return False
            return True

        return check

    def _python_types(self, schema: Any) -> tuple[type, ...] | None:
        """The Python types of a schema that says only `type: string|array|object|null` (one or
        several, through local `$ref`s and annotations); None for any other schema."""
        followed: set[str] = set()
        while isinstance(schema, Mapping) and set(schema) - ANNOTATIONS == {"$ref"}:
            if schema["$ref"] in followed:
                return None  # a reference cycle: the compiled predicate says what it means
            followed.add(schema["$ref"])
            schema = self._resolve(schema["$ref"])
        if not isinstance(schema, Mapping) or set(schema) - ANNOTATIONS != {"type"}:
            return None
        kinds = schema["type"]
        names = kinds if isinstance(kinds, list) else [kinds]
        if not names or not all(name in _PLAIN_TYPES for name in names):
            return None  # boolean, integer and number need more than isinstance (true is not 1)
        return tuple(_PLAIN_TYPES[name] for name in names)

    def _all_of(self, items: list[Any]) -> Check:
        discriminated = _discriminator(items)
        every = [self._compile(item) for item in items]
        if discriminated is None:
            return lambda value: all(check(value) for check in every)
        key, table = discriminated
        branches = {constant: _every([self._compile(then) for then in thens]) for constant, thens in table.items()}

        def check(value: Any) -> bool:
            if not isinstance(value, dict):
                return all(item(value) for item in every)  # every `if` holds for a non-object
            constant = value.get(key)
            # Only the branch whose constant the value equals applies (JSON equality: text only).
            chosen = branches.get(constant) if isinstance(constant, str) else None
            return chosen is None or chosen(value)

        return check
