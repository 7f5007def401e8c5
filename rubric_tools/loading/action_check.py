"""Validate every action of a trajectory against `schemas/action.schema.json`.

The engine never rejects an action: an unknown type is penalized, a misspelt field is
scored as absent. So a typo in a hand-written trajectory is silently scored as the
agent's mistake. These diagnostics (T101-T104) name the typo at file:line:column with
a did-you-mean; `rubric replay` shows them as warnings and still scores the action as
the engine would, `rubric check` fails the trajectory unless it is declared malformed.
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Hashable, Iterator, Mapping, Sequence
from functools import cache, lru_cache
from typing import TYPE_CHECKING, Any, NamedTuple

if TYPE_CHECKING:  # jsonschema is imported only for a schema outside the subset we check ourselves
    from jsonschema import Draft202012Validator

from rubric_tools.authoring_codes import (
    MISSING_ACTION_FIELD,
    UNKNOWN_ACTION_FIELD,
    UNKNOWN_ACTION_TYPE,
    WRONG_FIELD_VALUE,
)
from rubric_tools.catalogue import CodeDoc
from rubric_tools.diagnostics import Diagnostic
from rubric_tools.loading.action_shapes import ActionShapes, action_shapes
from rubric_tools.loading.schema_subset import SubsetChecker, supports
from rubric_tools.loading.subset_errors import SubsetError, SubsetErrors
from rubric_tools.loading.trajectory import FieldPath, Trajectory
from rubric_tools.schemas import load_schema

SCHEMA_CODES = tuple(
    declared.code for declared in (UNKNOWN_ACTION_TYPE, UNKNOWN_ACTION_FIELD, MISSING_ACTION_FIELD, WRONG_FIELD_VALUE)
)


@cache
def _validator(action_type: str | None = None) -> Draft202012Validator:
    """The whole action schema, or (much faster: one branch instead of every `if`) the
    branch of one known action type."""
    from jsonschema import Draft202012Validator

    schema = load_schema("action")
    if action_type is None:
        return Draft202012Validator(schema)
    return Draft202012Validator({"$defs": schema["$defs"], "$ref": f"#/$defs/{action_type}"})


def _value_keys(node: Any, found: set[str]) -> set[str]:
    """Property names whose schema constrains the value itself (enum/const), not only its
    JSON type: for every other property, validity depends on the type alone."""
    if isinstance(node, Mapping):
        properties = node.get("properties")
        if isinstance(properties, Mapping):
            definitions = load_schema("action").get("$defs", {})
            for name, sub in properties.items():
                target = sub
                if isinstance(sub, Mapping) and isinstance(sub.get("$ref"), str):
                    target = definitions.get(sub["$ref"].rsplit("/", 1)[-1], sub)
                if isinstance(target, Mapping) and ("enum" in target or "const" in target):
                    found.add(str(name))
        for value in node.values():
            _value_keys(value, found)
    elif isinstance(node, list):
        for value in node:
            _value_keys(value, found)
    return found


@cache
def _value_sensitive_keys() -> frozenset[str]:
    return frozenset(_value_keys(load_schema("action"), set()))


Shape = Hashable


@cache
def action_types() -> tuple[str, ...]:
    return tuple(load_schema("action")["properties"]["type"]["enum"])


#: Did-you-means with a word and choices up to these sizes are remembered (an lru_cache of
#: 1024): a cache of agents' keys must stay small whatever they send.
REMEMBERED_WORD_LENGTH = 200
REMEMBERED_CHOICES = 64


def _closest(word: str, choices: Sequence[str]) -> str | None:
    """A did-you-mean: close spelling, or one differing only by case or a plural `s`."""
    # Remembered: difflib's search was a quarter of validating a corpus whose agents repeat
    # the same misspelling.
    if len(word) <= REMEMBERED_WORD_LENGTH and len(choices) <= REMEMBERED_CHOICES:
        return _remembered_closest(word, tuple(choices))
    return _closest_of(word, choices)


@lru_cache(maxsize=1024)
def _remembered_closest(word: str, choices: tuple[str, ...]) -> str | None:
    return _closest_of(word, choices)


def _closest_of(word: str, choices: Sequence[str]) -> str | None:
    folded = {choice.lower(): choice for choice in choices}
    if word.lower() in folded:
        return folded[word.lower()]
    for choice in choices:
        if choice.rstrip("s") == word.rstrip("s"):
            return choice
    found = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.6)
    return found[0] if found else None


#: One encoder for every message (`json.dumps` with an option builds a new one per call).
_TEXT_ENCODER = json.JSONEncoder(ensure_ascii=False)


def _shown(value: Any) -> str:
    return _TEXT_ENCODER.encode(value) if isinstance(value, str) else repr(value)


def _json_type(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int | float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    return "object" if isinstance(value, dict) else type(value).__name__


def _diagnostic(
    trajectory: Trajectory,
    index: int,
    declared: CodeDoc,
    message: str,
    path: FieldPath,
    hint: str,
    *,
    key: bool = False,
) -> Diagnostic:
    return Diagnostic.of(
        declared,
        f"step {index + 1}: {message}",
        trajectory.path,
        trajectory.span_of(index, path, key=key),
        fix_hint=hint,
    )


class _Explained(NamedTuple):
    """What a diagnostic needs of one jsonschema error besides the value at `path`: all of it
    follows from the action's shape, so it is remembered per shape."""

    validator: str
    path: FieldPath
    validator_value: Any
    properties: tuple[str, ...]  # the field names the failing (sub)schema defines


