"""Validate a matter's YAML files against the shipped JSON Schemas.

The raw `jsonschema` errors are turned into `SchemaError`s an author can act on:
one per problem, classified by kind (the S-rules each report one kind), pointed at
the YAML node that is wrong, and carrying a fix hint. Two things need care:

- Position. jsonschema reports the instance path of the *object* that holds an
  unknown key or lacks a required one; an author wants the offending key itself,
  or the mapping that needs the missing key, so each kind picks its own span.
- `oneOf` noise. A gate entry is "a string or a mapping": a broken mapping fails
  both branches, and jsonschema reports both. We keep only the branch whose type
  fits the value (its errors are the real ones), or a single type error when no
  branch fits.

Each error also carries what went wrong as data (the failing keyword, the missing or
unknown key, the accepted types, the allowed values, the limit), taken from
jsonschema's error object, so that no caller ever needs to read the message.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any, Literal

from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError, best_match

from rubric_tools.diagnostics import Span
from rubric_tools.loading.matter import (
    COUNTERPARTY_FILE,
    HIDDEN_FACTS_FILE,
    MATTER_FILE,
    RUBRIC_FILE,
    MatterSource,
)
from rubric_tools.loading.yaml_source import InstancePath, YamlSource
from rubric_tools.schemas import load_schema

SchemaErrorKind = Literal["type", "required", "enum", "minimum", "unknown-key", "other"]

#: Which schema checks which matter file.
SCHEMA_FOR_FILE: dict[str, str] = {
    MATTER_FILE: "matter",
    RUBRIC_FILE: "rubric",
    HIDDEN_FACTS_FILE: "hidden_facts",
    COUNTERPARTY_FILE: "counterparty",
}

_TYPE_NAMES = {
    "object": "a mapping",
    "array": "a list",
    "string": "a string",
    "number": "a number",
    "integer": "a whole number",
    "boolean": "true or false",
    "null": "empty (null)",
}
_TYPE_EXAMPLES = {
    "object": "indent `key: value` lines under it",
    "array": "write `[a, b]` or one `- item` line per entry",
    "string": "quote the text",
    "number": "write a plain number such as 0.5 (no quotes)",
    "integer": "write a whole number such as 5 (no quotes)",
    "boolean": "write true or false (no quotes)",
    "null": "remove the value",
}


@dataclass(frozen=True)
class SchemaError:
    """One schema violation, ready to become a lint finding."""

    file_name: str  # "rubric.yaml", ...
    path: InstancePath  # instance path of the offending node (the key, for unknown keys)
    kind: SchemaErrorKind
    message: str
    hint: str | None
    span: Span
    suggestion: str | None = None  # the did-you-mean replacement (a key or an enum value)
    # What failed, as data (from jsonschema's `validator`, `validator_value` and `instance`):
    validator: str = ""  # the JSON Schema keyword: "type", "required", "additionalProperties", "enum", ...
    key: object = None  # required: the missing key; unknown-key: the key as the YAML holds it
    expected_types: tuple[str, ...] = ()  # type: the JSON types the schema accepts at `path`
    allowed_values: tuple[object, ...] = ()  # enum: the values the schema allows at `path`
    limit: float | None = None  # minimum, maximum and their exclusive forms: the bound


@cache
def _validator(schema_name: str) -> Draft202012Validator:
    """One validator per schema for the whole process: building one is not free."""
    return Draft202012Validator(load_schema(schema_name))


def validate_matter(source: MatterSource) -> list[SchemaError]:
    """Schema errors of every YAML file of the matter, in file and line order.

    Files that could not be read or parsed are skipped: the load rules report them,
    and validating "nothing" would only add a misleading type error.
    """
    errors: list[SchemaError] = []
    for file_name, schema_name in SCHEMA_FOR_FILE.items():
        yaml_source = source.files.get(file_name)
        if yaml_source is None or not yaml_source.readable:
            continue
        errors.extend(validate_yaml(yaml_source, schema_name, file_name))
    return errors


def validate_yaml(yaml_source: YamlSource, schema_name: str, file_name: str | None = None) -> list[SchemaError]:
    """Schema errors of one parsed YAML file (e.g. a probes file) against `schema_name`."""
    name = file_name or yaml_source.path.name
    found: dict[tuple[InstancePath, str, str], SchemaError] = {}
    for raw in _validator(schema_name).iter_errors(yaml_source.data):
        for leaf in _leaf_errors(raw):
            for error in _convert(leaf, yaml_source, name):
                found.setdefault((error.path, error.kind, error.message), error)
    return sorted(found.values(), key=lambda e: (e.span.line, e.span.column, e.message))


# --------------------------------------------------------------------- oneOf / anyOf


def _branch_rejects_type(errors: Sequence[ValidationError]) -> bool:
    """True when a branch failed on the value's very type (not on its contents)."""
    return any(not e.relative_path and e.validator in ("type", "const") for e in errors)


