"""What a diagnostic's code declares: its name and severity come from there, not retyped."""

from __future__ import annotations

from collections.abc import Iterable

from rubric_tools.catalogue import find_code, rule_codes
from rubric_tools.diagnostics import Diagnostic, Severity
from rubric_tools.lint.registry import find_rule


def declared_name_and_severity(code: str) -> tuple[str, Severity]:
    """(name, severity) of `code` as declared: a catalogue entry, or a lint rule (whose code
    a lower layer may have declared)."""
    entry = find_code(code)
    if entry is not None:
        return entry.name, entry.severity
    registered = find_rule(code)  # registers the rules, and so every code their modules declare
    below_lint = {declared.code: declared for declared in rule_codes()}
    if code in below_lint:
        return below_lint[code].name, below_lint[code].severity
    assert registered is not None, f"{code} is declared nowhere"
    return registered.name, registered.severity


def assert_as_declared(diagnostics: Iterable[Diagnostic]) -> set[str]:
    """Every diagnostic carries its code's declared name and severity; returns the codes seen."""
    seen = set()
    for diagnostic in diagnostics:
        declared = declared_name_and_severity(diagnostic.code)
        assert (diagnostic.name, diagnostic.severity) == declared, diagnostic
        seen.add(diagnostic.code)
    return seen
