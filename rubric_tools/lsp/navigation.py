"""Go to definition and find references, from what `View.target` found at a position.

- a citation (an anchor, a required citation, a citation in a trajectory) leads to its
  section's heading in the document; its references are every anchor and required
  citation naming that section (a heading's too);
- an id (in `required_issue_ids`, counterparty positions, hidden answers, expectations'
  causes, probes' criteria) leads to its rubric item, and the item's references are all
  of those places;
- a trajectory's stem in expectations.yaml leads to the trajectory file (and `below:` to
  the entry it names);
- a rule code in a suppression leads to its documentation in AUTHORING.md.
"""

from __future__ import annotations

from pathlib import Path

from lsprotocol import types

from rubric_tools.diagnostics import Span
from rubric_tools.lsp import adapter
from rubric_tools.lsp.index import Place, Section
from rubric_tools.lsp.locate import Target
from rubric_tools.lsp.views import View


def section_span(section: Section) -> Span:
    return Span(section.line, section.column, section.line, section.column + max(len(section.heading), 1))


def _section_of(view: View, target: Target) -> Section | None:
    return view.index.sections.get((target.document, target.token))


def definition(view: View, target: Target) -> list[types.Location]:
    index = view.index
    if target.kind in ("citation", "section"):
        # A citation that names no section leads where it most likely meant (A002's did-you-mean).
        section = view.index.meant(target.document, target.token)
        return [view.location(section.file, section_span(section))] if section is not None else []
    if target.kind == "item":
        place = index.definitions.get((target.item_kind, target.text))
        return [view.location(place.file, place.span)] if place is not None else []
    if target.kind == "stem":
        entry = index.expectations.get(target.text)
        if not target.definition and entry is not None:  # `below: reference`: the entry it names
            return [view.location(entry.file, entry.span)]
        path = index.trajectories.get(target.text)
        return [view.location(path, Span(1, 1, 1, 1))] if path is not None else []
    if target.kind == "code":
        documented = adapter.documentation_anchor(_code(target.text))
        if documented is not None:
            file, line, _ = documented
            return [view.location(file, Span(line, 1, line, 1))]
    if target.kind == "gate" and target.gate is not None:
        return [view.location(target.gate.location.file, target.gate.location.span)]
    return []


def _code(text: str) -> str:
    documented = adapter.code_documentation(text)
    return documented.code if documented is not None else text


def reference_places(view: View, target: Target, include_declaration: bool = True) -> list[Place]:
    index = view.index
    if target.kind in ("citation", "section"):
        places = [use.place for use in index.citations_of(target.document, target.token)]
        section = _section_of(view, target)
        if include_declaration and section is not None:
            places.insert(0, Place(section.file, section_span(section), "section heading"))
        return places
    if target.kind == "item":
        places = index.places(target.item_kind, target.text)
        if not include_declaration and (target.item_kind, target.text) in index.definitions:
            places = places[1:]
        return places
    if target.kind == "stem":
        places = []
        entry = index.expectations.get(target.text)
        if entry is not None:
            places.append(entry)
        path = index.trajectories.get(target.text)
        if path is not None:
            places.append(Place(path, Span(1, 1, 1, 1), "trajectory"))
        return places
    return []


def references(view: View, target: Target, include_declaration: bool = True) -> list[types.Location]:
    return [view.location(place.file, place.span) for place in reference_places(view, target, include_declaration)]


def related(view: View, file: Path, span: Span | None) -> list[types.DiagnosticRelatedInformation]:
    """The places a finding at `span` of `file` points at: the section a citation names,
    the other places an id or a section is written."""
    if span is None:
        return []
    text = view.text(file)
    if text is None:
        return []
    target = view.target(file, text.position(text.offset(span.line, span.column)))
    if target is None or target.kind not in ("citation", "item", "section"):
        return []
    found = []
    for place in reference_places(view, target):
        if place.file == file and place.span == target.span:
            continue
        found.append(
            types.DiagnosticRelatedInformation(location=view.location(place.file, place.span), message=place.what)
        )
    return found
