"""Never pass on nothing: `rubric lint`, `check`, `audit` and `coverage` with no path work
on the configured matter-dirs, else the matters discovered from the current folder (the
folders below it holding matter.yaml, or the matter it is inside), and exit 2 with a
message saying where they looked when there is none. The repository is the one `rubric
new` makes, with no configuration at all."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rubric_tools.cli import main

MATTER_ID = "fresh_nda_001"
#: command → the option that makes its report JSON, and where the JSON lists the matters.
COMMANDS = {
    "lint": (["--output-format", "json"], lambda report: report["summary"]["matters"]),
    "check": (["--output-format", "json"], lambda report: [m["matter_id"] for m in report["matters"]]),
    "audit": (["--output-format", "json"], lambda report: [m["matter_id"] for m in report["matters"]]),
    "coverage": (["--output-format", "json"], lambda report: [m["matter_id"] for m in report["matters"]]),
}


@pytest.fixture(scope="module")
def repository(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("repository")
    (root / ".git").mkdir()  # a repository of its own: no configuration above it applies
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(root)
        assert main(["new", MATTER_ID]) == 0
    assert not (root / "pyproject.toml").exists() and not (root / "rubric.toml").exists()
    return root


@pytest.mark.parametrize("command", sorted(COMMANDS))
@pytest.mark.parametrize("where", ["root", "inside the matter", "inside a matter folder"])
def test_no_path_finds_the_matter(
    repository: Path, command: str, where: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    matter = repository / "matters" / MATTER_ID
    folder = {"root": repository, "inside the matter": matter, "inside a matter folder": matter / "documents"}[where]
    monkeypatch.chdir(folder)
    json_option, matters_of = COMMANDS[command]
    code = main([command, *json_option])
    out, err = capsys.readouterr()
    assert code == 0, err
    found = matters_of(json.loads(out))
    assert found == 1 if command == "lint" else found == [MATTER_ID], found


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_no_matter_is_exit_2_saying_where_it_looked(
    tmp_path: Path, command: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / ".git").mkdir()
    (tmp_path / "notes.md").write_text("no matter here\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert main([command]) == 2
    out, err = capsys.readouterr()
    assert f"{tmp_path}: no matter" in err
    assert "passed" not in out and "100.0%" not in out and "Audited 0" not in out


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_configured_matter_dirs_with_no_matter_is_exit_2(
    tmp_path: Path, command: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "rubric.toml").write_text('matter-dirs = ["matters"]\n', encoding="utf-8")
    (tmp_path / "matters").mkdir()
    monkeypatch.chdir(tmp_path)
    assert main([command]) == 2
    assert f"{tmp_path / 'matters'}: no matter" in capsys.readouterr().err


def test_an_empty_path_list_checks_nothing_loudly() -> None:
    from rubric_tools.loading.layout import matters_to_check

    roots, problems = matters_to_check([])
    assert roots == [] and problems and "no matter" in problems[0]