def _leaf_errors(error: ValidationError) -> Iterator[ValidationError]:
    """Replace a oneOf/anyOf error by the errors of the one branch that fits the value."""
    if error.validator not in ("oneOf", "anyOf") or not error.context:
        yield error
        return
    branches: dict[Any, list[ValidationError]] = {}
    for sub in error.context:
        branches.setdefault(sub.relative_schema_path[0], []).append(sub)
    fitting = [errors for errors in branches.values() if not _branch_rejects_type(errors)]
    if len(fitting) == 1:
        for sub in fitting[0]:
            yield from _leaf_errors(sub)
    elif not fitting:
        yield error  # the value's type fits no branch: reported as one type error
    else:
        chosen = best_match(error.context)
        if chosen is not None:
            yield from _leaf_errors(chosen)


def _branch_types(error: ValidationError) -> list[str]:
    """The types a oneOf/anyOf would have accepted, from its branches' type errors."""
    types: list[str] = []
    for sub in error.context or []:
        if not sub.relative_path and sub.validator == "type":
            for name in _as_list(sub.validator_value):
                if name not in types:
                    types.append(name)
    return types


# --------------------------------------------------------------------- conversion


def _convert(error: ValidationError, source: YamlSource, file_name: str) -> Iterator[SchemaError]:
    path: InstancePath = tuple(error.absolute_path)
    where = _dotted(path)
    value: Any = error.instance
    validator = error.validator
    # jsonschema types these as possibly unset or boolean schemas; for a leaf error of our
    # (object) schemas they are always a mapping and the keyword's value.
    schema: Mapping[str, Any] = error.schema if isinstance(error.schema, Mapping) else {}
    validator_value: Any = error.validator_value

    def at(
        kind: SchemaErrorKind,
        message: str,
        hint: str | None,
        *,
        suggestion: str | None = None,
        node: InstancePath = path,
        key: bool = False,
        key_name: object = None,
        expected_types: tuple[str, ...] = (),
        allowed_values: tuple[object, ...] = (),
        limit: float | None = None,
    ) -> SchemaError:
        span = source.span(node, key=key) or Span.point(1, 1)
        return SchemaError(
            file_name,
            node,
            kind,
            message,
            hint,
            span,
            suggestion,
            str(validator),
            key_name,
            expected_types,
            allowed_values,
            limit,
        )

    if validator == "additionalProperties" and isinstance(value, Mapping):
        allowed = [str(k) for k in schema.get("properties", {})]
        for extra in _extra_keys(value, schema):
            suggestion = did_you_mean(str(extra), allowed)
            message = f"unknown key `{extra}` in {where}"
            if suggestion:
                message += f" (did you mean `{suggestion}`?)"
                hint = f"rename it to `{suggestion}`; as written it has no effect"
            else:
                hint = f"remove it; allowed keys here: {', '.join(allowed) or 'none'}"
            yield at("unknown-key", message, hint, suggestion=suggestion, node=(*path, extra), key=True, key_name=extra)
        return

    if validator == "required" and isinstance(value, Mapping):
        for missing in validator_value:
            if missing in value:
                continue
            description = _property_description(schema, missing)
            hint = f"add `{missing}:`" + (f" ({description})" if description else "")
            yield at("required", f"{where} is missing the required key `{missing}`", hint, key=True, key_name=missing)
        return

    if validator in ("type", "oneOf", "anyOf"):
        expected = _as_list(validator_value) if validator == "type" else _branch_types(error)
        if validator != "type" and not expected:
            yield at("other", f"{where}: {error.message}", None)
            return
        wanted = " or ".join(_TYPE_NAMES.get(t, t) for t in expected)
        if not path:
            found = "empty" if value is None else _describe(value)
            yield at(
                "type",
                f"the file must hold {wanted}, but it is {found}",
                "write the file's top-level `key: value` lines (see its schema)",
                expected_types=tuple(expected),
            )
            return
        description = schema.get("description") if validator != "type" else None
        examples = [_TYPE_EXAMPLES[t] for t in expected if t in _TYPE_EXAMPLES]
        hint = description or "; or ".join(examples)
        yield at(
            "type", f"{where} must be {wanted}, not {_describe(value)}", hint or None, expected_types=tuple(expected)
        )
        return

    if validator == "enum":
        allowed_values = [str(v) for v in validator_value]
        suggestion = did_you_mean(str(value), allowed_values)
        message = f"{where} is {value!r}, which is not one of: {', '.join(allowed_values)}"
        if suggestion:
            message += f" (did you mean {suggestion!r}?)"
        yield at(
            "enum",
            message,
            f"use one of: {', '.join(allowed_values)}",
            suggestion=suggestion,
            allowed_values=tuple(validator_value),
        )
        return

    if validator in ("minimum", "exclusiveMinimum") and _is_number(value):
        limit = validator_value
        if value < 0 and _is_number(limit) and limit <= 0:
            message = f"{where} is {value}, but it must not be negative"
            yield at("minimum", message, _negative_hint(path), limit=limit)
            return
        relation = "at least" if validator == "minimum" else "more than"
        yield at("other", f"{where} must be {relation} {limit}, not {value}", None, limit=limit)
        return

    if validator in ("maximum", "exclusiveMaximum") and _is_number(value):
        relation = "at most" if validator == "maximum" else "less than"
        yield at("other", f"{where} must be {relation} {validator_value}, not {value}", None, limit=validator_value)
        return

    if validator == "minLength":
        yield at("other", f"{where} must not be empty", "write a non-empty value or remove the key")
        return

    yield at("other", f"{where}: {error.message}", None)


