"""Validate the project configuration into a LintConfig, and resolve it for a run.

Finding and reading the file (with the line of every key) is `rubric_tools.config.discovery`;
`--config FILE` bypasses discovery. When nothing is found above the given paths, nothing
applies: a project's settings must not leak onto a corpus linted from inside it.

Every mistake in a configuration file is a `ConfigError` carrying the file and line,
so the command line can stop with exit code 2 and a message that points at the key.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from rubric_tools.config.discovery import (
    KeyPath,
    discovery_start,
    find_config_file,
    read_settings_table,
)
from rubric_tools.config.errors import ConfigError
from rubric_tools.config.model import parse_check_section, parse_lint_section
from rubric_tools.config.table import SettingsTable, suggest
from rubric_tools.diagnostics import Severity
from rubric_tools.lint.config import LintConfig
from rubric_tools.lint.registry import Rule, all_rules

#: `attack` is a table owned by `rubric attack`: any keys are accepted inside it.
#: `coverage` is owned by `rubric coverage` (rubric_tools.coverage.settings validates it).
KNOWN_KEYS = (
    "select",
    "ignore",
    "severity",
    "fail-level",
    "canary",
    "matter-dirs",
    "attack",
    "audit",
    "check",
    "coverage",
    "baseline",
    "lint",
)
SEVERITY_NAMES = tuple(s.value for s in sorted(Severity, key=lambda s: s.rank, reverse=True))


# --------------------------------------------------------------------------- validation
def _rule_words(rules: Sequence[Rule]) -> list[str]:
    return [word for r in rules for word in (r.code, r.name)]


def _selector_rules(selector: str, rules: Sequence[Rule]) -> tuple[list[Rule], int]:
    """Rules a selector names, and how specific it is (a full code or name beats a prefix)."""
    text = selector.strip()
    by_name = [r for r in rules if r.name == text.lower()]
    if by_name:
        return by_name, 10
    if re.fullmatch(r"[A-Za-z]\d{0,3}", text):
        return [r for r in rules if r.code.startswith(text.upper())], len(text)
    return [], 0


def check_selectors(values: Any, key: str, rules: Sequence[Rule], settings: SettingsTable) -> tuple[str, ...]:
    """Validate a `select`/`ignore` list: every entry must name at least one rule."""
    if not isinstance(values, list):
        raise settings.error(f"'{key}' must be a list of rule codes, prefixes or names", (key,))
    checked: list[str] = []
    for value in values:
        if not isinstance(value, str) or not value.strip():
            raise settings.error(f"'{key}' entries must be non-empty strings, got {value!r}", (key,))
        if not _selector_rules(value, rules)[0]:
            raise settings.error(
                f"unknown rule code, prefix or name {value!r} in '{key}'" + suggest(value.strip(), _rule_words(rules)),
                (key,),
                value,
            )
        checked.append(value.strip())
    return tuple(checked)


def _severity_value(value: Any, settings: SettingsTable, key: KeyPath) -> Severity:
    if isinstance(value, str) and value in SEVERITY_NAMES:
        return Severity(value)
    hint = suggest(str(value).lower(), SEVERITY_NAMES) if isinstance(value, str) else ""
    raise settings.error(f"'{'.'.join(key)}' must be one of {', '.join(SEVERITY_NAMES)}, got {value!r}{hint}", key)


def _severity_table(value: Any, rules: Sequence[Rule], settings: SettingsTable) -> dict[str, Severity]:
    """Map every rule named by a key to its severity; the most specific key wins."""
    if not isinstance(value, Mapping):
        raise settings.error('\'severity\' must be a table of rule = "error"|"warning"|"info"', ("severity",))
    chosen: dict[str, tuple[int, Severity]] = {}
    for selector, level in value.items():
        key = ("severity", str(selector))
        severity = _severity_value(level, settings, key)
        matched, specificity = _selector_rules(str(selector), rules)
        if not matched:
            raise settings.error(
                f"unknown rule code, prefix or name {selector!r} in 'severity'"
                + suggest(str(selector), _rule_words(rules)),
                key,
            )
        for matched_rule in matched:
            if specificity >= chosen.get(matched_rule.code, (-1, severity))[0]:
                chosen[matched_rule.code] = (specificity, severity)
    return {code: severity for code, (_, severity) in chosen.items()}


def _string_list(value: Any, key: str, settings: SettingsTable) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
        raise settings.error(f"'{key}' must be a list of non-empty strings", (key,))
    return tuple(value)


def settings_to_config(settings: SettingsTable, source: Path | None) -> LintConfig:
    """Validate a settings table and turn it into a LintConfig."""
    table = settings.table
    for key in table:
        if key not in KNOWN_KEYS:
            raise settings.error(
                f"unknown configuration key {key!r}"
                + suggest(str(key).replace("_", "-"), KNOWN_KEYS)
                + f" (known keys: {', '.join(KNOWN_KEYS)})",
                (str(key),),
            )
    # Rule names are only needed to validate selectors; importing every rule module
    # costs time a fully cached lint run would otherwise not spend.
    rules = all_rules() if {"select", "ignore", "severity"} & set(table) else []
    config = LintConfig(source=source)
    if "select" in table:
        config = replace(config, select=check_selectors(table["select"], "select", rules, settings))
    if "ignore" in table:
        config = replace(config, ignore=check_selectors(table["ignore"], "ignore", rules, settings))
    if "severity" in table:
        config = replace(config, severity=_severity_table(table["severity"], rules, settings))
    if "fail-level" in table:
        config = replace(config, fail_level=_severity_value(table["fail-level"], settings, ("fail-level",)))
    if "canary" in table:
        if not isinstance(table["canary"], str):
            raise settings.error("'canary' must be a string", ("canary",))
        config = replace(config, canary=table["canary"])
    if "matter-dirs" in table:
        config = replace(config, matter_dirs=_string_list(table["matter-dirs"], "matter-dirs", settings))
    if "attack" in table:
        if not isinstance(table["attack"], Mapping):
            raise settings.error("'attack' must be a table (it holds `rubric attack` settings)", ("attack",))
        config = replace(config, attack=dict(table["attack"]))
    if "audit" in table:
        if not isinstance(table["audit"], Mapping):
            raise settings.error("'audit' must be a table (it holds `rubric audit` settings)", ("audit",))
        config = replace(config, audit=dict(table["audit"]))
    if "check" in table:
        config = replace(config, check_strict=parse_check_section(table["check"], settings).strict)
    if "coverage" in table:
        if not isinstance(table["coverage"], Mapping):
            raise settings.error("'coverage' must be a table (it holds `rubric coverage` settings)", ("coverage",))
        config = replace(config, coverage=dict(table["coverage"]))
    return replace(config, baseline=parse_lint_section(settings).baseline)


def load_config_file(path: Path) -> LintConfig:
    """Read one configuration file (pyproject.toml's [tool.rubric], or any other TOML file's
    top level) into a LintConfig; raises ConfigError."""
    table, lines, prefix = read_settings_table(path)
    return settings_to_config(SettingsTable(table, path, lines, prefix), path)


def resolve_config(paths: Sequence[Path], config_file: Path | None = None, cwd: Path | None = None) -> LintConfig:
    """The configuration for linting `paths`: `config_file` if given, else discovered."""
    cwd = cwd or Path.cwd()
    if config_file is not None:
        explicit = config_file if config_file.is_absolute() else cwd / config_file
        if not explicit.is_file():
            raise ConfigError(f"configuration file {config_file} does not exist")
        return load_config_file(explicit)
    # Strictly upward from the linted paths: a project's settings (its canary, say)
    # must not leak onto a corpus linted from inside that project.
    found = find_config_file(discovery_start(paths, cwd))
    return load_config_file(found) if found is not None else LintConfig()


def apply_overrides(
    config: LintConfig,
    *,
    select: Sequence[str] = (),
    ignore: Sequence[str] = (),
    fail_level: Severity | None = None,
) -> LintConfig:
    """Command-line settings on top of the file's: `--select` replaces the selection,
    `--ignore` adds to the ignored rules (as in ruff), `--fail-level` replaces."""
    cli_select = [part for item in select for part in item.split(",") if part.strip()]
    cli_ignore = [part for item in ignore for part in item.split(",") if part.strip()]
    rules = all_rules() if cli_select or cli_ignore else []
    if cli_select:
        settings = SettingsTable({}, None, None, ())
        config = replace(config, select=check_selectors(cli_select, "--select", rules, settings))
    if cli_ignore:
        settings = SettingsTable({}, None, None, ())
        config = replace(config, ignore=config.ignore + check_selectors(cli_ignore, "--ignore", rules, settings))
    if fail_level is not None:
        config = replace(config, fail_level=fail_level)
    return config


def matter_paths(config: LintConfig, cwd: Path | None = None) -> list[Path]:
    """The configured `matter-dirs`, relative to the configuration file's folder."""
    base = config.source.parent if config.source is not None else (cwd or Path.cwd())
    return [Path(d) if Path(d).is_absolute() else base / d for d in config.matter_dirs]
