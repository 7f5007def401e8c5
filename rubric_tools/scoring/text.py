"""Text normalization and citation parsing, exactly as the reference engine does them."""

from __future__ import annotations

SECTION_SIGN = "§"


def normalize(text: str) -> str:
    """Unicode-lowercase, fold every whitespace run to one space, strip the ends.

    `str.split()` with no argument is the engine's notion of whitespace (it includes
    non-breaking space), so we use it rather than a regex.
    """
    return " ".join(text.lower().split())


def show_pattern(pattern: object) -> str:
    """A gate pattern as written in the rubric, for messages: single-quoted as in YAML,
    backslashes not doubled (`repr` would print `\\\\b` for `\\b`)."""
    text = str(pattern)
    return "'" + text.replace("'", "''") + "'"


def split_citation(citation: str) -> tuple[str, str] | None:
    """Split `"<doc> §<token>"` at the first `§`; None when there is no `§`."""
    if SECTION_SIGN not in citation:
        return None
    document_id, _, token = citation.partition(SECTION_SIGN)
    return document_id.strip(), token.strip()


def format_citation(document_id: str, token: str) -> str:
    """The canonical citation string, the form anchors must be written in."""
    return f"{document_id} {SECTION_SIGN}{token}"


def concept_fraction(concepts: tuple[str, ...], normalized_text: str) -> tuple[list[str], list[str]]:
    """Split already-normalized concepts into (found, missing) in `normalized_text`."""
    found = [c for c in concepts if c in normalized_text]
    if len(found) == len(concepts):
        return found, []
    # Membership in the short `found` list, not a second substring search of the text.
    return found, [c for c in concepts if c not in found]


def variant_matches(variant: tuple[str, ...], normalized_text: str) -> bool:
    """A non-empty variant matches when every concept is a substring of the text."""
    return bool(variant) and all(concept in normalized_text for concept in variant)


def has_unencodable(text: str) -> bool:
    """Whether `text` holds a lone surrogate (from `"\\ud800"` in JSON or YAML), which UTF-8
    cannot encode."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False
