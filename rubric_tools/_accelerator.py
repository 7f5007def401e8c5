"""The compiled scorer: the hot scoring modules, built by Cython from their own sources.

The default install is pure Python. Asked for at install time (`RUBRIC_COMPILE=1`), the
build hook (`hatch_build.py`) compiles the modules named in
`COMPILED_MODULES` with plain Python semantics (`annotation_typing=False`: no C types, the
same objects and the same float arithmetic), into `rubric_tools/scoring/_compiled/`, and
writes a manifest of the SHA-256 of each source it compiled. The compiled files do not sit
beside the sources, so Python's own import system never finds them: only `CompiledFinder`
does, and only for a module whose source is still the one it was built from. An edited
source is therefore imported as Python (correct, slower) until the next
`pip install -e .`, never as a stale build.

`RUBRIC_PURE_PYTHON=1` forces the pure-Python modules at run time (and skips compiling at
build time). `rubric --version` says which scorer runs. When the compiled scorer was asked
for and is not running (it could not be built, or a source changed since), `describe` says
so and `not_running_warning` gives the one line every command prints on stderr. Results
are identical either way (the test suite checks both).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping, Sequence
from importlib.machinery import EXTENSION_SUFFIXES, ExtensionFileLoader, ModuleSpec
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from types import ModuleType

#: A file or folder: paths are joined with os.path (this module is imported by every command,
#: before anything else; pathlib is not needed to find a module).
PathLike = str | os.PathLike[str]

PACKAGE = "rubric_tools.scoring"
#: The modules a replay spends its time in (episode loop, handlers, revisions, gates, result).
#: Compiling the rest of the package gains nothing measurable and costs build time.
COMPILED_MODULES = (
    "episode",
    "state",
    "work_product",
    "revision",
    "ledger",
    "dialogue",
    "negotiation",
    "gates",
    "result",
)
COMPILED_DIR_NAME = "_compiled"
MANIFEST_NAME = "manifest.txt"
#: The manifest entry of a build that was asked for and could not be made: its digest
#: column holds the reason (written by the build hook).
NOT_BUILT_ENTRY = "_not_built"
#: How to (re)build the compiled scorer, for the messages that say it is not running.
REBUILD_HINT = "RUBRIC_COMPILE=1 pip install -e . rebuilds it"
#: Cython's compiler directives: Python semantics throughout (annotations are not C types).
CYTHON_DIRECTIVES = {"language_level": 3, "annotation_typing": False, "binding": True}
PURE_PYTHON_VARIABLE = "RUBRIC_PURE_PYTHON"

SCORING_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "scoring")
COMPILED_DIR = os.path.join(SCORING_DIR, COMPILED_DIR_NAME)


def pure_python_requested(environ: Mapping[str, str] = os.environ) -> bool:
    """Whether `RUBRIC_PURE_PYTHON` asks for the pure-Python scorer (any value but "", "0")."""
    return environ.get(PURE_PYTHON_VARIABLE, "") not in ("", "0")


def source_digest(path: PathLike) -> str:
    """The SHA-256 of a source file, as the manifest records it."""
    import hashlib  # only when a compiled module is looked for: `rubric --help` never is

    with open(path, "rb") as source:
        return hashlib.sha256(source.read()).hexdigest()


def text_digest(text: str) -> str:
    import hashlib

    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def read_manifest(path: PathLike) -> dict[str, tuple[str, str]]:
    """module name → (source SHA-256, compiled file name); empty when there is no build.

    One line per module, `name digest file`, tab-separated: no JSON to import at start-up."""
    try:
        with open(path, encoding="utf-8") as manifest:
            text = manifest.read()
    except (OSError, UnicodeDecodeError):
        return {}
    entries = {}
    for line in text.splitlines():
        parts = line.split("\t")
        if len(parts) == 3:
            entries[parts[0]] = (parts[1], parts[2])
    return entries


def manifest_text(entries: dict[str, tuple[str, str]]) -> str:
    return "".join(f"{name}\t{digest}\t{file}\n" for name, (digest, file) in sorted(entries.items()))


class CompiledFinder:
    """A meta path finder for the compiled modules of one package: it answers only for the
    names in its manifest, and only when the module's source still has the recorded digest
    and the compiled file exists; otherwise it answers None and the source is imported."""

    def __init__(
        self, package: str, source_dir: PathLike, compiled_dir: PathLike, names: tuple[str, ...] = COMPILED_MODULES
    ) -> None:
        self.package = package
        self.names = frozenset(names)  # the manifest's other entries are not modules
        self.source_dir = source_dir
        self.compiled_dir = compiled_dir
        self._manifest: dict[str, tuple[str, str]] | None = None

    def compiled_path(self, name: str) -> str | None:
        """Where module `name`'s current build is, or None (not built, source changed since)."""
        if self._manifest is None:
            self._manifest = read_manifest(os.path.join(self.compiled_dir, MANIFEST_NAME))
        entry = self._manifest.get(name) if name in self.names else None
        if entry is None:
            return None
        digest, file = entry
        compiled = os.path.join(self.compiled_dir, file)
        # This interpreter's own suffix (what the build names its files with): a build for
        # another interpreter (a copied tree, a shared volume) is not loaded.
        if not file.endswith(EXTENSION_SUFFIXES[0]) or not os.path.isfile(compiled):
            return None
        try:
            current = source_digest(os.path.join(self.source_dir, f"{name}.py"))
        except OSError:
            return None
        return compiled if current == digest else None

    def find_spec(
        self, fullname: str, path: Sequence[str] | None = None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        package, _, name = fullname.rpartition(".")
        if package != self.package:
            return None
        compiled = self.compiled_path(name)
        if compiled is None:
            return None
        loader = ExtensionFileLoader(fullname, compiled)
        spec = ModuleSpec(fullname, loader, origin=compiled)
        spec.has_location = True
        return spec


_finder: CompiledFinder | None = None


def install() -> None:
    """Put the finder first on `sys.meta_path` (once), unless pure Python is requested."""
    global _finder
    if _finder is not None or pure_python_requested():
        return
    _finder = CompiledFinder(PACKAGE, SCORING_DIR, COMPILED_DIR)
    sys.meta_path.insert(0, _finder)


def _missing_modules() -> list[str]:
    finder = _finder or CompiledFinder(PACKAGE, SCORING_DIR, COMPILED_DIR)
    return [name for name in COMPILED_MODULES if finder.compiled_path(name) is None]


def _not_built_reason() -> str | None:
    """Why the compiled scorer asked for at install time was not built; None when it was
    not asked for or was built. (One small file read: no manifest, no message.)"""
    entry = read_manifest(os.path.join(COMPILED_DIR, MANIFEST_NAME)).get(NOT_BUILT_ENTRY)
    return None if entry is None else entry[0]


def describe() -> str:
    """Which scorer runs, for `rubric --version`: compiled, pure Python, or partly compiled
    (and why a module is not)."""
    if pure_python_requested():
        return f"pure Python ({PURE_PYTHON_VARIABLE} is set)"
    reason = _not_built_reason()
    if reason is not None:
        return f"pure Python (the compiled scorer was asked for at install but not built: {reason})"
    missing = _missing_modules()
    if not missing:
        return f"compiled ({len(COMPILED_MODULES)} modules)"
    if len(missing) == len(COMPILED_MODULES):
        if not os.path.isfile(os.path.join(COMPILED_DIR, MANIFEST_NAME)):
            return "pure Python (the default; see the README for the compiled scorer)"
        return f"pure Python (the compiled build is out of date: its sources changed; {REBUILD_HINT})"
    return f"partly compiled (pure Python, not built or changed since the build: {', '.join(missing)}; {REBUILD_HINT})"


def not_running_warning() -> str | None:
    """One line for stderr when the compiled scorer was expected (asked for at install, or
    built) and is not (wholly) running; None when it runs, or pure Python is the choice
    (no build asked for, or `RUBRIC_PURE_PYTHON` set)."""
    if pure_python_requested() or not os.path.isfile(os.path.join(COMPILED_DIR, MANIFEST_NAME)):
        return None
    reason = _not_built_reason()
    if reason is None and not _missing_modules():
        return None
    return (
        f"warning: rubric-tools: the compiled scorer is not running: {describe()}; results are identical, "
        f"only slower ({PURE_PYTHON_VARIABLE}=1 silences this)"
    )
