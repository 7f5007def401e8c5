"""The embedded scorer and the linter against the reference engine on odd inputs.

`../shared/conformance-edge` (or `$RUBRIC_CONFORMANCE_EDGE_DIR`) holds small matters,
each unusual in one place, with one trajectory and what the reference engine did:
either its exact result (reproduced here like the main corpus: result within 1e-9 and
every step reward) or the exception it raised on the matter (then `rubric lint` must
report an error, never pass the matter as clean).
"""

from __future__ import annotations

import json
import math
import os
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import referencing

import rubric_tools
from rubric_tools.cli import main
from rubric_tools.config.lint import LintSection
from rubric_tools.diagnostics import Severity
from rubric_tools.lint.engine import lint_paths
from rubric_tools.scoring.json_values import json_default
from tests.conftest import REPO_ROOT
from tests.test_conformance import TOLERANCE, assert_same

REPLAY_SCHEMA = json.loads((REPO_ROOT / "schemas" / "replay-output.schema.json").read_text(encoding="utf-8"))
RECORD_VALIDATOR = jsonschema.Draft202012Validator(
    json.loads((REPO_ROOT / "schemas" / "replay-record.schema.json").read_text(encoding="utf-8")),
    registry=referencing.Registry().with_resource(
        REPLAY_SCHEMA["$id"], referencing.Resource.from_contents(REPLAY_SCHEMA)
    ),
)

#: Cases still expected to differ from the reference, with why. Strict: once a case passes, it
#: must leave this set. Empty since the scorer keeps YAML 1.1 ids as the reference does (H08d, H32).
PENDING: dict[str, str] = {}


def conformance_edge_dir() -> Path | None:
    """`$RUBRIC_CONFORMANCE_EDGE_DIR`, else `../shared/conformance-edge`; None if absent."""
    configured = os.environ.get("RUBRIC_CONFORMANCE_EDGE_DIR")
    path = Path(configured) if configured else REPO_ROOT.parent / "shared" / "conformance-edge"
    return path if path.is_dir() else None


def require_edge_corpus() -> Path:
    path = conformance_edge_dir()
    if path is None:
        message = "conformance-edge corpus not found (set RUBRIC_CONFORMANCE_EDGE_DIR)"
        if os.environ.get("RUBRIC_REQUIRE_CONFORMANCE") == "1":
            pytest.fail(message + " and RUBRIC_REQUIRE_CONFORMANCE=1")
        pytest.skip(message)
    return path


_CORPUS = conformance_edge_dir()
_CASES = sorted(p.parent for p in _CORPUS.glob("*/expected.json")) if _CORPUS else []


def _case_params() -> list[Any]:
    params = []
    for case in _CASES:
        marks = []
        if case.name in PENDING:
            marks.append(pytest.mark.xfail(strict=True, reason="pending: " + PENDING[case.name]))
        params.append(pytest.param(case, id=case.name, marks=marks))
    return params or [pytest.param(None, id="corpus-absent")]


def _actions(case: Path) -> list[Any]:
    lines = (case / "trajectory.jsonl").read_text(encoding="utf-8", errors="surrogatepass").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


@pytest.mark.parametrize("case", _case_params())
def test_edge_case_behaves_as_reference(case: Path | None) -> None:
    require_edge_corpus()
    assert case is not None
    expected = json.loads((case / "expected.json").read_text(encoding="utf-8"))
    if "reference_error" in expected:
        report = lint_paths([case / "matter"], LintSection())
        errors = [d for d in report.diagnostics if d.severity is Severity.ERROR]
        assert errors, f"the reference raises {expected['reference_error']!r}; lint found no error"
        return
    replayed = rubric_tools.replay(rubric_tools.load_matter(case / "matter"), _actions(case))
    # expected.json is the reference's result written as JSON, so compare ours as our JSON outputs
    # write it (a date id becomes its ISO text there; a boolean matter_id stays a boolean).
    assert_same(json.loads(json.dumps(replayed.result, default=json_default)), expected["result"])
    assert [s.step for s in replayed.steps] == [s["step"] for s in expected["steps"]]
    for record, want in zip(replayed.steps, expected["steps"], strict=True):
        assert record.type == want["type"]
        assert math.isclose(record.reward, want["reward"], abs_tol=TOLERANCE), (
            f"step {record.step}: reward {record.reward} != {want['reward']}"
        )


def test_edge_corpus_is_complete() -> None:
    corpus = require_edge_corpus()
    assert len(list(corpus.glob("*/expected.json"))) == 44
    assert set(PENDING) <= {case.name for case in _CASES}


@pytest.mark.parametrize("output_format", ["json", "jsonl"])
@pytest.mark.parametrize("name", ["H08d-yaml11-date-issue-id", "H32-yaml11-yes-matter-id"])
def test_replay_json_of_a_yaml_11_id_is_valid_json_as_the_reference_writes_it(
    name: str, output_format: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """A date issue id and a boolean matter_id reach `rubric replay`'s JSON outputs as strict
    JSON (the date as ISO text), valid against the output schemas, equal to the reference."""
    case = require_edge_corpus() / name
    arguments = [str(case / "trajectory.jsonl"), "--matter", str(case / "matter"), "--output-format", output_format]
    code = main(["replay", *arguments])
    output = capsys.readouterr().out
    if output_format == "json":
        document = json.loads(output, parse_constant=_reject_constant)
        jsonschema.validate(document, REPLAY_SCHEMA)
        result = document["replays"][0]["result"]
    else:
        (line,) = output.splitlines()
        record = json.loads(line, parse_constant=_reject_constant)
        RECORD_VALIDATOR.validate(record)
        result = record["result"]
    expected = json.loads((case / "expected.json").read_text(encoding="utf-8"))
    assert code == 0
    assert_same(result, expected["result"])


def _reject_constant(name: str) -> None:
    raise AssertionError(f"not strict JSON: {name}")
