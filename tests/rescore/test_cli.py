"""`rubric rescore` on the command line: usage errors, the table, escaping, no progress in a pipe."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from rubric_tools.cli.app import app
from rubric_tools.rescore import outputs
from tests.rescore.support import copy_matters, episodes_lines


def _invoke(*args: str) -> tuple[int, str, str]:
    done = CliRunner(env={"COLUMNS": "400"}).invoke(app, ["rescore", *args])
    return done.exit_code, done.stdout, done.stderr


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--base", "x", "--base-rev", "HEAD"], "cannot be used together"),
        (["--resume"], "--resume needs --out"),
        (["--out", "rows.csv"], "must end in .jsonl or .parquet"),
        (["--jobs", "0"], "--jobs must be at least 1"),
        (["--backend", "ray", "--resume", "--out", "r.jsonl"], "process backend only"),
    ],
)
def test_usage_errors_exit_2_with_a_message(tmp_path: Path, extra: list[str], message: str) -> None:
    matters = copy_matters(tmp_path)
    code, stdout, stderr = _invoke(str(matters), "--matters", str(matters), *extra)
    assert code == 2 and message in stderr and stdout == ""


def test_parquet_without_pyarrow_is_a_usage_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(outputs, "parquet_available", lambda: False)
    code, _, stderr = _invoke(str(tmp_path), "--out", str(tmp_path / "rows.parquet"))
    assert code == 2 and "needs pyarrow" in stderr


def test_the_table_escapes_archive_text_and_shows_no_progress_in_a_pipe(tmp_path: Path) -> None:
    base = copy_matters(tmp_path / "base")
    current = copy_matters(tmp_path / "current")
    rubric = current / "ai_saas_001" / "rubric.yaml"
    rubric.write_text(
        rubric.read_text(encoding="utf-8").replace(
            "    critical_failure_patterns:\n", "    critical_failure_patterns:\n      - '[bold]?opt-in'\n", 1
        ),
        encoding="utf-8",
    )
    archive = tmp_path / "[red]run.jsonl"
    archive.write_text("\n".join(episodes_lines(base)) + "\n", encoding="utf-8")
    code, stdout, stderr = _invoke(
        str(archive), "--matters", str(current), "--base", str(base), "-j", "1", "--fail-on-critical-flip"
    )
    assert code == 1
    assert "[red]run.jsonl#" in stdout
    assert "'[bold]?opt-in'" in stdout
    assert "threshold broken" in stdout and "critical-failure flips" in stdout
    assert "rescoring" not in stderr  # the progress bar is for terminals only


def test_json_rows_equal_the_out_file(tmp_path: Path) -> None:
    matters = copy_matters(tmp_path)
    archive = tmp_path / "episodes.jsonl.gz"
    import gzip

    archive.write_bytes(gzip.compress(("\n".join(episodes_lines(matters)) + "\n").encode()))
    out = tmp_path / "rows.jsonl"
    code, stdout, _ = _invoke(str(archive), "--matters", str(matters), "-j", "2", "--format", "json", "--out", str(out))
    document = json.loads(stdout)
    assert code == 0
    assert document["rows"] == [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert document["summary"]["total"]["reproduced"] == len(document["rows"])
    assert not list(tmp_path.glob("rows.jsonl.*"))  # no partial file or checkpoint left behind


def test_a_base_rev_outside_git_is_an_error_with_nothing_on_stdout(tmp_path: Path) -> None:
    matters = copy_matters(tmp_path)
    code, stdout, stderr = _invoke(
        str(matters / "ai_saas_001" / "trajectories"),
        "--matters",
        str(matters),
        "--base-rev",
        "HEAD",
        "--format",
        "json",
    )
    assert code == 2 and stdout == "" and "error:" in stderr


def test_the_progress_bar_counts_rows_when_asked_for(tmp_path: Path) -> None:
    import io

    from rubric_tools.commands.rescore import RescoreCommandOptions, run_rescore
    from rubric_tools.rescore.run import RescoreOptions

    matters = copy_matters(tmp_path)
    stdout, stderr = io.StringIO(), io.StringIO()
    options = RescoreOptions([matters / "ai_saas_001" / "trajectories"], matters=matters, jobs=1, progress=True)
    assert run_rescore(RescoreCommandOptions(options), stdout, stderr) == 0
    assert "rows" in stdout.getvalue() and "Traceback" not in stderr.getvalue()
