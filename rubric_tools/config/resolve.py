"""Which configuration applies to a run, and the command line's settings on top of it.

`--config FILE` bypasses discovery. When nothing is found above the given paths, nothing
applies: a project's settings must not leak onto a corpus linted from inside it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from rubric_tools.config.discovery import discovery_start, find_config_file, read_settings_table
from rubric_tools.config.errors import ConfigError
from rubric_tools.config.project import ProjectConfig, parse_settings
from rubric_tools.config.selectors import check_selectors
from rubric_tools.config.table import SettingsTable
from rubric_tools.config.vocabulary import Vocabulary
from rubric_tools.diagnostics import Severity


def load_config_file(path: Path, vocabulary: Vocabulary) -> ProjectConfig:
    """Read one configuration file (pyproject.toml's [tool.rubric], or any other TOML file's
    top level) into a ProjectConfig; raises ConfigError."""
    table, lines, prefix = read_settings_table(path)
    return parse_settings(SettingsTable(table, path, lines, prefix), vocabulary, path)


def resolve_config(
    paths: Sequence[Path], vocabulary: Vocabulary, config_file: Path | None = None, cwd: Path | None = None
) -> ProjectConfig:
    """The configuration for `paths`: `config_file` if given, else discovered."""
    cwd = cwd or Path.cwd()
    if config_file is not None:
        explicit = config_file if config_file.is_absolute() else cwd / config_file
        if not explicit.exists():
            raise ConfigError(f"configuration file {config_file} does not exist")
        return load_config_file(explicit, vocabulary)
    # Strictly upward from the given paths: a project's settings (its canary, say)
    # must not leak onto a corpus linted from inside that project.
    found = find_config_file(discovery_start(paths, cwd))
    return load_config_file(found, vocabulary) if found is not None else ProjectConfig()


def apply_overrides(
    config: ProjectConfig,
    vocabulary: Vocabulary,
    *,
    select: Sequence[str] = (),
    ignore: Sequence[str] = (),
    fail_level: Severity | None = None,
) -> ProjectConfig:
    """Command-line settings on top of the file's: `--select` replaces the selection,
    `--ignore` adds to the ignored rules (as in ruff), `--fail-level` replaces."""
    cli_select = [part for item in select for part in item.split(",") if part.strip()]
    cli_ignore = [part for item in ignore for part in item.split(",") if part.strip()]
    rules = vocabulary.rules() if cli_select or cli_ignore else []
    command_line = SettingsTable({}, None, None, ())
    lint = config.lint
    if cli_select:
        lint = replace(lint, select=check_selectors(cli_select, "--select", rules, command_line))
    if cli_ignore:
        lint = replace(lint, ignore=lint.ignore + check_selectors(cli_ignore, "--ignore", rules, command_line))
    if fail_level is not None:
        lint = replace(lint, fail_level=fail_level)
    return replace(config, lint=lint)


def matter_paths(config: ProjectConfig, cwd: Path | None = None) -> list[Path]:
    """The configured `matter-dirs`, relative to the configuration file's folder."""
    base = config.source.parent if config.source is not None else (cwd or Path.cwd())
    return [Path(d) if Path(d).is_absolute() else base / d for d in config.lint.matter_dirs]


def command_paths(given: Sequence[Path], config: ProjectConfig, cwd: Path | None = None) -> list[Path]:
    """What a command that takes matter paths (`lint`, `check`, `audit`, `coverage`) works
    on: the paths given, else the configured `matter-dirs`, else the current folder, where
    the matters are discovered as `rubric lint` finds them (the folders below holding
    matter.yaml, or the matter the folder is inside). One rule for every command, so none
    checks nothing where another finds a matter."""
    return list(given) or matter_paths(config, cwd) or [cwd or Path.cwd()]
