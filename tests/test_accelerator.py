"""The compiled scorer (rubric_tools/_accelerator.py): loaded only while current, identical results.

CI sets RUBRIC_REQUIRE_COMPILED=1: the build must have compiled every module and the
scorer must run compiled. Everywhere, the compiled and the pure-Python scorer must give the
same records and results, byte for byte, on the corpus and on seeded random trajectories.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import subprocess
import sys
from importlib import import_module
from importlib.machinery import EXTENSION_SUFFIXES, ExtensionFileLoader
from pathlib import Path
from typing import Any

import pytest

from rubric_tools import _accelerator
from rubric_tools._accelerator import MANIFEST_NAME, CompiledFinder, manifest_text, source_digest
from tests.conftest import MATTERS_DIR, REPO_ROOT, require_conformance

SUFFIX = EXTENSION_SUFFIXES[0]


def _layout(tmp_path: Path, digest: str | None = None, file: str = f"mod{SUFFIX}") -> CompiledFinder:
    """A package with source `mod.py`, a compiled `file` and a manifest naming it with `digest`
    (the source's own digest by default)."""
    source_dir, compiled_dir = tmp_path / "src", tmp_path / "compiled"
    source_dir.mkdir()
    compiled_dir.mkdir()
    (source_dir / "mod.py").write_text("VALUE = 1\n", encoding="utf-8")
    (compiled_dir / file).write_bytes(b"")  # never loaded: find_spec only points at it
    recorded = digest if digest is not None else source_digest(source_dir / "mod.py")
    (compiled_dir / MANIFEST_NAME).write_text(manifest_text({"mod": (recorded, file)}), encoding="utf-8")
    return CompiledFinder("pkg", source_dir, compiled_dir, names=("mod",))


def test_a_current_build_is_found(tmp_path: Path) -> None:
    finder = _layout(tmp_path)
    spec = finder.find_spec("pkg.mod")
    assert spec is not None and isinstance(spec.loader, ExtensionFileLoader)
    assert spec.origin == str(tmp_path / "compiled" / f"mod{SUFFIX}")


def test_an_edited_source_is_imported_as_python(tmp_path: Path) -> None:
    finder = _layout(tmp_path)
    (tmp_path / "src" / "mod.py").write_text("VALUE = 2\n", encoding="utf-8")
    assert finder.find_spec("pkg.mod") is None


@pytest.mark.parametrize(
    "break_it",
    [
        lambda root: (root / "compiled" / f"mod{SUFFIX}").unlink(),
        lambda root: (root / "compiled" / MANIFEST_NAME).unlink(),
        lambda root: (root / "src" / "mod.py").unlink(),
        lambda root: (root / "compiled" / MANIFEST_NAME).write_text("mod\tbroken\n", encoding="utf-8"),
    ],
    ids=["no-compiled-file", "no-manifest", "no-source", "malformed-manifest"],
)
def test_an_incomplete_build_is_not_used(tmp_path: Path, break_it: Any) -> None:
    finder = _layout(tmp_path)
    break_it(tmp_path)
    assert finder.find_spec("pkg.mod") is None


def test_a_build_for_another_interpreter_is_not_used(tmp_path: Path) -> None:
    assert _layout(tmp_path, file="mod.cpython-27-other.so").find_spec("pkg.mod") is None


def test_other_modules_are_not_its_business(tmp_path: Path) -> None:
    finder = _layout(tmp_path)
    assert finder.find_spec("pkg.other") is None
    assert finder.find_spec("elsewhere.mod") is None
    assert finder.find_spec("pkg.mod.inner") is None


@pytest.mark.parametrize(("value", "pure"), [("", False), ("0", False), ("1", True), ("yes", True)])
def test_the_pure_python_switch(value: str, pure: bool) -> None:
    assert _accelerator.pure_python_requested({"RUBRIC_PURE_PYTHON": value}) is pure


def _run_python(code: str, **environment: str) -> str:
    completed = subprocess.run(
        [sys.executable, "-c", code],
        cwd=REPO_ROOT,
        env={**os.environ, **environment},
        capture_output=True,
        text=True,
        check=True,
        timeout=300,
    )
    return completed.stdout.strip()


def test_pure_python_can_be_forced() -> None:
    code = "import rubric_tools.scoring.episode as e, rubric_tools._accelerator as a; print(e.__file__, a.describe())"
    output = _run_python(code, RUBRIC_PURE_PYTHON="1")
    assert output.split()[0].endswith("episode.py") and "pure Python (RUBRIC_PURE_PYTHON is set)" in output


def _compiled_now() -> bool:
    return not _accelerator.pure_python_requested() and _accelerator.describe().startswith("compiled")


def test_ci_runs_the_compiled_scorer() -> None:
    """Under RUBRIC_REQUIRE_COMPILED=1 (CI) every hot module must come from its build."""
    if os.environ.get("RUBRIC_REQUIRE_COMPILED", "") in ("", "0"):
        pytest.skip("RUBRIC_REQUIRE_COMPILED is not set (only CI requires the compiled scorer)")
    assert _accelerator.describe().startswith("compiled"), _accelerator.describe()
    for name in _accelerator.COMPILED_MODULES:
        module = import_module(f"{_accelerator.PACKAGE}.{name}")
        assert str(module.__file__).endswith(SUFFIX), f"{name} runs from {module.__file__}"


# ----------------------------------------------------------------- compiled == pure


def _actions(path: Path) -> list[Any]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def _shuffled_trajectory(rng: random.Random, pool: list[dict[str, Any]]) -> list[Any]:
    """A trajectory from a matter's own actions: reordered, revised, some fields dropped."""
    episode: list[Any] = []
    for _ in range(rng.randint(1, 60)):
        action = dict(rng.choice(pool))
        kind = action.get("type")
        if kind in ("submit_issue", "propose_redline") and rng.random() < 0.3:
            action["type"] = "revise_issue" if kind == "submit_issue" else "revise_redline"
            donor = rng.choice(pool)
            for name in ("analysis", "citations", "quotes", "replacement_text"):
                if name in donor and rng.random() < 0.5:
                    action[name] = donor[name]
        if rng.random() < 0.05 and action:
            action.pop(rng.choice(sorted(action)))
        episode.append(action)
    return episode


def scorer_digest(corpus: str) -> str:
    """SHA-256 of every step record and result of the corpus, the repo's matters and 300
    seeded shuffles of the corpus's own actions, floats by repr."""
    import rubric_tools
    from rubric_tools.scoring import replay

    digest = hashlib.sha256()

    def dump(matter: Any, actions: list[Any]) -> None:
        outcome = replay(matter, actions)
        for record in outcome.steps:
            digest.update(repr(record._replace(action=None)).encode())
        digest.update(json.dumps(outcome.result, sort_keys=True, default=repr).encode())

    root = Path(corpus)
    matters: dict[str, Any] = {}
    pools: dict[str, list[dict[str, Any]]] = {}
    for path in sorted(root.glob("trajectories/*/*.jsonl")):
        matter_id = path.parent.name
        if matter_id not in matters:
            matters[matter_id] = rubric_tools.load_matter(root / "matters" / matter_id).matter
        actions = _actions(path)
        pools.setdefault(matter_id, []).extend(a for a in actions if isinstance(a, dict))
        dump(matters[matter_id], actions)
    for path in sorted(MATTERS_DIR.glob("*/trajectories/*.jsonl")):
        dump(rubric_tools.load_matter(path.parent.parent).matter, _actions(path))
    rng = random.Random(12)
    for _ in range(300):
        matter_id = rng.choice(sorted(pools))
        dump(matters[matter_id], _shuffled_trajectory(rng, pools[matter_id]))
    return digest.hexdigest()


def test_compiled_and_pure_python_scorers_agree() -> None:
    if not _compiled_now():
        pytest.skip(f"the scorer here is {_accelerator.describe()}: nothing to compare")
    corpus = str(require_conformance())
    pure = _run_python(
        f"from tests.test_accelerator import scorer_digest; print(scorer_digest({corpus!r}))", RUBRIC_PURE_PYTHON="1"
    )
    assert scorer_digest(corpus) == pure


# ----------------------------------------------------------------- the build hook


def test_the_build_hook_rebuilds_what_changed(tmp_path: Path) -> None:
    """An editable install recompiles a module when its source or the build configuration
    changed, and nothing else."""
    pytest.importorskip("hatchling")
    pytest.importorskip("Cython")
    sys.path.insert(0, str(REPO_ROOT))
    try:
        import hatch_build
    finally:
        sys.path.remove(str(REPO_ROOT))
    source_dir, compiled_dir = tmp_path / "scoring", tmp_path / "compiled"
    source_dir.mkdir()
    compiled_dir.mkdir()
    names = _accelerator.COMPILED_MODULES
    for name in names:
        (source_dir / f"{name}.py").write_text(f"NAME = {name!r}\n", encoding="utf-8")
        (compiled_dir / f"{name}{SUFFIX}").write_bytes(b"")
    assert hatch_build._stale_modules(_accelerator, source_dir, compiled_dir) == list(names)  # no manifest
    entries = {name: (source_digest(source_dir / f"{name}.py"), f"{name}{SUFFIX}") for name in names}
    configuration = _accelerator.text_digest(hatch_build.build_configuration(_accelerator))
    entries[hatch_build.BUILD_ENTRY] = (configuration, "-")
    (compiled_dir / MANIFEST_NAME).write_text(manifest_text(entries), encoding="utf-8")
    assert hatch_build._stale_modules(_accelerator, source_dir, compiled_dir) == []
    (source_dir / "gates.py").write_text("NAME = 'edited'\n", encoding="utf-8")
    assert hatch_build._stale_modules(_accelerator, source_dir, compiled_dir) == ["gates"]
    entries[hatch_build.BUILD_ENTRY] = ("another configuration", "-")
    (compiled_dir / MANIFEST_NAME).write_text(manifest_text(entries), encoding="utf-8")
    assert hatch_build._stale_modules(_accelerator, source_dir, compiled_dir) == list(names)
