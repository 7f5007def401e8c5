"""The project configuration: one frozen `ProjectConfig` of typed sections, validated in
one place when the file is read.

A section is a frozen dataclass plus a parse function registered in `SECTIONS`, which
also says which top-level keys of the settings table the section owns; the list of
known keys (and so the "unknown configuration key" check) is derived from it. Adding a
section: write its module (see `attack.py`), add a `ProjectConfig` field and a
`SECTIONS` entry of the same name.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple, TypeVar

from rubric_tools.config.attack import AttackSection, parse_attack_section
from rubric_tools.config.audit import AuditSection, parse_audit_section
from rubric_tools.config.check import CheckSection, parse_check_section
from rubric_tools.config.coverage import CoverageSection, parse_coverage_section
from rubric_tools.config.lint import LINT_TOP_LEVEL_KEYS, LintSection, parse_lint_section
from rubric_tools.config.table import SettingsTable, suggest
from rubric_tools.config.vocabulary import Vocabulary

_Section = TypeVar("_Section")


@dataclass(frozen=True)
class ProjectConfig:
    """Settings of `[tool.rubric]` in pyproject.toml or of rubric.toml, one section per command."""

    lint: LintSection = field(default_factory=LintSection)
    attack: AttackSection = field(default_factory=AttackSection)
    audit: AuditSection = field(default_factory=AuditSection)
    check: CheckSection = field(default_factory=CheckSection)
    coverage: CoverageSection = field(default_factory=CoverageSection)
    source: Path | None = None  # the file the settings came from; relative paths in it start at its folder


class SectionSpec(NamedTuple):
    """How one `ProjectConfig` field is read: the top-level keys it owns and its parser,
    which validates those keys of the settings table (raising `ConfigError`)."""

    field: str
    keys: tuple[str, ...]
    parse: Callable[[SettingsTable, Vocabulary], object]


def table_section(
    name: str, parse_table: Callable[[Mapping[str, Any], SettingsTable, Vocabulary], _Section]
) -> SectionSpec:
    """A section written as its own table, `[tool.rubric.<name>]`, holding `rubric <name>` settings."""

    def parse(settings: SettingsTable, vocabulary: Vocabulary) -> _Section:
        table = settings.table.get(name, {})
        if not isinstance(table, Mapping):
            raise settings.error(f"'{name}' must be a table (it holds `rubric {name}` settings)", (name,))
        return parse_table(table, settings, vocabulary)

    return SectionSpec(name, (name,), parse)


#: Every section, in the order its keys are validated.
SECTIONS: tuple[SectionSpec, ...] = (
    SectionSpec("lint", LINT_TOP_LEVEL_KEYS, parse_lint_section),
    table_section("attack", parse_attack_section),
    table_section("audit", parse_audit_section),
    table_section("check", parse_check_section),
    table_section("coverage", parse_coverage_section),
)
#: The keys a settings table may hold at its top level.
KNOWN_KEYS: tuple[str, ...] = tuple(key for section in SECTIONS for key in section.keys)


def parse_settings(settings: SettingsTable, vocabulary: Vocabulary, source: Path | None = None) -> ProjectConfig:
    """Validate a whole settings table into a ProjectConfig; raises ConfigError at file:line."""
    for key in settings.table:
        if key not in KNOWN_KEYS:
            raise settings.error(
                f"unknown configuration key {key!r}"
                + suggest(str(key).replace("_", "-"), KNOWN_KEYS)
                + f" (known keys: {', '.join(KNOWN_KEYS)})",
                (str(key),),
            )
    # Each parser returns its field's type (tests/test_config_sections.py holds SECTIONS and
    # the fields together), which the registry's uniform signature cannot say to mypy.
    sections: dict[str, Any] = {section.field: section.parse(settings, vocabulary) for section in SECTIONS}
    return ProjectConfig(source=source, **sections)


def config_from_mapping(table: Mapping[str, Any], vocabulary: Vocabulary) -> ProjectConfig:
    """A ProjectConfig from settings built in memory (errors carry no file or line)."""
    return parse_settings(SettingsTable(table, None, None, ()), vocabulary)
