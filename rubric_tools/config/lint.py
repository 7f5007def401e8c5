"""The lint section: the settings of `rubric lint`, written at the top level of the table
(`select`, `ignore`, `severity`, `fail-level`, `canary`, `matter-dirs`, `baseline`) and in
`[tool.rubric.lint]` (`baseline`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from rubric_tools.config.selectors import check_selectors, severity_table, severity_value
from rubric_tools.config.table import SettingsTable
from rubric_tools.config.vocabulary import Vocabulary
from rubric_tools.diagnostics import Severity

#: The lint settings written at the top level of the configuration table.
LINT_TOP_LEVEL_KEYS = ("select", "ignore", "severity", "fail-level", "canary", "matter-dirs", "baseline", "lint")
#: Keys of the `[tool.rubric.lint]` table (issue 11: baselines).
LINT_TABLE_KEYS = ("baseline",)
_SELECTOR_KEYS = frozenset({"select", "ignore", "severity"})


@dataclass(frozen=True)
class LintSection:
    """What `rubric lint` runs, how severe its findings are and what fails the run.

    `select`/`ignore` hold rule codes, code prefixes (`G`, `G0`) or rule names.
    """

    select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    severity: Mapping[str, Severity] = field(default_factory=dict)  # rule code -> configured severity
    fail_level: Severity = Severity.ERROR
    canary: str | None = None
    matter_dirs: tuple[str, ...] = ()  # relative to the configuration file's folder
    baseline: str | None = None  # a baseline file, relative to the configuration file's folder
    # Replay the matter's trajectories to prove safe fixes safe; not a file setting
    # (programs linting fixture copies with no witnesses turn it off).
    prove_fixes: bool = True


def _string_list(value: object, key: str, settings: SettingsTable) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
        raise settings.error(f"'{key}' must be a list of non-empty strings", (key,))
    return tuple(value)


def _canary(settings: SettingsTable) -> str | None:
    canary = settings.table.get("canary")
    if canary is not None and not isinstance(canary, str):
        raise settings.error("'canary' must be a string", ("canary",))
    return canary


def _baseline(settings: SettingsTable) -> str | None:
    """The top-level `baseline` and the `[tool.rubric.lint]` table's; the table's wins."""
    table = settings.table
    lint = table.get("lint", {})
    if not isinstance(lint, Mapping):
        raise settings.error("'lint' must be a table (it holds `baseline`)", ("lint",))
    for key in lint:
        if key not in LINT_TABLE_KEYS:
            raise settings.error(
                f"unknown key {key!r} in 'lint' (known keys: {', '.join(LINT_TABLE_KEYS)})", ("lint", str(key))
            )
    baseline: str | None = None
    for where, value in (((), table.get("baseline")), (("lint",), lint.get("baseline"))):
        if value is None:
            continue
        if not isinstance(value, str) or not value:
            raise settings.error("'baseline' must be a file name", (*where, "baseline"))
        baseline = value
    return baseline


def parse_lint_section(settings: SettingsTable, vocabulary: Vocabulary) -> LintSection:
    """Validate the lint keys of the settings table; rule selectors against the known rules."""
    table = settings.table
    # The rules are only needed to validate selectors: importing every rule module costs
    # time a fully cached lint run would otherwise not spend.
    rules = vocabulary.rules() if _SELECTOR_KEYS & set(table) else []
    # Keyword arguments are evaluated in order: the first mistake in this order is reported.
    return LintSection(
        select=check_selectors(table["select"], "select", rules, settings) if "select" in table else (),
        ignore=check_selectors(table["ignore"], "ignore", rules, settings) if "ignore" in table else (),
        severity=severity_table(table["severity"], rules, settings) if "severity" in table else {},
        fail_level=(
            severity_value(table["fail-level"], settings, ("fail-level",)) if "fail-level" in table else Severity.ERROR
        ),
        canary=_canary(settings),
        matter_dirs=_string_list(table["matter-dirs"], "matter-dirs", settings) if "matter-dirs" in table else (),
        baseline=_baseline(settings),
    )
