"""The shape of `rubric check`'s work on one matter (issue 21): the walk of the static call
graph from its per-matter entry (`tests/call_graph.py`; `benchmarks/call_walk.py` prints the
figures) enters lint only through the check runner's lint stage and never crosses between
the audit and lint, and the two share their gate analysis only through `gate_analysis`."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests.call_graph import STAGES, WHOLE_HOUSE, CallGraph, Walk, walk

REPO = Path(__file__).resolve().parents[1]
PACKAGE = REPO / "rubric_tools"
LINT_STAGE = "rubric_tools.checking.runner:_lint_stage"


@pytest.fixture(scope="module")
def check_walk() -> Walk:
    return walk(REPO)


def test_the_walk_reaches_every_stage_of_check(check_walk: Walk) -> None:
    packages = set(check_walk.packages)
    assert {"checking", "loading", "lint", "replaying", "prove", "audit", "gate_analysis", "scoring"} <= packages
    assert any(stop.startswith("rubric_tools.lint.rules.") for stop in check_walk.stops)  # the rules run


def test_lint_is_entered_only_by_the_lint_stage(check_walk: Walk) -> None:
    callers = {caller for caller, _ in check_walk.callers_into("lint")}
    assert callers == {LINT_STAGE}
    assert check_walk.entries(STAGES)["lint"] == 1


def test_the_walk_never_crosses_between_audit_and_lint(check_walk: Walk) -> None:
    assert check_walk.crossings("audit", "lint", WHOLE_HOUSE) == 0
    assert not any(caller.startswith("rubric_tools.audit.") for caller, _ in check_walk.callers_into("lint"))


def _imported(package: str) -> set[str]:
    """Every `rubric_tools` module the package's modules import (lazily too)."""
    found: set[str] = set()
    for path in (PACKAGE / package).rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("rubric_tools"):
                found.add(node.module)
            elif isinstance(node, ast.Import):
                found.update(alias.name for alias in node.names if alias.name.startswith("rubric_tools"))
    return found


#: Words that name gate and regex analysis in a module's name.
GATE_ANALYSIS_WORDS = ("gate", "regex", "witness", "alternative", "concept")


def test_audit_and_lint_share_their_gate_analysis_only_through_gate_analysis() -> None:
    lint, audit = _imported("lint"), _imported("audit")
    assert not any(module.startswith("rubric_tools.lint") for module in audit), "the audit imports lint"
    assert not any(module.startswith("rubric_tools.audit") for module in lint), "lint imports the audit"
    shared = lint & audit
    about_gates = {m for m in shared if any(word in m.rsplit(".", 1)[-1] for word in GATE_ANALYSIS_WORDS)}
    # The scorer's own matcher is what every verdict runs on; the analysis of it is gate_analysis.
    assert {m for m in about_gates if not m.startswith("rubric_tools.gate_analysis")} <= {"rubric_tools.scoring.gates"}
    assert any(m.startswith("rubric_tools.gate_analysis") for m in shared)


def test_the_graph_follows_imports_methods_and_tables(tmp_path: Path) -> None:
    package = tmp_path / "rubric_tools"
    (package / "low").mkdir(parents=True)
    (package / "__init__.py").write_text("", encoding="utf-8")
    (package / "low" / "__init__.py").write_text("", encoding="utf-8")
    (package / "low" / "parts.py").write_text(
        "class Box:\n"
        "    def __init__(self, n: int) -> None:\n        self.n = n\n"
        "    def size(self) -> int:\n        return helper(self.n)\n"
        "def helper(n):\n    return n\n"
        "def other(n):\n    return n\n"
        "TABLE = {'a': helper, 'b': other}\n",
        encoding="utf-8",
    )
    (package / "top.py").write_text(
        "from rubric_tools.low.parts import TABLE, Box\n"
        "def entry(box: Box):\n"
        "    from rubric_tools.low import parts\n"
        "    made = Box(2)\n"
        "    return box.size(), made.size(), TABLE['a'](1), parts.other(3)\n",
        encoding="utf-8",
    )
    graph = CallGraph(package)
    assert graph.callees("rubric_tools.top:entry") == [  # in source order: `made = Box(2)` first
        "rubric_tools.low.parts:Box.__init__",
        "rubric_tools.low.parts:Box.size",
        "rubric_tools.low.parts:TABLE",
        "rubric_tools.low.parts:other",
    ]
    assert graph.callees("rubric_tools.low.parts:TABLE") == [
        "rubric_tools.low.parts:helper",
        "rubric_tools.low.parts:other",
    ]
