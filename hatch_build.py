"""Build hook: the compiled scorer, on request only (see rubric_tools/_accelerator.py).

By default nothing is compiled: the wheel is pure Python (`py3-none-any`), and neither
Cython nor a C compiler is needed. `RUBRIC_COMPILE=1` at install time asks for the
compiled scorer (Cython then joins the build environment): a regular wheel gets the
compiled files under rubric_tools/scoring/_compiled/ (and a platform tag); an editable
install builds them there in the source tree (git-ignored), recompiling only modules
whose source changed. When the build cannot be made, one line says why and the package
stays pure Python, recording that it was asked for (`rubric --version` and every command
then say the compiled scorer is not running); `RUBRIC_REQUIRE_COMPILED=1` (CI) asks for
it too and makes that line an error. `RUBRIC_PURE_PYTHON=1` never compiles.
"""

from __future__ import annotations

import importlib.util
import os
import shlex
import shutil
import sys
import sysconfig
import tempfile
from collections.abc import Mapping
from pathlib import Path
from types import ModuleType
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

WHEEL_DIR = "rubric_tools/scoring/_compiled"
COMPILE_VARIABLE = "RUBRIC_COMPILE"
REQUIRE_VARIABLE = "RUBRIC_REQUIRE_COMPILED"
#: What compiling needs in the build environment (asked for only when compiling).
BUILD_DEPENDENCIES = ["Cython>=3.0", "setuptools>=69"]


def _accelerator(root: Path) -> ModuleType:
    """rubric_tools/_accelerator.py by path: the package's own imports are not installed here."""
    spec = importlib.util.spec_from_file_location("_rubric_accelerator", root / "rubric_tools" / "_accelerator.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _set(environ: Mapping[str, str], name: str) -> bool:
    return environ.get(name, "") not in ("", "0")


def compile_required(environ: Mapping[str, str] = os.environ) -> bool:
    """`RUBRIC_REQUIRE_COMPILED`: the build must compile, or fail."""
    return _set(environ, REQUIRE_VARIABLE)


def compile_requested(environ: Mapping[str, str] = os.environ) -> bool:
    """Whether this build compiles the scorer: asked for (`RUBRIC_COMPILE` or
    `RUBRIC_REQUIRE_COMPILED`) and not overruled by `RUBRIC_PURE_PYTHON`."""
    asked = _set(environ, COMPILE_VARIABLE) or compile_required(environ)
    return asked and not _set(environ, "RUBRIC_PURE_PYTHON")


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


def missing_tool(environ: Mapping[str, str] = os.environ) -> str | None:
    """Why compiling cannot even start here (no Cython, no C compiler, no Python headers),
    as one line; None when everything it needs is present."""
    for module, package in (("Cython", "Cython"), ("setuptools", "setuptools")):
        if importlib.util.find_spec(module) is None:
            return f"{package} is not installed in the build environment"
    if sys.platform != "win32":  # MSVC is found by setuptools itself
        compiler = environ.get("CC") or str(sysconfig.get_config_var("CC") or "cc")
        program = (shlex.split(compiler) or ["cc"])[0]
        if shutil.which(program) is None:
            return f"no C compiler: `{program}` was not found (install one, or set CC)"
    headers = Path(sysconfig.get_paths()["include"]) / "Python.h"
    if not headers.is_file():
        return f"no Python headers: {headers} does not exist (install the python3-dev package or equivalent)"
    return None


def one_line(exc: BaseException) -> str:
    """An exception as one line: its type and the first line of its message."""
    message = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {message[0]}" if message else type(exc).__name__


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
    entries.pop(accelerator.NOT_BUILT_ENTRY, None)
    entries[BUILD_ENTRY] = (accelerator.text_digest(build_configuration(accelerator)), "-")
    for name in names:
        built = Path(build.build_lib) / build.get_ext_filename(f"{package}.{name}")
        shutil.copyfile(built, into / built.name)
        entries[name] = (accelerator.source_digest(source_dir / f"{name}.py"), built.name)
    manifest_path.write_text(accelerator.manifest_text(entries), encoding="utf-8")


def record_not_built(accelerator: ModuleType, into: Path, reason: str) -> None:
    """A manifest saying the compiled scorer was asked for and why it was not built, and
    nothing else: the package then runs pure Python and says so (`describe`, `warning`)."""
    into.mkdir(parents=True, exist_ok=True)
    for stale in into.iterdir():  # a previous build must not half-survive a failed one
        stale.unlink()
    entries = {accelerator.NOT_BUILT_ENTRY: (reason.replace("\t", " "), "-")}
    (into / accelerator.MANIFEST_NAME).write_text(accelerator.manifest_text(entries), encoding="utf-8")


class CompiledScorerHook(BuildHookInterface[Any]):
    PLUGIN_NAME = "custom"

    def dependencies(self) -> list[str]:
        """Cython joins the build environment only when the compiled scorer is asked for."""
        return list(BUILD_DEPENDENCIES) if compile_requested() else []

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        self._wheel_files: Path | None = None
        if not compile_requested():
            return  # the default: a pure-Python, py3-none-any wheel
        root = Path(self.root)
        accelerator = _accelerator(root)
        source_dir = root / "rubric_tools" / "scoring"
        # Editable: in the source tree, where the package looks; a wheel: a fresh build of all.
        editable = version == "editable"
        if not editable:  # a wheel's builds stay in a folder of ours until it is written (`finalize`)
            self._wheel_files = Path(tempfile.mkdtemp(prefix="rubric-tools-wheel-"))
        into = source_dir / accelerator.COMPILED_DIR_NAME if self._wheel_files is None else self._wheel_files
        problem = missing_tool()
        if problem is None:
            names = _stale_modules(accelerator, source_dir, into) if editable else list(accelerator.COMPILED_MODULES)
            work = Path(tempfile.mkdtemp(prefix="rubric-tools-build-"))
            try:
                if names:
                    compile_modules(accelerator, root, names, into, work)
            except Exception as exc:  # noqa: BLE001 - any failure to compile leaves a working pure-Python package
                problem = f"compiling failed ({one_line(exc)})"
            finally:
                shutil.rmtree(work, ignore_errors=True)
        if problem is not None:
            line = f"rubric-tools: the compiled scorer was not built: {problem}"
            if compile_required():
                raise SystemExit(f"error: {line} ({REQUIRE_VARIABLE}=1)")
            print(f"warning: {line}; the pure-Python scorer will run (identical results)", file=sys.stderr)
            record_not_built(accelerator, into, problem)
        else:
            build_data["pure_python"] = False
            build_data["infer_tag"] = True
        if not editable:
            for path in sorted(into.iterdir()):
                build_data["force_include"][str(path)] = f"{WHEEL_DIR}/{path.name}"

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        wheel_files = getattr(self, "_wheel_files", None)  # None unless a wheel was compiled
        if wheel_files is not None:
            shutil.rmtree(wheel_files, ignore_errors=True)