def _explained(error: SubsetError) -> _Explained:
    schema = error.schema
    properties = schema.get("properties", {}) if isinstance(schema, Mapping) else {}
    return _Explained(error.validator, error.path, error.validator_value, tuple(str(name) for name in properties))


def _schema_errors(action: Any, action_type: str | None) -> list[SubsetError]:
    """Every schema error of an action, in jsonschema's order: from our own walk of the schema
    when it stays within the subset (no jsonschema import), else from jsonschema."""
    schema = load_schema("action")
    root = schema if action_type is None else schema["$defs"][action_type]
    if _fast_checker() is not None:
        return list(_error_walker().iter_errors(action, root))
    return [
        SubsetError(str(e.validator), tuple(e.absolute_path), e.validator_value, e.schema, e.instance)
        for e in _validator(action_type).iter_errors(action)
    ]


@cache
def _error_walker() -> SubsetErrors:
    return SubsetErrors(load_schema("action"))


def _listed(value: object) -> list[str]:
    return [str(item) for item in value] if isinstance(value, list | tuple) else [str(value)]


def _convert(trajectory: Trajectory, index: int, error: _Explained, value: Any) -> Iterator[Diagnostic]:
    """The diagnostics of one error; `value` is the action's value at the error's path."""
    path = error.path
    where = ".".join(str(p) for p in path)
    if error.validator == "enum" and path == ("type",):
        guess = _closest(str(value), action_types())
        hint = f"did you mean {guess!r}?" if guess else "types: " + ", ".join(action_types())
        yield _diagnostic(
            trajectory,
            index,
            UNKNOWN_ACTION_TYPE,
            f"unknown action type {_shown(value)}; the engine penalizes it as invalid",
            path,
            hint,
        )
    elif error.validator == "additionalProperties" and isinstance(value, dict):
        allowed = list(error.properties)
        for extra in sorted((k for k in value if k not in allowed), key=str):
            guess = _closest(str(extra), allowed)
            hint = f"did you mean {guess!r}?" if guess else "fields: " + ", ".join(allowed)
            yield _diagnostic(
                trajectory,
                index,
                UNKNOWN_ACTION_FIELD,
                f"unknown field {_shown(str(extra))}" + (f" in {where}" if where else "") + "; the engine ignores it",
                (*path, extra),
                hint,
                key=True,
            )
    elif error.validator == "required" and isinstance(value, dict):
        defined = set(error.properties)
        unknown = [str(k) for k in value if k not in defined]
        for missing in _listed(error.validator_value):
            if missing in value:
                continue
            near = _closest(missing, unknown)
            if near is not None and defined:
                continue  # the misspelt key's T102 already says "did you mean"
            hint = f"add `{missing}`"
            yield _diagnostic(
                trajectory,
                index,
                MISSING_ACTION_FIELD,
                f"missing field {_shown(missing)}"
                + (f" in {where}" if where else "")
                + "; the engine scores it as absent",
                path,
                hint,
            )
    elif error.validator in ("type", "enum"):
        if error.validator == "enum":
            choices = _listed(error.validator_value)
            guess = _closest(str(value), choices)
            expected = "one of " + ", ".join(choices)
            hint = f"did you mean {guess!r}?" if guess else expected
        else:
            expected = " or ".join(_listed(error.validator_value))
            hint = f"write a {expected}"
        yield _diagnostic(
            trajectory,
            index,
            WRONG_FIELD_VALUE,
            f"{where or 'action'} is {_shown(value)} ({_json_type(value)}), expected {expected}",
            path,
            hint,
        )


