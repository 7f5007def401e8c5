"""`rubric explain` pages: a lint rule's or another diagnostic code's documentation.

Imports rich and nothing of the lint engine: a page is rendered from facts alone (a
`code_registry.CodeEntry`, a registered `Rule` or a catalogue `CodeDoc`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from rubric_tools.diagnostics import CodeStatus, DeclaredCode, Severity
from rubric_tools.reporting.console import SEVERITY_STYLE, console_text, string_console


class CodeFacts(DeclaredCode, Protocol):
    """What any code's page shows: a `CodeEntry`, a registered `Rule` and a `CodeDoc` have it."""

    @property
    def family(self) -> str: ...
    @property
    def doc(self) -> str: ...
    @property
    def status(self) -> CodeStatus: ...


class RuleFacts(CodeFacts, Protocol):
    """What a rule's page shows besides."""

    @property
    def fixable(self) -> bool: ...


def _status(code: CodeFacts) -> tuple[tuple[str, str], ...]:
    """A preview or deprecated code says so; a stable one's page has no status line."""
    return () if code.status is CodeStatus.STABLE else (("Status", code.status.value),)


def render_explain(rule: RuleFacts, *, color: bool = False, width: int = 100) -> str:
    """A rule's page: code and name, severity, family, fixability, then its docstring
    rendered as Markdown."""
    facts = (
        ("Default severity", rule.severity.value),
        ("Family", rule.family),
        ("Fixable", "yes" if rule.fixable else "no"),
        *_status(rule),
    )
    return _render_page(rule.code, rule.name, rule.severity, facts, rule.doc, color, width)


def render_code_explain(code: CodeFacts, *, color: bool = False, width: int = 100) -> str:
    """A non-lint code's page (replay, check, audit...): the same layout as a rule's."""
    facts = (("Severity", code.severity.value), ("Family", code.family), ("Kind", "not a lint rule"), *_status(code))
    return _render_page(code.code, code.name, code.severity, facts, code.doc, color, width)


def _render_page(
    code: str,
    name: str,
    severity: Severity,
    facts: Sequence[tuple[str, str]],
    doc: str,
    color: bool,
    width: int,
) -> str:
    from rich.markdown import Markdown
    from rich.text import Text

    console = string_console(color, width)
    title = Text()
    title.append(code, style=SEVERITY_STYLE[severity])
    title.append(f" ({name})", style="bold")
    console.print(title)
    console.print()
    for label, value in facts:
        console.print(Text(f"{label}: ", style="dim") + Text(value))
    console.print()
    console.print(Markdown(docstring_markdown(doc)))
    text = console_text(console)
    # Rich pads code blocks to the full width; without colour that is only trailing noise.
    return text if color else "\n".join(line.rstrip() for line in text.split("\n"))


def docstring_markdown(doc: str) -> str:
    """Docstring conventions as Markdown: an indented block right under a line such as
    `Bad:` is an example, but CommonMark would fold it into that paragraph unless a blank
    line separates them, so one is inserted (fenced blocks are left alone)."""
    lines = doc.split("\n")
    out: list[str] = []
    in_fence = False
    for line in lines:
        if line.lstrip().startswith(("```", "~~~")):
            in_fence = not in_fence
        starts_indented_block = line.startswith("    ") and line.strip()
        previous = out[-1] if out else ""
        if (
            not in_fence
            and starts_indented_block
            and previous.strip()
            and not previous.startswith("    ")
            and not previous.lstrip().startswith(("```", "~~~"))
        ):
            out.append("")
        out.append(line)
    return "\n".join(out)