def _extra_keys(instance: Mapping[Any, Any], schema: Mapping[str, Any]) -> list[Any]:
    properties = schema.get("properties", {})
    patterns = list(schema.get("patternProperties", {}))
    return [key for key in instance if key not in properties and not any(re.search(p, str(key)) for p in patterns)]


def _property_description(schema: Mapping[str, Any], key: str) -> str | None:
    entry = schema.get("properties", {}).get(key)
    if isinstance(entry, Mapping):
        description = entry.get("description")
        if isinstance(description, str):
            return description.rstrip(".")
    return None


def _negative_hint(path: InstancePath) -> str:
    name = str(path[-1]) if path else ""
    if "penalty" in name:
        return "write the penalty as a positive amount: the engine subtracts it"
    return "use 0 for no points; the engine never expects a negative amount here"


# --------------------------------------------------------------------- helpers


def did_you_mean(word: str, candidates: Iterable[str]) -> str | None:
    """The candidate `word` was most likely meant to be, if any is close enough.

    Spelling mistakes are caught by difflib; a shortened or partial name such as
    `negotiation_rounds` (for `maximum_negotiation_rounds`) by containment.
    """
    options = list(candidates)
    lowered = {option.lower(): option for option in options}
    needle = word.strip().lower()
    if not needle:
        return None
    if needle in lowered:
        return lowered[needle]  # differs only in case
    close = difflib.get_close_matches(needle, list(lowered), n=1, cutoff=0.75)
    if close:
        return lowered[close[0]]
    if len(needle) >= 4:
        containing = [o for o in lowered if needle in o or o in needle]
        if len(containing) == 1:
            return lowered[containing[0]]
        suffixed = [o for o in containing if o.endswith(needle)]
        if len(suffixed) == 1:
            return lowered[suffixed[0]]
    close = difflib.get_close_matches(needle, list(lowered), n=1, cutoff=0.6)
    return lowered[close[0]] if close else None


def _dotted(path: InstancePath) -> str:
    """`issues[0].points` style, as an author would point at it."""
    if not path:
        return "the file"
    text = ""
    for part in path:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return f"`{text}`"


def _describe(value: Any) -> str:
    if value is None:
        return "empty (null)"
    if isinstance(value, bool):
        return f"the boolean {str(value).lower()}"
    if isinstance(value, int | float):
        return f"the number {value}"
    if isinstance(value, str):
        shown = value if len(value) <= 40 else value[:37] + "..."
        return f"the string {shown!r}"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, Mapping):
        return "a mapping"
    return type(value).__name__


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _as_list(value: Any) -> list[str]:
    return [str(v) for v in value] if isinstance(value, list) else [str(value)]
