"""An editor's side of the conversation, over pytest-lsp's client: open, type (unsaved),
save and close files, ask for hovers, definitions, completions and code actions, and
wait for the diagnostics of a given version. Imported only once the extra is known to
be installed (`support.require_extra`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from lsprotocol import types
from pytest_lsp import LanguageClient

from tests.lsp.support import TIMEOUT, eventually


def units(text: str, encoding: str = "utf-16") -> int:
    """How many code units `text` takes in a position encoding (`utf-8`, `utf-16`, `utf-32`)."""
    if encoding == "utf-8":
        return len(text.encode("utf-8"))
    if encoding == "utf-32":
        return len(text)
    return len(text.encode("utf-16-le")) // 2


def position_of(
    text: str, needle: str, inside: int = 0, occurrence: int = 0, encoding: str = "utf-16"
) -> types.Position:
    """The position of `needle` (plus `inside` characters) in `text`, in `encoding`'s units."""
    offset = -1
    for _ in range(occurrence + 1):
        offset = text.index(needle, offset + 1)
    offset += inside
    line = text.count("\n", 0, offset)
    start = text.rfind("\n", 0, offset) + 1
    return types.Position(line=line, character=units(text[start:offset], encoding))


def range_of(text: str, needle: str, occurrence: int = 0, encoding: str = "utf-16") -> types.Range:
    start = position_of(text, needle, occurrence=occurrence, encoding=encoding)
    end = position_of(text, needle, len(needle), occurrence, encoding)
    return types.Range(start=start, end=end)


def apply_edits(text: str, edits: Sequence[types.TextEdit], encoding: str = "utf-16") -> str:
    """`text` with LSP text edits applied (positions in `encoding`'s units)."""
    lines = text.split("\n")

    def offset(position: types.Position) -> int:
        before = sum(len(line) + 1 for line in lines[: position.line])
        line = lines[position.line] if position.line < len(lines) else ""
        counted = 0
        for index, char in enumerate(line):
            if counted >= position.character:
                return before + index
            counted += units(char, encoding)
        return before + len(line)

    for edit in sorted(edits, key=lambda e: (e.range.start.line, e.range.start.character), reverse=True):
        text = text[: offset(edit.range.start)] + edit.new_text + text[offset(edit.range.end) :]
        lines = text.split("\n")
    return text


def edits_for(edit: types.WorkspaceEdit | None, uri: str) -> list[Any]:
    """The edits of one file in a workspace edit (`changes` or `documentChanges`)."""
    if edit is None:
        return []
    if edit.changes:
        return list(edit.changes.get(uri, []))
    found: list[Any] = []
    for change in edit.document_changes or ():
        if isinstance(change, types.TextDocumentEdit) and change.text_document.uri == uri:
            found += change.edits
    return found


