"""Cheap argument conversion for the command line.

Recent typer releases convert every parameter through a pydantic `TypeAdapter`: importing
pydantic and building the adapters costs about 0.1 s per command, half of a warm
`rubric lint`. Our parameters are plain (text, numbers, flags, choices, paths, lists of
them), so we convert those directly, with typer's own choice and path helpers (same
checks, same messages), and leave anything else to typer. With a typer that lacks these
internals (older releases convert through click), nothing is changed.
"""

from __future__ import annotations

import os
import types
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import Any, Union, get_args, get_origin

Converter = Callable[[Any, Any, Any], Any]  # (value, param, ctx) -> converted value


def _optional_inner(annotation: Any) -> Any:
    """`X | None` -> X; anything else unchanged."""
    if get_origin(annotation) in (Union, types.UnionType):
        members = [arg for arg in get_args(annotation) if arg is not type(None)]
        if len(members) == 1:
            return members[0]
    return annotation


def _number(kind: type[Any], low: float | None, high: float | None, bad_parameter: Any) -> Converter:
    name = "integer" if kind is int else "number"

    def convert(value: Any, param: Any, ctx: Any) -> Any:
        try:
            number = kind(value)
        except (TypeError, ValueError):
            raise bad_parameter(f"{value!r} is not a valid {name}.", ctx=ctx, param=param) from None
        if (low is not None and number < low) or (high is not None and number > high):
            bounds = f"{'' if low is None else f'>= {low:g}'}{' and ' if low is not None and high is not None else ''}"
            bounds += "" if high is None else f"<= {high:g}"
            raise bad_parameter(f"{value!r} is not {bounds}.", ctx=ctx, param=param)
        return number

    return convert


_TRUE, _FALSE = frozenset({"1", "true", "t", "yes", "y", "on"}), frozenset({"0", "false", "f", "no", "n", "off", ""})


def _flag(bad_parameter: Any) -> Converter:
    def convert(value: Any, param: Any, ctx: Any) -> Any:
        if isinstance(value, bool):
            return value
        word = str(value).strip().lower()
        if word in _TRUE or word in _FALSE:
            return word in _TRUE
        raise bad_parameter(f"{value!r} is not a valid boolean.", ctx=ctx, param=param)

    return convert


def _is_subclass(candidate: Any, base: type[Any]) -> bool:
    return isinstance(candidate, type) and issubclass(candidate, base)


def _choice(choices: list[Enum], case_sensitive: bool, typers_own: Converter) -> Converter:
    """An enum member from its value (or its name), as typer matches choices; anything
    else goes to typer's own conversion, which rejects it with typer's message."""
    fold: Callable[[str], str] = (lambda text: text) if case_sensitive else str.casefold
    by_text = {fold(str(member.value)): member for member in choices}
    by_text.update({fold(member.name): member for member in choices if fold(member.name) not in by_text})

    def choose(value: Any, param: Any, ctx: Any) -> Any:
        if isinstance(value, Enum) and value in choices:
            return value
        member = by_text.get(fold(str(value)))
        return member if member is not None else typers_own(value, param, ctx)

    return choose


def _leaf_converter(annotation: Any, info: Any, typers_own: Converter) -> Converter | None:
    """A converter for one plain value, or None to leave the parameter to typer.
    `typers_own` is typer's own conversion of the parameter (built only when called): the
    rare cases (a bad choice, a path to check) are handed to it, with typer's messages."""
    from typer import BadParameter

    if getattr(info, "parser", None) is not None or getattr(info, "clamp", False):
        return None
    if annotation is str:
        return lambda value, param, ctx: value if isinstance(value, str) else str(value)
    if annotation in (int, float):
        return _number(annotation, info.min, info.max, BadParameter)
    if _is_subclass(annotation, Enum):
        return _choice(list(annotation), info.case_sensitive, typers_own)
    if annotation is bool:
        return _flag(BadParameter)
    if _is_subclass(annotation, Path):
        return _path_converter(annotation, info, typers_own)
    return None


def _path_converter(path_type: type[Path], info: Any, typers_own: Converter) -> Converter:
    """Paths as typer converts them, cheaper for long lists (`rubric lint FILE...` from a
    pre-commit hook). Typer stats the path and checks what the parameter asks for (by
    default: readable if it exists); for a parameter that asks nothing else, a path
    `os.access` finds readable passes all of it, so one system call settles the common
    case and typer's own conversion (its checks and messages) decides the rest."""
    only_readable = (
        info.file_okay and info.dir_okay and not (info.exists or info.writable or info.resolve_path or info.allow_dash)
    )

    def convert(value: Any, param: Any, ctx: Any) -> Any:
        if only_readable and os.access(value, os.R_OK):  # the text as given: no str(path) to build
            return value if isinstance(value, path_type) else path_type(value)
        return typers_own(value, param, ctx)

    return convert


def _converter(annotation: Any, info: Any, typers_own: Converter) -> Converter | None:
    annotation = _optional_inner(annotation)
    if get_origin(annotation) is list:
        (item_type,) = get_args(annotation) or (None,)
        convert_item = _leaf_converter(item_type, info, lambda value, param, ctx: typers_own([value], param, ctx)[0])
        if convert_item is None:
            return None

        def convert_list(value: Any, param: Any, ctx: Any) -> list[Any]:
            items = value if isinstance(value, list | tuple) else [value]
            return [convert_item(item, param, ctx) for item in items]

        return convert_list
    return _leaf_converter(annotation, info, typers_own)


def install() -> None:
    """Route plain parameters of every typer command around pydantic (idempotent).

    typer's public module `typer.core` builds each parameter's conversion with its
    `build_runtime_param(descriptor)`, a frozen dataclass whose `_coerce_value` converts;
    ours subclasses the class typer's own function returns (no private module is
    imported). With a typer that does not work this way, nothing is changed."""
    from typer import core

    original: Any = getattr(core, "build_runtime_param", None)
    base = getattr(core, "RuntimeParam", None)
    if original is None or not _is_subclass(base, object) or getattr(original, "plain_parameters_installed", False):
        return

    @dataclass(frozen=True)
    class PlainRuntimeParam(base):  # type: ignore[misc,valid-type]
        convert: Converter

        def _coerce_value(self, value: Any, param: Any, ctx: Any) -> Any:
            return self.convert(value, param, ctx)

    def build_runtime_param(descriptor: Any) -> Any:
        if getattr(descriptor, "file_annotation", None) is None:
            built: list[Any] = []

            def typers_own(value: Any, param: Any, ctx: Any) -> Any:
                if not built:
                    built.append(original(descriptor))
                return built[0]._coerce_value(value, param, ctx)

            convert = _converter(descriptor.annotation, descriptor.parameter_info, typers_own)
            if convert is not None:
                return PlainRuntimeParam(
                    annotation=descriptor.annotation, parameter_info=descriptor.parameter_info, convert=convert
                )
        return original(descriptor)

    build_runtime_param.plain_parameters_installed = True  # type: ignore[attr-defined]
    setattr(core, "build_runtime_param", build_runtime_param)  # noqa: B010  core's own global, on purpose
