"""`rubric check` loads each matter once and checks matters in parallel, in input order."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from rubric_tools.checking import check_paths, runner
from rubric_tools.loading import matter as matter_module
from tests.conftest import MATTERS_DIR


def _summary(report: runner.CheckReport) -> list[tuple[str, list[runner.CheckRow]]]:
    return [(check.matter_id, check.rows) for check in report.matters]


def test_each_matter_is_loaded_once(monkeypatch: pytest.MonkeyPatch) -> None:
    loads: list[Path] = []
    real_load = matter_module.load_matter_source

    def counting_load(root: Path) -> object:
        loads.append(Path(root).resolve())
        return real_load(root)

    # Every module that imported the loader (lint, replay, probes, attack, audit) counts.
    for module in list(sys.modules.values()):
        if getattr(module, "load_matter_source", None) is real_load:
            monkeypatch.setattr(module, "load_matter_source", counting_load)
    monkeypatch.setattr(runner, "_check_workers", lambda matters: 1)
    report = check_paths([MATTERS_DIR])
    assert len(report.matters) >= 2
    assert sorted(loads) == sorted({check.root.resolve() for check in report.matters})


def test_parallel_check_reports_what_a_serial_one_does(monkeypatch: pytest.MonkeyPatch) -> None:
    if "fork" not in runner.multiprocessing.get_all_start_methods():
        pytest.skip("worker processes need fork here")
    monkeypatch.setattr(runner, "_check_workers", lambda matters: 1)
    serial = check_paths([MATTERS_DIR])
    monkeypatch.setattr(runner, "_check_workers", lambda matters: 2)
    parallel = check_paths([MATTERS_DIR])
    assert _summary(parallel) == _summary(serial)
    assert [check.lint.diagnostics for check in parallel.matters] == [c.lint.diagnostics for c in serial.matters]