@cache
def _fast_checker() -> SubsetChecker | None:
    """The subset checker, when the action schema stays within its keywords."""
    schema = load_schema("action")
    return SubsetChecker(schema) if supports(schema) else None


@cache
def _shapes() -> ActionShapes | None:
    """The table of valid actions by type, when the action schema has that form."""
    return action_shapes(load_schema("action"))


def _is_valid(action: Any, action_type: str | None) -> bool:
    shapes = _shapes()
    if shapes is not None:
        return shapes.is_valid(action)
    fast = _fast_checker()
    return fast.is_valid(action) if fast is not None else bool(_validator(action_type).is_valid(action))


def _ordered_shape(value: Any, key: str | None = None) -> Shape:
    """What jsonschema's errors for the action depend on: keys and their order, JSON types,
    list items in order (error paths hold their indices), and the values of enum/const
    properties. Other values appear in messages only, read from the action itself."""
    if isinstance(value, str):  # most values
        return ("str", value) if key in _value_sensitive_keys() else "str"
    if isinstance(value, dict):
        return ("object", tuple(((type(k).__name__, str(k)), _ordered_shape(v, str(k))) for k, v in value.items()))
    if isinstance(value, list):
        return ("array", tuple(_ordered_shape(item) for item in value))
    return type(value).__name__


_EXPLANATIONS: dict[tuple[Shape, str | None], tuple[_Explained, ...]] = {}
MAX_EXPLANATIONS = 4096


def _value_at(action: Any, path: FieldPath) -> Any:
    value = action
    for part in path:
        value = value[part]
    return value


def _explain(action: dict[str, Any], action_type: str | None) -> list[tuple[_Explained, Any]]:
    """jsonschema's errors for an invalid action, in path order, each with the action's value at
    its path. Remembered per ordered shape (agents repeat their mistakes): a remembered
    explanation reads only the values at its paths from this action."""
    key = (_ordered_shape(action), action_type)
    known = _EXPLANATIONS.get(key)
    if known is not None:
        try:
            return [(error, _value_at(action, error.path)) for error in known]
        except (KeyError, IndexError, TypeError):  # a key equal in shape but not in value: ask again
            pass
    errors = sorted(_schema_errors(action, action_type), key=lambda e: [str(p) for p in e.path])
    explained = tuple(_explained(error) for error in errors)
    if len(_EXPLANATIONS) >= MAX_EXPLANATIONS:
        _EXPLANATIONS.clear()
    _EXPLANATIONS[key] = explained
    return [(error, found.instance) for error, found in zip(explained, errors, strict=True)]


def validate_actions(trajectory: Trajectory) -> list[Diagnostic]:
    """Schema diagnostics (warnings) for every action of a parsed trajectory."""
    found: list[Diagnostic] = []
    types = action_types()
    shapes = _shapes()
    for index, action in enumerate(trajectory.actions):
        # Nine actions in ten are valid: the table of valid actions says so in one call.
        if shapes is not None and shapes.is_valid(action):
            continue
        kind = action.get("type")
        known = kind if isinstance(kind, str) and kind in types else None
        if shapes is None and _is_valid(action, known):
            continue
        seen: set[tuple[str, str]] = set()
        for error, value in _explain(action, known):
            for diagnostic in _convert(trajectory, index, error, value):
                marker = (diagnostic.code, diagnostic.message)
                if marker not in seen:
                    seen.add(marker)
                    found.append(diagnostic)
    return found
