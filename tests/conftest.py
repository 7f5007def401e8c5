"""Shared test fixtures: where the conformance corpus is, and how to require it."""

from __future__ import annotations

import builtins
import io
import os
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

# Tests (and the processes they start) use their own parse cache, never the user's.
os.environ["RUBRIC_CACHE_DIR"] = tempfile.mkdtemp(prefix="rubric-test-cache-")

REPO_ROOT = Path(__file__).resolve().parent.parent
MATTERS_DIR = REPO_ROOT / "matters"


def conformance_dir() -> Path | None:
    """`$RUBRIC_CONFORMANCE_DIR`, else `../shared/conformance` beside the repo; None if absent."""
    configured = os.environ.get("RUBRIC_CONFORMANCE_DIR")
    path = Path(configured) if configured else REPO_ROOT.parent / "shared" / "conformance"
    return path if (path / "matters").is_dir() else None


def require_conformance() -> Path:
    """The corpus path; skips the test when absent, or fails under RUBRIC_REQUIRE_CONFORMANCE=1."""
    path = conformance_dir()
    if path is None:
        message = "conformance corpus not found (set RUBRIC_CONFORMANCE_DIR)"
        if os.environ.get("RUBRIC_REQUIRE_CONFORMANCE") == "1":
            pytest.fail(message + " and RUBRIC_REQUIRE_CONFORMANCE=1")
        pytest.skip(message)
    return path


@pytest.fixture(scope="session")
def conformance() -> Path:
    return require_conformance()


@pytest.fixture
def opened(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Every path opened while the test runs, through os.open or open() (Path.read_bytes()
    opens through io.open): the file-system policy tests assert what was never opened."""
    paths: list[str] = []

    def recording(real: Callable[..., Any]) -> Callable[..., Any]:
        def record(path: Any, *args: Any, **kwargs: Any) -> Any:
            paths.append(os.fsdecode(path) if isinstance(path, str | bytes | os.PathLike) else str(path))
            return real(path, *args, **kwargs)

        return record

    monkeypatch.setattr(os, "open", recording(os.open))
    monkeypatch.setattr(io, "open", recording(io.open))
    monkeypatch.setattr(builtins, "open", recording(builtins.open))
    yield paths
