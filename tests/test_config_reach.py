"""One configuration, everywhere: the file named only by `--config` (outside the
repository, so discovery never finds it) reaches every row of `rubric check` (lint,
trajectories, attack, audit, coverage) and every command that has the option, exactly as
a discovered one would. Each setting below changes its row's verdict or its expectation."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from rubric_tools.cli import main

MATTER_ID = "reach_nda_001"
SETTINGS = """\
canary = "a-canary-the-matter-lacks-1"
[check]
strict = true
[attack]
max-fraction-of-reference = 0.01
[audit]
fail-on = ["U003"]
[coverage]
fail-under-matter = 90
"""


@pytest.fixture(scope="module")
def setup(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A `rubric new` repository with no configuration (and a trajectory no expectation
    covers), and a settings file elsewhere."""
    root = tmp_path_factory.mktemp("reach")
    repository = root / "repository"
    repository.mkdir()
    (repository / ".git").mkdir()
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(repository)
        assert main(["new", MATTER_ID]) == 0
    matter = repository / "matters" / MATTER_ID
    reference = (matter / "trajectories" / "reference.yaml").read_text(encoding="utf-8")
    (matter / "trajectories" / "uncovered.yaml").write_text(reference, encoding="utf-8")
    settings = root / "elsewhere" / "settings.toml"
    settings.parent.mkdir()
    settings.write_text(SETTINGS, encoding="utf-8")
    return matter, settings


def _check(matter: Path, *options: str) -> dict[tuple[str, str], Any]:
    return {(row["kind"], row["name"]): row for row in _check_rows(matter, *options)}


def _check_rows(matter: Path, *options: str) -> list[Any]:
    import contextlib
    import io

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        main(["check", "--coverage", "--output-format", "json", *options, str(matter)])
    checks: list[Any] = json.loads(out.getvalue())["matters"][0]["checks"]
    return checks


@pytest.fixture(scope="module")
def rows(setup: tuple[Path, Path]) -> tuple[dict[tuple[str, str], Any], dict[tuple[str, str], Any]]:
    """`rubric check --coverage` rows without the file, and with `--config FILE`."""
    matter, settings = setup
    return _check(matter), _check(matter, "--config", str(settings))


Rows = tuple[dict[tuple[str, str], Any], dict[tuple[str, str], Any]]


def test_config_reaches_the_lint_row(rows: Rows) -> None:
    plain, configured = rows
    assert plain[("lint", "rubric lint")]["passed"]
    assert not configured[("lint", "rubric lint")]["passed"]  # the configured canary is missing (V002)
    assert "V002" in configured[("lint", "rubric lint")]["detail"]


def test_config_reaches_the_trajectory_rows(rows: Rows) -> None:
    plain, configured = rows
    assert plain[("trajectory", "uncovered.yaml")]["passed"]  # a warning (M003) without strict
    assert not configured[("trajectory", "uncovered.yaml")]["passed"]


def test_config_reaches_the_attack_rows(rows: Rows) -> None:
    plain, configured = rows
    attacks = [name for kind, name in plain if kind == "attack"]
    assert attacks and all(plain[("attack", name)]["passed"] for name in attacks)
    assert all("0.01 x reference" in configured[("attack", name)]["expected"] for name in attacks)
    assert not all(configured[("attack", name)]["passed"] for name in attacks)


def test_config_reaches_the_audit_row(rows: Rows) -> None:
    plain, configured = rows
    assert "U003" not in plain[("audit", "rubric audit")]["expected"]
    assert "U003" in configured[("audit", "rubric audit")]["expected"]


def test_config_reaches_the_coverage_row(rows: Rows) -> None:
    plain, configured = rows
    assert plain[("coverage", "rubric coverage")]["passed"]
    assert not configured[("coverage", "rubric coverage")]["passed"]
    assert "90" in configured[("coverage", "rubric coverage")]["expected"]


@pytest.mark.parametrize("command", ["attack", "coverage"])
def test_config_reaches_the_commands(
    setup: tuple[Path, Path], command: str, capsys: pytest.CaptureFixture[str]
) -> None:
    matter, settings = setup
    assert main([command, str(matter)]) == 0
    assert main([command, "--config", str(settings), str(matter)]) == 1
    capsys.readouterr()


def test_config_reaches_the_audit_command(setup: tuple[Path, Path], capsys: pytest.CaptureFixture[str]) -> None:
    matter, settings = setup
    broken = settings.parent / "broken.toml"
    broken.write_text('[audit]\nfail-on = ["Z999"]\n', encoding="utf-8")
    assert main(["audit", "--config", str(broken), str(matter)]) == 2
    assert f"{broken}:2" in capsys.readouterr().err
    assert main(["audit", "--config", str(settings), "--output-format", "json", str(matter)]) == 0
