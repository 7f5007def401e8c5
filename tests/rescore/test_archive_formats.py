"""Every archive format, plain and gzipped, read into the same trajectories."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from tests.rescore.support import (
    copy_matters,
    episodes_lines,
    run,
    scores,
    trajectories,
    write_jsonl_layout,
    write_traces,
)


@pytest.fixture(scope="module")
def matters(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return copy_matters(tmp_path_factory.mktemp("rescore-formats"))


def test_jsonl_trajectories_by_folder_layout_reproduce_their_sidecar_results(matters: Path, tmp_path: Path) -> None:
    write_jsonl_layout(matters, tmp_path)
    result, rows, problems = run([tmp_path], matters=matters, jobs=1)
    assert problems == []
    assert len(rows) == len(trajectories(matters)) >= 10
    assert all(row["reproduced"] is True and row["changed"] is False for row in rows)
    assert result.summary.total.reproduced == len(rows)
    assert result.exit_code == 0


def test_jsonl_trajectories_find_their_matter_like_replay(matters: Path) -> None:
    """No --matters: each trajectory's matter is the folder above it, as `rubric replay` finds it."""
    result, rows, problems = run([matters / "ai_saas_001" / "trajectories"], jobs=1)
    assert problems == [] and {row["matter_id"] for row in rows} == {"ai_saas_001"}
    assert all(row["recorded"] is None and row["reproduced"] is None for row in rows)


