"""Streaming `rubric replay`: inputs as folders, globs, @LISTFILE and stdin; JSON Lines;
parallel workers; output written as each trajectory finishes; memory flat in their number."""

from __future__ import annotations

import datetime
import io
import json
import tracemalloc
from pathlib import Path

import jsonschema
import pytest
import referencing

from rubric_tools import replaying
from rubric_tools.cli import main
from rubric_tools.commands.replay import ReplayOptions, run_replay
from tests.conftest import REPO_ROOT
from tests.test_replay_cli import REFERENCE, jsonl, layout  # noqa: F401  (layout is a fixture)

SCHEMAS = {
    name: json.loads((REPO_ROOT / "schemas" / name).read_text(encoding="utf-8"))
    for name in ("replay-output.schema.json", "replay-record.schema.json")
}
REGISTRY = referencing.Registry().with_resources(
    (schema["$id"], referencing.Resource.from_contents(schema)) for schema in SCHEMAS.values()
)
RECORD_VALIDATOR = jsonschema.Draft202012Validator(SCHEMAS["replay-record.schema.json"], registry=REGISTRY)


def _trajectories(root: Path, count: int) -> list[Path]:
    folder = root / "matters/base_fixture/runs"
    folder.mkdir(exist_ok=True)
    paths = []
    for index in range(count):
        path = folder / f"t{index:03d}.jsonl"
        # Vary the episode a little so the records differ.
        path.write_text(jsonl(REFERENCE[: 1 + index % len(REFERENCE)]), encoding="utf-8")
        paths.append(path)
    return paths


def _run(*args: str, stdin: str = "") -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    formats = {"--format": "output_format", "--output-format": "output_format", "-j": "jobs", "--jobs": "jobs"}
    options: dict[str, object] = {}
    arguments: list[str] = []
    items = iter(args)
    for arg in items:
        if arg in formats:
            value = next(items)
            options[formats[arg]] = int(value) if formats[arg] == "jobs" else value
        else:
            arguments.append(arg)
    code = run_replay(ReplayOptions(arguments=arguments, **options), io.StringIO(stdin), out, err)  # type: ignore[arg-type]
    return code, out.getvalue(), err.getvalue()


def test_folders_globs_listfiles_and_stdin_name_the_same_trajectories(layout: Path, tmp_path: Path) -> None:  # noqa: F811
    paths = _trajectories(layout, 5)
    listing = tmp_path / "list.txt"
    listing.write_text("# replay these\n\n" + "\n".join(map(str, paths)) + "\n", encoding="utf-8")
    explicit = _run("--format", "jsonl", *map(str, paths))
    assert explicit[0] == 0 and len(explicit[1].splitlines()) == 5
    folder = str(layout / "matters/base_fixture/runs")
    assert _run("--format", "jsonl", folder) == explicit
    assert _run("--format", "jsonl", folder + "/t*.jsonl") == explicit
    assert _run("--format", "jsonl", str(layout) + "/**/t00?.jsonl") == explicit
    assert _run("--format", "jsonl", f"@{listing}") == explicit
    assert _run("--format", "jsonl", "-", stdin=listing.read_text(encoding="utf-8")) == explicit


def test_a_folder_names_its_yaml_trajectories_only_in_trajectory_folders(layout: Path) -> None:  # noqa: F811
    folder = layout / "matters/base_fixture/trajectories"
    (folder / "written.yaml").write_text(
        "- type: read_document\n  document_id: hosting\n  section: '3.1'\n", encoding="utf-8"
    )
    code, out, _ = _run("--format", "jsonl", str(layout / "matters"))
    names = [Path(json.loads(line)["trajectory"]).name for line in out.splitlines()]
    # The matter's own YAML files (matter.yaml, rubric.yaml, ...) are not trajectories.
    assert code == 0 and names == ["reference.jsonl", "written.yaml"]
    assert _run("--format", "jsonl", str(folder))[1] == out


def test_jsonl_has_one_record_per_trajectory_in_input_order(layout: Path) -> None:  # noqa: F811
    paths = _trajectories(layout, 3)
    broken = paths[1].parent / "broken.jsonl"
    broken.write_text("not json\n", encoding="utf-8")
    code, out, err = _run("--format", "jsonl", str(paths[2]), str(broken), str(paths[0]))
    records = [json.loads(line) for line in out.splitlines()]
    for record in records:
        RECORD_VALIDATOR.validate(record)
    assert code == 2 and err == ""
    assert [Path(r["trajectory"]).name for r in records] == ["t002.jsonl", "broken.jsonl", "t000.jsonl"]
    assert records[1]["result"] is None and [d["code"] for d in records[1]["diagnostics"]] == ["T001"]
    assert records[0]["result"]["steps"] == 3 and records[2]["matter_id"] == "base_fixture"


