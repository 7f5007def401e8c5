"""`rubric replay` end to end: matter discovery, output formats, bad input, exit codes."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import jsonschema
import pytest

from rubric_tools.cli import main
from tests.conftest import REPO_ROOT, require_conformance

BASE = Path(__file__).parent / "rule_cases" / "_base"
SCHEMA = json.loads((REPO_ROOT / "schemas" / "replay-output.schema.json").read_text(encoding="utf-8"))

REFERENCE = [
    {"type": "read_document", "document_id": "hosting", "section": "3.1"},
    {"type": "ask_client", "question": "Where are the backups kept, which region?"},
    {
        "type": "submit_issue",
        "issue_id": "sla",
        "title": "No service credit",
        "severity": "medium",
        "citations": ["hosting §3.1", "guide §2"],
        "analysis": "Uptime is 99.9 but no service credit.",
        "recommendation": "Add a service credit.",
        "quotes": [{"citation": "hosting §3.1", "text": "No credit is owed for downtime."}],
    },
    {"type": "submit_final", "summary": "x" * 90},
]


def jsonl(actions: list[object]) -> str:
    return "\n".join(json.dumps(a) for a in actions) + "\n"


@pytest.fixture
def layout(tmp_path: Path) -> Path:
    """A matter with a trajectory inside it, and an examples/<id>/ layout beside matters/."""
    shutil.copytree(BASE, tmp_path / "matters" / "base_fixture")
    inside = tmp_path / "matters" / "base_fixture" / "trajectories"
    inside.mkdir()
    (inside / "reference.jsonl").write_text(jsonl(REFERENCE), encoding="utf-8")
    examples = tmp_path / "examples" / "base_fixture"
    examples.mkdir(parents=True)
    (examples / "good.jsonl").write_text(jsonl(REFERENCE), encoding="utf-8")
    return tmp_path


def run_json(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, dict]:
    code = main(["replay", "--format", "json", *args])
    out = capsys.readouterr().out
    document = json.loads(out)
    jsonschema.validate(document, SCHEMA)
    return code, document


def test_both_layouts_find_their_matter(layout: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, document = run_json(
        capsys,
        str(layout / "matters/base_fixture/trajectories/reference.jsonl"),
        str(layout / "examples/base_fixture/good.jsonl"),
    )
    assert code == 0
    results = [r["result"] for r in document["replays"]]
    assert [r["matter_id"] for r in results] == ["base_fixture", "base_fixture"]
    assert results[0] == results[1]
    # 0.5 question + 2.25 issue + 0.5 final - 0.5 missed required escalation
    assert results[0]["raw_score"] == 2.75
    assert [s["reward"] for s in document["replays"][0]["steps"]] == [0.0, 0.5, 2.25, 0.0]


def test_a_linked_trajectory_belongs_to_the_matter_of_its_target(
    layout: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The matter of a trajectory file follows from its folder, except for a link: it belongs
    where its target lives (and is then refused by the file-system policy, which reads no
    link). A trajectory in a linked folder replays on the matter of the folder's target."""
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "linked.jsonl").symlink_to(layout / "examples/base_fixture/good.jsonl")
    (elsewhere / "stray.jsonl").write_text(jsonl(REFERENCE), encoding="utf-8")  # no matter for it
    (elsewhere / "folder").symlink_to(layout / "matters/base_fixture/trajectories", target_is_directory=True)
    arguments = [str(elsewhere / name) for name in ("linked.jsonl", "stray.jsonl", "folder/reference.jsonl")]
    code = main(["replay", "--format", "jsonl", *arguments])
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert code == 2
    assert [r["matter_id"] for r in records] == ["base_fixture", None, "base_fixture"]
    assert [r["result"] is not None for r in records] == [False, False, True]
    assert ["cannot be read" in d["message"] for r in records[:2] for d in r["diagnostics"]] == [True, False]


