"""What the end-to-end tests of `rubric lsp` share: the extra they need, matters copied
into a temporary folder, opening and editing files as an editor does, and waiting on
what the server publishes."""

from __future__ import annotations

import asyncio
import os
import shutil
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]
MATTERS = REPO_ROOT / "matters"
EXTRA = ("pygls", "lsprotocol", "pytest_lsp")
#: Generous: the server publishes well within a second; only a hang or a lost message reaches it.
TIMEOUT = 30.0
#: How long a test waits for the audit's findings after a save. The audit on save makes its
#: guard proposals (the code actions need them): about 25 s of CPU for the bundled
#: ai_saas_001 on the 2-core CI machine, more beside another test's server. A hang guard,
#: not a speed test.
AUDIT_TIMEOUT = 120.0
CANARY = "rubric-tools-canary-2f9c1e7a"


def require_extra() -> None:
    """Skip the calling test module without the `lsp` extra and pytest-lsp, or fail under
    RUBRIC_REQUIRE_LSP=1 (`.ci/run` sets it where it installs them)."""
    for name in EXTRA:
        try:
            __import__(name)
        except ImportError:
            message = f"{name} is not installed: pip install -e '.[lsp,lsp-test]' runs the language server tests"
            if os.environ.get("RUBRIC_REQUIRE_LSP") == "1":
                pytest.fail(message + " (RUBRIC_REQUIRE_LSP=1)", pytrace=False)
            pytest.skip(message, allow_module_level=True)


def copy_matters(target: Path, names: Sequence[str] = ("ai_saas_001", "clean_saas_002"), settings: str = "") -> Path:
    """The bundled matters in `target/matters`, with a pyproject.toml like ours above them."""
    for name in names:
        shutil.copytree(MATTERS / name, target / "matters" / name)
    (target / "pyproject.toml").write_text(
        f'[tool.rubric]\nmatter-dirs = ["matters"]\ncanary = "{CANARY}"\n{settings}', encoding="utf-8"
    )
    return target.resolve()


async def eventually(check: Callable[[], Any], timeout: float = TIMEOUT, what: str = "the condition") -> Any:
    """Poll `check` until it returns something truthy."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        found = check()
        if found:
            return found
        if loop.time() > deadline:
            raise AssertionError(f"timed out after {timeout:g} s waiting for {what}")
        await asyncio.sleep(0.02)
