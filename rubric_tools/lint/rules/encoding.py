"""Text encoding (S009): strings that cannot be written out as UTF-8."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from rubric_tools.diagnostics import Severity
from rubric_tools.lint.context import Finding, LintContext
from rubric_tools.lint.registry import rule
from rubric_tools.loading.yaml_source import InstancePath
from rubric_tools.scoring.text import has_unencodable


def _strings(value: Any, path: InstancePath) -> Iterator[tuple[InstancePath, str, bool]]:
    """Every string in a YAML tree with its path, and whether it is a mapping key."""
    if isinstance(value, str):
        yield path, value, False
    elif isinstance(value, Mapping):
        for key, item in value.items():
            if isinstance(key, str):
                yield (*path, key), key, True
            yield from _strings(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _strings(item, (*path, index))


@rule("S009", "unencodable-text", Severity.WARNING)
def unencodable_text(ctx: LintContext) -> Iterator[Finding]:
    """A YAML string holds a lone surrogate (`"\\ud800"`), which no UTF-8 output can carry.

    What it catches: a double-quoted YAML string with a `\\uD800`-`\\uDFFF` escape,
    in a key or a value of any matter file. (YAML reads even a pair of them as two
    lone surrogates: write `\\U0001F600`, or the character itself.)

    Why it matters: the reference engine scores the text as it is, but the character
    cannot be printed, written to JSON or shown in CI: every rubric-tools output
    replaces it with U+FFFD, so what you read is not what is scored. It is almost
    always a mangled emoji or a copy-paste accident.

    Bad:

    ```yaml
    required_concepts: ["liability cap \\ud800"]
    ```

    Good:

    ```yaml
    required_concepts: ["liability cap"]
    ```
    """
    # How a string is written (its escapes), not what it means: the YAML tree itself is read.
    for file_name, source in ctx.yaml_files():
        for path, text, is_key in _strings(source.data, ()):
            if has_unencodable(text):
                yield ctx.at(
                    file_name,
                    path,
                    "this string holds a lone surrogate (an unpaired \\ud800-\\udfff escape); "
                    "outputs show it as U+FFFD",
                    key=is_key,
                    hint="delete the escape, or write the intended character itself",
                )
