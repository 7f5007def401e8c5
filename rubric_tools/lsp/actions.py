"""Code actions: every lint and audit fix as a quick fix, an inline suppression with a
reason, and "fix all safe fixes in this file".

A fix is the project's own edit (`Fix.edits`: file, span, the text there, the text to
write): it is offered only while the text at its span is still what it was linted on.
Safe fixes (proven to move no score of the matter's trajectories and probes) are marked
preferred; an unsafe one says why in its title.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from lsprotocol import types

from rubric_tools.diagnostics import Diagnostic, Fix, Span
from rubric_tools.lsp.convert import AUDIT_SOURCE, LINT_SOURCE
from rubric_tools.lsp.locate import DOCUMENT, node_at
from rubric_tools.lsp.views import View

#: What "fix all safe fixes in this file" is, for editors that run it on save.
FIX_ALL = f"{types.CodeActionKind.SourceFixAll.value}.rubric"
#: Whose findings an inline comment silences: lint's and the audit's.
SUPPRESSIBLE = (LINT_SOURCE, AUDIT_SOURCE)
#: The reason written into a suppression until the author writes theirs.
REASON_PLACEHOLDER = "TODO: why this finding is acceptable"


@dataclass(frozen=True)
class ClientEdits:
    """What the client's workspace edits support."""

    document_changes: bool = False
    snippets: bool = False


def unsafe_reason(fix: Fix) -> str:
    return fix.downgraded or "its rule cannot prove that it keeps every score: review the change"


def fix_title(diagnostic: Diagnostic, fix: Fix) -> str:
    if fix.safe:
        return f"Fix {diagnostic.code}: {fix.message}"
    return f"Fix {diagnostic.code}: {fix.message} (unsafe: {unsafe_reason(fix)})"


def _workspace_edit(
    view: View, edits: dict[Path, list[types.TextEdit | types.SnippetTextEdit]], client: ClientEdits
) -> types.WorkspaceEdit:
    if client.document_changes:
        return types.WorkspaceEdit(
            document_changes=[
                types.TextDocumentEdit(
                    text_document=types.OptionalVersionedTextDocumentIdentifier(
                        uri=path.as_uri(), version=view.version(path)
                    ),
                    edits=file_edits,
                )
                for path, file_edits in edits.items()
            ]
        )
    return types.WorkspaceEdit(
        changes={
            path.as_uri(): [edit for edit in file_edits if isinstance(edit, types.TextEdit)]
            for path, file_edits in edits.items()
        }
    )


def fix_edit(view: View, fix: Fix, client: ClientEdits) -> types.WorkspaceEdit | None:
    """The fix as a workspace edit; None when a span no longer holds the text it replaces."""
    edits: dict[Path, list[types.TextEdit | types.SnippetTextEdit]] = {}
    for edit in fix.edits:
        text = view.text(edit.file)
        if text is None:
            return None
        start = text.offset(edit.span.line, edit.span.column)
        end = text.offset(edit.span.end_line, edit.span.end_column)
        if text.text[start:end] != edit.old:
            return None
        edits.setdefault(edit.file, []).append(
            types.TextEdit(range=types.Range(start=text.position(start), end=text.position(end)), new_text=edit.new)
        )
    return _workspace_edit(view, edits, client)


def _suppression_line(view: View, path: Path, span: Span) -> int:
    """The line where the YAML node holding the finding starts (a comment above it covers
    the node); a finding inside a multi-line scalar is moved to the scalar's first line."""
    source = view.yaml(path)
    if source is None:
        return span.line
    found = node_at(source, span.line, span.column)
    if found is None:
        return span.line
    path_, _, _ = found
    position = source.positions.get(path_)
    if position is None:
        return span.line
    return position.key.line if position.key is not None else position.value.line


def suppression_edit(
    view: View, path: Path, kind: str, diagnostic: Diagnostic, client: ClientEdits
) -> types.WorkspaceEdit | None:
    """Insert `# rubric: ignore[CODE] -- reason` (`<!-- ... -->` in a document) on its own
    line above the finding's node, at its indentation."""
    text = view.text(path)
    if text is None or diagnostic.span is None or path.suffix.lower() not in (".yaml", ".yml", ".md", ".markdown"):
        return None
    line = _suppression_line(view, path, diagnostic.span) if kind != DOCUMENT else diagnostic.span.line
    content = text.loader_line_text(line)
    indent = content[: len(content) - len(content.lstrip())] if kind != DOCUMENT else ""
    # A client that takes snippets puts the cursor on the reason, selected, to be written over.
    reason = "${1:" + REASON_PLACEHOLDER.removeprefix("TODO: ") + "}" if client.snippets else REASON_PLACEHOLDER
    body = f"rubric: ignore[{diagnostic.code}] -- {reason}"
    inserted = f"{indent}{f'<!-- {body} -->' if kind == DOCUMENT else f'# {body}'}\n"
    at = text.position(text.offset(line, 1))
    where = types.Range(start=at, end=at)
    edit: types.TextEdit | types.SnippetTextEdit
    if client.snippets:
        edit = types.SnippetTextEdit(range=where, snippet=types.StringValue(value=inserted))
    else:
        edit = types.TextEdit(range=where, new_text=inserted)
    return _workspace_edit(view, {path: [edit]}, client)


def quick_fixes(
    view: View,
    path: Path,
    kind: str,
    findings: Sequence[tuple[Diagnostic, types.Diagnostic]],
    client: ClientEdits,
) -> list[types.CodeAction]:
    """For each finding: its fix (if any), then its suppression."""
    actions = []
    for diagnostic, shown in findings:
        if diagnostic.fix is not None:
            edit = fix_edit(view, diagnostic.fix, client)
            if edit is not None:
                actions.append(
                    types.CodeAction(
                        title=fix_title(diagnostic, diagnostic.fix),
                        kind=types.CodeActionKind.QuickFix,
                        diagnostics=[shown],
                        is_preferred=diagnostic.fix.safe,
                        edit=edit,
                    )
                )
    for diagnostic, shown in findings:
        if shown.source not in SUPPRESSIBLE:
            continue  # what `rubric check` finds in trajectories and expectations takes no comment
        edit = suppression_edit(view, path, kind, diagnostic, client)
        if edit is not None:
            actions.append(
                types.CodeAction(
                    title=f"Suppress {diagnostic.code} here (# rubric: ignore[{diagnostic.code}] -- reason)",
                    kind=types.CodeActionKind.QuickFix,
                    diagnostics=[shown],
                    edit=edit,
                )
            )
    return actions


def fix_all_action(path: Path) -> types.CodeAction:
    """ "Fix all safe fixes in this file", without its edit: computing it lints the file
    again round after round, so it is done on `codeAction/resolve` (or by the caller for a
    client that cannot resolve)."""
    return types.CodeAction(
        title="Fix all safe fixes in this file (rubric)", kind=FIX_ALL, data={"fixAll": path.as_uri()}
    )


def fix_all_edit(view: View, path: Path, new_text: str | None, client: ClientEdits) -> types.WorkspaceEdit:
    text = view.text(path)
    if new_text is None or text is None:
        return types.WorkspaceEdit(changes={})
    whole = types.Range(start=types.Position(line=0, character=0), end=text.end())
    return _workspace_edit(view, {path: [types.TextEdit(range=whole, new_text=new_text)]}, client)
