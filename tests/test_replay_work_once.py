"""Work done once per matter, not once per trajectory: a replay run compiles each gate once,
and reads each trajectory file once."""

from __future__ import annotations

import builtins
import os
from pathlib import Path
from typing import Any

import pytest

from rubric_tools.replaying import MatterCache, replay_file
from rubric_tools.scoring.gates import GateRunner, compile_pattern
from tests.conftest import MATTERS_DIR


def _trajectories() -> list[Path]:
    found = sorted(MATTERS_DIR.glob("*/trajectories/*.jsonl"))
    assert len(found) >= 4
    return found


def test_gates_are_compiled_once_per_matter(monkeypatch: pytest.MonkeyPatch) -> None:
    runners: list[object] = []
    real_init = GateRunner.__init__

    def counting_init(self: GateRunner, *args: object, **kwargs: object) -> None:
        runners.append(self)
        real_init(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(GateRunner, "__init__", counting_init)
    cache = MatterCache()
    for path in _trajectories():
        replay_file(path, None, cache)
    info = compile_pattern.cache_info()
    compiled, built = info.hits + info.misses, len(runners)
    for _ in range(3):  # the same trajectories again: nothing more to compile or build
        for path in _trajectories():
            replay_file(path, None, cache)
    info = compile_pattern.cache_info()
    assert info.hits + info.misses == compiled  # not even a look-up in the compile cache
    assert len(runners) == built


def test_each_trajectory_file_is_opened_once(monkeypatch: pytest.MonkeyPatch) -> None:
    opened: list[str] = []
    real_open, real_os_open = builtins.open, os.open

    def counting_open(file: Any, *args: Any, **kwargs: Any) -> Any:
        opened.append(str(file))
        return real_open(file, *args, **kwargs)

    def counting_os_open(path: Any, *args: Any, **kwargs: Any) -> int:
        opened.append(str(path))
        return real_os_open(path, *args, **kwargs)

    monkeypatch.setattr(builtins, "open", counting_open)
    monkeypatch.setattr(os, "open", counting_os_open)
    cache = MatterCache()
    paths = _trajectories()
    for path in paths:
        replay_file(path, None, cache)
    for path in paths:
        assert opened.count(str(path)) == 1, path