def test_all_formats_plain_and_gzipped_give_the_same_scores(matters: Path, tmp_path: Path) -> None:
    lines = episodes_lines(matters)
    (tmp_path / "episodes.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (tmp_path / "episodes.jsonl.gz").write_bytes(gzip.compress(("\n".join(lines) + "\n").encode()))
    traces = write_traces(matters, tmp_path / "traces")
    gz_trace = tmp_path / "gz" / (traces[0].name + ".gz")
    gz_trace.parent.mkdir()
    gz_trace.write_bytes(gzip.compress(traces[0].read_bytes()))
    layout = tmp_path / "layout"
    write_jsonl_layout(matters, layout, gzipped=True)

    _, jsonl_rows, _ = run([layout], matters=matters, jobs=1)
    _, episode_rows, p1 = run([tmp_path / "episodes.jsonl"], matters=matters, jobs=1)
    _, gz_rows, p2 = run([tmp_path / "episodes.jsonl.gz"], matters=matters, jobs=1)
    _, trace_rows, p3 = run([tmp_path / "traces"], matters=matters, jobs=1)
    _, gz_trace_rows, p4 = run([gz_trace], matters=matters, jobs=1)
    assert p1 == p2 == p3 == p4 == []
    assert scores(episode_rows) == scores(gz_rows) == scores(jsonl_rows)
    assert sorted(map(str, scores(trace_rows))) == sorted(map(str, scores(jsonl_rows)))
    assert scores(gz_trace_rows) == [(trace_rows[0]["matter_id"], trace_rows[0]["current"])]
    assert [row["source"]["index"] for row in episode_rows] == list(range(len(lines)))
    assert all(row["reproduced"] for row in episode_rows + trace_rows + jsonl_rows)


def test_malformed_records_are_reported_with_their_line_and_skipped(matters: Path, tmp_path: Path) -> None:
    good = episodes_lines(matters)[:3]
    bad = [
        good[0],
        '{"matter_id": "ai_saas_001", "actions": [',  # line 2: not JSON
        json.dumps({"actions": []}),  # line 3: no matter id
        good[1],
        json.dumps({"matter_id": "ai_saas_001", "actions": [1, 2]}),  # line 5: action not an object
        json.dumps({"matter_id": "no_such_matter", "actions": []}),  # line 6: unknown matter
        good[2],
    ]
    archive = tmp_path / "episodes.jsonl"
    archive.write_text("\n".join(bad) + "\n", encoding="utf-8")
    result, rows, problems = run([archive], matters=matters, jobs=1)
    assert [(p.code, p.line) for p in problems] == [("R002", 2), ("R002", 3), ("R002", 5), ("R003", 6)]
    assert all(p.file == archive for p in problems)
    assert [row["source"]["line"] for row in rows] == [1, 4, 7]
    assert result.summary.skipped == 4 and result.exit_code == 2


def test_broken_files_are_reported_and_the_rest_is_read(matters: Path, tmp_path: Path) -> None:
    write_jsonl_layout(matters, tmp_path / "ok")
    corrupt = tmp_path / "ok" / "corrupt.jsonl.gz"
    corrupt.write_bytes(gzip.compress(b'{"type": "read_document"}\n')[:-12])  # truncated gzip
    bad_trace = tmp_path / "ok" / "broken.trace.json"
    bad_trace.write_text('{"matter": "ai_saas_001", "events": [\n  {"action": {}},\n', encoding="utf-8")
    bad_line = tmp_path / "ok" / "trajectories" / "ai_saas_001" / "bad_line.jsonl"
    bad_line.write_text('{"type": "read_document"}\n[1]\n', encoding="utf-8")
    result, rows, problems = run([tmp_path / "ok", tmp_path / "missing"], matters=matters, jobs=1)
    found = sorted((p.code, p.file.name, p.line) for p in problems)
    assert ("R001", "corrupt.jsonl.gz", 1) in found
    assert ("R002", "bad_line.jsonl", 2) in found
    assert ("R001", "missing", 1) in found
    assert any(code == "R002" and name == "broken.trace.json" for code, name, _ in found)
    assert len(rows) == len(trajectories(matters))
    assert result.exit_code == 2


def test_an_empty_folder_is_an_error(tmp_path: Path) -> None:
    result, rows, problems = run([tmp_path])
    assert rows == [] and [p.code for p in problems] == ["R009"] and result.exit_code == 2


def test_a_matter_that_does_not_load_is_reported_once_and_its_trajectories_skipped(
    matters: Path, tmp_path: Path
) -> None:
    broken = tmp_path / "matters"
    import shutil

    shutil.copytree(matters, broken)
    (broken / "clean_saas_002" / "rubric.yaml").write_text("issues: [\n", encoding="utf-8")
    archive = tmp_path / "episodes.jsonl"
    archive.write_text("\n".join(episodes_lines(matters)) + "\n", encoding="utf-8")
    result, rows, problems = run([archive], matters=broken, jobs=1)
    assert [p.code for p in problems] == ["R004"] and "clean_saas_002" in problems[0].message
    assert {row["matter_id"] for row in rows} == {"ai_saas_001"}
    in_broken = sum(1 for matter_id, _ in trajectories(matters) if matter_id == "clean_saas_002")
    assert result.summary.skipped == len(trajectories(matters)) - len(rows) == in_broken > 0
    assert result.exit_code == 2


def test_a_record_the_scorer_cannot_handle_is_reported_not_fatal(
    matters: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from rubric_tools.rescore import worker

    real = worker._score

    def fragile(matter: worker.LoadedMatter, actions: tuple[object, ...]) -> object:
        if len(actions) == 1:
            raise RuntimeError("boom")
        return real(matter, actions)  # type: ignore[arg-type]

    monkeypatch.setattr(worker, "_score", fragile)
    archive = tmp_path / "episodes.jsonl"
    lines = episodes_lines(matters)[:2]
    lines.insert(1, json.dumps({"matter_id": "ai_saas_001", "actions": [{"type": "submit_final"}]}))
    archive.write_text("\n".join(lines) + "\n", encoding="utf-8")
    result, rows, problems = run([archive], matters=matters, jobs=1)
    assert [(p.code, p.line) for p in problems] == [("R006", 2)] and "boom" in problems[0].message
    assert len(rows) == 2 and result.exit_code == 2


def test_a_recorded_result_of_400_digit_numbers_is_no_score(matters: Path, tmp_path: Path) -> None:
    """A recorded raw_score, or an event's points, beyond any float: the record is scored and
    its recorded result, having no comparable score, is not compared (as a string would be)."""
    huge_score, huge_points = (json.loads(episodes_lines(matters)[0]) for _ in range(2))
    huge_score["result"]["raw_score"] = int("9" * 400)
    for event in huge_points["result"]["breakdown"]["reward_events"]:
        event["points"] = int("9" * 400)  # the recorded scores stand: its events are compared
    archive = tmp_path / "episodes.jsonl"
    archive.write_text(f"{json.dumps(huge_score)}\n{json.dumps(huge_points)}\n", encoding="utf-8")
    result, rows, problems = run([archive], matters=matters, jobs=1)
    assert problems == [] and len(rows) == 2, problems
    assert rows[0]["reproduced"] is None and rows[1]["reproduced"] is True
