"""The embedded scorer against the reference engine's recorded output.

Every trajectory's result must equal the expected one (floats within 1e-9) and every
step reward must match; every gate probe must behave as declared.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest

import rubric_tools
from rubric_tools.loading.yaml_source import load_yaml
from rubric_tools.scoring.gates import run_gates
from rubric_tools.scoring.text import normalize
from tests.conftest import conformance_dir, require_conformance

TOLERANCE = 1e-9

_CORPUS = conformance_dir()
_TRAJECTORIES = sorted(_CORPUS.glob("trajectories/*/*.jsonl")) if _CORPUS else []
_PROBE_FILES = sorted(_CORPUS.glob("probes/*.yaml")) if _CORPUS else []
_MATTERS: dict[str, rubric_tools.MatterSource] = {}


def _matter(corpus: Path, matter_id: str) -> rubric_tools.MatterSource:
    if matter_id not in _MATTERS:
        _MATTERS[matter_id] = rubric_tools.load_matter(corpus / "matters" / matter_id)
    return _MATTERS[matter_id]


def assert_same(got: Any, want: Any, path: str = "result") -> None:
    """Deep equality with a float tolerance; the message names the first difference."""
    if isinstance(want, float) or isinstance(got, float):
        assert isinstance(got, int | float) and not isinstance(got, bool), f"{path}: {got!r} != {want!r}"
        assert math.isclose(got, want, rel_tol=0, abs_tol=TOLERANCE), f"{path}: {got!r} != {want!r}"
    elif isinstance(want, dict):
        assert isinstance(got, dict) and set(got) == set(want), (
            f"{path}: keys {sorted(got) if isinstance(got, dict) else got!r} != {sorted(want)}"
        )
        for key in want:
            assert_same(got[key], want[key], f"{path}.{key}")
    elif isinstance(want, list):
        assert isinstance(got, list) and len(got) == len(want), f"{path}: {got!r} != {want!r}"
        for index, (g, w) in enumerate(zip(got, want, strict=True)):
            assert_same(g, w, f"{path}[{index}]")
    else:
        assert type(got) is type(want) and got == want, f"{path}: {got!r} != {want!r}"


def test_corpus_is_complete(conformance: Path) -> None:
    assert len(_TRAJECTORIES) == 517
    assert len(list(conformance.glob("matters/*/matter.yaml"))) == 12


@pytest.mark.parametrize(
    "trajectory",
    _TRAJECTORIES or [None],
    ids=[f"{p.parent.name}/{p.stem}" for p in _TRAJECTORIES] or ["corpus-absent"],
)
def test_trajectory_matches_reference_engine(trajectory: Path | None) -> None:
    corpus = require_conformance()
    assert trajectory is not None
    matter = _matter(corpus, trajectory.parent.name)
    assert matter.ok, matter.diagnostics
    actions = [json.loads(line) for line in trajectory.read_text(encoding="utf-8").splitlines() if line.strip()]
    expected = json.loads(trajectory.with_suffix(".expected.json").read_text(encoding="utf-8"))
    replayed = rubric_tools.replay(matter, actions)
    assert_same(replayed.result, expected["result"])
    assert [s.step for s in replayed.steps] == [s["step"] for s in expected["steps"]]
    for record, want in zip(replayed.steps, expected["steps"], strict=True):
        assert record.type == want["type"]
        assert math.isclose(record.reward, want["reward"], abs_tol=TOLERANCE), (
            f"step {record.step}: reward {record.reward} != {want['reward']}"
        )


def _probes(path: Path) -> list[dict[str, Any]]:
    data = load_yaml(path).data
    return data["probes"] if isinstance(data, dict) else data


@pytest.mark.parametrize("probe_file", _PROBE_FILES or [None], ids=[p.stem for p in _PROBE_FILES] or ["corpus-absent"])
def test_gate_probes_behave_as_declared(probe_file: Path | None) -> None:
    corpus = require_conformance()
    assert probe_file is not None
    matter = _matter(corpus, probe_file.stem).matter
    wrong = []
    for probe in _probes(probe_file):
        issue = matter.rubric.issues_by_id[probe["criterion"]]
        gates = issue.gates(probe["surface"])
        check = run_gates(gates, normalize(probe["text"]))
        assert not check.timed_out and not check.errors
        if bool(check.fired) != probe["expect_fire"]:
            wrong.append(probe)
    assert not wrong, f"{len(wrong)} probes misbehave: {wrong[:3]}"


def test_probe_count(conformance: Path) -> None:
    assert sum(len(_probes(p)) for p in _PROBE_FILES) == 388
