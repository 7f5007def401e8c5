"""Fixes for citations (A002, A005, A007): rewrite the YAML string in place.

A mere re-spelling of a real citation (case, spaces, trailing dots: `MSA §4.2.`) is
rewritten canonically and declared safe (the replay proof still decides). Otherwise,
when exactly one real section is near what was written, it is proposed as an unsafe
fix: a document id with a typo whose section exists in exactly one near document
(`playbok §3` → `playbook §3`), or a section no document has, near exactly one of the
named document's sections.
"""

from __future__ import annotations

import difflib

from rubric_tools.fixing.fixes import Applicability, Fix
from rubric_tools.fixing.yaml_edits import replace_string
from rubric_tools.lint.citations import Citation, canonical_match, single_near_citation, spelling_key
from rubric_tools.lint.context import LintContext
from rubric_tools.scoring.text import format_citation, split_citation

#: How close a mistyped document id must be to a real one.
DOCUMENT_CUTOFF = 0.75


def citation_fix(
    ctx: LintContext, citation: Citation, replacement: str, message: str, applicability: Applicability
) -> Fix | None:
    source = citation.location.source
    edit = replace_string(source, citation.path, replacement) if source is not None else None
    return Fix(message, (edit,), applicability) if edit is not None else None


def _mistyped_document(ctx: LintContext, text: str) -> str | None:
    """`playbok §3` → `playbook §3`: one near document id, which has that section."""
    parts = split_citation(text)
    if parts is None or parts[0] in ctx.matter.documents:
        return None
    by_id = {doc_id.lower(): doc_id for doc_id in ctx.matter.documents}
    near = difflib.get_close_matches(parts[0].lower(), list(by_id), n=2, cutoff=DOCUMENT_CUTOFF)
    if len(near) != 1:
        return None
    document = ctx.matter.documents[by_id[near[0]]]
    token = parts[1].rstrip(".")
    matches = [t for t in document.sections if spelling_key(t) == spelling_key(token)]
    return format_citation(document.id, matches[0]) if len(matches) == 1 else None


def did_you_mean_fix(ctx: LintContext, citation: Citation, candidates: list[str]) -> Fix | None:
    """The fix of an unresolved citation, if one real section is what was meant."""
    canonical = canonical_match(citation.text, candidates)
    if canonical is not None:
        return citation_fix(ctx, citation, canonical, f"write {canonical!r}", Applicability.SAFE)
    nearest = _mistyped_document(ctx, citation.text) or single_near_citation(citation.text, candidates)
    if nearest is None:
        return None
    return citation_fix(ctx, citation, nearest, f"replace with {nearest!r}", Applicability.UNSAFE)
