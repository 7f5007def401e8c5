"""The rule registry: a rule is data (code, name, severity) plus one generator.

Register a rule with the `@rule` decorator. Its docstring is its user
documentation, shown by `rubric explain` and in AUTHORING.md: first line a
summary, then what it catches, why it matters, and a bad and a good YAML example.
The decorator's code string is the rule's one declaration: elsewhere, import the
registered `Rule` (what `@rule` returns) and use its `.code`. A rule whose findings a
lower layer detects registers with `@rule(CODE)`, CODE being that layer's
`catalogue.declare_rule_code(...)`.
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, overload

from rubric_tools import code_registry
from rubric_tools.diagnostics import CodeStatus, Severity

if TYPE_CHECKING:
    from rubric_tools.catalogue import RuleCode
    from rubric_tools.lint.context import Finding, LintContext

Check = Callable[["LintContext"], Iterable["Finding"]]

_CODE = re.compile(r"^[A-Z]\d{3}$")
_NAME = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")


@dataclass(frozen=True)
class Rule:
    code: str
    name: str
    severity: Severity
    family: str
    check: Check
    fixable: bool = False
    status: CodeStatus = CodeStatus.STABLE

    @property
    def builtin(self) -> bool:
        """Whether the rule is one of the tool's own (defined in `rubric_tools.lint.rules`)."""
        return self.check.__module__.startswith(f"{code_registry.RULES_PACKAGE}.")

    @property
    def doc(self) -> str:
        return inspect.getdoc(self.check) or ""

    @property
    def summary(self) -> str:
        return self.doc.split("\n", 1)[0].strip()

    def __call__(self, ctx: LintContext) -> Iterable[Finding]:
        """Run the rule's check (a registered rule is used like the function it decorates)."""
        return self.check(ctx)


RULES: dict[str, Rule] = {}
# The code registry finds rules registered at run time (tests, plugins) through this.
code_registry.runtime_rules = RULES.values


@overload
def rule(
    code: RuleCode, *, fixable: bool = False, status: CodeStatus = CodeStatus.STABLE
) -> Callable[[Check], Rule]: ...


@overload
def rule(
    code: str, name: str, severity: Severity, *, fixable: bool = False, status: CodeStatus = CodeStatus.STABLE
) -> Callable[[Check], Rule]: ...


def rule(
    code: str | RuleCode,
    name: str | None = None,
    severity: Severity | None = None,
    *,
    fixable: bool = False,
    status: CodeStatus = CodeStatus.STABLE,
) -> Callable[[Check], Rule]:
    """Register `check` as rule `code`/`name`. The family is the defining module's name.

    `code` is the code string, or a `RuleCode` declared below lint, which gives the name
    and severity too. `status` marks a preview or deprecated rule (`rubric explain` and
    AUTHORING.md say so)."""
    if not isinstance(code, str):  # a RuleCode (not imported at run time: a warm lint never needs the catalogue)
        return _registrar(code.code, code.name, code.severity, fixable, status)
    if name is None or severity is None:
        raise TypeError(f"rule {code}: give its name and severity, or a RuleCode")
    return _registrar(code, name, severity, fixable, status)


def _registrar(code: str, name: str, severity: Severity, fixable: bool, status: CodeStatus) -> Callable[[Check], Rule]:
    def register(check: Check) -> Rule:
        if not _CODE.match(code):
            raise ValueError(f"rule code {code!r} must be one capital letter and three digits")
        if not _NAME.match(name):
            raise ValueError(f"rule name {name!r} must be kebab-case")
        if code in RULES or any(r.name == name for r in RULES.values()):
            raise ValueError(f"rule {code}/{name} is registered twice")
        if not inspect.getdoc(check):
            raise ValueError(f"rule {code} needs a docstring: it is the rule's documentation")
        family = check.__module__.rsplit(".", 1)[-1]
        registered = Rule(code, name, severity, family, check, fixable, status)
        RULES[code] = registered
        return registered

    return register


def find_rule(code_or_name: str) -> Rule | None:
    """Look a rule up by code (case-insensitive) or by name."""
    import rubric_tools.lint.rules  # noqa: F401  (registers the rules, as all_rules does)

    key = code_or_name.strip()
    if key.upper() in RULES:
        return RULES[key.upper()]
    return next((r for r in RULES.values() if r.name == key.lower()), None)


def all_rules() -> list[Rule]:
    """Every registered rule, sorted by code (imports the rule modules first)."""
    import rubric_tools.lint.rules  # noqa: F401  (registers the rules)

    return sorted(RULES.values(), key=lambda r: r.code)
