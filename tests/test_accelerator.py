"""The compiled scorer (rubric_tools/_accelerator.py): loaded only while current, identical results.

The default install is pure Python (a py3-none-any wheel); the compiled scorer is asked for
with RUBRIC_COMPILE=1 at install time. CI's extras step installs it with
RUBRIC_REQUIRE_COMPILED=1: the build must have compiled every module and the scorer must run
compiled. Wherever both exist, the compiled and the pure-Python scorer must give the same
records and results, byte for byte, on the bundled matters, the corpus when present and
seeded random trajectories.
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
from tests.conftest import MATTERS_DIR, REPO_ROOT, conformance_dir, require_conformance

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


def scorer_digest(corpus: str | None) -> str:
    """SHA-256 of every step record and result of the repo's matters, the corpus (when
    given) and 300 seeded shuffles of their own actions, floats by repr."""
    import rubric_tools
    from rubric_tools.scoring import replay

    digest = hashlib.sha256()

    def dump(matter: Any, actions: list[Any]) -> None:
        outcome = replay(matter, actions)
        for record in outcome.steps:
            digest.update(repr(record._replace(action=None)).encode())
        digest.update(json.dumps(outcome.result, sort_keys=True, default=repr).encode())

    matters: dict[str, Any] = {}
    pools: dict[str, list[dict[str, Any]]] = {}

    def replay_file(key: str, matter_root: Path, path: Path) -> None:
        if key not in matters:
            matters[key] = rubric_tools.load_matter(matter_root).matter
        actions = _actions(path)
        pools.setdefault(key, []).extend(a for a in actions if isinstance(a, dict))
        dump(matters[key], actions)

    for path in sorted(MATTERS_DIR.glob("*/trajectories/*.jsonl")):
        replay_file(f"bundled/{path.parent.parent.name}", path.parent.parent, path)
    if corpus is not None:
        root = Path(corpus)
        for path in sorted(root.glob("trajectories/*/*.jsonl")):
            replay_file(f"corpus/{path.parent.name}", root / "matters" / path.parent.name, path)
    rng = random.Random(12)
    for _ in range(300):
        key = rng.choice(sorted(pools))
        dump(matters[key], _shuffled_trajectory(rng, pools[key]))
    return digest.hexdigest()


def test_compiled_and_pure_python_scorers_agree() -> None:
    """On the bundled matters always; on the corpus too when it is there (or required)."""
    if not _compiled_now():
        pytest.skip(
            f"the scorer here is {_accelerator.describe()}: nothing to compare "
            "(CI's extras step installs the compiled scorer and runs this test)"
        )
    corpus = str(require_conformance()) if conformance_dir() or os.environ.get("RUBRIC_REQUIRE_CONFORMANCE") else None
    pure = _run_python(
        f"from tests.test_accelerator import scorer_digest; print(scorer_digest({corpus!r}))", RUBRIC_PURE_PYTHON="1"
    )
    assert scorer_digest(corpus) == pure


def test_the_digest_covers_the_bundled_matters_without_the_corpus() -> None:
    """The identity test needs no external data: the bundled matters alone give a digest
    that any change of a step record changes."""
    from rubric_tools.scoring import replay as real_replay

    first = scorer_digest(None)
    assert first == scorer_digest(None)
    import rubric_tools.scoring as scoring

    def shifted(matter: Any, actions: list[Any], **options: Any) -> Any:
        outcome = real_replay(matter, actions, **options)
        outcome.result["raw_score"] = outcome.result.get("raw_score", 0) + 1e-9
        return outcome

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(scoring, "replay", shifted)
        assert scorer_digest(None) != first


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


# ----------------------------------------------------------------- opt-in, and saying so


def _hook_module() -> Any:
    pytest.importorskip("hatchling")
    sys.path.insert(0, str(REPO_ROOT))
    try:
        import hatch_build
    finally:
        sys.path.remove(str(REPO_ROOT))
    return hatch_build


@pytest.mark.parametrize(
    ("environment", "requested"),
    [
        ({}, False),
        ({"RUBRIC_COMPILE": "0"}, False),
        ({"RUBRIC_COMPILE": "1"}, True),
        ({"RUBRIC_REQUIRE_COMPILED": "1"}, True),
        ({"RUBRIC_COMPILE": "1", "RUBRIC_PURE_PYTHON": "1"}, False),
    ],
)
def test_compiling_is_opt_in(environment: dict[str, str], requested: bool) -> None:
    assert _hook_module().compile_requested(environment) is requested


def test_a_missing_compiler_is_one_line(tmp_path: Path) -> None:
    hook = _hook_module()
    reason = hook.missing_tool({"CC": str(tmp_path / "no-such-cc")})
    assert reason is not None and "\n" not in reason
    assert "no-such-cc" in reason or "Cython is not installed" in reason


def _build_wheel(tmp_path: Path, **environment: str) -> subprocess.CompletedProcess[str]:
    """The wheel, built by hatchling from this source tree, in a child process (the hook
    reads the environment)."""
    pytest.importorskip("hatchling")
    code = (
        "import sys; from hatchling.builders.wheel import WheelBuilder; "
        f"print(*WheelBuilder({str(REPO_ROOT)!r}).build(directory={str(tmp_path)!r}, versions=['standard']))"
    )
    clean = {k: v for k, v in os.environ.items() if not k.startswith("RUBRIC_") or k == "RUBRIC_CACHE_DIR"}
    return subprocess.run(
        [sys.executable, "-c", code], env={**clean, **environment}, capture_output=True, text=True, timeout=300
    )


def test_the_default_wheel_is_pure_python(tmp_path: Path) -> None:
    import zipfile

    built = _build_wheel(tmp_path)
    assert built.returncode == 0, built.stderr
    wheel = Path(built.stdout.split()[-1])
    assert wheel.name.endswith("-py3-none-any.whl"), wheel.name
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
    assert not [name for name in names if "_compiled" in name or name.endswith((".so", ".pyd", ".c"))]
    assert "rubric_tools/_schemas/trajectory.schema.json" in names


def test_a_required_build_that_cannot_be_made_fails_with_one_line(tmp_path: Path) -> None:
    built = _build_wheel(tmp_path, RUBRIC_REQUIRE_COMPILED="1", CC=str(tmp_path / "no-such-cc"))
    assert built.returncode != 0
    lines = [line for line in built.stderr.splitlines() if line.strip()]
    assert lines == [lines[-1]] and lines[-1].startswith("error: rubric-tools: the compiled scorer was not built: ")
    assert "Traceback" not in built.stderr


def test_an_asked_for_build_that_cannot_be_made_is_pure_and_says_so(tmp_path: Path) -> None:
    import zipfile

    built = _build_wheel(tmp_path, RUBRIC_COMPILE="1", CC=str(tmp_path / "no-such-cc"))
    assert built.returncode == 0, built.stderr
    [warning] = [line for line in built.stderr.splitlines() if "rubric-tools" in line]
    assert warning.startswith("warning: rubric-tools: the compiled scorer was not built: ")
    wheel = Path(built.stdout.split()[-1])
    assert wheel.name.endswith("-py3-none-any.whl")
    with zipfile.ZipFile(wheel) as archive:
        manifest = archive.read("rubric_tools/scoring/_compiled/manifest.txt").decode()
    assert manifest.startswith(_accelerator.NOT_BUILT_ENTRY + "\t")


def test_version_and_commands_say_when_the_compiled_scorer_is_not_running(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from rubric_tools.cli import main

    monkeypatch.delenv("RUBRIC_PURE_PYTHON", raising=False)
    monkeypatch.setattr(_accelerator, "_finder", None)
    monkeypatch.setattr(_accelerator, "COMPILED_DIR", str(tmp_path))
    assert _accelerator.not_running_warning() is None  # no build asked for: pure Python by choice
    assert _accelerator.describe().startswith("pure Python (the default")
    entries = {_accelerator.NOT_BUILT_ENTRY: ("no C compiler: `cc` was not found", "-")}
    (tmp_path / MANIFEST_NAME).write_text(manifest_text(entries), encoding="utf-8")
    assert "asked for at install but not built: no C compiler" in _accelerator.describe()
    assert main(["--version"]) == 0
    captured = capsys.readouterr()
    assert "scorer: pure Python (the compiled scorer was asked for at install but not built" in captured.out
    [warning] = captured.err.splitlines()
    assert warning.startswith("warning: rubric-tools: the compiled scorer is not running: ")
    # A build whose sources changed since: expected, not running.
    stale = {name: ("0" * 64, f"{name}{SUFFIX}") for name in _accelerator.COMPILED_MODULES}
    (tmp_path / MANIFEST_NAME).write_text(manifest_text(stale), encoding="utf-8")
    assert "out of date" in _accelerator.describe() and _accelerator.not_running_warning() is not None
    monkeypatch.setenv("RUBRIC_PURE_PYTHON", "1")
    assert _accelerator.not_running_warning() is None  # pure Python asked for: nothing to say
