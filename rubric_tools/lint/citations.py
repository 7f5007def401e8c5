"""Citations written in a rubric (anchors and required citations), resolved the
way the engine resolves them, with did-you-mean suggestions for the ones that fail."""

from __future__ import annotations

import difflib
from collections.abc import Iterator
from dataclasses import dataclass

from rubric_tools.lint.context import LintContext
from rubric_tools.loading.elements import IssueElement, Location, TextElement
from rubric_tools.loading.yaml_source import InstancePath
from rubric_tools.scoring.text import SECTION_SIGN, format_citation, split_citation


@dataclass(frozen=True)
class Citation:
    """A citation written in the rubric: the anchor or a `required_citations` entry."""

    issue: IssueElement
    element: TextElement  # its text is `str()` of the value: the engine compares that
    role: str  # "anchor" or "required citation"

    @property
    def issue_id(self) -> str:
        return self.issue.label

    @property
    def text(self) -> str:
        return self.element.text

    @property
    def location(self) -> Location:
        return self.element.location

    @property
    def path(self) -> InstancePath:
        return self.element.location.path

    @property
    def parts(self) -> tuple[str, str] | None:
        return split_citation(self.text)


def has_anchor(issue: IssueElement) -> bool:
    """An anchor is written, and is not blank text."""
    return issue.anchor is not None and not (issue.anchor.is_text and not issue.anchor.text.strip())


def anchor_citations(ctx: LintContext) -> Iterator[Citation]:
    for issue in ctx.model.issues:
        if issue.anchor is not None and has_anchor(issue):
            yield Citation(issue, issue.anchor, "anchor")


def required_citations(ctx: LintContext) -> Iterator[Citation]:
    for issue in ctx.model.issues:
        for entry in issue.required_citations or ():
            yield Citation(issue, entry, "required citation")


def resolves(ctx: LintContext, parts: tuple[str, str]) -> bool:
    return ctx.model.resolve(*parts) is not None


def unloaded_document_ids(ctx: LintContext) -> set[str]:
    """Listed documents that could not be read: D001/D002/L00x already report them."""
    loaded = set(ctx.model.read_documents)
    return {d.id for d in ctx.documents if d.parsed is None and d.id not in loaded}


def real_citations(ctx: LintContext, document_id: str | None = None) -> list[str]:
    return [
        format_citation(doc_id, token)
        for doc_id, document in ctx.model.read_documents.items()
        if document_id is None or doc_id == document_id
        for token in document.tokens
    ]


def squeeze(citation: str) -> str:
    """A comparison key that forgives spacing and a missing `§`."""
    return "".join(citation.replace(SECTION_SIGN, " ").split()).lower()


def nearest_citation(citation: str, candidates: list[str]) -> str | None:
    by_key = {squeeze(c): c for c in candidates}
    close = difflib.get_close_matches(squeeze(citation), list(by_key), n=1, cutoff=0.6)
    return by_key[close[0]] if close else None


def spelling_key(citation: str) -> str:
    """Equal for two spellings of one citation: case, spaces and trailing dots ignored
    (`MSA §4.2.` and `msa § 4.2` are both `msa §4.2`)."""
    return squeeze(citation).rstrip(".")


def canonical_match(citation: str, candidates: list[str]) -> str | None:
    """The one real citation `citation` is a mere re-spelling of, if exactly one."""
    same = {c for c in candidates if spelling_key(c) == spelling_key(citation)}
    return same.pop() if len(same) == 1 else None


#: How similar a citation must be to a real one to count as "near" it.
NEAR_CUTOFF = 0.75


def single_near_citation(citation: str, candidates: list[str]) -> str | None:
    """The real citation nearest `citation` when it is the only one near it."""
    by_key: dict[str, str] = {}
    for candidate in candidates:
        by_key.setdefault(spelling_key(candidate), candidate)
    near = difflib.get_close_matches(spelling_key(citation), list(by_key), n=2, cutoff=NEAR_CUTOFF)
    return by_key[near[0]] if len(near) == 1 else None


def did_you_mean(citation: str, candidates: list[str]) -> str:
    nearest = nearest_citation(citation, candidates)
    if nearest is not None:
        return f"did you mean {nearest!r}?"
    if candidates:
        shown = ", ".join(repr(c) for c in candidates[:6])
        return f"real sections include {shown}" + (" …" if len(candidates) > 6 else "")
    return "add the document to matter.yaml's documents, with '## ' section headings"
