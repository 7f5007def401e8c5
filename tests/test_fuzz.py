"""Property-based fuzzing in the suite: hostile matters, documents, gates and trajectories.

The contract on any input: no exception escapes the loader, the linter, the scorer, the
solver or the attacks; every command exits 0, 1 or 2 without a traceback and its JSON
stays strict; nothing outside the matter folder is opened; each input is handled in
bounded time (CPU time: the machine is shared, and a hang burns CPU); a YAML file the
reference's `yaml.safe_load` refuses (a tag value its constructor cannot read, a tab
libyaml takes) is a load error of lint; a structured gate lint lets through searches a
30,000-character sentence within the budget. The inputs are mutations of our own matters (`tests/fuzz_support.py`);
`benchmarks/fuzz.py` runs the same mutations for hundreds of thousands of inputs.
The budget here is small (a few seconds in all) and derandomized, so CI is repeatable.
"""

from __future__ import annotations

import os
import random
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.fuzz_support import TAG_VALUES, Case, OutsideReads, make_case, run_case, write_case

#: Each input must be handled within this many seconds (hangs are what we look for).
INPUT_TIME_LIMIT = 10.0

_SETTINGS = settings(
    max_examples=12,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)


@pytest.fixture(scope="module")
def workspace(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, OutsideReads]:
    os.environ.setdefault("RUBRIC_NO_CACHE", "1")
    root = tmp_path_factory.mktemp("fuzz")
    sentinel = root / "outside" / "sentinel.txt"
    sentinel.parent.mkdir()
    sentinel.write_text("secret outside the matter\n", encoding="utf-8")
    reads = OutsideReads.install()
    return root, sentinel, reads


def _check(case: Case, workspace: tuple[Path, Path, OutsideReads]) -> None:
    root, sentinel, reads = workspace
    reads.sentinels = {os.path.realpath(sentinel)}
    reads.opened.clear()
    try:
        trajectory = write_case(case, root / "matter", sentinel)
        started = time.process_time()
        outcome = run_case(case, root / "matter", trajectory, reads)
        elapsed = time.process_time() - started
    finally:
        reads.sentinels = set()
    assert outcome.findings == []
    assert elapsed < INPUT_TIME_LIMIT, f"{case.kind} input took {elapsed:.1f} s of CPU"


@_SETTINGS
@given(st.randoms(use_true_random=False))
def test_mutated_matters_never_crash(workspace: tuple[Path, Path, OutsideReads], rng: random.Random) -> None:
    case = make_case(rng, fs_tricks=False, kind="matter", heavy=False)
    case.operations = (*case.operations, "cli")
    _check(case, workspace)


@_SETTINGS
@given(st.randoms(use_true_random=False))
def test_mutated_trajectories_never_crash(workspace: tuple[Path, Path, OutsideReads], rng: random.Random) -> None:
    _check(make_case(rng, kind="trajectory"), workspace)


@settings(_SETTINGS, max_examples=40)
@given(st.randoms(use_true_random=False))
def test_hostile_gate_regexes_are_bounded(workspace: tuple[Path, Path, OutsideReads], rng: random.Random) -> None:
    _check(make_case(rng, kind="gate"), workspace)


@_SETTINGS
@given(st.randoms(use_true_random=False))
def test_tag_values_the_reference_cannot_load_are_lint_errors(
    workspace: tuple[Path, Path, OutsideReads], rng: random.Random
) -> None:
    """`!!bool maybe`, `!!int ''`, `!!timestamp "not a date"`... anywhere in a matter: no
    internal error in any command, and lint reports every file `safe_load` refuses."""
    case = make_case(rng, fs_tricks=False, kind="matter", heavy=False, scalars=TAG_VALUES)
    case.operations = (*case.operations, "cli")
    _check(case, workspace)


@settings(_SETTINGS, max_examples=10)
@given(st.randoms(use_true_random=False))
def test_lint_clean_structured_gates_search_within_budget(
    workspace: tuple[Path, Path, OutsideReads], rng: random.Random
) -> None:
    """A gate lint does not refuse (G003, G012, G016, G017) runs on 30,000 characters of
    prose without a full stop within `SEARCH_BUDGET` CPU seconds."""
    _check(make_case(rng, kind="search"), workspace)


def test_a_symlink_out_of_the_matter_is_never_opened(workspace: tuple[Path, Path, OutsideReads]) -> None:
    case = make_case(random.Random(0), fs_tricks=False, kind="matter")
    case.symlinks = {"documents/hosting.md": "SENTINEL", "hidden_facts.yaml": "SENTINEL"}
    case.files.pop("documents/hosting.md", None)
    case.files.pop("hidden_facts.yaml", None)
    case.operations = ("lint", "replay", "cli")
    case.cli = ["check", "{root}"]
    _check(case, workspace)
