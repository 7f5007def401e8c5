"""Load a matter folder: its YAML files with positions, and its documents' sections."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rubric_tools.catalogue import RuleCode
from rubric_tools.diagnostics import Diagnostic, Severity, Span
from rubric_tools.loading import build
from rubric_tools.loading import files as policy
from rubric_tools.loading.codes import (
    DOCUMENT_MISSING,
    DOCUMENT_NOT_REGULAR_FILE,
    DOCUMENT_OUTSIDE_MATTER,
    DOCUMENT_PATH_INVALID,
    DOCUMENT_TOO_LARGE,
    MISSING_FILE,
    UNREADABLE_FILE,
)
from rubric_tools.loading.element_build import build_matter
from rubric_tools.loading.layout import COUNTERPARTY_FILE as COUNTERPARTY_FILE
from rubric_tools.loading.layout import HIDDEN_FACTS_FILE as HIDDEN_FACTS_FILE
from rubric_tools.loading.layout import MATTER_FILE as MATTER_FILE
from rubric_tools.loading.layout import REQUIRED_FILES as REQUIRED_FILES
from rubric_tools.loading.layout import RUBRIC_FILE as RUBRIC_FILE
from rubric_tools.loading.layout import YAML_FILES as YAML_FILES
from rubric_tools.loading.layout import find_matter_root as find_matter_root
from rubric_tools.loading.yaml_source import YamlSource, decode_text, load_yaml
from rubric_tools.scoring.model import Matter
from rubric_tools.scoring.sections import ParsedDocument, editor_lines, parse_sections

if TYPE_CHECKING:
    from rubric_tools.loading.elements import MatterModel


@dataclass
class DocumentSource:
    """One entry of `matter.yaml`'s `documents` list, and what became of it."""

    index: int
    id: str
    title: str
    path_text: str
    path: Path | None  # None when it is missing, outside the matter or unreadable
    text: str | None = None
    parsed: ParsedDocument | None = None

    @cached_property
    def lines(self) -> list[str]:
        """The document's lines as an editor numbers them (computed once: rules index it per finding)."""
        return editor_lines(self.text) if self.text is not None else []


@dataclass
class MatterSource:
    """A loaded matter: the scorer's `Matter` (what replays compute with), the located
    model (`loading.elements`: what every analysis reads), both typed in one walk of the
    files (`loading.element_build`), and the files and documents they came from."""

    root: Path
    matter: Matter
    model: MatterModel
    files: dict[str, YamlSource] = field(default_factory=dict)
    documents: list[DocumentSource] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not any(d.severity is Severity.ERROR for d in self.diagnostics)

    @property
    def matter_id(self) -> str:
        return self.matter.matter_id

    def data(self, name: str) -> Any:
        source = self.files.get(name)
        return source.data if source is not None else None

    def with_files(self, changed: Mapping[str, YamlSource]) -> MatterSource:
        """This matter with some YAML files' parses replaced (the audit's seeded defects),
        typed again by the one walk: its `Matter` and its model agree with the new files.
        (`dataclasses.replace` would keep the old ones.)"""
        files = {**self.files, **changed}
        matter, model = build_matter(self.root, files, self.documents)
        return MatterSource(self.root, matter, model, files, self.documents, self.diagnostics)


def _missing_file(path: Path) -> Diagnostic:
    return Diagnostic.of(
        MISSING_FILE,
        message=f"required file {path.name} is missing from the matter",
        file=path,
        span=Span.point(1, 1),
        fix_hint=f"create {path.name}; a matter needs {', '.join(REQUIRED_FILES)}",
    )


def _document_diagnostic(
    matter_file: YamlSource, index: int, declared: RuleCode, message: str, hint: str
) -> Diagnostic:
    return Diagnostic.of(
        declared,
        message=message,
        file=matter_file.path,
        span=matter_file.span(("documents", index, "path")),
        fix_hint=hint,
    )


