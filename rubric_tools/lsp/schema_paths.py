"""Walking a JSON Schema along a YAML path: which keys a mapping may hold (with their
titles and descriptions), and which values a scalar may take (enums, booleans).

Only what completion needs: `$ref` (in the schema, or to another shipped schema),
`oneOf`/`anyOf`/`allOf` and `if`/`then` branches (every branch is a candidate),
`properties`, `patternProperties`, `additionalProperties` and `items`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

Schema = dict[str, Any]
#: Loads another shipped schema by file name (`action.schema.json`).
Loader = Callable[[str], Schema | None]

_BRANCHES = ("oneOf", "anyOf", "allOf")


@dataclass(frozen=True)
class Node:
    """A subschema, with the root it came from (for its `$ref`s)."""

    schema: Schema
    root: Schema


@dataclass(frozen=True)
class Property:
    key: str
    title: str | None
    description: str | None
    types: tuple[str, ...]


def _pointer(root: Schema, pointer: str) -> Any:
    value: Any = root
    for part in pointer.lstrip("/").split("/") if pointer.strip("/") else ():
        part = part.replace("~1", "/").replace("~0", "~")
        if not isinstance(value, dict) or part not in value:
            return None
        value = value[part]
    return value


def expand(node: Node, load: Loader) -> list[Node]:
    """The node and every subschema it stands for through references and branches."""
    found: list[Node] = []
    pending = [node]
    seen: set[int] = set()
    while pending and len(found) < 200:
        current = pending.pop(0)
        if id(current.schema) in seen:
            continue
        seen.add(id(current.schema))
        found.append(current)
        ref = current.schema.get("$ref")
        if isinstance(ref, str):
            document, _, pointer = ref.partition("#")
            root = load(document) if document else current.root
            target = _pointer(root, pointer) if root is not None else None
            if isinstance(target, dict) and root is not None:
                pending.append(Node(target, root))
        for key in _BRANCHES:
            for branch in current.schema.get(key, ()) if isinstance(current.schema.get(key), list) else ():
                if isinstance(branch, dict):
                    pending.append(Node(branch, current.root))
        for key in ("then", "else"):
            if isinstance(current.schema.get(key), dict):
                pending.append(Node(current.schema[key], current.root))
    return found


def _child(node: Node, part: str | int) -> list[Node]:
    schema = node.schema
    if isinstance(part, int):
        items = schema.get("items")
        return [Node(items, node.root)] if isinstance(items, dict) else []
    properties = schema.get("properties")
    if isinstance(properties, dict) and isinstance(properties.get(part), dict):
        return [Node(properties[part], node.root)]
    patterns = schema.get("patternProperties")
    for pattern, value in patterns.items() if isinstance(patterns, dict) else ():
        if isinstance(value, dict) and re.search(pattern, part):
            return [Node(value, node.root)]
    additional = schema.get("additionalProperties")
    return [Node(additional, node.root)] if isinstance(additional, dict) else []


def at(root: Schema, path: Sequence[str | int], load: Loader) -> list[Node]:
    """Every subschema that describes the node at `path` (ints: any list item)."""
    nodes = expand(Node(root, root), load)
    for part in path:
        nodes = [found for node in nodes for child in _child(node, part) for found in expand(child, load)]
    return nodes


def properties(nodes: Sequence[Node], load: Loader) -> list[Property]:
    """The keys a mapping described by `nodes` may hold, in schema order."""
    found: dict[str, Property] = {}
    for node in nodes:
        listed = node.schema.get("properties")
        for key, value in listed.items() if isinstance(listed, dict) else ():
            if key in found or not isinstance(value, dict):
                continue
            described = expand(Node(value, node.root), load)
            title = next((n.schema["title"] for n in described if isinstance(n.schema.get("title"), str)), None)
            description = next(
                (n.schema["description"] for n in described if isinstance(n.schema.get("description"), str)), None
            )
            found[key] = Property(key, title, description, _types(described))
    return list(found.values())


def _types(nodes: Sequence[Node]) -> tuple[str, ...]:
    types: list[str] = []
    for node in nodes:
        declared = node.schema.get("type")
        for name in declared if isinstance(declared, list) else [declared]:
            if isinstance(name, str) and name not in types:
                types.append(name)
    return tuple(types)


def values(nodes: Sequence[Node]) -> list[tuple[object, str | None]]:
    """The values a scalar described by `nodes` may take, when the schema lists them:
    (value, description)."""
    found: list[tuple[object, str | None]] = []
    for node in nodes:
        description = node.schema.get("description") if isinstance(node.schema.get("description"), str) else None
        for value in node.schema.get("enum", ()) if isinstance(node.schema.get("enum"), list) else ():
            if value not in [v for v, _ in found]:
                found.append((value, description))
        if "const" in node.schema and node.schema["const"] not in [v for v, _ in found]:
            found.append((node.schema["const"], description))
    if not found and "boolean" in _types(nodes):
        found = [(True, None), (False, None)]
    return found


def item_type(nodes: Sequence[Node]) -> str | None:
    """ "object" when the nodes describe mappings, "scalar" for anything else, None when unknown."""
    types = _types(nodes)
    if not types:
        return "object" if any("properties" in node.schema for node in nodes) else None
    return "object" if "object" in types else "scalar"
