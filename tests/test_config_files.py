"""Hostile configuration files: a FIFO, a link to a device or a huge file named
`rubric.toml` / `pyproject.toml` is a ConfigError at file:1, never a hang or a read."""

from __future__ import annotations

import io
import os
from pathlib import Path

import pytest

from rubric_tools.commands.lint import LintOptions, OutputFormat, run_lint
from rubric_tools.config.discovery import MAX_CONFIG_BYTES, find_config_file
from rubric_tools.config.errors import ConfigError
from rubric_tools.config.resolve import resolve_config
from rubric_tools.lint.vocabulary import CONFIG_VOCABULARY
from tests.test_hostile_files import finishes


def refusal(paths: list[Path], config_file: Path | None = None) -> ConfigError:
    """The ConfigError resolving the configuration for `paths` ends with (never a hang)."""

    def resolve() -> ConfigError | None:
        try:
            resolve_config(paths, CONFIG_VOCABULARY, config_file)
        except ConfigError as exc:
            return exc
        return None

    problem = finishes(resolve)
    assert isinstance(problem, ConfigError)
    return problem


@pytest.mark.parametrize("name", ["rubric.toml", "pyproject.toml"])
def test_a_fifo_configuration_file_is_refused_unopened(tmp_path: Path, name: str, opened: list[str]) -> None:
    os.mkfifo(tmp_path / name)
    (tmp_path / "matters").mkdir()
    assert find_config_file(tmp_path / "matters") == tmp_path / name  # found, so that it is reported
    problem = refusal([tmp_path / "matters"])
    assert (problem.file, problem.line) == (tmp_path / name, 1)
    assert "configuration file is a FIFO (named pipe), not a regular file" in problem.message
    assert str(tmp_path / name) not in opened


def test_a_link_to_a_device_is_refused_unopened(tmp_path: Path, opened: list[str]) -> None:
    (tmp_path / "pyproject.toml").symlink_to("/dev/zero")
    problem = refusal([tmp_path])
    assert (problem.file, problem.line) == (tmp_path / "pyproject.toml", 1)
    assert "is a character device, not a regular file" in problem.message
    assert "/dev/zero" not in opened


def test_a_huge_configuration_file_is_refused_by_its_size(tmp_path: Path, opened: list[str]) -> None:
    with (tmp_path / "rubric.toml").open("wb") as stream:  # sparse: the size is what counts
        stream.truncate(MAX_CONFIG_BYTES + 1)
    opened.clear()
    problem = refusal([tmp_path])
    assert (problem.file, problem.line) == (tmp_path / "rubric.toml", 1)
    assert f"over the {MAX_CONFIG_BYTES:,}-byte limit" in problem.message
    assert str(tmp_path / "rubric.toml") not in opened


def test_an_explicit_config_that_is_a_fifo_is_refused_not_missing(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "ci.toml")
    problem = refusal([tmp_path], tmp_path / "ci.toml")
    assert (problem.file, problem.line) == (tmp_path / "ci.toml", 1) and "FIFO" in problem.message


def test_a_symlinked_configuration_is_still_followed(tmp_path: Path) -> None:
    shared = tmp_path / "shared" / "rubric-settings.toml"
    shared.parent.mkdir()
    shared.write_text('[tool.rubric]\ncanary = "from-the-link"\n', encoding="utf-8")
    (tmp_path / "repo").mkdir()
    (tmp_path / "repo" / "pyproject.toml").symlink_to(shared)
    assert resolve_config([tmp_path / "repo"], CONFIG_VOCABULARY).lint.canary == "from-the-link"


def test_the_command_line_exits_2_on_a_fifo_configuration(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "rubric.toml")
    stdout, stderr = io.StringIO(), io.StringIO()
    options = LintOptions(paths=[tmp_path], output_format=OutputFormat.CONCISE, cwd=tmp_path)
    assert finishes(lambda: run_lint(options, stdout, stderr)) == 2
    assert stdout.getvalue() == ""
    assert stderr.getvalue().startswith(f"error: {tmp_path / 'rubric.toml'}:1: configuration file is a FIFO")
