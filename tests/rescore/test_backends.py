"""The conformance corpus reproduces under its own matters; every backend gives the same rows."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

import rubric_tools
from rubric_tools.rescore import outputs
from rubric_tools.rescore.run import RescoreOptions, rescore
from tests.conftest import REPO_ROOT
from tests.rescore.support import copy_matters, episodes_lines, run

SCHEMA = json.loads((REPO_ROOT / "schemas" / "rescore-output.schema.json").read_text(encoding="utf-8"))


def test_the_conformance_corpus_reproduces_every_recorded_result(conformance: Path) -> None:
    """Each trajectory with its `.expected.json` is an archive record with a recorded result."""
    result, rows, problems = run([conformance / "trajectories"], matters=conformance / "matters", jobs=2)
    assert problems == []
    assert len(rows) == 517
    assert result.summary.total.changed == 0
    assert result.summary.total.reproduced == result.summary.total.recorded == 517
    assert result.exit_code == 0


@pytest.fixture(scope="module")
def archive(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, Path]:
    """An episodes archive with a malformed line, scored against an edited base."""
    root = tmp_path_factory.mktemp("backends")
    base = copy_matters(root / "base")
    current = copy_matters(root / "current")
    rubric = current / "ai_saas_001" / "rubric.yaml"
    rubric.write_text(
        rubric.read_text(encoding="utf-8").replace(
            "    critical_failure_patterns:\n", "    critical_failure_patterns:\n      - '\\bopt-in\\b'\n", 1
        ),
        encoding="utf-8",
    )
    lines = episodes_lines(base) * 3
    lines.insert(5, "{not json")
    path = root / "episodes.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path, current, base


def valid_episodes(path: Path) -> int:
    """Three copies of every bundled trajectory: all lines of the archive but the malformed one."""
    return len(path.read_text(encoding="utf-8").splitlines()) - 1


def test_serial_and_process_pool_give_identical_rows(archive: tuple[Path, Path, Path]) -> None:
    path, current, base = archive
    _, serial, serial_problems = run([path], matters=current, base=base, jobs=1)
    _, pooled, pooled_problems = run([path], matters=current, base=base, jobs=2)
    assert serial == pooled and len(serial) == valid_episodes(path)
    assert [(p.code, p.line) for p in serial_problems] == [(p.code, p.line) for p in pooled_problems] == [("R002", 6)]
    assert any(row["changed"] for row in serial)


def test_ray_gives_the_same_rows(archive: tuple[Path, Path, Path], ray_cluster: Any) -> None:
    path, current, base = archive
    _, serial, _ = run([path], matters=current, base=base, jobs=1)
    _, on_ray, problems = run([path], matters=current, base=base, backend="ray")
    assert on_ray == serial
    assert [(p.code, p.line) for p in problems] == [("R002", 6)]
    # Without --matters the driver parses the records and finds their matters itself.
    trajectories = current / "ai_saas_001" / "trajectories"
    assert run([trajectories], backend="ray")[1] == run([trajectories], jobs=1)[1]


def test_score_batch_takes_columns_or_a_dataframe(archive: tuple[Path, Path, Path]) -> None:
    path, current, base = archive
    _, serial, _ = run([path], matters=current, base=base, jobs=1)
    episodes = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()[:4]]
    batch = {"matter_id": [e["matter_id"] for e in episodes], "actions": [json.dumps(e["actions"]) for e in episodes]}
    scored = rubric_tools.score_batch(batch, current, base=base)
    got = [json.loads(text)["row"] for text in scored["rescore"]]
    assert [(r["current"], r["base"], r["delta"]) for r in got] == [
        (r["current"], r["base"], r["delta"]) for r in serial[:4]
    ]
    assert scored["changed"] == [r["changed"] for r in serial[:4]]
    pandas = pytest.importorskip("pandas")
    frame = rubric_tools.score_batch(
        pandas.DataFrame(batch), {"ai_saas_001": current / "ai_saas_001", "clean_saas_002": current / "clean_saas_002"}
    )
    assert list(frame["current_normalized_score"]) == [r["current"]["normalized_score"] for r in serial[:4]]
    lines = path.read_text(encoding="utf-8").splitlines()[:4]
    whole = rubric_tools.score_batch({"episode": lines}, current, base=base)
    assert [json.loads(text)["row"]["current"] for text in whole["rescore"]] == [r["current"] for r in serial[:4]]
    assert [json.loads(text)["row"]["reproduced"] for text in whole["rescore"]] == [r["reproduced"] for r in serial[:4]]
    unknown = rubric_tools.score_batch({"matter_id": ["nope"], "actions": ["[]"]}, current)
    assert json.loads(unknown["rescore"][0])["problem"]["code"] == "R003"


def test_resume_continues_an_interrupted_run(
    archive: tuple[Path, Path, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path, current, base = archive
    out = tmp_path / "rows.jsonl"
    monkeypatch.setattr(outputs, "CHECKPOINT_EVERY", 4)
    seen: list[dict[str, Any]] = []

    def interrupt_after_ten(row: dict[str, Any]) -> None:
        seen.append(row)
        if len(seen) == 10:
            raise KeyboardInterrupt

    options = RescoreOptions(archives=[path], matters=current, base=base, jobs=1, out=out, resume=True)
    with pytest.raises(KeyboardInterrupt):
        rescore(options, on_row=interrupt_after_ten)
    assert not out.exists() and json.loads(out.with_name("rows.jsonl.checkpoint.json").read_text())["done"] >= 8

    scored_again: list[dict[str, Any]] = []
    resumed = rescore(options, tick=scored_again.append)
    _, clean, _ = run([path], matters=current, base=base, jobs=1)
    assert [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()] == clean
    assert len(scored_again) < len(clean) and resumed.resumed_rows == len(clean) - len(scored_again)
    assert resumed.summary.total.trajectories == len(clean)
    assert not out.with_name("rows.jsonl.checkpoint.json").exists()


def test_resume_starts_over_when_the_rubric_changed(
    archive: tuple[Path, Path, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path, current, base = archive
    out = tmp_path / "rows.jsonl"
    monkeypatch.setattr(outputs, "CHECKPOINT_EVERY", 2)
    options = RescoreOptions(archives=[path], matters=base, jobs=1, out=out, resume=True)

    def interrupt(row: dict[str, Any]) -> None:
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        rescore(options, on_row=interrupt)
    rows = list(outputs.RowFile(out, "other-key").partial.read_text().splitlines())
    assert len(rows) <= 1
    resumed = rescore(RescoreOptions(archives=[path], matters=current, jobs=1, out=out, resume=True))
    assert resumed.resumed_rows == 0 and resumed.summary.total.trajectories == valid_episodes(path)


def test_parquet_rows_match_the_jsonl_rows(archive: tuple[Path, Path, Path], tmp_path: Path) -> None:
    pq = pytest.importorskip("pyarrow.parquet")
    path, current, base = archive
    run([path], matters=current, base=base, jobs=1, out=tmp_path / "rows.parquet")
    _, rows, _ = run([path], matters=current, base=base, jobs=1)
    table = pq.read_table(tmp_path / "rows.parquet").to_pylist()
    assert [outputs.flat_row(row) for row in rows] == table


def test_json_output_validates_against_the_schema(archive: tuple[Path, Path, Path]) -> None:
    from jsonschema import Draft202012Validator
    from typer.testing import CliRunner

    from rubric_tools.cli.app import app

    path, current, base = archive
    done = CliRunner().invoke(
        app,
        [
            "rescore",
            str(path),
            "--matters",
            str(current),
            "--base",
            str(base),
            "-j",
            "1",
            "--output-format",
            "json",
            "--max-changed",
            "0",
        ],
    )
    document = json.loads(done.stdout)
    Draft202012Validator(SCHEMA).validate(document)
    assert done.exit_code == 2  # the malformed line is an input error, which outranks the threshold
    assert document["breaches"] and document["exit_code"] == 2
    assert [d["code"] for d in document["diagnostics"]] == ["R002"]


def test_thresholds_fail_the_run(archive: tuple[Path, Path, Path], tmp_path: Path) -> None:
    path, current, base = archive
    clean = tmp_path / "clean.jsonl"
    clean.write_text("\n".join(line for line in path.read_text().splitlines() if line != "{not json") + "\n")
    from rubric_tools.rescore.summary import Thresholds

    def exit_code(**thresholds: Any) -> int:
        return run([clean], matters=current, base=base, jobs=1, thresholds=Thresholds(**thresholds))[0].exit_code

    assert exit_code() == 0
    assert exit_code(max_changed=0) == 1
    assert exit_code(max_changed=1000) == 0
    assert exit_code(fail_on_critical_flip=True) == 1
    assert exit_code(max_mean_drift=0.01) == 1
    assert exit_code(max_mean_drift=1.0) == 0


@pytest.fixture(scope="module")
def ray_cluster() -> Any:
    """One small local Ray cluster for this module (Ray is the `ray` extra). The quick start's
    test run has no extra installed, so only RUBRIC_REQUIRE_RAY=1 (set by CI's extras step,
    after it installs the extra) turns a missing Ray into a failure."""
    try:
        import ray
    except ImportError:
        if os.environ.get("RUBRIC_REQUIRE_RAY") == "1":
            pytest.fail("Ray is not installed: CI's extras step installs the `ray` extra")
        pytest.skip("Ray is not installed (pip install -e '.[ray]')")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False)
    yield ray
    ray.shutdown()
