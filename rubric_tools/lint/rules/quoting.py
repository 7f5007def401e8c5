"""YAML quoting rules (X11x): what YAML did to the text before the engine saw it."""

from __future__ import annotations

from collections.abc import Iterator

from rubric_tools.diagnostics import Severity
from rubric_tools.fixing.fixes import Applicability, Fix
from rubric_tools.fixing.yaml_edits import node_text, replace_value
from rubric_tools.lint.context import Finding, LintContext
from rubric_tools.lint.gate_fields import describe, regex_fields
from rubric_tools.lint.registry import rule

#: What a double-quoted YAML escape became, and the regex escape the author meant.
_INTENDED = {
    "\x00": "\\x00",
    "\x07": "\\a",
    "\x08": "\\b",
    "\t": "\\t",
    "\n": "\\n",
    "\x0b": "\\v",
    "\x0c": "\\f",
    "\r": "\\r",
    "\x1b": "\\x1b",
}


def _control_characters(text: str) -> list[str]:
    return sorted({c for c in text if ord(c) < 0x20 or ord(c) == 0x7F})


def _intended(text: str) -> str:
    return "".join(_INTENDED.get(c, f"\\x{ord(c):02x}") if c in _control_characters(text) else c for c in text)


@rule("X110", "gate-escape-became-control-character", Severity.ERROR, fixable=True)
def gate_escape_became_control_character(ctx: LintContext) -> Iterator[Finding]:
    """A double-quoted gate regex whose backslash escapes YAML turned into control characters.

    What it catches: a gate `pattern`, `require_context` or `exclude_context` written in
    double quotes with an escape such as `\\b`, `\\f` or `\\v`, which YAML reads as a
    backspace, form feed or vertical tab before the regex engine ever sees it.

    Why it matters: `"\\bdeemed\\b"` reaches the engine as `<BS>deemed<BS>`, a regex
    that needs backspace characters the agent never writes, not word boundaries: the
    gate can never fire (or never excludes). Single quotes keep the backslash, so the
    regex gets the escape the author meant. The fix rewrites the value single-quoted
    with each control character turned back into its escape.

    Bad:

    ```yaml
    critical_failure_patterns:
      - "\\bwaive all claims\\b"
    ```

    Good:

    ```yaml
    critical_failure_patterns:
      - '\\bwaive all claims\\b'
    ```
    """
    for gate in ctx.model.gates():
        for field in regex_fields(gate):
            controls = _control_characters(field.text)
            source = field.location.source
            position = source.positions.get(field.path) if source is not None else None
            written = node_text(source, position.value) if source is not None and position is not None else None
            if source is None or not controls or written is None or not written.startswith('"') or "\\" not in written:
                continue
            shown = ", ".join(repr(c) for c in controls)
            intended = _intended(field.text)
            quoted = "'" + intended.replace("'", "''") + "'"
            edit = replace_value(source, field.path, quoted, intended)
            fix = Fix("write it single-quoted, keeping the escapes", (edit,), Applicability.SAFE) if edit else None
            yield ctx.report(
                field.location,
                f"`{field.key}` of {describe(gate)} is double-quoted, so YAML turned its escapes into "
                f"control characters ({shown}): the regex looks for them, not for what the escapes mean",
                hint=f"write it single-quoted: {quoted}",
                fix=fix,
            )
