"""The catalogue of diagnostic codes that are not lint rules: replay, check, audit,
coverage, rescore and trajectory codes.

Lint rules stay in `rubric_tools.lint.registry` (a rule is data plus its generator, and
its docstring is its documentation). Every other code a command can print is declared
here, with a name, a severity and its documentation. Both are found through one look-up,
`rubric_tools.code_registry`, which `rubric explain`, `rubric rules`, AUTHORING.md and the
language server share. A feature declares its codes in a module of its own that
calls `declare`, and names that module in `_CODE_MODULES` so the catalogue can import
it on demand (commands that never explain a code never pay for the import).

A code string is written once, in its declaration: `X = declare(...)` here,
`X = declare_rule_code(...)` for a lint rule whose findings are detected where the rule
cannot be imported (the loader's), or `@rule(...)`. Emitters build diagnostics with
`Diagnostic.of(X, ...)` and compare with `X.code` (`tests/test_code_literals.py`).
"""

from __future__ import annotations

import importlib
import re
from dataclasses import dataclass

from rubric_tools.diagnostics import CodeStatus, Severity

_CODE = re.compile(r"^[A-Z]\d{3}$")
_NAME = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")

# Modules whose import declares codes. Add yours here (one line, sorted).
_CODE_MODULES: tuple[str, ...] = (
    "rubric_tools.audit.codes",
    "rubric_tools.authoring_codes",
    "rubric_tools.codes",
    "rubric_tools.coverage.codes",
    "rubric_tools.internal_codes",
    "rubric_tools.lint.fix_codes",
    "rubric_tools.rescore.codes",
)


@dataclass(frozen=True)
class CodeDoc:
    """One non-lint diagnostic code: what `rubric explain CODE` prints."""

    code: str
    name: str
    severity: Severity
    family: str
    doc: str
    status: CodeStatus = CodeStatus.STABLE

    @property
    def summary(self) -> str:
        return self.doc.strip().split("\n", 1)[0].strip()


_CODES: dict[str, CodeDoc] = {}


@dataclass(frozen=True)
class RuleCode:
    """The code of a lint rule whose findings are detected where the rule cannot be
    imported: below lint (the loader's L, D and Y problems) or by the lint engine itself.

    Declared where it is detected, so that the detector need not import the rule; the
    rule registered with `@rule(CODE)` takes its code, name and severity from here, and
    its docstring is the documentation (`rubric explain`, AUTHORING.md)."""

    code: str
    name: str
    severity: Severity


_RULE_CODES: dict[str, RuleCode] = {}


def _check_new(code: str, name: str) -> None:
    if not _CODE.match(code):
        raise ValueError(f"code {code!r} must be one capital letter and three digits")
    if not _NAME.match(name):
        raise ValueError(f"code name {name!r} must be kebab-case")
    declared: list[CodeDoc | RuleCode] = [*_CODES.values(), *_RULE_CODES.values()]
    if any(c.code == code or c.name == name for c in declared):
        raise ValueError(f"code {code}/{name} is declared twice")


def declare(
    code: str, name: str, severity: Severity, family: str, doc: str, *, status: CodeStatus = CodeStatus.STABLE
) -> CodeDoc:
    """Declare a code once; the first line of `doc` is its summary. `status` marks a
    preview or deprecated code."""
    _check_new(code, name)
    if not doc.strip():
        raise ValueError(f"code {code} needs documentation")
    entry = CodeDoc(code, name, severity, family, doc.strip(), status)
    _CODES[code] = entry
    return entry


def declare_rule_code(code: str, name: str, severity: Severity) -> RuleCode:
    """Declare the code of a lint rule detected away from it; `@rule(<the result>)` documents it."""
    _check_new(code, name)
    entry = RuleCode(code, name, severity)
    _RULE_CODES[code] = entry
    return entry


def rule_codes() -> list[RuleCode]:
    """Every `RuleCode` declared so far (their modules are imported by the rules that use them)."""
    return sorted(_RULE_CODES.values(), key=lambda c: c.code)


def _load_all() -> None:
    for module in _CODE_MODULES:
        importlib.import_module(module)


def all_codes() -> list[CodeDoc]:
    """Every declared non-lint code, sorted by code."""
    _load_all()
    return sorted(_CODES.values(), key=lambda c: c.code)


def find_code(code_or_name: str) -> CodeDoc | None:
    """Look a code up by code (case-insensitive) or by name."""
    _load_all()
    key = code_or_name.strip()
    if key.upper() in _CODES:
        return _CODES[key.upper()]
    return next((c for c in _CODES.values() if c.name == key.lower()), None)
