"""Configuration: discovery of rubric.toml / pyproject.toml, validation with file:line
errors, and the effect of every setting on a lint run."""

from __future__ import annotations

import io
import textwrap
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from rubric_tools.commands.lint import LintOptions, OutputFormat, run_lint
from rubric_tools.config import resolve
from rubric_tools.config.attack import AttackSection
from rubric_tools.config.audit import AuditSection
from rubric_tools.config.check import CheckSection
from rubric_tools.config.coverage import CoverageSection
from rubric_tools.config.discovery import TomlKeyLines, find_config_file
from rubric_tools.config.errors import ConfigError
from rubric_tools.config.project import ProjectConfig
from rubric_tools.config.resolve import matter_paths
from rubric_tools.diagnostics import Severity
from rubric_tools.lint.engine import lint_paths
from rubric_tools.lint.vocabulary import CONFIG_VOCABULARY
from tests.lint_support import make_project, seeded_rules


@pytest.fixture(autouse=True)
def _seeded() -> Iterator[None]:
    with seeded_rules():
        yield


def load_config_file(path: Path) -> ProjectConfig:
    return resolve.load_config_file(path, CONFIG_VOCABULARY)


def resolve_config(paths: list[Path], config_file: Path | None = None, cwd: Path | None = None) -> ProjectConfig:
    return resolve.resolve_config(paths, CONFIG_VOCABULARY, config_file, cwd)


def apply_overrides(config: ProjectConfig, **overrides: Any) -> ProjectConfig:
    return resolve.apply_overrides(config, CONFIG_VOCABULARY, **overrides)


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
    return path


def config_error(path: Path, text: str) -> ConfigError:
    write(path, text)
    with pytest.raises(ConfigError) as caught:
        load_config_file(path)
    return caught.value


# --------------------------------------------------------------------------- discovery
def test_discovery_walks_upward_from_the_linted_path(tmp_path: Path) -> None:
    config = write(tmp_path / "repo" / "rubric.toml", 'select = ["Z9"]\n')
    deep = tmp_path / "repo" / "matters" / "acme" / "documents"
    deep.mkdir(parents=True)
    assert find_config_file(deep) == config
    assert find_config_file(deep / "hosting.md") == config  # a file, even one not there yet


def test_rubric_toml_beats_pyproject_in_the_same_folder(tmp_path: Path) -> None:
    write(tmp_path / "pyproject.toml", '[tool.rubric]\nselect = ["Z901"]\n')
    rubric = write(tmp_path / "rubric.toml", 'select = ["Z902"]\n')
    assert find_config_file(tmp_path) == rubric
    assert resolve_config([tmp_path], cwd=tmp_path).lint.select == ("Z902",)


def test_pyproject_without_tool_rubric_is_skipped(tmp_path: Path) -> None:
    outer = write(tmp_path / "rubric.toml", 'select = ["Z903"]\n')
    write(tmp_path / "inner" / "pyproject.toml", '[project]\nname = "x"\n\n[tool.ruff]\nline-length = 100\n')
    assert find_config_file(tmp_path / "inner") == outer


def test_the_nearest_configuration_wins(tmp_path: Path) -> None:
    write(tmp_path / "rubric.toml", 'select = ["Z901"]\n')
    nearer = write(tmp_path / "sub" / "pyproject.toml", '[tool.rubric]\nselect = ["Z902"]\n')
    assert find_config_file(tmp_path / "sub" / "m") == nearer
    assert resolve_config([tmp_path / "sub" / "m"], cwd=tmp_path).source == nearer


def test_discovery_starts_where_all_linted_paths_meet(tmp_path: Path) -> None:
    write(tmp_path / "rubric.toml", 'select = ["Z901"]\n')
    write(tmp_path / "a" / "rubric.toml", 'select = ["Z902"]\n')
    (tmp_path / "b").mkdir()
    assert resolve_config([tmp_path / "a", tmp_path / "b"], cwd=tmp_path).lint.select == ("Z901",)
    assert resolve_config([tmp_path / "a" / "m1", tmp_path / "a" / "m2"], cwd=tmp_path).lint.select == ("Z902",)