#: How a refused document path is reported: (code, hint).
_DOCUMENT_REFUSALS = {
    policy.Refusal.OUTSIDE: (
        DOCUMENT_OUTSIDE_MATTER,
        "keep documents inside the matter folder, e.g. documents/<id>.md",
    ),
    policy.Refusal.MISSING: (DOCUMENT_MISSING, "fix the path, relative to the matter folder"),
    policy.Refusal.DIRECTORY: (DOCUMENT_NOT_REGULAR_FILE, "point the path at the Markdown file itself"),
    policy.Refusal.SPECIAL: (DOCUMENT_NOT_REGULAR_FILE, "replace it with a regular Markdown file"),
    policy.Refusal.BAD_NAME: (
        DOCUMENT_PATH_INVALID,
        "use a short path of printable characters, e.g. documents/<id>.md",
    ),
    policy.Refusal.TOO_LARGE: (
        DOCUMENT_TOO_LARGE,
        f"keep documents under {policy.MAX_DOCUMENT_BYTES:,} bytes",
    ),
    policy.Refusal.UNREADABLE: (UNREADABLE_FILE, "make the file readable, or fix the path"),
}


def _document_refusal(matter_file: YamlSource, index: int, path_text: str, refused: policy.Refused) -> Diagnostic:
    declared, hint = _DOCUMENT_REFUSALS[refused.reason]
    # D002 keeps its message: where the path leads outside is not needed to fix it.
    detail = "resolves outside the matter folder" if refused.reason is policy.Refusal.OUTSIDE else refused.detail
    shown = path_text.encode("utf-8", "backslashreplace").decode("utf-8")  # a lone surrogate stays printable
    return _document_diagnostic(matter_file, index, declared, f"document path {shown!r} {detail}", hint)


def _load_documents(
    root: Path, matter_file: YamlSource, diagnostics: list[Diagnostic], overlay: policy.Overlay | None
) -> list[DocumentSource]:
    entries = build.as_mapping(matter_file.data).get("documents")
    sources: list[DocumentSource] = []
    for index, entry in enumerate(build.as_list(entries)):
        if not isinstance(entry, Mapping):
            continue
        doc_id = str(entry.get("id", ""))
        path_text = entry.get("path")
        source = DocumentSource(
            index, doc_id, build.text(entry, "title"), str(path_text) if path_text is not None else "", None
        )
        sources.append(source)
        if not isinstance(path_text, str) or not path_text:
            continue
        limit = policy.MAX_DOCUMENT_BYTES
        checked = policy.check_file(root / path_text, root, limit)
        raw = checked if isinstance(checked, policy.Refused) else policy.read_checked(checked, limit, overlay)
        if isinstance(raw, policy.Refused):
            diagnostics.append(_document_refusal(matter_file, index, path_text, raw))
            continue
        assert isinstance(checked, Path)
        text, problem = decode_text(checked, raw)
        if problem is not None:
            diagnostics.append(problem)
            continue
        source.path = checked
        source.text = text
        source.parsed = parse_sections(text or "")
    return sources


def load_matter_source(path: Path | str, overlay: policy.Overlay | None = None) -> MatterSource:
    """Load the matter folder at `path` (or the folder holding the given file).

    `overlay` holds unsaved editor buffers (resolved path -> bytes) read instead of those
    files' content on disk; every file must still pass the file-system policy on disk."""
    root = Path(path)
    if root.is_file():
        root = root.parent
    diagnostics: list[Diagnostic] = []
    files: dict[str, YamlSource] = {}
    for name in YAML_FILES:
        file_path = root / name
        if not file_path.exists() and not file_path.is_symlink():  # a broken or looping link is reported
            if name in REQUIRED_FILES:
                diagnostics.append(_missing_file(file_path))
            continue
        files[name] = load_yaml(file_path, root, overlay)
        diagnostics.extend(files[name].diagnostics)
    matter_file = files.get(MATTER_FILE) or YamlSource(path=root / MATTER_FILE)
    documents = _load_documents(root, matter_file, diagnostics, overlay)
    matter, model = build_matter(root, files, documents)
    return MatterSource(root, matter, model, files, documents, diagnostics)