def test_parallel_workers_write_what_one_process_writes(layout: Path, tmp_path: Path) -> None:  # noqa: F811
    paths = [str(p) for p in _trajectories(layout, 12)]
    paths.insert(5, str(tmp_path / "missing.jsonl"))
    for output_format in ("json", "jsonl", "concise", "text"):
        alone = _run("--format", output_format, "-j", "1", *paths)
        assert alone[0] == 2 and "missing.jsonl: no such trajectory file" in alone[2]
        assert _run("--format", output_format, "-j", "2", *paths) == alone, output_format
    traces = []
    for jobs in (1, 2):
        trace = tmp_path / f"trace-{jobs}.json"
        options = ReplayOptions(arguments=paths, output_format="jsonl", trace=trace, jobs=jobs)
        run_replay(options, io.StringIO(), io.StringIO(), io.StringIO())
        traces.append(trace.read_text(encoding="utf-8"))
    assert traces[0] == traces[1] and len(json.loads(traces[0])["replays"]) == 12


def test_json_document_is_the_documented_shape(layout: Path, capsys: pytest.CaptureFixture[str]) -> None:  # noqa: F811
    paths = _trajectories(layout, 2)
    assert main(["replay", "--output-format", "json", "-j", "2", *map(str, paths)]) == 0
    document = json.loads(capsys.readouterr().out)
    assert set(document) == {"version", "replays", "diagnostics", "errors"}
    assert [r["result"]["steps"] for r in document["replays"]] == [1, 2]