def test_no_configuration_anywhere_gives_the_defaults(tmp_path: Path) -> None:
    config = resolve_config([tmp_path], cwd=tmp_path)
    assert config == ProjectConfig() and config.lint.select == () and config.lint.fail_level is Severity.ERROR


def test_configuration_is_found_only_upward_from_the_linted_paths(tmp_path: Path) -> None:
    project = write(tmp_path / "project" / "rubric.toml", 'select = ["Z903"]\n')
    elsewhere = tmp_path / "corpus" / "matters"
    elsewhere.mkdir(parents=True)
    # The working directory's project settings do not leak onto a corpus linted from it.
    assert resolve_config([elsewhere], cwd=project.parent).source is None
    own = write(tmp_path / "corpus" / "rubric.toml", 'select = ["Z901"]\n')
    assert resolve_config([elsewhere], cwd=project.parent).source == own


# --------------------------------------------------------------------------- reading
def test_every_key_is_read(tmp_path: Path) -> None:
    path = write(
        tmp_path / "pyproject.toml",
        """
        [project]
        name = "matters"

        [tool.rubric]
        select = ["Z9", "L"]
        ignore = ["test-long-alias"]
        fail-level = "warning"
        canary = "canary-123"
        matter-dirs = ["matters", "extra/matters"]

        [tool.rubric.severity]
        Z9 = "info"
        test-document-todo = "error"

        [tool.rubric.attack]
        unanchored-max-raw = 1
        exempt = ["stuffed-summary"]

        [tool.rubric.audit]
        fail-on = ["U002"]
        thesaurus = { "Terminate" = ["End"] }

        [tool.rubric.check]
        strict = true

        [tool.rubric.coverage]
        fail-under = 90
        jobs = 4.0

        [tool.rubric.lint]
        baseline = "lint-baseline.json"
        """,
    )
    config = load_config_file(path)
    lint = config.lint
    assert lint.select == ("Z9", "L") and lint.ignore == ("test-long-alias",)
    assert lint.fail_level is Severity.WARNING and lint.canary == "canary-123"
    # the rule name is more specific than the prefix, whatever the order of the keys
    assert lint.severity == {"Z901": Severity.INFO, "Z902": Severity.ERROR, "Z903": Severity.INFO}
    assert lint.baseline == "lint-baseline.json"
    assert config.attack == AttackSection(unanchored_max_raw=1.0, exempt=("stuffed-summary",))
    assert config.audit == AuditSection(fail_on=("U002",), thesaurus={"terminate": ("end",)})
    assert config.check == CheckSection(strict=True)
    assert config.coverage == CoverageSection(fail_under=90.0, jobs=4)
    assert matter_paths(config) == [tmp_path / "matters", tmp_path / "extra" / "matters"]
    assert config.source == path


def test_a_full_code_beats_a_prefix_in_severity(tmp_path: Path) -> None:
    path = write(tmp_path / "rubric.toml", 'severity = { Z901 = "warning", Z = "info" }\n')
    severity = load_config_file(path).lint.severity
    assert severity["Z901"] is Severity.WARNING and severity["Z902"] is Severity.INFO


def test_an_empty_rubric_toml_is_a_valid_configuration(tmp_path: Path) -> None:
    path = write(tmp_path / "rubric.toml", "# nothing configured yet\n")
    assert load_config_file(path).source == path


# --------------------------------------------------------------------------- errors
def test_unknown_key_names_the_file_and_line_and_suggests(tmp_path: Path) -> None:
    error = config_error(tmp_path / "rubric.toml", 'select = ["Z9"]\n\nfail_level = "warning"\n')
    assert error.file == tmp_path / "rubric.toml" and error.line == 3
    assert "unknown configuration key 'fail_level'" in error.message
    assert "did you mean 'fail-level'?" in error.message
    assert str(error).startswith(f"{tmp_path / 'rubric.toml'}:3: ")


