"""A matter as the editor has it at one moment: loaded with the unsaved buffers, indexed,
with the texts its positions refer to.

A `View` does not change once built (off the event loop); its texts, parsed YAML and
index are filled in on first use, from whichever thread asks first (at worst one is
computed twice). The server keeps, per matter, the newest one: the last analysis's, or a
quick load when a request arrives before the analysis of the newest change.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from lsprotocol import types

from rubric_tools.diagnostics import Severity, Span
from rubric_tools.loading.matter import YAML_FILES, MatterSource
from rubric_tools.loading.yaml_source import YamlSource
from rubric_tools.lsp import adapter
from rubric_tools.lsp.index import MatterIndex, build_index
from rubric_tools.lsp.locate import (
    DOCUMENT,
    EXPECTATIONS,
    PROBES,
    TRAJECTORY,
    Target,
    heading_target,
    jsonl_target,
    suppression_code_at,
    yaml_target,
)
from rubric_tools.lsp.positions import TextIndex, Units, utf16_units


@dataclass(frozen=True)
class Buffer:
    """An open file: its text as the editor has it."""

    uri: str
    path: Path
    version: int | None
    text: str


@dataclass
class View:
    """One generation of a matter: what hovers, definitions, completions and code actions read."""

    root: Path
    generation: int
    source: MatterSource
    buffers: dict[Path, Buffer]
    units: Units = utf16_units
    trajectories: list[Path] = field(default_factory=list)
    probes: list[Path] = field(default_factory=list)
    _texts: dict[Path, TextIndex | None] = field(default_factory=dict, repr=False)
    _yaml: dict[Path, YamlSource] = field(default_factory=dict, repr=False)
    _index: MatterIndex | None = field(default=None, repr=False)

    @property
    def overlay(self) -> adapter.Overlay:
        return {path: buffer.text.encode("utf-8") for path, buffer in self.buffers.items()}

    def version(self, path: Path) -> int | None:
        buffer = self.buffers.get(path)
        return buffer.version if buffer is not None else None

    def text(self, path: Path) -> TextIndex | None:
        """The text of a file as this view read it: the buffer if open, else the disk."""
        if path not in self._texts:
            buffer = self.buffers.get(path)
            text = buffer.text if buffer is not None else adapter.read_text(path)
            self._texts[path] = TextIndex.of(text, path.name, self.units) if text is not None else None
        return self._texts[path]

    def kind(self, path: Path) -> str | None:
        """What kind of matter file `path` is; None for a file the matter does not use."""
        if path.parent == self.root and path.name in (*YAML_FILES, EXPECTATIONS):
            return path.name
        if path in self.probes:
            return PROBES
        if path in self.trajectories:
            return TRAJECTORY
        if any(doc.path is not None and doc.path == path for doc in self.source.documents):
            return DOCUMENT
        return None

    def yaml(self, path: Path) -> YamlSource | None:
        """The parsed YAML of one of the matter's YAML files, with positions."""
        kind = self.kind(path)
        if kind in YAML_FILES:
            return self.source.files.get(path.name)
        if path not in self._yaml:
            text = self.text(path)
            if text is None or path.suffix.lower() not in (".yaml", ".yml"):
                return None
            self._yaml[path] = adapter.parse_yaml(path, text.text)
        return self._yaml[path]

    @property
    def index(self) -> MatterIndex:
        if self._index is None:
            expectations = self.root / EXPECTATIONS
            self._index = build_index(
                self.source,
                self.yaml(expectations) if expectations.is_file() else None,
                {path: source for path in self.probes if (source := self.yaml(path)) is not None},
                self.trajectories,
            )
        return self._index

    def document_id(self, path: Path) -> str | None:
        for document in reversed(self.index.model.documents):
            if document.source.path == path:
                return document.id
        return None

    def target(self, path: Path, position: types.Position) -> Target | None:
        """What is written at `position` of `path`."""
        text = self.text(path)
        kind = self.kind(path)
        if text is None or kind is None:
            return None
        line, column = text.point(position)
        line_text = text.loader_line_text(line)
        code = suppression_code_at(line_text, column, path, line)
        if code is not None:
            return code
        if kind == DOCUMENT:
            document = self.document_id(path)
            return heading_target(path, document, line_text, line) if document is not None else None
        if kind == TRAJECTORY and path.suffix.lower() == ".jsonl":
            return jsonl_target(path, line_text, line, column, self.index)
        source = self.yaml(path)
        return yaml_target(kind, source, self.index, line, column) if source is not None else None

    def location(self, path: Path, span: Span | None) -> types.Location:
        text = self.text(path)
        uri = path.as_uri()
        if text is None:
            return types.Location(uri=uri, range=types.Range(start=types.Position(0, 0), end=types.Position(0, 0)))
        return types.Location(uri=uri, range=text.range(span))


def build_view(
    root: Path, generation: int, buffers: dict[Path, Buffer], units: Units, source: MatterSource | None = None
) -> View:
    overlay = {path: buffer.text.encode("utf-8") for path, buffer in buffers.items()}
    return View(
        root,
        generation,
        source if source is not None else adapter.load(root, overlay),
        buffers,
        units,
        adapter.trajectory_files(root),
        adapter.probe_files(root),
    )


@dataclass(frozen=True)
class CheckProblem:
    """A problem `rubric check` reports without a code (a probe, a missed expectation)."""

    file: Path
    span: Span | None
    message: str
    severity: Severity = Severity.ERROR