def test_invalid_lines_are_reported_and_other_trajectories_still_replay(
    layout: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    broken = layout / "matters/base_fixture/trajectories/broken.jsonl"
    broken.write_text('{"type": "read_document"}\n\nnot json\n[1, 2]\n', encoding="utf-8")
    good = layout / "matters/base_fixture/trajectories/reference.jsonl"
    code, document = run_json(capsys, str(broken), str(good))
    assert code == 2
    assert [r["trajectory"].endswith("reference.jsonl") for r in document["replays"]] == [True]
    assert [(d["code"], d["line"]) for d in document["diagnostics"]] == [("T001", 3), ("T002", 4)]


def test_malformed_fields_warn_with_the_line(layout: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = layout / "matters/base_fixture/trajectories/odd.jsonl"
    action = dict(REFERENCE[2], citations=None)
    path.write_text(jsonl([REFERENCE[0], action]), encoding="utf-8")
    code, document = run_json(capsys, str(path))
    assert code == 0
    # The schema names the wrong type before scoring (T104); the scorer records what it did (T003).
    assert [(d["code"], d["line"], d["severity"]) for d in document["diagnostics"]] == [
        ("T104", 2, "warning"),
        ("T003", 2, "warning"),
    ]


def test_gate_timeout_makes_replay_fail(layout: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rubric = layout / "matters/base_fixture/rubric.yaml"
    rubric.write_text(
        rubric.read_text(encoding="utf-8").replace('- "uptime commitments are unenforceable"', "- '(a|aa)+$'"),
        encoding="utf-8",
    )
    path = layout / "matters/base_fixture/trajectories/slow.jsonl"
    path.write_text(jsonl([REFERENCE[0], dict(REFERENCE[2], analysis="a" * 60 + "b")]), encoding="utf-8")
    code, document = run_json(capsys, "--gate-timeout", "0.05", str(path))
    assert code == 1
    assert [d["code"] for d in document["diagnostics"]] == ["T004"]


def test_usage_errors(layout: Path, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert main(["replay", str(tmp_path / "missing.jsonl")]) == 2
    orphan = tmp_path / "orphan.jsonl"
    orphan.write_text(jsonl(REFERENCE), encoding="utf-8")
    assert main(["replay", str(orphan)]) == 2
    assert "--matter" in capsys.readouterr().err
    assert main(["replay", "--matter", str(tmp_path), str(orphan)]) == 2
    assert main(["replay", "--matter", str(layout / "matters/base_fixture"), str(orphan)]) == 0


def test_text_output_and_trace(layout: Path, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    trace = tmp_path / "trace.json"
    path = layout / "matters/base_fixture/trajectories/reference.jsonl"
    assert main(["replay", "--no-color", "--trace", str(trace), str(path)]) == 0
    out = capsys.readouterr().out
    assert "required_question" in out and "q_backup_region" in out
    assert "raw 2.75 / max 5.75" in out and "normalized 0.4783" in out
    steps = json.loads(trace.read_text(encoding="utf-8"))["replays"][0]["steps"]
    assert steps[1]["budgets_after"]["client_questions"] == 2
    assert steps[2]["action"]["issue_id"] == "sla" and steps[2]["line"] == 3


def test_critical_failure_cause_is_shown(layout: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = layout / "matters/base_fixture/trajectories/fab.jsonl"
    fabricated = dict(REFERENCE[2], quotes=[{"citation": "hosting §3.1", "text": "Host pays triple credits."}])
    path.write_text(jsonl([REFERENCE[0], fabricated]), encoding="utf-8")
    assert main(["replay", "--no-color", str(path)]) == 0
    out = capsys.readouterr().out
    assert "critical failure" in out and "fabricated quote on uptime_credit" in out


def test_conformance_layout_replays(capsys: pytest.CaptureFixture[str]) -> None:
    corpus = require_conformance()
    paths = sorted((corpus / "trajectories" / "nego_saas_010").glob("*.jsonl"))
    code, document = run_json(capsys, *map(str, paths))
    assert code == 0 and len(document["replays"]) == len(paths)
    for item in document["replays"]:
        expected = json.loads(
            Path(
                corpus / "trajectories" / "nego_saas_010" / (Path(item["trajectory"]).stem + ".expected.json")
            ).read_text()
        )
        assert item["result"]["raw_score"] == expected["result"]["raw_score"]


def test_trajectories_of_different_matters_in_one_call(capsys: pytest.CaptureFixture[str]) -> None:
    corpus = require_conformance()
    paths = [corpus / "trajectories" / matter / "good.jsonl" for matter in ("nego_saas_010", "clean_msa_009")]
    code, document = run_json(capsys, *map(str, paths))
    assert code == 0
    assert [r["matter_id"] for r in document["replays"]] == ["nego_saas_010", "clean_msa_009"]
    assert [r["result"]["normalized_score"] for r in document["replays"]] == [1.0, 1.0]
