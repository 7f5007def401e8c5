"""YAML trajectories, `rubric convert`, and action schema validation (T101-T105)."""

from __future__ import annotations

import json
import random
import shutil
from pathlib import Path

import pytest

from rubric_tools.cli import main
from rubric_tools.diagnostics import Diagnostic
from rubric_tools.loading.action_check import validate_actions
from rubric_tools.loading.trajectory import Trajectory, load_trajectory, parse_trajectory
from rubric_tools.loading.trajectory_writer import actions_to_jsonl, actions_to_yaml
from rubric_tools.replaying import replay_paths
from tests.conftest import MATTERS_DIR, conformance_dir

AI_SAAS = MATTERS_DIR / "ai_saas_001"


def bundled_trajectories() -> list[Path]:
    return sorted(MATTERS_DIR.glob("*/trajectories/*.jsonl"))


@pytest.mark.parametrize("path", bundled_trajectories(), ids=lambda p: f"{p.parent.parent.name}/{p.stem}")
def test_yaml_replays_exactly_like_jsonl(tmp_path: Path, path: Path) -> None:
    matter = tmp_path / path.parent.parent.name
    shutil.copytree(path.parent.parent, matter, ignore=shutil.ignore_patterns("trajectories"))
    yaml_path = matter / "trajectories" / f"{path.stem}.yaml"
    yaml_path.parent.mkdir()
    yaml_path.write_text(actions_to_yaml(load_trajectory(path).actions), encoding="utf-8")
    from_jsonl = replay_paths([path]).items[0]
    from_yaml = replay_paths([yaml_path]).items[0]
    assert from_jsonl.replay is not None and from_yaml.replay is not None
    assert from_yaml.replay.result == from_jsonl.replay.result
    assert [s.events for s in from_yaml.replay.steps] == [s.events for s in from_jsonl.replay.steps]


def _round_trip_sources() -> list[Path]:
    found = bundled_trajectories()
    corpus = conformance_dir()
    if corpus is not None:  # every 20th corpus trajectory: fuzz cases carry the oddest values
        found += sorted(corpus.glob("trajectories/**/*.jsonl"))[::20]
    return found


def test_convert_is_lossless_both_ways() -> None:
    checked = 0
    for path in _round_trip_sources():
        trajectory = load_trajectory(path)
        if not trajectory.valid:
            continue
        as_yaml = parse_trajectory(Path("t.yaml"), actions_to_yaml(trajectory.actions))
        assert as_yaml.diagnostics == [], path
        assert json.dumps(as_yaml.actions) == json.dumps(trajectory.actions), path
        back = parse_trajectory(Path("t.jsonl"), actions_to_jsonl(as_yaml.actions))
        assert back.actions == trajectory.actions
        checked += 1
    assert checked >= 10


def test_awkward_strings_survive_yaml() -> None:
    texts = [
        "yes",
        "No",
        "on",
        "null",
        "~",
        "12",
        "1:20",
        "2024-01-02",
        "0x1F",
        ".inf",
        " lead",
        "trail ",
        "tab\tinside",
        "a: b",
        "#hash",
        "- dash",
        "multi\nline\n",
        "\n",
        "curly ’ and é",
        "x" * 200,
        "line one\n  indented two",
        "ends with space \nnext",
        "",
        *(".5", "+1", "1_000", "0b1010", "190:20:30", "NO", "Off", "=", "<<"),  # YAML 1.1 non-strings
        *("a\x85b", "a\u2028b", "a\rb", "\x07bell", "\ufeffbom", "x" * 100 + "\x85"),  # breaks and controls
    ]
    actions = [{"type": "ask_client", "question": text} for text in texts]
    actions.append({"type": "read_document", "document_id": "msa", "section": None, "extra": [1, 2.5, True]})
    text = actions_to_yaml(actions)
    assert parse_trajectory(Path("t.yaml"), text).actions == actions
    yaml11 = pytest.importorskip("yaml")  # PyYAML reads YAML 1.1, where `yes`, `on`, `1:20` are not strings
    assert yaml11.safe_load(text) == actions


def test_long_text_becomes_a_block_string() -> None:
    text = actions_to_yaml([{"type": "submit_final", "summary": ("A closing note. " * 20).strip()}])
    assert "summary: |-" in text