def test_unknown_key_in_pyproject_points_into_the_tool_rubric_table(tmp_path: Path) -> None:
    error = config_error(
        tmp_path / "pyproject.toml",
        """
        [project]
        name = "x"
        select = "not ours"

        [tool.rubric]
        select = ["Z9"]
        colour = "always"
        """,
    )
    assert error.line == 7 and "'colour'" in error.message


def test_unknown_rule_in_a_multi_line_list_points_at_its_line(tmp_path: Path) -> None:
    error = config_error(
        tmp_path / "rubric.toml",
        """
        select = [
            "Z901",
            "Z9O2",
        ]
        ignore = ["Z9O2"]
        """,
    )
    assert error.line == 3
    assert "unknown rule code, prefix or name 'Z9O2' in 'select'" in error.message


def test_unknown_rule_name_suggests_the_closest(tmp_path: Path) -> None:
    error = config_error(tmp_path / "rubric.toml", 'ignore = ["test-long-alais"]\n')
    assert error.line == 1 and "did you mean 'test-long-alias'?" in error.message


@pytest.mark.parametrize(
    ("text", "line", "fragment"),
    [
        ('[severity]\nZ901 = "warning"\nZ902 = "fatal"\n', 3, "must be one of error, warning, info, got 'fatal'"),
        ('severity = { Z901 = "error", Q999 = "info" }\n', 1, "'Q999' in 'severity'"),
        ('[severity]\nZ901 = "warning"\nnot-a-rule = "info"\n', 3, "'not-a-rule' in 'severity'"),
        ('severity = "error"\n', 1, "'severity' must be a table"),
        ('fail-level = "Warning"\n', 1, "did you mean 'warning'?"),
        ('select = "Z901"\n', 1, "'select' must be a list"),
        ("ignore = [1]\n", 1, "entries must be non-empty strings"),
        ("canary = 7\n", 1, "'canary' must be a string"),
        ('matter-dirs = "matters"\n', 1, "'matter-dirs' must be a list"),
        ('attack = "fast"\n', 1, "'attack' must be a table"),
        ('select = ["Z9"]\nignore = [\n  "Z901",,\n]\n', 3, "invalid TOML"),
    ],
    ids=[
        "bad-severity-value",
        "unknown-rule-in-inline-table",
        "unknown-rule-in-table",
        "severity-not-a-table",
        "fail-level-case",
        "select-not-a-list",
        "ignore-not-strings",
        "canary-type",
        "matter-dirs-type",
        "attack-not-a-table",
        "toml-syntax",
    ],
)
def test_bad_values_are_errors_at_their_line(tmp_path: Path, text: str, line: int, fragment: str) -> None:
    error = config_error(tmp_path / "rubric.toml", text)
    assert (error.line, error.file) == (line, tmp_path / "rubric.toml")
    assert fragment in error.message


def test_explicit_pyproject_without_the_table_is_an_error(tmp_path: Path) -> None:
    error = config_error(tmp_path / "pyproject.toml", '[project]\nname = "x"\n')
    assert "no [tool.rubric] table" in error.message


def test_key_lines_ignore_multi_line_strings() -> None:
    lines = TomlKeyLines('note = """\nselect = not a key\n"""\nselect = ["A"]\n')
    assert lines.line(("select",)) == 4


# --------------------------------------------------------------------------- overrides
def test_command_line_select_replaces_and_ignore_extends(tmp_path: Path) -> None:
    config = load_config_file(write(tmp_path / "rubric.toml", 'select = ["Z901"]\nignore = ["Z902"]\n'))
    overridden = apply_overrides(config, select=["Z902,Z903"], ignore=["Z903"], fail_level=Severity.INFO)
    assert overridden.lint.select == ("Z902", "Z903") and overridden.lint.ignore == ("Z902", "Z903")
    assert overridden.lint.fail_level is Severity.INFO and overridden.source == config.source


def test_unknown_rule_on_the_command_line_is_an_error_without_a_file() -> None:
    with pytest.raises(ConfigError) as caught:
        apply_overrides(ProjectConfig(), ignore=["Z9", "nope"])
    assert caught.value.file is None and "'nope' in '--ignore'" in str(caught.value)


