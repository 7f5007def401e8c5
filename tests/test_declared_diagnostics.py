"""The replay and check diagnostics carry the name and severity their code declares.

The loader's findings are checked on every rule case (tests/test_rule_cases.py); here
every kind of bad trajectory and expectations file is replayed, along with the bundled
matters' trajectories and the conformance-edge cases when present.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from rubric_tools.checking.expectations import load_expectations
from rubric_tools.replaying import MatterCache, replay_file
from tests.code_support import assert_as_declared
from tests.conftest import MATTERS_DIR, REPO_ROOT

BASE = Path(__file__).parent / "rule_cases" / "_base"
EDGE = REPO_ROOT.parent / "shared" / "conformance-edge"

READ = {"type": "read_document", "document_id": "hosting", "section": "3.1"}
ISSUE = {
    "type": "submit_issue",
    "issue_id": "uptime_credit",
    "title": "No service credit",
    "severity": "medium",
    "citations": ["hosting §3.1", "guide §2"],
    "analysis": "Uptime is 99.9 but no service credit.",
    "recommendation": "Add a service credit.",
}

#: A trajectory per problem: file name → its text.
BAD_TRAJECTORIES = {
    "invalid-json.jsonl": json.dumps(READ) + "\n{not json\n",
    "not-an-object.jsonl": json.dumps(READ) + "\n[1, 2]\n",
    "malformed-field.jsonl": json.dumps(READ) + "\n" + json.dumps({**ISSUE, "citations": None}) + "\n",
    "unknown-type.jsonl": json.dumps({"type": "read_documnet"}) + "\n",
    "unknown-field.jsonl": json.dumps({**READ, "sectoin": "3.1"}) + "\n",
    "missing-field.jsonl": json.dumps({"type": "ask_client"}) + "\n",
    "unverified-quote.jsonl": json.dumps(READ)
    + "\n"
    + json.dumps(
        {**ISSUE, "quotes": [{"citation": "hosting §3.1", "text": "No credit is ever owed for any downtime."}]}
    ),
    "mapping.yaml": "type: read_document\n",
    "empty.yaml": "# nothing\n",
    "scalar-action.yaml": "- type: read_document\n  document_id: hosting\n- 42\n",
    "slow-gate.jsonl": json.dumps(READ) + "\n" + json.dumps({**ISSUE, "analysis": "a" * 60 + "b"}) + "\n",
}


def _matter(tmp_path: Path) -> Path:
    root = tmp_path / "matters" / "base_fixture"
    shutil.copytree(BASE, root)
    rubric = root / "rubric.yaml"
    # A backtracking gate for the time-limit case; every trajectory still replays.
    text = rubric.read_text(encoding="utf-8")
    rubric.write_text(text.replace('- "uptime commitments are unenforceable"', "- '(a|aa)+$'"), encoding="utf-8")
    return root


def test_replay_diagnostics_are_as_declared(tmp_path: Path) -> None:
    root = _matter(tmp_path)
    folder = root / "trajectories"
    folder.mkdir()
    for name, text in BAD_TRAJECTORIES.items():
        (folder / name).write_text(text, encoding="utf-8")
    orphan = tmp_path / "orphan.jsonl"
    orphan.write_text(json.dumps(READ) + "\n", encoding="utf-8")
    cache = MatterCache()
    seen = set()
    for path in [*sorted(folder.iterdir()), orphan]:
        seen |= assert_as_declared(replay_file(path, None, cache, gate_timeout=0.05).diagnostics)
    broken = tmp_path / "broken_gate"
    shutil.copytree(BASE, broken)
    rubric = broken / "rubric.yaml"
    text = rubric.read_text(encoding="utf-8")
    rubric.write_text(text.replace('- "uptime commitments are unenforceable"', "- '(unclosed'"), encoding="utf-8")
    (broken / "reference.jsonl").write_text(json.dumps(READ) + "\n" + json.dumps(ISSUE) + "\n", encoding="utf-8")
    seen |= assert_as_declared(replay_file(broken / "reference.jsonl", None, cache).diagnostics)
    expected = {"T001", "T002", "T003", "T004", "T005", "T006", "T101", "T102", "T103", "T104", "T105", "T106"}
    assert expected <= seen


def test_fixture_trajectories_are_as_declared() -> None:
    cache = MatterCache()
    trajectories = sorted(MATTERS_DIR.glob("*/trajectories/*"))
    if EDGE.is_dir():
        trajectories += sorted(EDGE.glob("*/trajectory.jsonl"))
    assert trajectories
    for path in trajectories:
        matter = path.parent / "matter" if path.parent.parent == EDGE else None
        assert_as_declared(replay_file(path, matter, cache).diagnostics)


def test_expectation_problems_are_as_declared(tmp_path: Path) -> None:
    root = _matter(tmp_path)
    (root / "expectations.yaml").write_text("trajectories:\n  reference: {score: high}\n", encoding="utf-8")
    found = load_expectations(root)
    assert found is not None
    assert assert_as_declared(found.diagnostics) == {"E001"}
