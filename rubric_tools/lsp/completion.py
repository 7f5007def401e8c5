"""Completion: schema keys with their descriptions, citations from the matter's documents
(`msa §4` offers `msa §4.1`, `msa §4.2` …), ids of issues, questions and escalations,
trajectory stems, values the schema enumerates, and rule codes inside suppressions.

The buffer being typed in rarely parses, so the context is read from its lines: the key
path by indentation (`context_of`), the text typed so far from the cursor's line.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from lsprotocol import types

from rubric_tools.lsp import adapter, schema_paths
from rubric_tools.lsp.index import ESCALATION, ISSUE, QUESTION, MatterIndex
from rubric_tools.lsp.locate import COUNTERPARTY, EXPECTATIONS, HIDDEN_FACTS, PROBES, RUBRIC, TRAJECTORY
from rubric_tools.lsp.positions import TextIndex
from rubric_tools.lsp.views import View
from rubric_tools.scoring.text import format_citation

Path_ = tuple[str | int, ...]

_SUPPRESSION_OPEN = re.compile(r"rubric:\s*(?:ignore-file|ignore)\s*\[(?P<codes>[^\]]*)$")
_KEY = r"(?:[^\s#'\"\[\]{},:-][^#:]*?|-[^\s#:][^#:]*?|\"[^\"]*\"|'[^']*')"
_KEY_LINE = re.compile(rf"^(?P<indent> *)(?P<dashes>(?:- +)*)(?P<key>{_KEY})\s*:(?:\s|$)")
_DASH_LINE = re.compile(r"^(?P<indent> *)(?P<dashes>(?:-(?: +|$))+)")
_VALUE_LINE = re.compile(rf"^(?P<indent> *)(?P<dashes>(?:- +)*)(?P<key>{_KEY})\s*:\s+(?P<value>.*)$")
_TYPED_KEY = re.compile(r"^(?P<indent> *)(?P<dashes>(?:- +)*)(?P<typed>[\w.-]*)$")
_JSON_VALUE = re.compile(r'"(?P<key>\w+)"\s*:\s*(?:\[\s*(?:"(?:[^"\\]|\\.)*"\s*,\s*)*)?"(?P<typed>(?:[^"\\]|\\.)*)$')
_JSON_DOCUMENT = re.compile(r'"document_id"\s*:\s*"(?P<id>[^"]*)"')


@dataclass(frozen=True)
class Context:
    """What is being typed: a key of the mapping at `path`, or the value at `path`."""

    path: Path_
    typing_key: bool
    typed: str  # what is typed of it so far (without an opening quote)
    start: int  # the character of the line where `typed` starts


def _unquote(text: str) -> str:
    return text[1:] if text[:1] in ("'", '"') else text


def _key(text: str) -> str:
    return text[1:-1] if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"" else text


def _parents(lines: Sequence[str], row: int, column: int, dashed: bool = False) -> list[str | int]:
    """The path of the collection holding what starts at `column` of line `row`, read from
    the indentation of the lines above (a list item is 0: any item).

    A line starting left of `column` holds an ancestor: its `- ` marks left of it are list
    items, and its key too when the key starts left of it. A key at the very column of a
    list's dashes is that list's key (YAML's indentless sequence: `questions:` then `- id:`)."""
    path: list[str | int] = []
    limit = column
    sequence_at: int | None = column if dashed else None  # `dashed`: what starts there is a `- ` item
    for number in range(row - 1, -1, -1):
        text = lines[number].rstrip()
        content = text.lstrip(" ")
        if not content or content.startswith("#"):
            continue
        indent = len(text) - len(content)
        key = _KEY_LINE.match(text)
        marked = key or _DASH_LINE.match(text)
        dashes = marked.group("dashes") if marked is not None else ""
        if dashes:
            marks = [indent + m.start() for m in re.finditer("-", dashes)]
            if marks[0] >= limit:
                continue
            ancestors: list[str | int] = [0] * sum(1 for mark in marks if mark < limit)
            if key is not None and indent + len(dashes) < limit:
                ancestors.append(_key(key.group("key")))
            path[0:0] = ancestors
            limit, sequence_at = indent, indent
        elif key is not None and (indent < limit or indent == sequence_at):
            path.insert(0, _key(key.group("key")))
            limit, sequence_at = indent, None
        else:
            continue
        if limit == 0 and sequence_at is None:
            break
    return path


def context_of(lines: Sequence[str], row: int, before: str) -> Context | None:
    """The completion context at the end of `before` (the line up to the cursor)."""
    if "#" in before and not re.search(r"['\"][^'\"]*#", before) and re.search(r"(^|\s)#", before):
        return None  # in a comment
    value = _VALUE_LINE.match(before)
    if value is not None:
        indent, dashes = len(value.group("indent")), value.group("dashes")
        parents = _parents(lines, row, indent, bool(dashes)) + [0] * dashes.count("-")
        path: Path_ = (*parents, _key(value.group("key")))
        raw = value.group("value")
        if raw.startswith("["):
            inner = raw[1:]
            last = max(inner.rfind(","), -1)
            typed = inner[last + 1 :].lstrip()
            return Context((*path, 0), False, _unquote(typed), len(before) - len(_unquote(typed)))
        typed = _unquote(raw)
        return Context(path, False, typed, len(before) - len(typed))
    key = _TYPED_KEY.match(before)
    if key is not None:
        indent, dashes = len(key.group("indent")), key.group("dashes")
        parents = _parents(lines, row, indent, bool(dashes)) + [0] * dashes.count("-")
        typed = key.group("typed")
        return Context(tuple(parents), True, typed, len(before) - len(typed))
    item = re.match(r"^(?P<indent> *)(?P<dashes>(?:- +)+)(?P<typed>.*)$", before)
    if item is not None:  # a list item being written: a scalar of the list
        parents = _parents(lines, row, len(item.group("indent")), True)
        path = (*parents, *([0] * item.group("dashes").count("-")))
        typed = _unquote(item.group("typed"))
        return Context(path, False, typed, len(before) - len(typed))
    return None


def _shape(path: Path_) -> tuple[str | int, ...]:
    return tuple(0 if isinstance(part, int) else part for part in path)


def _citations(index: MatterIndex, typed: str) -> list[tuple[str, str, str]]:
    """(citation, heading, section text) of every section whose citation continues `typed`."""
    found = []
    document, sign, token = typed.partition("§")
    for (doc, section_token), section in index.sections.items():
        label = format_citation(doc, section_token)
        if sign:
            if doc != document.strip() or not section_token.startswith(token.strip()):
                continue
        elif typed and not label.lower().startswith(typed.lower()) and not doc.startswith(typed.strip()):
            continue
        found.append((label, section.heading or f"{doc} preamble", section.text))
    return found


def _excerpt(text: str) -> str:
    return text if len(text) <= 600 else text[:600].rstrip() + " …"


def _edit(context: Context, line: int, text: TextIndex, before: str, new: str) -> types.TextEdit:
    start = types.Position(line=line, character=text.units(before[: context.start]))
    end = types.Position(line=line, character=text.units(before))
    return types.TextEdit(range=types.Range(start=start, end=end), new_text=new)


def _value_kind(kind: str, path: Path_) -> str | None:
    shape = _shape(path)
    if kind == RUBRIC:
        if shape in (("issues", 0, "anchor"), ("issues", 0, "required_citations", 0)):
            return "citation"
        if shape == ("final_submission", "required_issue_ids", 0):
            return ISSUE
    if kind == PROBES and shape[-1:] == ("criterion",):
        return ISSUE
    if kind == EXPECTATIONS and shape[:1] == ("trajectories",):
        if shape[2:] == ("cause", "criterion"):
            return "criterion"
        if shape[2:] == ("below",):
            return "stem"
    if kind == TRAJECTORY:
        if shape[1:] in (("citations", 0), ("quotes", 0, "citation")):
            return "citation"
        if shape[1:] == ("document_id",):
            return "document"
    return None


def _key_kind(kind: str, path: Path_) -> str | None:
    shape = _shape(path)
    if kind == COUNTERPARTY and shape == ("positions",):
        return ISSUE
    if kind == HIDDEN_FACTS and shape == ("client_answers",):
        return QUESTION
    if kind == HIDDEN_FACTS and shape == ("escalation_answers",):
        return ESCALATION
    if kind == EXPECTATIONS and shape == ("trajectories",):
        return "stem"
    return None


def _id_items(
    view: View, what: str, context: Context, line: int, text: TextIndex, before: str, suffix: str = ""
) -> list[types.CompletionItem]:
    index = view.index
    if what == "citation":
        return [
            types.CompletionItem(
                label=label,
                kind=types.CompletionItemKind.Reference,
                detail=heading,
                documentation=types.MarkupContent(kind=types.MarkupKind.Markdown, value=_excerpt(body)),
                filter_text=label,
                sort_text=f"{number:05}",
                text_edit=_edit(context, line, text, before, label),
            )
            for number, (label, heading, body) in enumerate(_citations(index, context.typed))
        ]
    if what == "document":
        labels = [(document.id, document.source.title) for document in index.model.documents]
    elif what == "stem":
        labels = [(stem, str(path.name)) for stem, path in index.trajectories.items()]
    else:
        kinds = (ISSUE, ESCALATION) if what == "criterion" else (what,)
        labels = [(item_id, kind) for kind in kinds for item_id in index.ids(kind)]
    return [
        types.CompletionItem(
            label=label,
            kind=types.CompletionItemKind.Value if what in ("document", "stem") else types.CompletionItemKind.Reference,
            detail=detail,
            sort_text=f"{number:05}",
            text_edit=_edit(context, line, text, before, label + suffix),
        )
        for number, (label, detail) in enumerate(labels)
        if label.startswith(context.typed)
    ]


def _schema_items(kind: str, context: Context, line: int, text: TextIndex, before: str) -> list[types.CompletionItem]:
    root = adapter.schema_for(kind)
    if root is None:
        return []
    nodes = schema_paths.at(root, context.path, adapter.schema_named)
    if context.typing_key:
        return [
            types.CompletionItem(
                label=prop.key,
                kind=types.CompletionItemKind.Property,
                detail=prop.title or "/".join(prop.types) or None,
                documentation=types.MarkupContent(kind=types.MarkupKind.Markdown, value=prop.description)
                if prop.description
                else None,
                sort_text=f"{number:05}",
                text_edit=_edit(context, line, text, before, f"{prop.key}: "),
            )
            for number, prop in enumerate(schema_paths.properties(nodes, adapter.schema_named))
            if prop.key.startswith(context.typed)
        ]
    shown = [(("true" if v else "false") if isinstance(v, bool) else str(v), d) for v, d in schema_paths.values(nodes)]
    return [
        types.CompletionItem(
            label=label,
            kind=types.CompletionItemKind.EnumMember,
            documentation=description,
            sort_text=f"{number:05}",
            text_edit=_edit(context, line, text, before, label),
        )
        for number, (label, description) in enumerate(shown)
        if label.startswith(context.typed)
    ]


def _code_items(typed_codes: str, line: int, text: TextIndex, before: str) -> list[types.CompletionItem]:
    typed = re.split(r"[,\s]", typed_codes)[-1]
    context = Context((), False, typed, len(before) - len(typed))
    items = []
    for number, documented in enumerate(adapter.rule_codes()):
        if not (documented.code.startswith(typed.upper()) or documented.name.startswith(typed.lower())):
            continue
        items.append(
            types.CompletionItem(
                label=documented.code,
                kind=types.CompletionItemKind.EnumMember,
                detail=f"{documented.name} ({documented.severity.value}): {documented.summary}",
                filter_text=f"{documented.code} {documented.name}",
                sort_text=f"{number:05}",
                text_edit=_edit(context, line, text, before, documented.code),
            )
        )
    return items


def _jsonl_items(view: View, line_text: str, before: str, line: int, text: TextIndex) -> list[types.CompletionItem]:
    match = _JSON_VALUE.search(before)
    if match is None:
        return []
    context = Context((), False, match.group("typed"), match.start("typed"))
    key = match.group("key")
    if key in ("citations", "citation"):
        return _id_items(view, "citation", context, line, text, before)
    if key == "document_id":
        return _id_items(view, "document", context, line, text, before)
    if key == "section":
        document = _JSON_DOCUMENT.search(line_text)
        if document is None:
            return []
        tokens = [s.token for s in view.index.document_sections(document.group("id"))]
        return [
            types.CompletionItem(
                label=token,
                kind=types.CompletionItemKind.Reference,
                sort_text=f"{n:05}",
                text_edit=_edit(context, line, text, before, token),
            )
            for n, token in enumerate(tokens)
            if token.startswith(context.typed)
        ]
    return []


def complete(view: View, path_kind: str, text: TextIndex, position: types.Position) -> list[types.CompletionItem]:
    """The completions at `position` of a matter file of kind `path_kind`."""
    line_text = text.lsp_line(position.line)
    cut = text.offset_at(position) - text.offset_at(types.Position(line=position.line, character=0))
    before = line_text[:cut]
    suppression = _SUPPRESSION_OPEN.search(before)
    if suppression is not None:
        return _code_items(suppression.group("codes"), position.line, text, before)
    if path_kind == TRAJECTORY and before.lstrip().startswith("{"):
        return _jsonl_items(view, line_text, before, position.line, text)
    lines = [text.lsp_line(number) for number in range(position.line)]
    context = context_of(lines, position.line, before)
    if context is None:
        return []
    if context.typing_key and context.path and isinstance(context.path[-1], int):
        value = _value_kind(path_kind, context.path)  # `- ` in a list: an item, a scalar or a mapping
        if value is not None:
            context = Context(context.path, False, context.typed, context.start)
    what = _key_kind(path_kind, context.path) if context.typing_key else _value_kind(path_kind, context.path)
    if what is not None:
        suffix = ":" if context.typing_key else ""
        return _id_items(view, what, context, position.line, text, before, suffix)
    return _schema_items(path_kind, context, position.line, text, before)
