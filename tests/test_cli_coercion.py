"""Plain parameters convert without typer's pydantic adapters, to the same values and
with typer's own errors (numbers excepted: ours are click's clearer messages): the same
command lines run through typer's public test runner with our conversion installed and,
in another process, without it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import REPO_ROOT

_PROBE = """
import enum, json, sys
from pathlib import Path
from typing import Annotated
import typer
from typer.testing import CliRunner

if sys.argv[1] == "plain":
    from rubric_tools.cli import coercion
    coercion.install()

class Colour(str, enum.Enum):
    RED = "red"
    DARK_BLUE = "dark-blue"

def run(checks, arguments):
  app = typer.Typer()

  @app.command()
  def probe(
      paths: Annotated[list[Path] | None, typer.Argument(**checks)] = None,
      one: Annotated[Path | None, typer.Option("--one", **checks)] = None,
      colour: Annotated[Colour, typer.Option("--colour", case_sensitive=False)] = Colour.RED,
      count: Annotated[int, typer.Option("--count", min=0, max=9)] = 0,
      ratio: Annotated[float, typer.Option("--ratio")] = 0.0,
      text: Annotated[str, typer.Option("--text")] = "",
  ) -> None:
      values = [*(paths or []), one, colour, count, ratio, text]
      print(json.dumps([[type(value).__name__, str(value)] for value in values]))

  result = CliRunner().invoke(app, arguments)
  return [result.exit_code, result.output]

print(json.dumps([run(checks, arguments) for checks, arguments in json.loads(sys.argv[2])]))
"""

#: Every (checks, command line) tried; the paths are relative to the folder they run in.
_PATH_CHECKS = [{}, {"exists": True}, {"dir_okay": False}, {"file_okay": False}, {"readable": False}]
_CASES = [
    *([checks, [name, name, "--one", name]] for checks in _PATH_CHECKS for name in ("file.yaml", ".", "missing.yaml")),
    [{}, ["--colour", "DARK-blue", "--count", "3", "--ratio", "0.5", "--text", "x"]],
    [{}, ["--colour", "green"]],
    [{}, ["--count", "10"]],
    [{}, ["--count", "three"]],
    [{}, ["--ratio", "nan"]],
]


def _run(mode: str, cwd: Path) -> list[Any]:
    completed = subprocess.run(
        [sys.executable, "-c", _PROBE, mode, json.dumps(_CASES)],
        cwd=cwd,
        env={"PYTHONPATH": str(REPO_ROOT), "PATH": "/usr/bin:/bin", "COLUMNS": "200", "NO_COLOR": "1"},
        capture_output=True,
        text=True,
        check=True,
        timeout=300,
    )
    results: list[Any] = json.loads(completed.stdout.strip().splitlines()[-1])
    return results


@pytest.fixture(scope="module")
def both(tmp_path_factory: pytest.TempPathFactory) -> tuple[list[Any], list[Any]]:
    folder = tmp_path_factory.mktemp("coercion")
    (folder / "file.yaml").write_text("x: 1\n", encoding="utf-8")
    return _run("plain", folder), _run("typer", folder)


def test_values_convert_as_typer_converts_them(both: tuple[list[Any], list[Any]]) -> None:
    plain, typers = both
    for case, ours, theirs in zip(_CASES, plain, typers, strict=True):
        checks, arguments = case
        if theirs[0] != 0 and arguments[:1] == ["--count"]:  # number errors: click's wording
            assert ours[0] == theirs[0] and "Invalid value for '--count'" in ours[1], (case, ours, theirs)
        else:
            assert ours == theirs, case


def test_the_probe_exercises_both_outcomes(both: tuple[list[Any], list[Any]]) -> None:
    """Accepted and rejected command lines are both among the cases (the test can fail)."""
    assert {code for code, _ in both[1]} == {0, 2}
