"""What a rule sees: one loaded matter, the configuration, and position helpers."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from rubric_tools.config.lint import LintSection
from rubric_tools.diagnostics import DeclaredCode, Span
from rubric_tools.fixing.fixes import Fix
from rubric_tools.loading.elements import Element, Location, MatterModel
from rubric_tools.loading.matter import DocumentSource, MatterSource
from rubric_tools.loading.yaml_source import InstancePath, YamlSource
from rubric_tools.scoring.model import Matter

if TYPE_CHECKING:
    from rubric_tools.lint.schema_stage import SchemaReport


@dataclass(frozen=True)
class Finding:
    """What a rule yields; the engine adds the rule's code, name and severity."""

    message: str
    file: Path
    span: Span | None = None
    fix_hint: str | None = None
    fix: Fix | None = None


class LintContext:
    def __init__(self, source: MatterSource, config: LintSection, schema: SchemaReport) -> None:
        self.source = source
        self.config = config
        #: The schema stage's record, built by the engine before any rule runs.
        self.schema = schema

    # ------------------------------------------------------------ data access
    @property
    def root(self) -> Path:
        return self.source.root

    @property
    def matter(self) -> Matter:
        """The scorer's typed model (defaults filled in, bad values defaulted)."""
        return self.source.matter

    @property
    def model(self) -> MatterModel:
        """The matter as written, typed and located: what rules read (`loading.elements`)."""
        return self.source.model

    def yaml_file(self, file_name: str) -> YamlSource | None:
        """A YAML file's parse (node positions, lines, scalar notes), or None when absent.

        Only for rules about YAML *syntax* (how a scalar is written, comments, encoding,
        schema validation of the tree); rules about values read `model`."""
        return self.source.files.get(file_name)

    def yaml_files(self) -> Iterator[tuple[str, YamlSource]]:
        """Every YAML file's parse, by name (for the syntax rules, as `yaml_file`)."""
        yield from self.source.files.items()

    @property
    def documents(self) -> list[DocumentSource]:
        return self.source.documents

    def loader_findings(self, declared: DeclaredCode) -> Iterator[Finding]:
        """Re-emit what the loader reported under the `declared` code (load rules use this)."""
        for diagnostic in self.source.diagnostics:
            if diagnostic.has(declared):
                yield Finding(diagnostic.message, diagnostic.file, diagnostic.span, diagnostic.fix_hint)

    # ------------------------------------------------------------ positions
    def file_path(self, file_name: str) -> Path:
        source = self.source.files.get(file_name)
        return source.path if source is not None else self.root / file_name

    def span(self, file_name: str, path: InstancePath, *, key: bool = False) -> Span | None:
        source = self.source.files.get(file_name)
        return source.span(path, key=key) if source is not None else None

    def at(
        self,
        file_name: str,
        path: InstancePath,
        message: str,
        *,
        key: bool = False,
        hint: str | None = None,
        fix: Fix | None = None,
    ) -> Finding:
        """A finding at the YAML node `path` of `file_name` (its key with key=True)."""
        return Finding(message, self.file_path(file_name), self.span(file_name, path, key=key), hint, fix)

    def report(
        self,
        node: Element | Location,
        message: str,
        *,
        key: bool = False,
        hint: str | None = None,
        fix: Fix | None = None,
    ) -> Finding:
        """A finding at an element of the model (at its key with key=True)."""
        location = node.location if isinstance(node, Element) else node
        return Finding(message, location.file, location.key_span if key else location.span, hint, fix)

    def at_document(
        self,
        document: DocumentSource,
        line: int,
        message: str,
        *,
        column: int = 1,
        width: int | None = None,
        hint: str | None = None,
    ) -> Finding:
        """A finding on a line of a Markdown document (1-based)."""
        lines = document.lines
        text = lines[line - 1] if 0 < line <= len(lines) else ""
        span = Span(line, column, line, column + (width if width is not None else max(len(text) - column + 1, 1)))
        return Finding(message, document.path or self.root / document.path_text, span, hint)
