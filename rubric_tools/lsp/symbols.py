"""Document symbols: the outline of a matter file, from the located model.

rubric.yaml: questions, escalations, issues (their anchors and gate lists, each gate),
the final submission; counterparty.yaml: positions; hidden_facts.yaml: answers;
matter.yaml: documents; expectations.yaml: its trajectories; probe files: probes; a
document: its sections.
"""

from __future__ import annotations

from pathlib import Path

from lsprotocol import types

from rubric_tools.diagnostics import Span
from rubric_tools.loading.elements import Location
from rubric_tools.lsp.locate import COUNTERPARTY, DOCUMENT, EXPECTATIONS, HIDDEN_FACTS, MATTER, PROBES, RUBRIC
from rubric_tools.lsp.positions import TextIndex
from rubric_tools.lsp.views import View

Kind = types.SymbolKind


def _symbol(
    text: TextIndex,
    name: str,
    kind: types.SymbolKind,
    span: Span | None,
    selection: Span | None = None,
    detail: str | None = None,
    children: list[types.DocumentSymbol] | None = None,
) -> types.DocumentSymbol:
    whole = text.range(span)
    chosen = text.range(selection) if selection is not None else whole
    if not _inside(chosen, whole):
        chosen = whole
    return types.DocumentSymbol(
        name=name or "?", kind=kind, range=whole, selection_range=chosen, detail=detail, children=children or None
    )


def _inside(inner: types.Range, outer: types.Range) -> bool:
    def key(position: types.Position) -> tuple[int, int]:
        return (position.line, position.character)

    return key(outer.start) <= key(inner.start) and key(inner.end) <= key(outer.end)


def _block(location: Location) -> Span | None:
    """A mapping value's span, widened to start at its key."""
    value, key = location.span, location.key_span
    if value is None or key is None or key == value:
        return value
    return Span(key.line, key.column, value.end_line, value.end_column)


def _rubric(view: View, text: TextIndex) -> list[types.DocumentSymbol]:
    model = view.index.model
    symbols = []
    for name, items, kind in (
        ("questions", model.questions, Kind.Field),
        ("escalations", model.escalations, Kind.Event),
    ):
        children = [
            _symbol(
                text, item.id or f"#{item.index + 1}", kind, item.location.span, item.at("id").span, detail=item.kind
            )
            for item in items
        ]
        if children:
            location = model.file(RUBRIC).location.child(name)
            symbols.append(_symbol(text, name, Kind.Array, _block(location), location.key_span, children=children))
    issues = []
    for issue in model.issues:
        gates = [
            _symbol(
                text,
                f"{gate.list_name}[{gate.index}]",
                Kind.Function,
                gate.location.span,
                detail=gate.pattern or gate.kind,
            )
            for gate in issue.gates
        ]
        anchor = issue.anchor.text if issue.anchor is not None else None
        issues.append(_symbol(text, issue.label, Kind.Class, issue.location.span, issue.at("id").span, anchor, gates))
    if issues:
        location = model.file(RUBRIC).location.child("issues")
        symbols.append(_symbol(text, "issues", Kind.Array, _block(location), location.key_span, children=issues))
    final = model.final_submission
    if final.location.written:
        symbols.append(_symbol(text, "final_submission", Kind.Object, _block(final.location), final.location.key_span))
    return symbols


def _keys(view: View, path: Path, text: TextIndex, parent: str, kind: types.SymbolKind) -> list[types.DocumentSymbol]:
    source = view.yaml(path)
    if source is None or not isinstance(source.data, dict) or not isinstance(source.data.get(parent), dict):
        return []
    children = []
    for key in source.data[parent]:
        position = source.positions.get((parent, key))
        if position is None:
            continue
        whole = (
            Span(position.key.line, position.key.column, position.value.end_line, position.value.end_column)
            if (position.key is not None)
            else position.value
        )
        children.append(_symbol(text, str(key), kind, whole, position.key))
    top = source.positions.get((parent,))
    if top is None or not children:
        return children
    whole = Span(top.key.line, top.key.column, top.value.end_line, top.value.end_column) if top.key else top.value
    return [_symbol(text, parent, Kind.Object, whole, top.key, children=children)]


def _list(view: View, path: Path, text: TextIndex, parent: str | None, label: str) -> list[types.DocumentSymbol]:
    source = view.yaml(path)
    data = source.data if source is not None else None
    prefix: tuple[str, ...] = ()
    if isinstance(data, dict) and parent is not None:
        data, prefix = data.get(parent), (parent,)
    if source is None or not isinstance(data, list):
        return []
    symbols = []
    for number, entry in enumerate(data):
        position = source.positions.get((*prefix, number))
        if position is None:
            continue
        fields = {str(k): v for k, v in entry.items()} if isinstance(entry, dict) else {}
        name = label.format_map(_Defaulting(fields, number=number + 1))
        symbols.append(_symbol(text, name, Kind.Struct, position.value))
    return symbols


def _document(view: View, path: Path, text: TextIndex) -> list[types.DocumentSymbol]:
    """A document's sections, each from its heading to the line before the next one."""
    document = view.document_id(path)
    sections = [s for s in (view.index.document_sections(document) if document else []) if s.heading]
    sections.sort(key=lambda section: section.line)
    symbols = []
    for number, section in enumerate(sections):
        last = sections[number + 1].line - 1 if number + 1 < len(sections) else text.loader_line_count
        whole = Span(section.line, 1, last, len(text.loader_line_text(last)) + 1)
        heading = Span(section.line, 1, section.line, len(section.heading) + 1)
        symbols.append(_symbol(text, f"§{section.token}", Kind.Namespace, whole, heading, section.heading[3:].strip()))
    return symbols


class _Defaulting(dict[str, object]):
    """`str.format_map` fields a probe does not have show as `?`."""

    def __missing__(self, key: str) -> str:
        return "?"


def symbols(view: View, path: Path, kind: str) -> list[types.DocumentSymbol]:
    text = view.text(path)
    if text is None:
        return []
    if kind == RUBRIC:
        return _rubric(view, text)
    if kind == COUNTERPARTY:
        return _keys(view, path, text, "positions", Kind.Interface)
    if kind == HIDDEN_FACTS:
        return _keys(view, path, text, "client_answers", Kind.String) + _keys(
            view, path, text, "escalation_answers", Kind.String
        )
    if kind == EXPECTATIONS:
        return _keys(view, path, text, "trajectories", Kind.Event)
    if kind == MATTER:
        return _list(view, path, text, "documents", "{id}")
    if kind == PROBES:
        return _list(view, path, text, "probes", "{surface}/{criterion} #{number}")
    if kind == DOCUMENT:
        return _document(view, path, text)
    return []
