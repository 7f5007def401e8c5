"""Build hook: compile the hot scoring modules with Cython (see rubric_tools/_accelerator.py).

A regular wheel gets the compiled files under rubric_tools/scoring/_compiled/ (and a
platform tag); an editable install builds them there in the source tree (git-ignored),
recompiling only modules whose source changed. Without Cython or a C compiler the build
warns and goes on pure Python, unless RUBRIC_REQUIRE_COMPILED=1 (CI) makes that an error;
RUBRIC_PURE_PYTHON=1 skips compiling.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import sys
import tempfile
from pathlib import Path
from types import ModuleType
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

WHEEL_DIR = "rubric_tools/scoring/_compiled"


def _accelerator(root: Path) -> ModuleType:
    """rubric_tools/_accelerator.py by path: the package's own imports are not installed here."""
    spec = importlib.util.spec_from_file_location("_rubric_accelerator", root / "rubric_tools" / "_accelerator.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


#: The manifest entry that records how the modules were built (not a module name).
BUILD_ENTRY = "_build"
#: C compiler flags: no debug information (gcc and clang), which is most of each file's size;
#: nobody steps through Cython's C, and RUBRIC_PURE_PYTHON=1 is the way to debug the scorer.
COMPILE_FLAGS = [] if sys.platform == "win32" else ["-g0"]


def build_configuration(accelerator: ModuleType) -> str:
    """What else than its source a build depends on: Cython's version, the directives, the flags."""
    from importlib.metadata import version

    directives = sorted(accelerator.CYTHON_DIRECTIVES.items())
    return f"Cython {version('Cython')} {directives} {COMPILE_FLAGS}"


def _stale_modules(accelerator: ModuleType, source_dir: Path, compiled_dir: Path) -> list[str]:
    """The modules whose build in `compiled_dir` is missing or older than their source (all of
    them when the build configuration changed)."""
    built_with = accelerator.read_manifest(compiled_dir / accelerator.MANIFEST_NAME).get(BUILD_ENTRY)
    if built_with is None or built_with[0] != accelerator.text_digest(build_configuration(accelerator)):
        return list(accelerator.COMPILED_MODULES)
    finder = accelerator.CompiledFinder(accelerator.PACKAGE, source_dir, compiled_dir)
    return [name for name in accelerator.COMPILED_MODULES if finder.compiled_path(name) is None]


def compile_modules(accelerator: ModuleType, root: Path, names: list[str], into: Path, work: Path) -> None:
    """Cythonize and compile `names` (modules of rubric_tools/scoring), putting each
    extension and an updated manifest in `into`."""
    from Cython.Build import cythonize
    from setuptools import Distribution, Extension

    source_dir = root / "rubric_tools" / "scoring"
    package = accelerator.PACKAGE
    extensions = [
        Extension(f"{package}.{name}", [str(source_dir / f"{name}.py")], extra_compile_args=COMPILE_FLAGS)
        for name in names
    ]
    cythonized = cythonize(
        extensions, compiler_directives=accelerator.CYTHON_DIRECTIVES, build_dir=str(work / "c"), quiet=True
    )
    distribution = Distribution({"name": "rubric-tools-compiled-scorer", "ext_modules": cythonized})
    build: Any = distribution.get_command_obj("build_ext")
    build.build_lib = str(work / "lib")
    build.build_temp = str(work / "temp")
    build.parallel = os.cpu_count() or 1
    build.ensure_finalized()
    build.run()
    into.mkdir(parents=True, exist_ok=True)
    manifest_path = into / accelerator.MANIFEST_NAME
    entries = accelerator.read_manifest(manifest_path)
    entries[BUILD_ENTRY] = (accelerator.text_digest(build_configuration(accelerator)), "-")
    for name in names:
        built = Path(build.build_lib) / build.get_ext_filename(f"{package}.{name}")
        shutil.copyfile(built, into / built.name)
        entries[name] = (accelerator.source_digest(source_dir / f"{name}.py"), built.name)
    manifest_path.write_text(accelerator.manifest_text(entries), encoding="utf-8")


class CompiledScorerHook(BuildHookInterface[Any]):
    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        root = Path(self.root)
        accelerator = _accelerator(root)
        if accelerator.pure_python_requested():
            self.app.display_info(f"rubric-tools: {accelerator.PURE_PYTHON_VARIABLE} is set, not compiling the scorer")
            return
        source_dir = root / "rubric_tools" / "scoring"
        # Editable: in the source tree, where the package looks; a wheel: a fresh build of all.
        editable = version == "editable"
        # A wheel's builds stay in a folder of ours until the wheel is written (`finalize`).
        self._wheel_files: Path | None = None if editable else Path(tempfile.mkdtemp(prefix="rubric-tools-wheel-"))
        into = source_dir / accelerator.COMPILED_DIR_NAME if self._wheel_files is None else self._wheel_files
        names = _stale_modules(accelerator, source_dir, into) if editable else list(accelerator.COMPILED_MODULES)
        if names:
            work = Path(tempfile.mkdtemp(prefix="rubric-tools-build-"))
            try:
                compile_modules(accelerator, root, names, into, work)
            except Exception as exc:  # noqa: BLE001 - any failure to compile leaves a working pure-Python package
                if os.environ.get("RUBRIC_REQUIRE_COMPILED", "") not in ("", "0"):
                    raise
                print(
                    f"warning: rubric-tools: the compiled scorer was not built ({type(exc).__name__}: {exc}); "
                    "the pure-Python scorer will run (identical results, slower)",
                    file=sys.stderr,
                )
                return
            finally:
                shutil.rmtree(work, ignore_errors=True)
        build_data["pure_python"] = False
        build_data["infer_tag"] = True
        if not editable:
            for path in sorted(into.iterdir()):
                build_data["force_include"][str(path)] = f"{WHEEL_DIR}/{path.name}"

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        wheel_files = getattr(self, "_wheel_files", None)  # None when initialize returned early
        if wheel_files is not None:
            shutil.rmtree(wheel_files, ignore_errors=True)