# --------------------------------------------------------------------------- effects
def codes(project: Path, config_text: str, *, fail_level: Severity | None = None) -> tuple[int, list[tuple[str, str]]]:
    """Lint `matters` with `config_text` as rubric.toml: exit code and (code, severity) found."""
    write(project / "rubric.toml", config_text)
    config = apply_overrides(resolve_config([project / "matters"], cwd=project), fail_level=fail_level)
    report = lint_paths([project / "matters"], config.lint)
    return report.exit_code, [(d.code, d.severity.value) for d in report.diagnostics]


def test_select_ignore_severity_and_fail_level_change_the_run(tmp_path: Path) -> None:
    project = make_project(tmp_path)
    every = [("Z902", "warning"), ("Z903", "info"), ("Z901", "error")]
    assert codes(project, 'select = ["Z9"]\n') == (1, every)
    assert codes(project, 'select = ["Z9"]\nignore = ["Z901"]\n') == (0, every[:2])
    assert codes(project, 'select = ["test-document-todo"]\n') == (0, [("Z902", "warning")])
    assert codes(project, 'select = ["Z902"]\nfail-level = "warning"\n') == (1, [("Z902", "warning")])
    assert codes(project, 'select = ["Z903"]\nfail-level = "warning"\n') == (0, [("Z903", "info")])
    assert codes(project, 'select = ["Z903"]\n', fail_level=Severity.INFO) == (1, [("Z903", "info")])
    assert codes(project, 'select = ["Z901"]\nseverity = { Z901 = "warning" }\n') == (0, [("Z901", "warning")])


def lint_cli(project: Path, *paths: str, config: Path | None = None) -> tuple[int, str, str]:
    stdout, stderr = io.StringIO(), io.StringIO()
    options = LintOptions(
        paths=[Path(p) for p in paths], output_format=OutputFormat.CONCISE, config_file=config, cwd=project
    )
    return run_lint(options, stdout, stderr), stdout.getvalue(), stderr.getvalue()


def test_a_configuration_error_exits_2_with_file_and_line(tmp_path: Path) -> None:
    project = make_project(tmp_path)
    write(project / "rubric.toml", 'select = ["Z9"]\nfail-level = "error"\nfail_levels = 1\n')
    code, out, err = lint_cli(project, "matters")
    assert (code, out) == (2, "")
    assert err.startswith(f"error: {project / 'rubric.toml'}:3: unknown configuration key 'fail_levels'")


def test_config_option_overrides_discovery(tmp_path: Path) -> None:
    project = make_project(tmp_path)
    write(project / "rubric.toml", 'select = ["Z901"]\n')
    other = write(tmp_path / "ci" / "strict.toml", 'select = ["Z902"]\nfail-level = "warning"\n')
    code, out, _ = lint_cli(project, "matters", config=other)
    assert code == 1 and " Z902 " in out and " Z901 " not in out
    missing = lint_cli(project, "matters", config=Path("nope.toml"))
    assert missing[0] == 2 and "configuration file nope.toml does not exist" in missing[2]


def test_matter_dirs_are_linted_when_no_path_is_given(tmp_path: Path) -> None:
    project = make_project(tmp_path)
    (project / "matters" / "clean").rename(project / "clean-elsewhere")
    write(project / "pyproject.toml", '[tool.rubric]\nselect = ["Z9"]\nmatter-dirs = ["clean-elsewhere"]\n')
    code, out, _ = lint_cli(project / "clean-elsewhere")  # cwd inside: discovery still finds the project file
    assert (code, out) == (0, "All checks passed (1 matter).\n")
    code, out, _ = lint_cli(project)
    assert (code, out) == (0, "All checks passed (1 matter).\n")


def test_missing_matter_dir_is_a_usage_error(tmp_path: Path) -> None:
    project = make_project(tmp_path)
    write(project / "rubric.toml", 'matter-dirs = ["matters", "gone"]\nselect = ["Z9"]\n')
    code, out, err = lint_cli(project)
    assert code == 2 and "gone: no such file or directory" in err
    assert out.endswith("in 1 of 2 matters.\n")  # the matters that exist are still linted