def test_convert_cli_writes_and_reports(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = AI_SAAS / "trajectories" / "reference.jsonl"
    out_yaml = tmp_path / "reference.yaml"
    assert main(["convert", str(source), str(out_yaml)]) == 0
    assert "actions" in capsys.readouterr().out
    out_jsonl = tmp_path / "again.jsonl"
    assert main(["convert", str(out_yaml), str(out_jsonl)]) == 0
    assert [json.loads(x) for x in out_jsonl.read_text(encoding="utf-8").splitlines()] == [
        json.loads(x) for x in source.read_text(encoding="utf-8").splitlines() if x.strip()
    ]


def test_convert_refuses_broken_input(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    broken = tmp_path / "broken.jsonl"
    broken.write_text('{"type": "ask_client"}\n{not json\n', encoding="utf-8")
    assert main(["convert", str(broken), str(tmp_path / "out.yaml")]) == 2
    err = capsys.readouterr().err
    assert "broken.jsonl:2:" in err and "T001" in err
    assert not (tmp_path / "out.yaml").exists()
    assert main(["convert", str(broken), str(tmp_path / "out.txt")]) == 2
    assert main(["convert", str(tmp_path / "absent.jsonl"), str(tmp_path / "o.yaml")]) == 2


@pytest.mark.parametrize(
    "text, code",
    [
        ("type: read_document\n", "T105"),
        ("", "T105"),
        ("- [1, 2]\n", "T002"),
        ("- type: ask_client\n  question: [unclosed\n", "L001"),
    ],
)
def test_malformed_yaml_trajectories_are_input_errors(text: str, code: str) -> None:
    trajectory = parse_trajectory(Path("bad.yaml"), text)
    assert not trajectory.valid
    assert [d.code for d in trajectory.diagnostics][:1] == [code]


TYPO_JSONL = [
    {"type": "read_documnet", "document_id": "msa"},
    {
        "type": "submit_issue",
        "issue_id": "x",
        "title": "t",
        "severity": "High",
        "citation": ["msa §4.2"],
        "analysis": "a",
        "recommendation": "r",
        "quotes": [{"citation": "msa §4.2", "txt": "some quoted words"}],
    },
    {"type": "ask_client", "question": 5},
    {"title": "no type at all"},
]


def _findings(path: Path) -> list[tuple[str, int, int, str, str]]:
    trajectory = load_trajectory(path)
    return [
        (d.code, d.line, d.span.column if d.span else 0, d.message, d.fix_hint or "")
        for d in validate_actions(trajectory)
    ]


def test_schema_findings_name_the_typo_with_position_and_suggestion(tmp_path: Path) -> None:
    path = tmp_path / "typos.jsonl"
    path.write_text("".join(json.dumps(a, ensure_ascii=False) + "\n" for a in TYPO_JSONL), encoding="utf-8")
    found = _findings(path)
    line2 = path.read_text(encoding="utf-8").splitlines()[1]
    assert ("T101", 1, 2) == found[0][:3] and found[0][4] == "did you mean 'read_document'?"
    column, hint = next((col, h) for c, _, col, m, h in found if c == "T102" and '"citation"' in m)
    assert line2[column - 1 :].startswith('"citation"') and hint == "did you mean 'citations'?"
    assert any(c == "T102" and "txt" in m and h == "did you mean 'text'?" for c, _, _, m, h in found)
    column, message, hint = next((col, m, h) for c, line, col, m, h in found if c == "T104" and line == 2)
    assert '"High"' in message and hint == "did you mean 'high'?"
    assert line2[column - 1 :].startswith('"severity"')
    assert any(c == "T104" and line == 3 and "expected string" in m for c, line, _, m, _ in found)
    assert any(c == "T103" and line == 4 and '"type"' in m for c, line, _, m, _ in found)
    # A misspelt key is one finding (T102), not also a missing-field T103.
    assert not any(c == "T103" and line == 2 for c, line, *_ in found)


def test_schema_findings_in_yaml_point_at_the_key(tmp_path: Path) -> None:
    path = tmp_path / "typos.yaml"
    path.write_text(actions_to_yaml(TYPO_JSONL), encoding="utf-8")
    lines = path.read_text(encoding="utf-8").splitlines()
    for code, line, column, message, _ in _findings(path):
        if code == "T102" and '"citation"' in message:
            assert lines[line - 1][column - 1 :].startswith("citation:")
            break
    else:
        pytest.fail("no T102 for `citation`")


def test_replay_warns_and_scores_like_the_engine(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    matter = tmp_path / "ai_saas_001"
    shutil.copytree(AI_SAAS, matter)
    reference = load_trajectory(matter / "trajectories" / "reference.jsonl").actions
    typo = [dict(a, type="read_documnet") if i == 0 else a for i, a in enumerate(reference)]
    path = matter / "trajectories" / "typo.yaml"
    path.write_text(actions_to_yaml(typo), encoding="utf-8")
    assert main(["replay", str(path), "--format", "json"]) == 0
    document = json.loads(capsys.readouterr().out)
    warnings = [d for d in document["diagnostics"] if d["code"] == "T101"]
    assert warnings and warnings[0]["severity"] == "warning"
    from rubric_tools import replay

    engine_view = replay(__import__("rubric_tools").load_matter(matter).matter, typo).result
    assert document["replays"][0]["result"] == engine_view


def test_cached_verdicts_follow_enum_values_and_types(tmp_path: Path) -> None:
    issue = {
        "type": "submit_issue",
        "issue_id": "x",
        "title": "t",
        "severity": "high",
        "citations": ["msa §1"],
        "analysis": "a",
        "recommendation": "r",
        "quotes": [{"citation": "msa §1", "text": "some quoted words"}],
    }
    actions = [
        issue,
        dict(issue, severity="High"),
        issue,
        dict(issue, quotes=[{"citation": 3, "text": "x"}]),
        dict(issue, type="revise_issue"),
        dict(issue, type="revise_isue"),
    ]
    path = tmp_path / "t.jsonl"
    path.write_text("".join(json.dumps(a, ensure_ascii=False) + "\n" for a in actions), encoding="utf-8")
    flagged = sorted({d.line for d in validate_actions(load_trajectory(path))})
    assert flagged == [2, 4, 6]


def test_a_remembered_explanation_says_what_a_fresh_one_says(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Explanations are remembered per ordered shape; the diagnostics they give (messages with the
    action's own values, columns, hints) are those of explaining every action afresh."""
    from rubric_tools.loading import action_check

    actions = [a for a in _actions_and_mutations(random.Random(27), 120) if isinstance(a, dict)]
    path = tmp_path / "mutated.jsonl"
    path.write_text("".join(json.dumps(a, ensure_ascii=False) + "\n" for a in actions), encoding="utf-8")
    trajectory = load_trajectory(path)
    monkeypatch.setattr(action_check, "_EXPLANATIONS", {})
    remembered = validate_actions(trajectory)
    assert len(action_check._EXPLANATIONS) < len(remembered) / 2  # shapes do repeat
    fresh: list[Diagnostic] = []
    for index in range(len(trajectory.actions)):
        action_check._EXPLANATIONS.clear()
        alone = Trajectory(path, [trajectory.actions[index]], [trajectory.line_numbers[index]])
        alone.line_texts = [trajectory.line_texts[index]]
        fresh += validate_actions(alone)
    assert [(d.code, d.message, d.span, d.fix_hint) for d in remembered] == [
        (d.code, d.message.replace("step 1:", f"step {d.line}:", 1), d.span, d.fix_hint) for d in fresh
    ]


def _odd_actions() -> list[object]:
    base = {
        "type": "submit_issue",
        "issue_id": "x",
        "title": "t",
        "severity": "high",
        "citations": ["msa §1"],
        "analysis": "a",
        "recommendation": "r",
    }
    return [
        base,
        dict(base, severity=True),
        dict(base, severity=None),
        dict(base, citations="msa §1"),
        dict(base, quotes=[{"citation": "c", "text": "t"}]),
        dict(base, quotes=[{"citation": "c"}]),
        dict(base, quotes=[1]),
        dict(base, quotes={}),
        {1: "x", "type": "ask_client", "question": "q"},
        {"type": "read_document", "document_id": "msa", "section": None},
        {"type": "read_document", "document_id": 1.0},
        {"type": ["ask_client"]},
        {"type": None},
        {},
        {"type": "submit_final", "summary": "s", "extra": 1},
        {"type": "accept_counterparty", "issue_id": False},
        {"type": "search_matter", "query": 1e308},
        {"type": True},
        {"type": 1},
        [{"type": "ask_client", "question": "q"}],  # not an object: every branch's `if` holds
        "ask_client",
        None,
    ]


def test_subset_checker_agrees_with_jsonschema() -> None:
    from jsonschema import Draft202012Validator

    from rubric_tools.loading.schema_subset import SubsetChecker, supports
    from rubric_tools.schemas import load_schema

    schema = load_schema("action")
    assert supports(schema)
    fast, exact = SubsetChecker(schema), Draft202012Validator(schema)
    actions: list[object] = list(_odd_actions())
    for path in _round_trip_sources():
        actions += load_trajectory(path).actions
    assert len(actions) > 50
    for action in actions:
        assert fast.is_valid(action) == exact.is_valid(action), action
    assert not supports({"type": "string", "pattern": "x"})  # an unsupported keyword: jsonschema decides


def test_action_shapes_agree_with_jsonschema() -> None:
    """The table of valid actions (rubric_tools.loading.action_shapes), which validates every
    action of a replay, answers as jsonschema does: on the corpus' actions, odd ones and
    generated ones, valid and invalid."""
    from jsonschema import Draft202012Validator

    from rubric_tools.loading.action_shapes import action_shapes
    from rubric_tools.schemas import load_schema

    schema = load_schema("action")
    table, exact = action_shapes(schema), Draft202012Validator(schema)
    assert table is not None
    actions = _actions_and_mutations(random.Random(26), 200)
    verdicts = [exact.is_valid(action) for action in actions]
    assert [table.is_valid(action) for action in actions] == verdicts
    assert verdicts.count(True) > 50 and verdicts.count(False) > 300  # both answers are exercised


def test_action_shapes_refuse_other_schemas() -> None:
    """A schema of another form gets no table (the general checker answers for it)."""
    from rubric_tools.loading.action_shapes import action_shapes
    from rubric_tools.schemas import load_schema

    schema = load_schema("action")
    assert action_shapes({"type": "string", "pattern": "x"}) is None
    integer = json.loads(json.dumps(schema))
    integer["$defs"]["ask_client"]["properties"]["question"] = {"type": "integer"}  # true is not 1
    assert action_shapes(integer) is None
    open_branch = json.loads(json.dumps(schema))
    del open_branch["$defs"]["submit_final"]["additionalProperties"]
    assert action_shapes(open_branch) is None
    missing_branch = json.loads(json.dumps(schema))
    missing_branch["allOf"].pop()
    assert action_shapes(missing_branch) is None


#: Values of every JSON type (and a non-text key), to put where a field is expected.
_ODD_VALUES: tuple[object, ...] = (None, True, 0, 1.5, "", "x", [], [1], {}, {"a": 1}, [{"citation": 1}])


def _mutations(action: dict[str, object], rng: random.Random) -> list[object]:
    """Actions near `action`: each field dropped, retyped or misspelt, an unknown field, the
    type misspelt, and nested lists with items of the wrong shape."""
    found: list[object] = []
    for key in action:
        found.append({k: v for k, v in action.items() if k != key})
        found.append({**action, key: rng.choice(_ODD_VALUES)})
        found.append({(f"{k}s" if k == key else k): v for k, v in action.items()})
    found.append(dict(action, unknown=1, zz=[]))
    found.append(dict(action, type=str(action.get("type", "")) + "x"))
    found.append(dict(action, quotes=[{"citation": "c", "text": 1, "extra": 2}, "q", {"text": "t"}]))
    found.append(dict(action, citations=["a", 1, None]))
    return found


def _actions_and_mutations(rng: random.Random, sample: int) -> list[object]:
    """The odd actions, the bundled and corpus trajectories' actions, and the mutations of
    `sample` of them."""
    actions: list[object] = list(_odd_actions())
    for path in _round_trip_sources():
        actions += load_trajectory(path).actions
    bases = [a for a in actions if isinstance(a, dict)]
    return actions + [m for a in rng.sample(bases, min(sample, len(bases))) for m in _mutations(a, rng)]


def test_subset_errors_agree_with_jsonschema() -> None:
    """The explanation of an invalid action (rubric_tools.loading.subset_errors) is jsonschema's,
    error for error and in its order: on the corpus' actions, odd ones, and generated ones."""
    from jsonschema import Draft202012Validator

    from rubric_tools.loading.subset_errors import SubsetErrors
    from rubric_tools.schemas import load_schema

    schema = load_schema("action")
    ours, exact = SubsetErrors(schema), Draft202012Validator(schema)
    actions = _actions_and_mutations(random.Random(25), 150)
    assert len(actions) > 1000
    invalid = 0
    for action in actions:
        expected = [
            (str(e.validator), tuple(e.absolute_path), e.validator_value, e.schema, e.instance)
            for e in exact.iter_errors(action)
        ]
        assert [tuple(error) for error in ours.iter_errors(action, schema)] == expected, action
        invalid += bool(expected)
    assert invalid > 300  # the generated actions do reach the error paths