class Editor:
    """Files open in one client, with their texts and versions."""

    def __init__(self, client: LanguageClient, encoding: str = "utf-16") -> None:
        self.client = client
        self.encoding = encoding  # the position encoding the server chose
        self.texts: dict[Path, str] = {}
        self.versions: dict[Path, int] = {}

    @property
    def published(self) -> list[types.PublishDiagnosticsParams]:
        return self.client.published  # type: ignore[attr-defined,no-any-return]

    def open(self, path: Path, text: str | None = None, language: str = "yaml") -> str:
        text = path.read_text(encoding="utf-8") if text is None else text
        self.texts[path], self.versions[path] = text, 1
        self.client.text_document_did_open(
            types.DidOpenTextDocumentParams(
                text_document=types.TextDocumentItem(uri=path.as_uri(), language_id=language, version=1, text=text)
            )
        )
        return text

    def change(self, path: Path, text: str) -> int:
        """Replace the buffer's text (unsaved); the new version."""
        self.versions[path] += 1
        self.texts[path] = text
        self.client.text_document_did_change(
            types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(uri=path.as_uri(), version=self.versions[path]),
                content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)],
            )
        )
        return self.versions[path]

    def type_at(self, path: Path, position: types.Position, typed: str) -> int:
        """Insert `typed` at `position` as an incremental change, as editors send keystrokes."""
        self.versions[path] += 1
        self.texts[path] = apply_edits(
            self.texts[path],
            [types.TextEdit(range=types.Range(start=position, end=position), new_text=typed)],
            self.encoding,
        )
        self.client.text_document_did_change(
            types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(uri=path.as_uri(), version=self.versions[path]),
                content_changes=[
                    types.TextDocumentContentChangePartial(range=types.Range(start=position, end=position), text=typed)
                ],
            )
        )
        return self.versions[path]

    def save(self, path: Path) -> None:
        path.write_text(self.texts[path], encoding="utf-8")
        self.client.text_document_did_save(
            types.DidSaveTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=path.as_uri()))
        )

    def close(self, path: Path) -> None:
        self.client.text_document_did_close(
            types.DidCloseTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=path.as_uri()))
        )
        self.texts.pop(path, None)

    async def diagnostics(
        self,
        path: Path,
        check: Callable[[list[types.Diagnostic]], bool] = lambda found: True,
        version: int | None = None,
        timeout: float = TIMEOUT,
    ) -> list[types.Diagnostic]:
        """The newest diagnostics published for `path` that pass `check` (and are of `version`)."""
        uri = path.as_uri()

        def newest() -> list[types.Diagnostic] | None:
            for params in reversed(self.published):
                if params.uri == uri:
                    if (version is None or params.version == version) and check(list(params.diagnostics)):
                        return list(params.diagnostics)
                    return None
            return None

        found = await eventually(lambda: newest() is not None and [newest()], timeout, f"diagnostics of {path.name}")
        return found[0]  # type: ignore[no-any-return]

    def position(self, path: Path, needle: str, inside: int = 0, occurrence: int = 0) -> types.Position:
        return position_of(self.texts[path], needle, inside, occurrence, self.encoding)

    async def hover(self, path: Path, needle: str, inside: int = 1) -> str:
        result = await self.client.text_document_hover_async(
            types.HoverParams(
                text_document=types.TextDocumentIdentifier(uri=path.as_uri()),
                position=self.position(path, needle, inside),
            )
        )
        assert result is not None, f"no hover on {needle!r}"
        contents = result.contents
        assert isinstance(contents, types.MarkupContent)
        return contents.value

    async def definition(self, path: Path, needle: str, inside: int = 1) -> list[types.Location]:
        result = await self.client.text_document_definition_async(
            types.DefinitionParams(
                text_document=types.TextDocumentIdentifier(uri=path.as_uri()),
                position=self.position(path, needle, inside),
            )
        )
        if result is None:
            return []
        return [result] if isinstance(result, types.Location) else list(result)  # type: ignore[arg-type]

    async def references(
        self, path: Path, needle: str, inside: int = 1, declaration: bool = True
    ) -> list[types.Location]:
        result = await self.client.text_document_references_async(
            types.ReferenceParams(
                text_document=types.TextDocumentIdentifier(uri=path.as_uri()),
                position=self.position(path, needle, inside),
                context=types.ReferenceContext(include_declaration=declaration),
            )
        )
        return list(result or [])

    async def complete(self, path: Path, position: types.Position) -> list[types.CompletionItem]:
        result = await self.client.text_document_completion_async(
            types.CompletionParams(text_document=types.TextDocumentIdentifier(uri=path.as_uri()), position=position)
        )
        if result is None:
            return []
        return list(result.items if isinstance(result, types.CompletionList) else result)

    async def code_actions(
        self,
        path: Path,
        where: types.Range,
        diagnostics: Sequence[types.Diagnostic] = (),
        only: list[str] | None = None,
    ) -> list[types.CodeAction]:
        result = await self.client.text_document_code_action_async(
            types.CodeActionParams(
                text_document=types.TextDocumentIdentifier(uri=path.as_uri()),
                range=where,
                context=types.CodeActionContext(diagnostics=list(diagnostics), only=only),
            )
        )
        return [action for action in result or [] if isinstance(action, types.CodeAction)]

    def apply(self, path: Path, edit: types.WorkspaceEdit | None) -> str:
        """The buffer's text with a workspace edit applied (not sent: `change` sends it)."""
        edits = edits_for(edit, path.as_uri())
        plain = [
            e if isinstance(e, types.TextEdit) else types.TextEdit(range=e.range, new_text=e.snippet.value)
            for e in edits
        ]
        return apply_edits(self.texts[path], plain, self.encoding)