def test_each_trajectory_is_written_before_the_next_replays(
    layout: Path,  # noqa: F811
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    paths = _trajectories(layout, 4)
    replayed: list[Path] = []
    real_replay_file = replaying.replay_file

    def counting_replay_file(path: Path, *args: object, **options: bool) -> replaying.TrajectoryReplay:
        replayed.append(path)
        return real_replay_file(path, *args, **options)  # type: ignore[arg-type]

    monkeypatch.setattr("rubric_tools.commands.replay_stream.replay_file", counting_replay_file)

    class Recorder(io.StringIO):
        seen: list[int] = []

        def write(self, text: str) -> int:
            if text.strip():
                self.seen.append(len(replayed))
            return super().write(text)

    out = Recorder()
    options = ReplayOptions(arguments=[str(p) for p in paths], output_format="jsonl")
    assert run_replay(options, io.StringIO(), out, io.StringIO()) == 0
    assert out.seen == [1, 2, 3, 4]


def _peak_bytes(arguments: list[str]) -> int:
    tracemalloc.start()
    try:
        options = ReplayOptions(arguments=arguments, output_format="json")
        assert run_replay(options, io.StringIO(), _NullWriter(), io.StringIO()) == 0
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


class _NullWriter(io.StringIO):
    def write(self, text: str) -> int:
        return len(text)


def test_memory_is_flat_in_the_number_of_trajectories(layout: Path, tmp_path: Path) -> None:  # noqa: F811
    path = _trajectories(layout, 4)[3]
    few, many = tmp_path / "few.txt", tmp_path / "many.txt"
    few.write_text(f"{path}\n" * 10, encoding="utf-8")
    many.write_text(f"{path}\n" * 100, encoding="utf-8")
    _peak_bytes([f"@{few}"])  # warm every lazy import and cache first
    small, large = _peak_bytes([f"@{few}"]), _peak_bytes([f"@{many}"])
    # Ten times the trajectories: a run holding its results would need about ten times the memory.
    assert large < small * 1.5, (small, large)


def test_cli_arguments(layout: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:  # noqa: F811
    paths = _trajectories(layout, 2)
    assert main(["replay", "--format", "concise", "--no-color", *map(str, paths)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 2 and "normalized" in lines[1] and "base_fixture" in lines[0]
    assert main(["replay", "--format", "jsonl", str(tmp_path / "nothing*.jsonl")]) == 2
    assert "pattern matches no trajectory file" in capsys.readouterr().err
    assert main(["replay", "--format", "jsonl", f"@{tmp_path / 'absent.txt'}"]) == 2
    assert "cannot read the list file" in capsys.readouterr().err
    assert main(["replay", "--jobs", "-1", str(paths[0])]) == 2


def test_a_crash_on_one_trajectory_spares_the_others(
    layout: Path,  # noqa: F811
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    paths = _trajectories(layout, 3)
    real_replay_file = replaying.replay_file

    def flaky_replay_file(path: Path, *args: object, **options: bool) -> replaying.TrajectoryReplay:
        if path == paths[1]:
            raise RuntimeError("boom")
        return real_replay_file(path, *args, **options)  # type: ignore[arg-type]

    monkeypatch.setattr("rubric_tools.commands.replay_stream.replay_file", flaky_replay_file)
    code, out, err = _run("--format", "jsonl", *map(str, paths))
    assert code == 2 and len(out.splitlines()) == 2
    assert "error: I001 internal error while replaying" in err and "t001.jsonl: RuntimeError: boom" in err
    assert "rerun as `rubric --debug …` for the traceback" in err and "Traceback" not in err
    # --debug adds the traceback, as every other command does (README "Hostile input and internal errors").
    code = main(["--debug", "replay", "--format", "jsonl", *map(str, paths)])
    out, err = capsys.readouterr()
    assert code == 2 and len(out.splitlines()) == 2
    assert "Traceback (most recent call last)" in err and "RuntimeError: boom" in err and "I001" in err


def test_a_reader_that_stops_early_gets_no_traceback(layout: Path) -> None:  # noqa: F811
    import subprocess
    import sys

    folder = _trajectories(layout, 40)[0].parent
    process = subprocess.Popen(
        [sys.executable, "-m", "rubric_tools", "replay", "--format", "jsonl", str(folder)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert process.stdout is not None and process.stderr is not None
    process.stdout.readline()
    process.stdout.close()  # like `| head -1`
    errors = process.stderr.read().decode()
    assert process.wait(timeout=60) in (0, 1, 2)
    assert "Traceback" not in errors and "BrokenPipe" not in errors


@pytest.mark.parametrize(
    "value",
    [
        {"a": "x\ud800y", "b": [1.5, {"c": "\udfff", "d": None}], "e": ("t", True)},
        {"a": float("nan"), "b": [float("inf"), "\ud800"]},
        {"a": {"b": -float("inf"), "c": "plain"}},
    ],
)
@pytest.mark.parametrize("indent", [False, True])
def test_records_encode_as_the_standard_library_encodes_their_safe_copy(value: object, indent: bool) -> None:
    """The same JSON values, no NaN, no lone surrogate; one line with no spaces, or laid out
    as `json.dumps(indent=2)` lays it out."""
    from rubric_tools.commands.replay_stream import safe_json
    from rubric_tools.reporting.safe_output import json_safe

    spacing: dict[str, object] = {"indent": 2} if indent else {"separators": (",", ":")}
    expected = json.dumps(json_safe(value), ensure_ascii=False, allow_nan=False, **spacing)  # type: ignore[arg-type]
    assert safe_json(value, indent=indent) == expected


@pytest.mark.parametrize(
    "value",
    [
        {"plain": ["text", 1, 2.5, None, True], "nested": {"a": [{"b": "ü"}]}},
        {1: "a number key", None: [2**70]},  # what orjson refuses: the standard library's copy
        {"date": datetime.date(2024, 1, 2), "nan": float("nan")},
    ],
)
def test_records_parse_back_to_their_safe_copy(value: object) -> None:
    from rubric_tools.commands.replay_stream import safe_json
    from rubric_tools.reporting.safe_output import json_safe
    from rubric_tools.scoring.json_values import json_default

    expected = json.loads(json.dumps(json_safe(value), default=json_default))
    assert json.loads(safe_json(value)) == expected
    assert json.loads(safe_json(value, indent=True)) == expected
    assert "\n" not in safe_json(value)


def test_an_action_type_with_non_text_keys_is_written_as_the_safe_copy_writes_it(
    layout: Path,  # noqa: F811
) -> None:
    trajectory = layout / "matters/base_fixture/runs/odd.yaml"
    trajectory.parent.mkdir(exist_ok=True)
    trajectory.write_text("- type: {true: 1, null: 2}\n", encoding="utf-8")
    code, out, err = _run(str(trajectory), "--format", "jsonl")
    record = json.loads(out)
    assert record["steps"][0]["type"] == {"True": 1, "None": 2}, (out, err)


def test_paths_are_shown_relative_to_the_working_folder_when_below_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A trajectory below the working folder is shown relative to it (through links to it too);
    one elsewhere, in a sibling whose name extends the working folder's or above it, as given."""
    from rubric_tools.reporting.replay_json import display_path

    work, sibling = tmp_path / "work", tmp_path / "work2"
    for folder in (work / "runs", sibling):
        folder.mkdir(parents=True)
    for path in (work / "runs" / "a.jsonl", sibling / "b.jsonl", tmp_path / "c.jsonl"):
        path.write_text("{}\n", encoding="utf-8")
    (tmp_path / "link").symlink_to(work, target_is_directory=True)
    monkeypatch.chdir(work)
    assert display_path(work / "runs" / "a.jsonl") == "runs/a.jsonl"
    assert display_path(tmp_path / "link" / "runs" / "a.jsonl") == "runs/a.jsonl"
    assert display_path(Path("runs/a.jsonl")) == "runs/a.jsonl"
    assert display_path(sibling / "b.jsonl") == str(sibling / "b.jsonl")
    assert display_path(Path("../work2/b.jsonl")) == "../work2/b.jsonl"
    assert display_path(tmp_path / "c.jsonl", str(work)) == str(tmp_path / "c.jsonl")
